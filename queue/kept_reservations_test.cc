// Kept reservations (queue/kept_reservations.cc, docs/queue.md "Kept
// reservations") against the exhaustive recomputation of every pass
// (--replay-exhaustive): 1,200 random workloads on a cluster of 8-core
// nodes matched with `first` (whose edge weights make the child order part
// of the state), under easy, hybrid and conservative, with early ends
// inside and outside reservation windows, kills, priorities and cancels of
// pending and reserved jobs. Every start time and every event line must
// be identical, and the passes must really keep reservations and skip
// the selections that surely fail.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "queue/queue_test_util.h"
#include "utilities/sanitized.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

struct Workload {
    std::vector<Spec> jobs;
    std::multimap<int64_t, int64_t> cancels;  // time -> job id (1.. in submission order)
};

Workload random_workload(std::mt19937_64& rng, int nodes) {
    const int cores = nodes * 8;
    std::uniform_int_distribution<int> njobs(8, 24), whole(1, nodes), few(1, 7), est(2, 60), gap(0, 6), coin(0, 3);
    std::uniform_real_distribution<double> early(0.1, 1.0);
    Workload w;
    int n = njobs(rng);
    int64_t t = 0;
    for (int i = 0; i < n; ++i) {
        t += gap(rng);
        Spec s;
        s.submit = t;
        s.cores = coin(rng) == 0 ? few(rng) : std::min(cores, 8 * whole(rng));
        s.estimate = est(rng);
        // Early ends move plans (inside or outside a later job's window),
        // on-time ends do not, kills end at the estimate.
        int kind = coin(rng);
        s.runtime = kind == 0   ? s.estimate
                    : kind == 1 ? s.estimate + 3
                                : std::max<int64_t>(1, int64_t(double(s.estimate) * early(rng)));
        s.priority = coin(rng) == 0 && coin(rng) == 0 ? 6 : 5;
        w.jobs.push_back(s);
        // One job in six is cancelled a while after its submit (it may be
        // pending, reserved, running or gone by then).
        if (std::uniform_int_distribution<int>(0, 5)(rng) == 0)
            w.cancels.emplace(t + std::uniform_int_distribution<int>(1, 40)(rng), i + 1);
    }
    return w;
}

// Submits and cancels at their times, then runs to the end; start times
// in submission order (-1: never started).
std::vector<int64_t> drive(Harness& h, const Workload& w) {
    std::map<int64_t, int> instants;
    for (const Spec& s : w.jobs) instants[s.submit] = 0;
    for (auto& [t, id] : w.cancels) instants[t] = 0;
    size_t next = 0;
    for (auto& [t, unused] : instants) {
        EXPECT_TRUE(h.sim.advance(t - h.sim.now()).ok());
        while (next < w.jobs.size() && w.jobs[next].submit == t) h.sim.enqueue(h.job(w.jobs[next++]));
        auto [first, last] = w.cancels.equal_range(t);
        for (auto it = first; it != last; ++it) (void)h.sim.dequeue(it->second);  // running or gone: refused
    }
    EXPECT_TRUE(h.sim.run(nullptr).ok());
    std::vector<int64_t> out;
    for (int64_t id = 1; id <= static_cast<int64_t>(w.jobs.size()); ++id)
        out.push_back(h.start.count(id) ? h.start[id] : -1);
    return out;
}

TEST(QueueKeptReservations, StartTimesAndEventsMatchTheExhaustiveRecomputation) {
    const char* queue_policies[] = {"easy", "hybrid", "conservative"};
    std::mt19937_64 rng(26);
    const int workloads = 400 / rq::kSanitizedWorkloadDivisor;
    uint64_t kept = 0, short_selections = 0;
    int compared = 0;
    for (int w = 0; w < workloads && !::testing::Test::HasFailure(); ++w) {
        // Small clusters crowd every node; wider ones let a changed child
        // order shift other nodes around a walk's (the vertex-level proof).
        const int kNodes[] = {2, 3, 4, 8, 12};
        int nodes = kNodes[w % 5];
        Workload work = random_workload(rng, nodes);
        int64_t depth = w % 4 == 0 ? 0 : 32;
        for (const char* qp : queue_policies) {
            std::string what = "workload " + std::to_string(w) + " " + qp + " depth " + std::to_string(depth);
            auto counts = testing::compare_with_oracle(nodes, qp, depth, 3, what, [&](Harness& h) { return drive(h, work); });
            kept += counts.kept;
            short_selections += counts.short_selections;
            ++compared;
        }
    }
    EXPECT_EQ(compared, workloads * 3);
    EXPECT_GT(kept, uint64_t(workloads));  // passes really keep reservations
    // and really skip selections that surely fail (DfuTraverser::surely_short)
    EXPECT_GT(short_selections, uint64_t(workloads));
}

}  // namespace
}  // namespace rq::queue
