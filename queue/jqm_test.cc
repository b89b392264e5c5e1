// JQM semantics (seed 003, docs/queue.md "JQM") on a one-node machine of 8
// cores: quantity, discrete and highlander managers, priority and age,
// and the jqm tour versus jqm-skip.
#include "queue/jqm.h"

#include <gtest/gtest.h>

#include "queue/queue_test_util.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

ResourceManager quantity(const std::string& key, int64_t n) {
    ResourceManager m;
    m.key = key;
    m.quantity = n;
    return m;
}

JqmConfig one_queue(std::vector<ResourceManager> managers) {
    JqmConfig c;
    JqmQueue q;
    q.name = "default";
    q.managers = std::move(managers);
    c.queues.push_back(q);
    return c;
}

struct Jqm : Harness {
    explicit Jqm(const std::string& policy, JqmConfig c) : Harness(8, policy) { sim.set_jqm(std::move(c)); }
    int64_t submit(Spec s, std::map<std::string, int64_t> rm = {}, const std::string& name = "def") {
        QueueJob j = job(s);
        j.rm = std::move(rm);
        j.name = name;
        auto id = sim.submit(j);
        EXPECT_TRUE(id.ok()) << (id.ok() ? "" : id.message());
        return id.ok() ? *id : -1;
    }
};

TEST(Jqm, QuantityManagerOfThreeRunsAtMostThree) {
    Jqm h("jqm", one_queue({quantity("thread", 3)}));
    for (int i = 0; i < 5; ++i) h.submit({0, 1, 10, 10});
    ASSERT_TRUE(h.sim.run().ok());
    std::vector<int64_t> starts;
    for (int64_t id = 1; id <= 5; ++id) starts.push_back(h.start[id]);
    EXPECT_EQ(starts, (std::vector<int64_t>{0, 0, 0, 10, 10}));
}

TEST(Jqm, PriorityBeatsAgeAndSamePriorityIsFifo) {
    Jqm h("jqm", one_queue({quantity("thread", 1)}));
    h.submit({0, 1, 10, 10});      // 1 runs
    h.sim.settle();
    h.submit({0, 1, 10, 10, 5});   // 2
    ASSERT_TRUE(h.sim.advance(1).ok());
    h.submit({0, 1, 10, 10, 9});   // 3: newer, higher
    h.submit({0, 1, 10, 10, 5});   // 4
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_EQ(h.start[3], 10);
    EXPECT_EQ(h.start[2], 20);
    EXPECT_EQ(h.start[4], 30);
}

TEST(Jqm, DiscreteManagerHandsOutNamedItemsAndSetsTheVariable) {
    ResourceManager gpu;
    gpu.kind = ResourceManager::kDiscrete;
    gpu.key = "gpu";
    gpu.items = {"gpuA", "gpuB", "gpuC"};
    gpu.default_consumption = 0;
    Jqm h("jqm", one_queue({quantity("thread", 10), gpu}));
    h.submit({0, 1, 10, 10}, {{"gpu", 2}});
    h.submit({0, 1, 10, 10}, {{"gpu", 2}});  // only one item left: waits
    h.submit({0, 1, 10, 10});                // takes none
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_NE(h.events("start", 1)[0].find(" JQM_RM_DISCRETE_GPU_ITEMS=gpuA,gpuB "), std::string::npos)
        << h.events("start", 1)[0];
    EXPECT_NE(h.events("start", 2)[0].find("EVENT 10 start job=2 queue=default name=def JQM_RM_DISCRETE_GPU_ITEMS=gpuA,gpuB "),
              std::string::npos)
        << h.events("start", 2)[0];
    EXPECT_EQ(h.events("start", 3)[0].find("JQM_RM"), std::string::npos);
    // Job 2 was refused ("not enough, but not empty"): under jqm its queue
    // is done for the poll, so job 3 waits behind it.
    EXPECT_EQ(h.start[3], 10);
    // More items than the manager has: rejected at submit, nothing changes.
    int64_t before = h.next_id;
    QueueJob greedy = h.job({0, 1, 10, 10});
    greedy.rm = {{"gpu", 4}};
    EXPECT_EQ(h.sim.submit(greedy).code(), Errc::kUnsatisfiable);
    EXPECT_EQ(h.next_id, before);
}

