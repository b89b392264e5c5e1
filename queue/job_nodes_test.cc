// The nodes of running jobs (queue/job_nodes.h): busy counts shared
// between jobs, and each job's hostlist in the machine's order.
#include "queue/job_nodes.h"

#include <gtest/gtest.h>

#include "resource/interner.h"
#include "traversers/test_fixture.h"

namespace rq::queue {
namespace {

TEST(JobNodes, CountsNodesHeldByAnyRunningJobAndNamesThemAsAHostlist) {
    rq::testing::Matcher m(rq::testing::machine_recipe(1, 8, 1, 2), "low");
    const std::vector<VertexId>& nodes = m.graph.by_type(types::kNode);
    ASSERT_EQ(nodes.size(), 8u);
    std::vector<VertexId> cores = m.graph.by_type(types::kCore);
    JobNodes jn(m.graph);
    // Job 1: nodes 7, 0-3 (given out of order, node 2 twice, cores too).
    jn.start(1, {nodes[7], cores[0], nodes[2], nodes[0], nodes[1], nodes[3], nodes[2]});
    EXPECT_EQ(jn.busy(), 5);
    // Job 2 shares node 3.
    jn.start(2, {nodes[3], nodes[4]});
    EXPECT_EQ(jn.busy(), 6);
    EXPECT_EQ(jn.finish(1), "node[0-3,7]");
    EXPECT_EQ(jn.busy(), 2);  // nodes 3 and 4, held by job 2
    EXPECT_EQ(jn.finish(2), "node[3-4]");
    EXPECT_EQ(jn.busy(), 0);
    // A job that held no node, or is unknown: empty.
    jn.start(3, {cores[1]});
    EXPECT_EQ(jn.busy(), 0);
    EXPECT_EQ(jn.finish(3), "");
    EXPECT_EQ(jn.finish(99), "");
}

}  // namespace
}  // namespace rq::queue
