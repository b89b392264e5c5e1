// The replay's fast path (Simulator::set_owns_traverser: pass reuse,
// releases of only the vertices a job holds, the reservation search that
// jumps between span ends; and the planner and scoring below it, which
// both paths share) against the exhaustive recomputation of every pass
// (--replay-exhaustive, docs/queue.md), on 1,000
// random workloads shaped like the Atlas benchmark (t/bench/atlas_replay.sh)
// in small: a cluster of 8-core nodes, jobs of whole nodes and of a few
// cores, a busy queue, early ends and kills, matched with `first` (whose
// edge weights make the child order part of the state). Every start time
// and every event line must be identical.
#include <gtest/gtest.h>

#include <random>

#include "queue/queue_test_util.h"
#include "utilities/sanitized.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

std::vector<Spec> atlas_like(std::mt19937_64& rng, int nodes) {
    const int cores = nodes * 8;
    std::uniform_int_distribution<int> njobs(6, 20), whole(1, nodes), few(1, 7), est(2, 60), gap(0, 8), coin(0, 3);
    std::uniform_real_distribution<double> early(0.2, 1.0);
    int n = njobs(rng);
    std::vector<Spec> jobs;
    int64_t t = 0;
    for (int i = 0; i < n; ++i) {
        t += gap(rng);
        Spec s;
        s.submit = t;
        s.cores = coin(rng) == 0 ? few(rng) : std::min(cores, 8 * whole(rng));
        s.estimate = est(rng);
        // Most jobs end early (their plans move), some are killed.
        s.runtime = coin(rng) == 0 ? s.estimate + 5 : std::max<int64_t>(1, int64_t(s.estimate * early(rng)));
        s.priority = coin(rng) == 0 && coin(rng) == 0 ? 6 : 5;
        jobs.push_back(s);
    }
    return jobs;
}

TEST(QueueFastPath, StartTimesAndEventsMatchTheExhaustiveRecomputation) {
    const char* queue_policies[] = {"fcfs", "easy", "hybrid", "conservative"};
    std::mt19937_64 rng(2026);
    const int workloads = 1000 / rq::kSanitizedWorkloadDivisor;
    int compared = 0;
    uint64_t reused = 0;
    for (int w = 0; w < workloads && !::testing::Test::HasFailure(); ++w) {
        int nodes = 2 + w % 3;
        auto jobs = atlas_like(rng, nodes);
        int64_t depth = w % 3 == 0 ? 0 : 32;
        for (const char* qp : queue_policies) {
            std::string what = "workload " + std::to_string(w) + " " + qp + " depth " + std::to_string(depth);
            reused += testing::compare_with_oracle(nodes, qp, depth, 2, what, [&](Harness& h) { return h.replay(jobs); }).reused;
            ++compared;
        }
    }
    EXPECT_EQ(compared, workloads * 4);
    EXPECT_GT(reused, 1000u);  // the fast path really skips work
}

}  // namespace
}  // namespace rq::queue
