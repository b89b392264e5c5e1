// The policies driving a traverser walk (spec/policies.md §2-§4): which
// vertices a match takes under each policy. The policies' own units
// (calc_count, registry, custom strings) are in policies/policy_test.cc,
// which needs no traverser.
#include "policies/match_policy.h"

#include <gtest/gtest.h>

#include "policies/variation.h"
#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::Matcher;
using testing::machine_recipe;
using testing::node_cores;

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
