// The reuse of the previous pass's outcomes (Simulator::set_owns_traverser)
// against the exhaustive recomputation (docs/queue.md "A pass": every
// reservation is recomputed at every pass; "Reuse between passes"): on
// random workloads, several machines,
// match policies (`first` re-weights edges, so the child order is part of
// the state) and every queue policy, the event streams are identical, byte
// for byte. The exhaustive simulator is the oracle; it also releases jobs
// with the traverser's full cancel walk and searches reservations point by
// point, where the fast one releases only the vertices a job holds and
// jumps between span ends (DfuTraverser::cancel_held, set_span_ends).
#include <gtest/gtest.h>

#include <random>

#include "queue/queue_test_util.h"
#include "utilities/sanitized.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

std::vector<Spec> workload(std::mt19937_64& rng, int cores) {
    std::uniform_int_distribution<int> njobs(4, 40), size(1, cores), est(1, 40), gap(0, 5), coin(0, 3), prio(4, 6);
    int n = njobs(rng);
    std::vector<Spec> jobs;
    int64_t t = 0;
    for (int i = 0; i < n; ++i) {
        t += coin(rng) == 0 ? 0 : gap(rng);
        Spec s;
        s.submit = t;
        s.cores = coin(rng) == 0 ? size(rng) : std::uniform_int_distribution<int>(1, 3)(rng);
        s.estimate = est(rng);
        int r = coin(rng);
        s.runtime = r == 0 ? std::max<int64_t>(1, s.estimate / 2) : r == 3 ? s.estimate + 3 : s.estimate;
        s.priority = coin(rng) == 0 ? prio(rng) : 5;
        jobs.push_back(s);
    }
    return jobs;
}

TEST(QueuePassReuse, EventsAreIdenticalToTheExhaustiveRecomputation) {
    struct Machine {
        int nodes, cores;
    };
    const Machine machines[] = {{1, 6}, {3, 4}, {4, 2}};
    const char* match_policies[] = {"first", "low", "high"};
    const char* queue_policies[] = {"fcfs", "easy", "conservative", "hybrid"};
    std::mt19937_64 rng(77);
    uint64_t reused = 0;
    int compared = 0;
    const int workloads = 90 / rq::kSanitizedWorkloadDivisor;
    for (int w = 0; w < workloads; ++w) {
        const Machine& m = machines[w % 3];
        int cores = m.nodes * m.cores;
        auto jobs = workload(rng, cores);
        std::string recipe = rq::testing::machine_recipe(1, m.nodes, 1, m.cores);
        int64_t depth = w % 4 == 0 ? 2 : w % 4 == 1 ? 0 : 32;
        for (const char* mp : match_policies)
            for (const char* qp : queue_policies) {
                Harness oracle(cores, qp, depth, 2, mp, false, recipe);
                Harness fast(cores, qp, depth, 2, mp, true, recipe);
                auto a = oracle.replay(jobs);
                auto b = fast.replay(jobs);
                ASSERT_EQ(oracle.lines.str(), fast.lines.str())
                    << "workload " << w << " " << mp << " " << qp << " depth " << depth;
                ASSERT_EQ(a, b);
                // Everything released the same way: no span or tag left behind.
                ASSERT_EQ(oracle.matcher.store.describe(), fast.matcher.store.describe());
                EXPECT_EQ(oracle.sim.reused_tries(), 0u);
                reused += fast.sim.reused_tries();
                ++compared;
            }
    }
    EXPECT_EQ(compared, workloads * 12);
    // The reuse really happens (else this test would compare nothing).
    EXPECT_GT(reused, 500u);
}

}  // namespace
}  // namespace rq::queue
