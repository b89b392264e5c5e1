#include "policies/match_policy.h"

#include <gtest/gtest.h>

#include "policies/multilevel.h"
#include "policies/variation.h"
#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::Matcher;
using testing::cores;
using testing::machine_recipe;
using testing::node_cores;

JobResource counted(uint32_t min, uint32_t max, char op, uint32_t operand) {
    JobResource r;
    r.count = Count{min, max, op, operand};
    return r;
}

TEST(CalcCount, PlainCount) {
    JobResource r = counted(4, 4, '+', 1);
    EXPECT_EQ(calc_count(r, 10), 4u);
    EXPECT_EQ(calc_count(r, 4), 4u);
    EXPECT_EQ(calc_count(r, 3), 0u);
    EXPECT_EQ(effective_max(r), 4u);
}

TEST(CalcCount, MinOnlyTakesAllAvailable) {
    JobResource r = counted(2, UINT32_MAX, '+', 1);
    EXPECT_EQ(calc_count(r, 7), 7u);
    EXPECT_EQ(calc_count(r, 1), 0u);
    EXPECT_EQ(effective_max(r), UINT32_MAX);
}

TEST(CalcCount, Addition) {
    JobResource r = counted(2, 10, '+', 3);  // 2, 5, 8
    EXPECT_EQ(calc_count(r, 9), 8u);
    EXPECT_EQ(calc_count(r, 7), 5u);
    EXPECT_EQ(calc_count(r, 20), 8u);
    EXPECT_EQ(calc_count(r, 2), 2u);
}

TEST(CalcCount, Multiplication) {
    JobResource r = counted(3, 100, '*', 2);  // 3, 6, 12, 24, 48, 96
    EXPECT_EQ(calc_count(r, 50), 48u);
    EXPECT_EQ(calc_count(r, 1000), 96u);
    EXPECT_EQ(calc_count(r, 5), 3u);
    EXPECT_EQ(calc_count(counted(1, UINT32_MAX, '*', 2), UINT32_MAX), 2147483648u);  // no wrap-around loop
}

TEST(CalcCount, Exponentiation) {
    JobResource r = counted(2, 300, '^', 2);  // 2, 4, 16, 256
    EXPECT_EQ(calc_count(r, 100), 16u);
    EXPECT_EQ(calc_count(r, 256), 256u);
    EXPECT_EQ(calc_count(counted(3, 100, '^', 3), 100), 27u);  // 3, 27
    EXPECT_EQ(calc_count(counted(1, 100, '^', 2), 50), 1u);     // min 1: just min
}

TEST(CalcCount, MinAboveMaxOrUnknownOperator) {
    EXPECT_EQ(calc_count(counted(5, 4, '+', 1), 10), 0u);
    EXPECT_EQ(calc_count(counted(1, 4, '/', 1), 10), 0u);
}

// The reference keeps what came before a bad token and drops the rest
// silently; we refuse the string and name the token.
TEST(CustomPolicy, ABadTokenIsAnErrorNamingIt) {
    const std::string settings =
        " (key=value settings: policy=high|low, node_centric=true|false, node_exclusive=true|false, "
        "stop_on_1_matches=true|false)";
    auto c = parse_custom_policy("policy=low node_centric=true bogus=1 node_exclusive=true");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.message(),
              "-P \"policy=low node_centric=true bogus=1 node_exclusive=true\": unknown key in \"bogus=1\"" + settings);
    EXPECT_EQ(parse_custom_policy("policy=medium").message(),
              "-P \"policy=medium\": policy must be high or low, not \"policy=medium\"" + settings);
    EXPECT_EQ(parse_custom_policy("policy=high node_centric=yes").message(),
              "-P \"policy=high node_centric=yes\": value must be true or false in \"node_centric=yes\"" + settings);
    EXPECT_EQ(parse_custom_policy("policy=high node_centric").message(),
              "-P \"policy=high node_centric\": not key=value: \"node_centric\"" + settings);
    EXPECT_NE(parse_custom_policy("policy=high  node_centric=true").message().find("empty setting"),
              std::string::npos);
    EXPECT_EQ(parse_custom_policy("node_centric=true").message(),
              "-P \"node_centric=true\": no policy=high or policy=low");
    EXPECT_FALSE(parse_custom_policy("").ok());
    auto stop = parse_custom_policy("policy=high stop_on_1_matches=true");
    ASSERT_TRUE(stop.ok());
    EXPECT_TRUE(stop->stop_on_first);
    auto all = parse_custom_policy("policy=low node_centric=true node_exclusive=true");
    ASSERT_TRUE(all.ok());
    EXPECT_FALSE(all->high);
    EXPECT_TRUE(all->node_centric);
    EXPECT_TRUE(all->node_exclusive);
}

TEST(Policies, AnUnknownNameListsTheValidOnes) {
    auto p = make_policy("hig");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.message(),
              "-P \"hig\": unknown policy (valid: first, firstnodex, high, hinode, hinodex, locality, lonode, lonodex, "
              "low, variation, or key=value settings such as \"policy=high node_centric=true\")");
}

TEST(Policies, RegistryNamesAndCustomStrings) {
    for (const char* name : {"first", "firstnodex", "high", "low", "hinode", "lonode", "hinodex", "lonodex",
                             "locality", "variation", "policy=high node_exclusive=true"})
        EXPECT_TRUE(make_policy(name).ok()) << name;
    EXPECT_FALSE(make_policy("fastest").ok());
    EXPECT_TRUE((*make_policy("first"))->stop_on_first);
    EXPECT_TRUE((*make_policy("lonodex"))->node_exclusive);
    EXPECT_FALSE((*make_policy("high"))->node_exclusive);
}

