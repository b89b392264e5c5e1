// Mutated inputs to every pool parser: each gives a value or an error, and
// a definition that parses reads back the same after formatting.
#include <gtest/gtest.h>

#include <random>

#include "pools/pool_def.h"
#include "pools/pool_loaders.h"
#include "pools/request.h"

namespace rq::pools {
namespace {

std::string mutate(std::string s, std::mt19937& rng) {
    static const std::string alphabet = "[](),\"x-0123456789 abc:;=!\n{}";
    int edits = 1 + int(rng() % 4);
    for (int i = 0; i < edits; ++i) {
        size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
        switch (rng() % 3) {
        case 0: s.insert(s.begin() + long(at), alphabet[rng() % alphabet.size()]); break;
        case 1: if (at < s.size()) s.erase(at, 1); break;
        default: if (at < s.size()) s[at] = alphabet[rng() % alphabet.size()]; break;
        }
    }
    return s;
}

std::vector<std::vector<std::string>> ids(const Pool& p) {
    std::vector<std::vector<std::string>> out;
    for (auto& g : p.groups) {
        out.emplace_back();
        for (auto& i : g) out.back().push_back(i.id + "/" + std::to_string(i.slots));
    }
    return out;
}

TEST(PoolParsersMutated, ValueOrErrorAndDefinitionsReadBack) {
    const std::vector<std::string> defs = {"[a, \"b c\", d]", "range(0-7)", "[[0, 1], [2, 3]]", "4x8", "sum(4096)"};
    const std::vector<std::string> requests = {"cpus=\"8 scatter\" mem=all", "--as canary cpus=4,gpus=4",
                                               "--as ctest 2,gpus:2;gpus:4"};
    const std::vector<std::string> files = {
        "workers:\n  - name: a\n    count: 2\n    resources: {cpus: 2x2}\n",
        R"({"resource_pool": {"resources": {"gpus": [{"id": "0", "slots": 2}]}}})",
        R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2}]}]})"};
    std::mt19937 rng(99);
    int parsed = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string def = mutate(defs[rng() % defs.size()], rng);
        auto p = parse_pool_definition("x", def);
        if (p) {
            ++parsed;
            auto again = parse_pool_definition("x", format_pool_definition(*p));
            ASSERT_TRUE(again) << def << " -> " << format_pool_definition(*p) << ": " << again.message();
            EXPECT_EQ(ids(*again), ids(*p)) << def;
            EXPECT_EQ(again->sum, p->sum);
            EXPECT_EQ(again->size, p->size);
        } else {
            EXPECT_FALSE(p.message().empty());
        }
        auto r = parse_request_text(mutate(requests[rng() % requests.size()], rng), Dialect::kHq);
        if (!r) {
            EXPECT_FALSE(r.message().empty());
        }
        std::string file = mutate(files[i % 3], rng);
        auto m = i % 3 == 0 ? read_hq_workers(file, "f") : i % 3 == 1 ? read_canary_pool(file, "f") : read_ctest_spec(file, "f");
        if (!m) {
            EXPECT_EQ(m.message().rfind("f: ", 0), 0u) << m.message();
        }
    }
    EXPECT_GT(parsed, 1000);
}

}  // namespace
}  // namespace rq::pools
