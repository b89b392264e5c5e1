// Event resources are compact (docs/queue.md,
// Events): one RFC 22 hostlist of leaves per node, and neighbouring nodes
// with the same leaves as one hostlist of nodes, never one entry per core
// (an Atlas-sized replay wrote 438 MB of events one core at a time).
#include <gtest/gtest.h>

#include "queue/queue_test_util.h"

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

}  // namespace
}  // namespace rq::queue
