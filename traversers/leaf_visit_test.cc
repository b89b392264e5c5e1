// MatchPolicy::leaf_score (traversers/dfu_leaf_visit.cc): for every policy
// that states a leaf's score, the statement is what discover() and
// finish_vtx() on an empty score set give that leaf, inside each node's
// visit, and the two calls leave the policy as they found it (the node's
// own finish_vtx scores the same after them). The select differential
// test checks the walks; this checks the contract itself, so that a
// score off by a constant, which no walk's choice would show, fails too.
#include <gtest/gtest.h>

#include "traversers/test_fixture.h"

namespace rq::testing {
namespace {

TEST(LeafScore, IsWhatDiscoverAndFinishGiveTheLeafInsideEveryNode) {
    const char* const policies[] = {"first", "firstnodex", "high", "low", "hinode", "lonode", "hinodex", "lonodex",
                                    "locality", "variation", "policy=low node_centric=true stop_on_1_matches=true",
                                    "policy=high node_exclusive=true"};
    size_t stated = 0;
    for (const char* name : policies) {
        Matcher m(machine_recipe(2, 3, 2, 4), name);
        auto core_spec = parse_jobspec(cores(1), m.graph.types());
        ASSERT_TRUE(core_spec.ok());
        // The leaf's resource list: core[1] with nothing below.
        const std::vector<JobResource>& leaf_list = core_spec->resources.front().with;
        ASSERT_EQ(leaf_list.size(), 1u);
        ASSERT_TRUE(leaf_list.front().with.empty());
        PolicyContext ctx{m.graph, kContainment};
        MatchPolicy& policy = *m.policy;
        for (VertexId node : m.graph.by_type(types::kNode)) {
            ASSERT_TRUE(policy.discover(ctx, node)) << name;
            for (VertexId leaf : m.graph.by_type(types::kCore)) {
                int64_t stated_score = 0;
                if (!policy.leaf_score(ctx, leaf, stated_score)) continue;
                ++stated;
                ASSERT_TRUE(policy.discover(ctx, leaf)) << name;
                ScoreSet scores;
                ASSERT_TRUE(policy.finish_vtx(ctx, leaf, leaf_list, scores)) << name;
                EXPECT_EQ(scores.score, stated_score) << name << " " << m.graph.name(leaf);
            }
            // The node's own score is what it is without the leaves' calls.
            ScoreSet after_calls;
            ASSERT_TRUE(policy.finish_vtx(ctx, node, {}, after_calls)) << name;
            ASSERT_TRUE(policy.discover(ctx, node)) << name;
            ScoreSet without;
            ASSERT_TRUE(policy.finish_vtx(ctx, node, {}, without)) << name;
            EXPECT_EQ(after_calls.score, without.score) << name;
        }
    }
    EXPECT_GT(stated, 0u);  // the multilevel policies state it
}

TEST(LeafScore, IsNotStatedForANodeOfANodeCentricPolicy) {
    Matcher m(machine_recipe(1, 2, 1, 2), "first");
    PolicyContext ctx{m.graph, kContainment};
    int64_t score = 0;
    EXPECT_FALSE(m.policy->leaf_score(ctx, m.graph.by_type(types::kNode).front(), score));
}

}  // namespace
}  // namespace rq::testing
