#include "pools/pool_def.h"

#include <gtest/gtest.h>

#include "pools/request.h"

namespace rq::pools {
namespace {

std::vector<std::string> ids(const Pool& p, size_t g = 0) {
    std::vector<std::string> out;
    for (auto& i : p.groups.at(g)) out.push_back(i.id);
    return out;
}

TEST(PoolDefinition, TheFiveForms) {
    auto list = parse_pool_definition("res", "[\"foo [,]\", bar, \"my resource\"]");
    ASSERT_TRUE(list) << list.message();
    EXPECT_EQ(ids(*list), (std::vector<std::string>{"foo [,]", "bar", "my resource"}));
    EXPECT_FALSE(list->grouped);

    auto range = parse_pool_definition("gpus/nvidia", "range(1-3)");
    ASSERT_TRUE(range);
    EXPECT_EQ(ids(*range), (std::vector<std::string>{"1", "2", "3"}));

    auto groups = parse_pool_definition("cpus", "[[0, 1, 2], [3, 4, 5]]");
    ASSERT_TRUE(groups);
    EXPECT_TRUE(groups->grouped);
    ASSERT_EQ(groups->groups.size(), 2u);
    EXPECT_EQ(ids(*groups, 1), (std::vector<std::string>{"3", "4", "5"}));

    auto nxm = parse_pool_definition("cpus", "2x3");
    ASSERT_TRUE(nxm);
    EXPECT_TRUE(nxm->grouped);
    EXPECT_EQ(ids(*nxm, 0), ids(*groups, 0));
    EXPECT_EQ(ids(*nxm, 1), ids(*groups, 1));

    auto sum = parse_pool_definition("mem", "sum(9223372036854775807)");
    ASSERT_TRUE(sum);
    EXPECT_TRUE(sum->sum);
    EXPECT_EQ(sum->size, INT64_MAX);
}

TEST(PoolDefinition, ErrorsNameThePoolAndTheProblem) {
    struct Case {
        const char* def;
        const char* says;
    } cases[] = {
        {"range(3-1)", "ends before it starts"},   {"sum(0)", "positive integer"},
        {"sum(9223372036854775808)", "2^63-1"},    {"[a, b", "expected ',' or ']'"},
        {"[a, a]", "appears twice"},               {"0x4", "NxM"},
        {"[\"a]", "unterminated"},                 {"magic", "unknown definition"},
        {"[[a], []]", "a group is empty"},         {"[a] x", "unexpected text"},
    };
    for (auto& c : cases) {
        auto p = parse_pool_definition("foo", c.def);
        ASSERT_FALSE(p) << c.def;
        EXPECT_NE(p.message().find("resource pool foo: "), std::string::npos) << p.message();
        EXPECT_NE(p.message().find(c.says), std::string::npos) << c.def << ": " << p.message();
    }
    EXPECT_FALSE(parse_resource_argument("nothing"));
    EXPECT_FALSE(parse_pool_definition("a b", "sum(1)"));
}

// HyperQueue's refusals and numbers (It4innovations/hyperqueue); the
// full table of its parser tests is t/data/pools/hq-definitions.tsv.
TEST(PoolDefinition, HyperQueueRefusesWhatItRefuses) {
    // crates/hyperqueue/src/worker/parser.rs:97-103 (test at :489)
    EXPECT_FALSE(parse_pool_definition("mem", "[]"));
    // parser.rs:169-175: a letter first, then letters, digits, '/'
    for (const char* name : {"1a", "_x", "a_b", "a-b", "a.b", "/x"})
        EXPECT_FALSE(parse_pool_definition(name, "sum(1)")) << name;
    EXPECT_TRUE(parse_pool_definition("gpus/nvidia", "sum(1)"));
    EXPECT_TRUE(parse_pool_definition("Fpga2", "sum(1)"));
    // crates/hyperqueue/src/client/commands/worker.rs:382-387
    auto cpus = parse_pool_definition("cpus", "sum(4)");
    ASSERT_FALSE(cpus);
    EXPECT_NE(cpus.message().find("Resource kind `sum` cannot be used with CPUs. CPUs must have identity"),
              std::string::npos);
}

TEST(PoolDefinition, HyperQueueNumbersTakeUnderscores) {
    // crates/hyperqueue/src/common/parser2.rs:216-230 (test parser.rs:547)
    auto sum = parse_pool_definition("mem", "sum(1_000_000)");
    ASSERT_TRUE(sum) << sum.message();
    EXPECT_EQ(sum->size, 1000000);
    auto range = parse_pool_definition("gpus", "range(1_0-1_2)");
    ASSERT_TRUE(range) << range.message();
    EXPECT_EQ(ids(*range), (std::vector<std::string>{"10", "11", "12"}));
    auto nxm = parse_pool_definition("cpus", "2x5_000");
    ASSERT_TRUE(nxm) << nxm.message();
    EXPECT_EQ(nxm->groups.at(1).size(), 5000u);
    EXPECT_FALSE(parse_pool_definition("mem", "sum(_1)"));
}

TEST(PoolDefinition, FormatReadsBack) {
    for (const char* def : {"range(0-7)", "2x4", "sum(4294967296)", "[a, \"b c\"]", "[[a, b], [c]]"}) {
        auto p = parse_pool_definition("x", def);
        ASSERT_TRUE(p) << def;
        EXPECT_EQ(format_pool_definition(*p), def);
    }
}

TEST(Request, HyperQueueCanaryAndCtestForms) {
    auto hq = parse_request("cpus=\"8 scatter\" gpus/nvidia=2 mem=all", Dialect::kHq);
    ASSERT_TRUE(hq) << hq.message();
    ASSERT_EQ(hq->pools.size(), 3u);
    EXPECT_EQ(hq->pools[0].amount, 8);
    EXPECT_EQ(hq->pools[0].strategy, Strategy::kScatter);
    EXPECT_EQ(hq->pools[1].name, "gpus/nvidia");
    EXPECT_TRUE(hq->pools[2].all);
    EXPECT_EQ(hq->dialect, Dialect::kHq);

    auto canary = parse_request("cpus=4,gpus=4", Dialect::kCanary);
    ASSERT_TRUE(canary);
    EXPECT_EQ(canary->dialect, Dialect::kCanary);
    EXPECT_EQ(canary->pools.size(), 2u);

    auto ctest = parse_request("2,gpus:2;gpus:4,crypto_chips:2", Dialect::kCtest);
    ASSERT_TRUE(ctest) << ctest.message();
    ASSERT_EQ(ctest->groups.size(), 3u);
    EXPECT_EQ(ctest->groups[0][0].slots, 2);
    EXPECT_EQ(ctest->groups[2].size(), 2u);
    EXPECT_EQ(ctest->groups[2][1].type, "crypto_chips");

    auto big = parse_request("mem=9223372036854775807", Dialect::kHq);
    ASSERT_TRUE(big);
    EXPECT_EQ(big->pools[0].amount, INT64_MAX);

    for (const char* bad : {"cpus=0", "cpus=-1", "cpus=\"8 sideways\"", "cpus", "cpus=1 cpus=2", "gpus:x",
                            "cpus=\"4", "mem=9223372036854775808", "", "cpus=1,gpus=1"})
        EXPECT_FALSE(parse_request(bad, Dialect::kHq)) << bad;
}

}  // namespace
}  // namespace rq::pools
