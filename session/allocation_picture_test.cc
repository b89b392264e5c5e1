// The allocation map the session passes down to the DOT writer
// (session/allocation_picture.h): each job's allocated and reserved
// vertices, and none once the job is cancelled.
#include "session/allocation_picture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "session/operations.h"
#include "session/session_test_util.h"

namespace rq {
namespace {

using testing::source_text;

struct TinyPicture : ::testing::Test {
    Session s;
    void SetUp() override { testing::load_tiny_session(s); }
    std::string whole_node = source_text("t/data/jobspecs/whole-node.yaml");

    // Vertex paths held by `job` in `map`, allocated or reserved.
    std::vector<std::string> held(const AllocationMap& map, int64_t job, bool reserved) {
        std::vector<std::string> paths;
        for (const auto& [v, h] : map) {
            const auto& jobs = reserved ? h.reserved : h.allocated;
            if (std::find(jobs.begin(), jobs.end(), job) != jobs.end()) paths.push_back(s.graph->path(v, 0));
        }
        return paths;
    }
};

TEST_F(TinyPicture, EachJobHoldsItsNodeSubtree) {
    ASSERT_EQ(match_jobspec(s, MatchOp::kAllocate, whole_node, 1, "n").code, Errc::kOk);
    ASSERT_EQ(match_jobspec(s, MatchOp::kAllocate, whole_node, 2, "n").code, Errc::kOk);
    ASSERT_EQ(match_jobspec(s, MatchOp::kAllocateOrElseReserve, whole_node, 3, "n").code, Errc::kOk);
    AllocationMap map = allocation_map(s);
    // tiny: a node with its 2 sockets, 16 cores, 2 gpus and 4 memory pools.
    auto one = held(map, 1, false), two = held(map, 2, false), three = held(map, 3, true);
    ASSERT_EQ(one.size(), 25u);
    ASSERT_EQ(two.size(), 25u);
    ASSERT_EQ(three.size(), 25u);
    EXPECT_TRUE(held(map, 3, false).empty());
    EXPECT_EQ(one.front().substr(0, 18), "/tiny0/rack0/node1");
    EXPECT_EQ(two.front().substr(0, 18), "/tiny0/rack0/node0");
    for (const auto& path : one) EXPECT_EQ(path.rfind("/tiny0/rack0/node1", 0), 0u) << path;
    // The rack and the cluster are passed through, not held.
    EXPECT_EQ(map.count(s.graph->root(0)), 0u);
    EXPECT_EQ(map.size(), 50u);
}

TEST_F(TinyPicture, ACancelledJobHoldsNothing) {
    ASSERT_EQ(match_jobspec(s, MatchOp::kAllocate, whole_node, 1, "n").code, Errc::kOk);
    ASSERT_TRUE(cancel_job(s, 1).ok());
    EXPECT_TRUE(allocation_map(s).empty());
}

TEST_F(TinyPicture, DumpWritesThePictureAndWarnsOnlyWhenLarge) {
    ASSERT_EQ(match_jobspec(s, MatchOp::kAllocate, whole_node, 1, "n").code, Errc::kOk);
    std::string path = ::testing::TempDir() + "allocation_picture_test.dot", warning = "stale";
    Result<size_t> drawn = dump_allocations(s, path, AllocationDotOptions{true}, warning);
    ASSERT_TRUE(drawn.ok()) << drawn.message();
    EXPECT_EQ(*drawn, 27u);  // node1 and its 24 vertices, the rack and the cluster
    EXPECT_EQ(warning, "");
    std::remove(path.c_str());
    EXPECT_EQ(final_picture_path("out/base"), "out/base.final.dot");
}

}  // namespace
}  // namespace rq
