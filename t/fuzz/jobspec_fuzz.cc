// libFuzzer target: arbitrary bytes as a jobspec.
//
// parse_jobspec() must return a value or an error for every input: no
// crash, leak, exception or undefined behaviour. On success the parsed
// constraint is evaluated and the text is also fed to the idset and
// hostlist decoders, which share the "never trust the input" contract.
//
// Build (outside the CMake tree):
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
//     t/fuzz/jobspec_fuzz.cc resource/jobspec.cc resource/constraint.cc \
//     resource/interner.cc utilities/idset.cc utilities/hostlist.cc \
//     utilities/result.cc -lyaml-cpp -o jobspec_fuzz
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "resource/jobspec.h"
#include "utilities/hostlist.h"
#include "utilities/idset.h"

namespace {

const rq::Interner& fuzz_types() {
    static const rq::Interner types = [] {
        rq::Interner interner = rq::make_type_interner();
        interner.intern("memory");  // a graph-defined type, as after loading a GRUG
        interner.freeze();
        return interner;
    }();
    return types;
}

// Walks the parsed tree so that every field is read at least once.
size_t visit(const std::vector<rq::JobResource>& resources) {
    size_t total = 0;
    for (const rq::JobResource& resource : resources) {
        total += resource.count.min + resource.count.max + resource.count.operand +
                 static_cast<size_t>(resource.count.op) + resource.type_name.size() +
                 resource.label.size() + resource.unit.size() + resource.id.size();
        total += visit(resource.with);
    }
    return total;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);

    auto jobspec = rq::parse_jobspec(text, fuzz_types());
    if (jobspec.ok()) {
        volatile size_t sink = visit(jobspec->resources) + jobspec->tasks.size();
        (void)sink;
        if (jobspec->constraint) {
            std::map<std::string, std::string> properties{{"ssd", ""}, {"gpu", "x"}};
            (void)jobspec->constraint->matches("node1", 1, &properties);
            (void)jobspec->constraint->matches("", -1, nullptr);
        }
    } else {
        volatile size_t sink = jobspec.message().size();
        (void)sink;
    }

    // The same bytes as an idset and as a hostlist.
    auto ids = rq::decode_idset_ranges(text);
    if (ids.ok()) (void)rq::idset_ranges_contain(*ids, 7);
    auto hosts = rq::Hostlist::parse(text);
    if (hosts.ok()) {
        (void)hosts->contains("node1");
        if (hosts->size() <= 1000) {
            std::vector<std::string> names = hosts->expand();
            std::string encoded = rq::encode_hostlist(names);
            auto again = rq::decode_hostlist(encoded);
            // Encoding then decoding must give back the same names.
            if (!again.ok() || *again != names) __builtin_trap();
        }
    }
    return 0;
}