TEST(Jqm, HighlanderNeverRunsTwoInstancesOfOneName) {
    ResourceManager hl;
    hl.kind = ResourceManager::kHighlander;
    hl.key = "hl";
    Jqm h("jqm-skip", one_queue({quantity("thread", 10), hl}));
    h.submit({0, 1, 10, 10}, {}, "report");
    h.submit({0, 1, 10, 10}, {}, "report");
    h.submit({0, 1, 10, 10}, {}, "backup");
    h.submit({0, 1, 10, 10}, {}, "report");
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_EQ(h.start[1], 0);
    EXPECT_EQ(h.start[2], 10);
    EXPECT_EQ(h.start[3], 0);
    EXPECT_EQ(h.start[4], 20);
}

// A quantity manager of 4 with 3 in use: the head needs 2 ("not enough,
// but not empty"), the next job needs 1.
void blocked_head(Jqm& h) {
    h.submit({0, 1, 100, 100}, {{"thread", 3}});
    h.sim.settle();
    ASSERT_TRUE(h.sim.advance(1).ok());
    h.submit({0, 1, 10, 10}, {{"thread", 2}});
    h.submit({0, 1, 10, 10}, {{"thread", 1}});
    ASSERT_TRUE(h.sim.run().ok());
}

TEST(Jqm, TourLeavesTheManagerFullForThePoll) {
    Jqm h("jqm", one_queue({quantity("thread", 4)}));
    blocked_head(h);
    EXPECT_EQ(h.start[2], 100);  // waits for the big job
    EXPECT_EQ(h.start[3], 100);  // never jumps ahead: the manager is full for every poll
}

TEST(Jqm, SkipStartsASmallerJobBehindABlockedOne) {
    Jqm h("jqm-skip", one_queue({quantity("thread", 4)}));
    blocked_head(h);
    EXPECT_EQ(h.start[2], 100);
    EXPECT_EQ(h.start[3], 1);
}

TEST(Jqm, QueuesAreOrderedByTheirHeadsWaitingTime) {
    JqmConfig c = one_queue({quantity("thread", 1)});
    JqmQueue other;
    other.name = "other";
    other.managers = {quantity("thread", 1)};
    c.queues.push_back(other);
    Jqm h("jqm", c);
    QueueJob a = h.job({0, 8, 10, 10});  // the whole machine
    a.queue = "other";
    ASSERT_TRUE(h.sim.submit(a).ok());   // 1, in "other", oldest
    ASSERT_TRUE(h.sim.submit(h.job({0, 8, 10, 10})).ok());  // 2, default
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_EQ(h.start[1], 0);   // the other queue's head waited longest
    EXPECT_EQ(h.start[2], 10);  // the graph was busy
    QueueJob nowhere = h.job({0, 1, 10, 10});
    nowhere.queue = "nosuch";
    EXPECT_EQ(h.sim.submit(nowhere).code(), Errc::kNotFound);
}

// JQM's poller wakes when a job ends (QueuePoller.releaseResources ends
// with loop.release(1), "Force a new loop at once", QueuePoller.java:437-440
// of enioka-Haute-Couture/jqm; the loop waits with tryAcquire(pollingInterval),
// line 362): the second job starts when the first ends, not at the next
// hourly poll.
TEST(Jqm, AJobsEndPollsItsQueueAtOnce) {
    JqmConfig c = one_queue({quantity("thread", 1)});
    c.poll_interval = 3600;
    Jqm h("jqm", c);
    h.submit({0, 1, 10, 10});
    h.submit({0, 1, 10, 10});
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_EQ(h.start[1], 0);
    EXPECT_EQ(h.start[2], 10);
    // Without an end, polls keep the interval: a job submitted between
    // polls waits for the next one.
    ASSERT_TRUE(h.sim.advance(3600 - 20 + 5).ok());  // now 3605
    h.submit({0, 1, 10, 10});
    ASSERT_TRUE(h.sim.run().ok());
    EXPECT_EQ(h.start[3], 7200);
}

}  // namespace
}  // namespace rq::queue
