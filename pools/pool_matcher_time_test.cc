// The pool matcher's at-time option (a simulated clock asks at `now`, not
// at 0) and release(), the inverse of record().
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "pools/pool_graph.h"
#include "pools/pool_matcher.h"

namespace rq::pools {
namespace {

struct World {
    ResourceGraph graph;
    ScheduleStore store;
    PruneSpec spec;
    std::unique_ptr<PoolMatcher> matcher;
    World() {
        Machine m;
        Worker w{"w", {}, 2, true};
        w.pools.push_back(*parse_pool_definition("cpus", "range(0-3)"));
        w.pools.push_back(*parse_pool_definition("mem", "sum(100)"));
        m.workers = {w};
        EXPECT_TRUE(build_pool_graph(m, graph).ok());
        matcher = std::make_unique<PoolMatcher>(graph, store, spec);
    }
    Request req(const std::string& text) { return *parse_request(text, Dialect::kHq); }
    // Records with nothing on them are as good as none.
    std::string state() const {
        static const std::regex idle(R"(^v\d+ plan\(total (\d+): 0=\1\) x\(total 1073741824: 0=1073741824\)$)");
        std::istringstream in(store.describe());
        std::string out;
        for (std::string line; std::getline(in, line);)
            if (!std::regex_match(line, idle)) out += line + "\n";
        return out;
    }
};

TEST(PoolMatcherTime, AllocatesAtNowAndReservesAfterIt) {
    World w;
    std::string empty = w.state();
    // Both workers full over [100, 110) and [100, 130).
    auto a = w.matcher->find(w.req("cpus=4"), PoolOp::kAllocate, 10, 100);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->at, 100);
    ASSERT_TRUE(w.matcher->record(*a, 1, 10, 100).ok());
    auto b = w.matcher->find(w.req("cpus=4"), PoolOp::kAllocate, 30, 100);
    ASSERT_TRUE(b.ok());
    EXPECT_NE(b->worker, a->worker);
    ASSERT_TRUE(w.matcher->record(*b, 2, 30, 100).ok());
    // At 105 nothing is free; at 95 a 5-second job still fits before them.
    auto busy = w.matcher->find(w.req("cpus=1"), PoolOp::kAllocate, 5, 105);
    EXPECT_EQ(busy.code(), Errc::kBusy);
    auto before = w.matcher->find(w.req("cpus=1"), PoolOp::kAllocate, 5, 95);
    ASSERT_TRUE(before.ok());
    EXPECT_EQ(before->at, 95);
    EXPECT_EQ(w.matcher->find(w.req("cpus=1"), PoolOp::kAllocate, 6, 95).code(), Errc::kBusy);
    // Reserve from 105: the first worker frees at 110, not before now.
    auto later = w.matcher->find(w.req("cpus=2 mem=50"), PoolOp::kAllocateOrElseReserve, 5, 105);
    ASSERT_TRUE(later.ok());
    EXPECT_EQ(later->at, 110);
    EXPECT_EQ(later->worker, a->worker);
    ASSERT_TRUE(w.matcher->record(*later, 3, 5, 105).ok());
    EXPECT_EQ(w.store.find(later->pools[0].items[0].item)->reservations.count(3), 1u);
    // A request no worker can hold is unsatisfiable whatever the time.
    EXPECT_EQ(w.matcher->find(w.req("cpus=5"), PoolOp::kAllocateOrElseReserve, 5, 105).code(), Errc::kUnsatisfiable);
    // release() undoes each record; all three leave the store as it was.
    ASSERT_TRUE(w.matcher->release(*b, 2).ok());
    auto now_free = w.matcher->find(w.req("cpus=4"), PoolOp::kAllocate, 30, 100);
    ASSERT_TRUE(now_free.ok());
    EXPECT_EQ(now_free->worker, b->worker);
    ASSERT_TRUE(w.matcher->release(*a, 1).ok());
    ASSERT_TRUE(w.matcher->release(*later, 3).ok());
    EXPECT_EQ(w.state(), empty);
    // Releasing twice finds nothing to release and changes nothing.
    ASSERT_TRUE(w.matcher->release(*a, 1).ok());
    EXPECT_EQ(w.state(), empty);
}

}  // namespace
}  // namespace rq::pools