// Which core a one-core job gets on a 2-node machine, per policy.
std::vector<std::string> first_choices(const std::string& policy, int jobs) {
    Matcher m(machine_recipe(1, 2, 2, 2), policy);
    std::vector<std::string> out;
    for (int i = 0; i < jobs; ++i) {
        auto names = Matcher::exclusive_names(m.match(node_cores(1)));
        out.push_back(names.empty() ? "-" : names.front());
    }
    return out;
}

// Cores of one node are ids 0..3 (2 sockets x 2); high ids first / low
// ids first, nodes likewise.
TEST(PolicyOrder, HighTakesHighIdsFirst) {
    EXPECT_EQ(first_choices("high", 4), (std::vector<std::string>{"core3", "core1", "core3", "core1"}));
}

TEST(PolicyOrder, LowTakesLowIdsFirst) {
    EXPECT_EQ(first_choices("low", 4), (std::vector<std::string>{"core0", "core2", "core0", "core2"}));
}

TEST(PolicyOrder, NodeCentricPoliciesAgreeOnTheseShapes) {
    EXPECT_EQ(first_choices("hinode", 2), first_choices("high", 2));
    EXPECT_EQ(first_choices("lonode", 2), first_choices("low", 2));
}

TEST(PolicyOrder, HighFillsNode1BeforeNode0) {
    Matcher m(machine_recipe(1, 2, 2, 2), "high");
    std::vector<std::string> nodes;
    for (int i = 0; i < 4; ++i) {
        std::string out = m.match(node_cores(1));
        nodes.push_back(out.find("node1[") != std::string::npos ? "node1" : "node0");
    }
    EXPECT_EQ(nodes, (std::vector<std::string>{"node1", "node1", "node0", "node0"}));
}

TEST(PolicyOrder, LowFillsNode0First) {
    Matcher m(machine_recipe(1, 2, 1, 2), "low");
    std::string out = m.match(node_cores(1));
    EXPECT_NE(out.find("node0["), std::string::npos);
}

TEST(PolicyOrder, FirstStopsAtTheFirstFittingNode) {
    // Early stop: with `first` only one node is explored, so fewer visits
    // than `high` which walks the whole graph.
    Matcher first(machine_recipe(1, 8, 1, 2), "first");
    Matcher high(machine_recipe(1, 8, 1, 2), "high");
    first.match(node_cores(1));
    high.match(node_cores(1));
    EXPECT_LT(first.traverser->preorder(), high.traverser->preorder());
}

TEST(PolicyOrder, FirstReordersNodesByFreeCores) {
    // After a job on the highest-id node, `first` re-weights that node by
    // its free cores and prefers untouched nodes (weight 2^64-1).
    Matcher m(machine_recipe(1, 3, 1, 4), "first");
    std::string a = m.match(node_cores(1));
    std::string b = m.match(node_cores(1));
    EXPECT_NE(a.find("node2["), std::string::npos);
    EXPECT_NE(b.find("node1["), std::string::npos);
}

TEST(PolicyOrder, LocalityPrefersTheHighestRunOfIds) {
    // Nodes 0, 1 and 3 are up: their scores (id + 2) form the runs [2,3]
    // and [5,5]. The higher run comes first, and inside a run candidates
    // are equal (the sort's order decides).
    Matcher m(machine_recipe(1, 4, 1, 1), "locality");
    m.graph.set_up(m.graph.by_type(types::kNode)[2], false);
    MatchResult r;
    std::string out = m.match(testing::jobspec_yaml(
        "  - type: node\n    count: 2\n    with:\n      - type: slot\n        count: 1\n        label: s\n"
        "        with:\n          - type: socket\n            count: 1\n            with:\n"
        "              - type: core\n                count: 1\n"), MatchOp::kAllocate, &r);
    ASSERT_TRUE(r.ok());
    EXPECT_NE(out.find("node3["), std::string::npos) << out;
    EXPECT_NE(out.find("node0["), std::string::npos) << out;
    EXPECT_EQ(out.find("node1["), std::string::npos) << out;
}

TEST(PolicyOrder, VariationPrefersLowPerfClass) {
    Matcher m(machine_recipe(1, 3, 1, 1), "variation");
    auto nodes = m.graph.by_type(types::kNode);
    m.graph.set_property(nodes[0], "perf_class", "3");
    m.graph.set_property(nodes[1], "perf_class", "1");
    m.graph.set_property(nodes[2], "perf_class", "2");
    EXPECT_EQ(perf_class(m.graph, nodes[1]), 1);
    std::string out = m.match(node_cores(1));
    EXPECT_NE(out.find("node1["), std::string::npos);
    out = m.match(node_cores(1));
    EXPECT_NE(out.find("node2["), std::string::npos);
}

TEST(PerfClass, ParsesALeadingIntegerAndClampsToTheWorst) {
    Matcher m(machine_recipe(1, 1, 1, 1), "variation");
    VertexId n = m.graph.by_type(types::kNode)[0];
    EXPECT_EQ(perf_class(m.graph, n), 9999);
    m.graph.set_property(n, "perf_class", "12abc");
    EXPECT_EQ(perf_class(m.graph, n), 12);
    m.graph.set_property(n, "perf_class", "fast");
    EXPECT_EQ(perf_class(m.graph, n), 9999);
    m.graph.set_property(n, "perf_class", "123456");
    EXPECT_EQ(perf_class(m.graph, n), 9999);
    m.graph.set_property(n, "perf_class", "-2");
    EXPECT_EQ(perf_class(m.graph, n), 9999);
}

}  // namespace
}  // namespace rq
