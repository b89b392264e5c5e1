// libFuzzer target: arbitrary bytes as a --replay trace (queue/trace.h).
//
// The first byte picks the reader (even: SWF, odd: YAML job list) and the
// options (shift, --replay-status completed, --replay-queues partition,
// whole nodes); the rest is the trace's text. Reading every job must end
// in the list's end or one error: no crash, leak, exception or undefined
// behaviour. Accepted jobs must keep the reader's promises (submit times
// that never decrease, sizes and times inside the limits).
//
// Build (outside the CMake tree):
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
//     t/fuzz/trace_fuzz.cc queue/trace.cc queue/swf_trace.cc \
//     utilities/result.cc -lyaml-cpp -o trace_fuzz
#include <cstddef>
#include <cstdint>
#include <string>

#include "queue/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    uint8_t mode = data[0];
    std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    rq::queue::TraceOptions options;
    options.capacity = (mode & 0x20) ? 0 : 64;
    options.shift = mode & 0x02;
    options.completed_only = mode & 0x04;
    options.partition_queues = mode & 0x08;
    options.whole_nodes = mode & 0x10;
    options.time_limit = 3153600000;
    auto source = (mode & 1) ? rq::queue::yaml_trace_from_text("fuzz.yaml", text, options)
                             : rq::queue::swf_trace_from_text("fuzz.swf", text, options);
    if (!source.ok()) return 0;
    int64_t last = INT64_MIN;
    for (;;) {
        auto job = (*source)->next();
        if (!job.ok() || !*job) break;
        const rq::queue::TraceJob& j = **job;
        // The readers' promises.
        if (j.submit < 0 || j.submit >= options.time_limit) __builtin_trap();
        if ((mode & 1) == 0 && (j.submit < last || j.size <= 0 || j.estimate < 1)) __builtin_trap();
        if (options.capacity > 0 && j.jobspec_path.empty() && j.request.empty() && j.size > options.capacity)
            __builtin_trap();
        last = j.submit;
        auto request = rq::queue::expand_request("cpus={size} mem={mem}", j);
        if (request && request->empty()) __builtin_trap();
    }
    volatile size_t sink = (*source)->skipped().describe("line").size();
    (void)sink;
    return 0;
}
