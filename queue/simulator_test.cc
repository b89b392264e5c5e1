// Hand-computed examples of the queue's conventions (docs/queue.md "Order",
// "One scheduling pass per instant", "A pass") on a
// one-node machine of N cores with the `low` match policy.
#include "queue/simulator.h"

#include <gtest/gtest.h>

#include "queue/queue_test_util.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

TEST(QueueSimulator, PriorityBeatsAgeAndSamePriorityIsFifo) {
    Harness h(4, "fcfs");
    // A holds the machine until 10; B (old, low), C (new, high), D (new, low).
    auto starts = h.replay({{0, 4, 10, 10, 5}, {1, 4, 10, 10, 5}, {2, 4, 10, 10, 9}, {2, 4, 10, 10, 5}});
    EXPECT_EQ(starts, (std::vector<int64_t>{0, 20, 10, 30}));
}

TEST(QueueSimulator, OnePassPerInstantAfterEndsAndSubmits) {
    Harness h(4, "fcfs");
    // A ends at 10 when B (4 cores, prio 5) and C (1 core, prio 9) arrive.
    // One pass sees both: C goes first; B no longer fits and waits for C.
    auto starts = h.replay({{0, 4, 10, 10, 5}, {10, 4, 10, 10, 5}, {10, 1, 7, 7, 9}});
    EXPECT_EQ(starts, (std::vector<int64_t>{0, 17, 10}));
    // Passes: 0 (A), 10 (A ends, B and C arrive), 17 (C ends).
    EXPECT_EQ(h.sim.passes(), 4u);  // + the one at 27 when B ends
}

TEST(QueueSimulator, OverrunIsKilledAtTheRequestedTime) {
    Harness h(4, "fcfs");
    auto starts = h.replay({{0, 2, 10, 25}, {0, 2, 10, 5}});
    EXPECT_EQ(starts, (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(h.finished[1].end, 10);
    EXPECT_EQ(h.finished[2].end, 5);
    ASSERT_EQ(h.events("end", 1).size(), 1u);
    EXPECT_EQ(h.events("end", 1)[0], "EVENT 10 end job=1 queue=default status=killed");
    EXPECT_EQ(h.events("end", 2)[0], "EVENT 5 end job=2 queue=default status=completed");
}

TEST(QueueSimulator, ReservationsUseTheEstimateNotTheRunTime) {
    Harness h(4, "easy");
    // A: 4 cores, asks 100, runs 10. B (4 cores) is reserved at 100, then
    // starts at 10 when A ends early.
    auto starts = h.replay({{0, 4, 100, 10}, {0, 4, 50, 50}});
    EXPECT_EQ(starts, (std::vector<int64_t>{0, 10}));
    ASSERT_EQ(h.events("reserve", 2).size(), 1u);
    EXPECT_NE(h.events("reserve", 2)[0].find(" at=100 "), std::string::npos);
}

TEST(QueueSimulator, ConservativeReservationMovesLaterAfterAnEarlyFinish) {
    Harness h(4, "conservative");
    // A: 2 cores asks 100 runs 10; R: 2 cores 50/50; X: 3 cores asks 100;
    // Y: 2 cores asks 45. At 0: X reserved at 100, Y fits the gap [50,95)
    // and is reserved at 50. At 10 A ends: X re-planned at 50 leaves one
    // core, so Y moves later, to X's end at 150.
    auto starts = h.replay({{0, 2, 100, 10}, {0, 2, 50, 50}, {0, 3, 100, 100}, {0, 2, 45, 45}});
    EXPECT_EQ(starts, (std::vector<int64_t>{0, 0, 50, 150}));
    auto y = h.events("reserve", 4);
    ASSERT_EQ(y.size(), 2u);
    EXPECT_NE(y[0].find("EVENT 0 reserve job=4 queue=default at=50 "), std::string::npos) << y[0];
    EXPECT_NE(y[1].find("EVENT 10 reserve job=4 queue=default at=150 "), std::string::npos) << y[1];
}

TEST(QueueSimulator, QueueDepthOneStopsBackfillAndZeroMeansAll) {
    // A: 3 cores until 100; B: 4 cores (blocked, reserved at 100); C: 1
    // core for 10 s backfills at 0 unless the pass looks at B only.
    std::vector<Spec> trace = {{0, 3, 100, 100}, {0, 4, 100, 100}, {0, 1, 10, 10}};
    Harness all(4, "easy", 0);
    EXPECT_EQ(all.replay(trace), (std::vector<int64_t>{0, 100, 0}));
    Harness one(4, "easy", 1);
    EXPECT_EQ(one.replay(trace), (std::vector<int64_t>{0, 100, 200}));
}

TEST(QueueSimulator, FailedSubmitChangesNothing) {
    Harness h(4, "fcfs");
    QueueJob too_big = h.job({0, 8, 10, 10});
    auto r = h.sim.submit(too_big);
    EXPECT_FALSE(r.ok());
    QueueJob bad_priority = h.job({0, 1, 10, 10, 11});
    EXPECT_FALSE(h.sim.submit(bad_priority).ok());
    EXPECT_EQ(h.next_id, 1);
    EXPECT_TRUE(h.sim.pending().empty());
    EXPECT_EQ(h.lines.str(), "");
    auto ok = h.sim.submit(h.job({0, 4, 10, 10}));
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(*ok, 1);
}

TEST(QueueSimulator, SetPriorityAndDequeueReorderThePendingJobs) {
    Harness h(4, "fcfs");
    ASSERT_TRUE(h.sim.submit(h.job({0, 4, 10, 10})).ok());  // 1 runs
    ASSERT_TRUE(h.sim.submit(h.job({0, 4, 10, 10})).ok());  // 2
    ASSERT_TRUE(h.sim.submit(h.job({0, 4, 10, 10})).ok());  // 3
    ASSERT_TRUE(h.sim.submit(h.job({0, 4, 10, 10})).ok());  // 4
    h.sim.settle();
    ASSERT_TRUE(h.sim.set_priority(4, 9).ok());
    ASSERT_TRUE(h.sim.dequeue(2).ok());
    EXPECT_FALSE(h.sim.dequeue(1).ok());  // running
    EXPECT_FALSE(h.sim.set_priority(3, 0).ok());
    auto pending = h.sim.pending();
    ASSERT_EQ(pending.size(), 2u);
    EXPECT_EQ(pending[0]->id, 4);
    EXPECT_EQ(pending[1]->id, 3);
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_EQ(h.start[4], 10);
    EXPECT_EQ(h.start[3], 20);
    EXPECT_EQ(h.start.count(2), 0u);
}

}  // namespace
}  // namespace rq::queue
