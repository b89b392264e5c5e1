// Deferred exclusivity checkers (traversers/dfu_deferred_x.cc): a
// traverser that defers them and one that writes them at once, given the
// same random matches, reservations and cancels, print the same matches;
// and once deferral ends (a request that names a checker-carrying type,
// or set_deferred_checkers(false)) every vertex's checker holds the same
// jobs with the same free windows. The requests are mostly single-core
// slots, which keep the deferral, with now and then a whole-socket or
// exclusive-node request, which ends it mid-run; both ways are counted.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "traversers/test_fixture.h"

namespace rq::testing {
namespace {

std::string exclusive_node(int duration) {
    return jobspec_yaml("  - type: node\n    count: 1\n    exclusive: true\n    with:\n      - type: slot\n"
                        "        count: 1\n        label: s\n        with:\n          - type: core\n"
                        "            count: 1\n",
                        duration);
}

std::string random_request(std::mt19937_64& rng, bool may_end_deferral) {
    int duration = std::uniform_int_distribution<int>(1, 40)(rng);
    int kind = std::uniform_int_distribution<int>(0, may_end_deferral ? 11 : 9)(rng);
    if (kind <= 6) return slot_cores(std::uniform_int_distribution<int>(1, 12)(rng), duration);
    if (kind <= 9) return cores(std::uniform_int_distribution<int>(1, 4)(rng), duration);
    if (kind == 10) return node_cores(std::uniform_int_distribution<int>(1, 4)(rng), duration);
    return exclusive_node(duration);
}

std::set<JobId> checker_jobs(const VertexSchedule* r) {
    std::set<JobId> out;
    if (r != nullptr)
        for (auto& entry : r->x_spans()) out.insert(entry.first);
    return out;
}

void expect_same_checkers(const Matcher& a, const Matcher& b, const std::string& what) {
    for (VertexId v = 0; v < a.graph.num_vertices(); ++v) {
        const VertexSchedule* ra = a.store.find(v);
        const VertexSchedule* rb = b.store.find(v);
        std::string where = what + " " + std::string(a.graph.name(v));
        EXPECT_EQ(checker_jobs(ra), checker_jobs(rb)) << where;
        for (Time t = 0; t < 200; t += 3) {
            bool fa = ra == nullptr || ra->x_checker().fits(t, 2, kCheckerCapacity);
            bool fb = rb == nullptr || rb->x_checker().fits(t, 2, kCheckerCapacity);
            EXPECT_EQ(fa, fb) << where << " at " << t;
        }
    }
}

TEST(DeferredCheckers, MatchAsWrittenCheckersDoAndWriteOutToThem) {
    std::mt19937_64 rng(2911);
    int ended_by_request = 0, deferred_to_the_end = 0;
    uint64_t deferred_jobs_seen = 0;
    for (int round = 0; round < 60 && !::testing::Test::HasFailure(); ++round) {
        const char* policy = round % 3 == 0 ? "low" : round % 3 == 1 ? "first" : "high";
        Matcher deferring(machine_recipe(1, 3, 2, 4), policy);
        Matcher writing(machine_recipe(1, 3, 2, 4), policy);
        // Both with leaf holds, as a replay runs: only the checkers differ.
        deferring.traverser->set_leaf_holds(true);
        writing.traverser->set_leaf_holds(true);
        deferring.traverser->set_deferred_checkers(true);
        const bool may_end = round % 2 == 0;
        std::vector<JobId> live;
        for (int step = 0; step < 40; ++step) {
            std::string what = std::string(policy) + " round " + std::to_string(round) + " step " + std::to_string(step);
            bool deferred_before = deferring.traverser->checkers_deferred();
            ASSERT_TRUE(differential_step(rng, deferring, writing, live,
                                          [&] { return random_request(rng, may_end); }, what));
            if (deferred_before && !deferring.traverser->checkers_deferred()) {
                ++ended_by_request;
                expect_same_checkers(deferring, writing, what + " (deferral ended by this request)");
            }
            if (deferring.traverser->checkers_deferred())
                for (VertexId v = 0; v < deferring.graph.num_vertices(); ++v)
                    if (const VertexSchedule* r = deferring.store.find(v)) deferred_jobs_seen += r->tags.size();
        }
        if (deferring.traverser->checkers_deferred()) ++deferred_to_the_end;
        deferring.traverser->set_deferred_checkers(false);
        EXPECT_FALSE(deferring.traverser->checkers_deferred());
        expect_same_checkers(deferring, writing, std::string(policy) + " round " + std::to_string(round));
        for (JobId id : live) {
            EXPECT_TRUE(deferring.traverser->cancel(id).ok());
            EXPECT_TRUE(writing.traverser->cancel(id).ok());
        }
        deferring.expect_nothing_held();
    }
    // Both ways of ending the deferral were exercised, over real jobs.
    EXPECT_GT(ended_by_request, 10);
    EXPECT_GT(deferred_to_the_end, 10);
    EXPECT_GT(deferred_jobs_seen, 1000u);
}

// While deferred, a job's node and socket carry no checker span; an
// exclusive-node request then sees the job all the same (the deferred
// spans are written before its walk), and waits for the job's end.
TEST(DeferredCheckers, AnExclusiveRequestSeesTheDeferredJobs) {
    Matcher m(machine_recipe(1, 1, 2, 4), "low");
    m.traverser->set_deferred_checkers(true);
    ASSERT_FALSE(m.match(slot_cores(1, 10)).empty());
    VertexId node = m.graph.by_type(m.graph.types().find("node")).front();
    EXPECT_TRUE(m.store.find(node)->x_spans().empty());
    EXPECT_TRUE(m.traverser->checkers_deferred());
    // More single-core slots keep the deferral.
    ASSERT_FALSE(m.match(slot_cores(2, 5)).empty());
    EXPECT_TRUE(m.traverser->checkers_deferred());

    MatchResult r;
    ASSERT_FALSE(m.match(exclusive_node(3), MatchOp::kAllocateOrElseReserve, &r).empty());
    EXPECT_FALSE(m.traverser->checkers_deferred());
    EXPECT_EQ(r.at, 10);  // after the longer of the two jobs
    EXPECT_EQ(checker_jobs(m.store.find(node)), (std::set<JobId>{1, 2, 3}));
}

}  // namespace
}  // namespace rq::testing
