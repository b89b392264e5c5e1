// Event resources are compact (docs/queue.md,
// Events): one RFC 22 hostlist of leaves per node, and neighbouring nodes
// with the same leaves as one hostlist of nodes, never one entry per core
// (an Atlas-sized replay wrote 438 MB of events one core at a time).
#include <gtest/gtest.h>

#include "queue/queue_test_util.h"
#include "traversers/test_fixture.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

TEST(QueueEvents, ResourcesAreHostlistsPerNodeAndNodesWithTheSameLeavesShareOne) {
    Harness q(24, "fcfs", 32, 0, "first", true, rq::testing::machine_recipe(1, 3, 1, 8));
    Spec whole_and_half;
    whole_and_half.cores = 20;
    Spec rest;
    rest.cores = 4;
    q.replay({whole_and_half, rest});
    auto starts = q.events("start", 1);
    ASSERT_EQ(starts.size(), 1u);
    EXPECT_NE(starts[0].find(" resources=node0:core[4-7],node[1-2]:core[0-7]"), std::string::npos) << starts[0];
    auto second = q.events("start", 2);
    ASSERT_EQ(second.size(), 1u);
    EXPECT_NE(second[0].find(" resources=node0:core[0-3]"), std::string::npos) << second[0];
}

// The collector's edge list and weight shadow (ResourceCollector::edge):
// an edge into a leaf is never re-weighted (spec/traversal.md §4.4: only
// edges to vertices with a subtree plan are), so it is neither listed nor
// counted as a change; an edge into a node is listed, counts as changed
// the first time it is seen and whenever its weight moved since.
TEST(QueueEvents, CollectorTracksOnlyEdgesAnUpdateCanReweight) {
    rq::testing::Matcher m(rq::testing::machine_recipe(1, 2, 1, 4), "first");
    const ResourceGraph& g = m.graph;
    EdgeId to_node = kNoEdge, to_core = kNoEdge;
    for (EdgeId e = 0; e < g.edge_capacity(); ++e) {
        if (g.type(g.target(e)) == types::kNode && to_node == kNoEdge) to_node = e;
        if (g.type(g.target(e)) == types::kCore && to_core == kNoEdge) to_core = e;
    }
    ASSERT_NE(to_node, kNoEdge);
    ASSERT_NE(to_core, kNoEdge);
    ASSERT_TRUE(g.is_leaf(g.target(to_core)));
    ResourceCollector c;
    EXPECT_FALSE(c.reads_leaf_edges());
    c.edge(g, to_core, true);
    EXPECT_FALSE(c.weights_changed());
    EXPECT_TRUE(c.take_held_edges().empty());
    c.reset();
    c.edge(g, to_node, false);  // never seen: a change
    EXPECT_TRUE(c.weights_changed());
    EXPECT_EQ(c.take_held_edges(), std::vector<EdgeId>{to_node});
    c.reset();
    c.edge(g, to_node, false);  // same weight as last seen
    EXPECT_FALSE(c.weights_changed());
    c.reset();
    m.graph.set_weight(to_node, 3);
    c.edge(g, to_node, false);
    EXPECT_TRUE(c.weights_changed());
}

}  // namespace
}  // namespace rq::queue
