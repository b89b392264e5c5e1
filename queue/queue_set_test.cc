// Several queues with their own policies on one small machine (docs/queue.md
// "Several queues", queue/queue_set.h): hand-computed start times on one node of 4 cores
// with the `low` match policy.
#include "queue/queue_set.h"

#include <gtest/gtest.h>

#include "queue/queue_test_util.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

JqmQueue declared(const std::string& name, const std::string& policy) {
    JqmQueue q;
    q.name = name;
    q.policy = policy;
    return q;
}

void install(Harness& h, std::vector<JqmQueue> queues, const std::string& fallback = "fcfs") {
    JqmConfig config;
    config.queues = std::move(queues);
    PolicyDefaults defaults;
    defaults.policy = fallback;
    auto policies = resolve_queue_policies(config, defaults);
    ASSERT_TRUE(policies.ok()) << policies.message();
    h.sim.set_queues(std::move(config), std::move(*policies));
}

using Jobs = std::vector<std::pair<std::string, Spec>>;

// Submits `jobs` at 0 (ids 1.. in order) and runs; returns the starts.
std::vector<int64_t> run_jobs(Harness& h, const Jobs& jobs) {
    for (auto& [queue, spec] : jobs) {
        QueueJob j = h.job(spec);
        j.queue = queue;
        EXPECT_TRUE(h.sim.submit(std::move(j)).ok());
    }
    EXPECT_TRUE(h.sim.run().ok());
    std::vector<int64_t> out;
    for (int64_t id = 1; id <= static_cast<int64_t>(jobs.size()); ++id) out.push_back(h.start.count(id) ? h.start[id] : -1);
    return out;
}

// A, B in `batch`; C, D, E in `debug` (ids 1..5).
std::vector<int64_t> run_five(Harness& h) {
    return run_jobs(h, {{"batch", {0, 2, 20, 20}},
                        {"batch", {0, 4, 10, 10}},
                        {"debug", {0, 1, 10, 10}},
                        {"debug", {0, 4, 10, 10}},
                        {"debug", {0, 1, 5, 5}}});
}

TEST(QueueSet, EachQueueWalksItsOwnJobsWithItsOwnPolicy) {
    Harness h(4, "fcfs");
    install(h, {declared("batch", "fcfs"), declared("debug", "easy")});
    // 0: batch: A starts (2 cores to 20), B (4 cores) blocks batch (fcfs,
    // no reservation). debug: C starts (1 core to 10), D (4 cores) is
    // reserved at 20, E (1 core, 5 s) ends before 20 and starts.
    // 20: A ends; batch goes first: B starts (to 30); D is re-reserved at
    // 30 and starts then.
    EXPECT_EQ(run_five(h), (std::vector<int64_t>{0, 20, 0, 30, 0}));
    ASSERT_EQ(h.events("reserve", 4).size(), 2u);
    EXPECT_NE(h.events("reserve", 4)[1].find("EVENT 20 reserve job=4 queue=debug at=30 "), std::string::npos);
}

TEST(QueueSet, OneFcfsQueueWouldHoldEveryoneBehindB) {
    Harness h(4, "fcfs");
    // The same jobs in one fcfs queue (names are labels): C, D, E wait
    // behind B, which waits for A; E waits for D (fcfs).
    EXPECT_EQ(run_five(h), (std::vector<int64_t>{0, 20, 30, 40, 50}));
}

TEST(QueueSet, DeclarationOrderDecidesWhoGoesFirst) {
    Harness h(4, "fcfs");
    install(h, {declared("debug", "easy"), declared("batch", "fcfs")});
    // 0: debug first: C starts (to 10), D reserved at 10 (all 4 cores),
    // E (to 5) fits before 10 and starts. batch: A (2 cores, 20 s) would
    // overlap D's reservation: blocked, batch stops.
    // 10: C ends, D starts (to 20). 20: A starts (to 40); B waits for it.
    EXPECT_EQ(run_five(h), (std::vector<int64_t>{20, 40, 0, 10, 0}));
}

TEST(QueueSet, QueuesWithoutOwnPolicyKeepTheSinglePass) {
    Harness plain(4, "easy");
    auto expected = run_five(plain);
    Harness h(4, "easy");
    install(h, {declared("batch", ""), declared("debug", "")}, "easy");
    EXPECT_FALSE(runs_multi_queue_passes(h.sim.jqm()));
    EXPECT_EQ(run_five(h), expected);
    EXPECT_EQ(h.lines.str(), plain.lines.str());
}

TEST(QueueSet, PerQueueDepthBoundsOnlyThatQueue) {
    const Jobs jobs = {{"batch", {0, 2, 20, 20}}, {"batch", {0, 4, 10, 10}}, {"batch", {0, 1, 5, 5}},
                       {"debug", {0, 1, 5, 5}}};
    Harness all(4, "fcfs");
    install(all, {declared("batch", "easy"), declared("debug", "fcfs")});
    // 0: A starts (to 20), B reserved at 20, C backfills (to 5); D starts.
    EXPECT_EQ(run_jobs(all, jobs), (std::vector<int64_t>{0, 20, 0, 0}));
    Harness h(4, "fcfs");
    JqmQueue batch = declared("batch", "easy");
    batch.queue_depth = 1;
    install(h, {batch, declared("debug", "fcfs")});
    // 0: batch considers A only (starts, to 20); debug's D still starts.
    // 5: D ends; batch considers B only: reserved at 20. 20: B starts (to
    // 30). 30: C, batch's head at last, starts.
    EXPECT_EQ(run_jobs(h, jobs), (std::vector<int64_t>{0, 20, 30, 0}));
}

TEST(QueueSet, BadQueuesChangeNothing) {
    Harness h(4, "fcfs");
    install(h, {declared("batch", "fcfs")});
    PolicyDefaults d;
    EXPECT_EQ(h.sim.add_queue(declared("batch", "easy"), d).message(), "queue 'batch' exists already");
    EXPECT_EQ(h.sim.add_queue(declared("x", "lifo"), d).message(),
              "unknown queue policy 'lifo' (fcfs, easy, conservative, hybrid, jqm, jqm-skip)");
    EXPECT_EQ(h.sim.add_queue(declared("x", "hybrid"), d).message(),
              "queue x: hybrid needs --reservation-depth N with N >= 1, not 0");
    EXPECT_NE(h.sim.add_queue(declared("x", "jqm"), d).message().find("do not mix"), std::string::npos);
    QueueJob j = h.job({0, 1, 10, 10});
    j.queue = "label";
    ASSERT_TRUE(h.sim.submit(std::move(j)).ok());
    EXPECT_NE(h.sim.add_queue(declared("x", "easy"), d).message().find("undeclared queue 'label'"), std::string::npos);
    EXPECT_EQ(h.sim.jqm().queues.size(), 1u);
    EXPECT_FALSE(runs_multi_queue_passes(h.sim.jqm()));
    ResourceManager m;
    m.key = "t";
    m.quantity = -1;
    EXPECT_EQ(h.sim.add_queue_manager("batch", m).message(), "queue batch: t: quantity must be >= 0");
    EXPECT_EQ(h.sim.add_queue_manager("nope", m).message(), "no queue 'nope'");
    EXPECT_TRUE(h.sim.jqm().queues[0].managers.empty());
}

}  // namespace
}  // namespace rq::queue
