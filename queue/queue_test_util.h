// Test harness for queue/: a one-node machine of N cores, jobs of k
// single-core slots, a simulator, and the events as text.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "queue/simulator.h"
#include "traversers/test_fixture.h"

namespace rq::queue::testing {

struct Spec {
    int64_t submit = 0;
    int64_t cores = 1;
    int64_t estimate = 10;
    int64_t runtime = 10;
    int priority = 5;
};

inline std::string slot_cores(int64_t k) {
    return rq::testing::jobspec_yaml("  - type: slot\n    count: " + std::to_string(k) +
                                     "\n    label: s\n    with:\n      - type: core\n        count: 1\n");
}

struct Harness {
    rq::testing::Matcher matcher;
    std::ostringstream lines;
    EventLog log{&lines};
    int64_t next_id = 1;
    Simulator sim;
    std::map<int64_t, int64_t> start;  // job id -> start time (finished jobs)
    std::map<int64_t, QueueJob> finished;
    std::map<int64_t, std::shared_ptr<Jobspec>> specs;

    Harness(int cores, const std::string& policy, int64_t queue_depth = 32, int64_t reservation_depth = 0,
            const std::string& match_policy = "low", bool reuse = true, const std::string& recipe = "")
        : matcher(recipe.empty() ? rq::testing::machine_recipe(1, 1, 1, cores) : recipe, match_policy),
          sim(*matcher.traverser, *make_queue_policy(policy, queue_depth, reservation_depth), log, next_id) {
        sim.set_owns_traverser(reuse);
        sim.set_walk_cancel(!reuse);  // the oracle releases with the full cancel walk
        sim.on_finish([this](const QueueJob& j) {
            start[j.id] = j.start;
            finished[j.id] = j;
        });
    }

    QueueJob job(const Spec& s) {
        auto& js = specs[s.cores];
        if (!js) js = std::make_shared<Jobspec>(*parse_jobspec(slot_cores(s.cores), matcher.graph.types()));
        QueueJob j;
        j.jobspec = js;
        j.estimate = s.estimate;
        j.runtime = s.runtime;
        j.priority = s.priority;
        j.size = s.cores;
        return j;
    }

    // Replays `specs` (sorted by submit) to the end; returns start times in
    // submission order (ids are 1.. in submission order).
    std::vector<int64_t> replay(const std::vector<Spec>& trace) {
        size_t next = 0;
        Arrivals arrivals;
        arrivals.next_time = [&]() { return next < trace.size() ? trace[next].submit : kNever; };
        arrivals.enqueue_due = [&](int64_t t) -> Status {
            while (next < trace.size() && trace[next].submit == t) sim.enqueue(job(trace[next++]));
            return ok_status();
        };
        auto left = sim.run(&arrivals);
        EXPECT_TRUE(left.ok());
        std::vector<int64_t> out;
        for (int64_t id = 1; id <= static_cast<int64_t>(trace.size()); ++id)
            out.push_back(start.count(id) ? start[id] : -1);
        return out;
    }

    // The event lines of one kind for one job ("reserve", 3) as written.
    std::vector<std::string> events(const std::string& kind, int64_t id) const {
        std::vector<std::string> out;
        std::istringstream in(lines.str());
        std::string needle = " " + kind + " job=" + std::to_string(id) + " ";
        for (std::string l; std::getline(in, l);)
            if (l.find(needle) != std::string::npos) out.push_back(l);
        return out;
    }
};

// The replay's fast path against the exhaustive recomputation
// (--replay-exhaustive) on one workload, on `nodes` nodes of 8 cores
// matched with `first`: `run` drives a harness and returns its start
// times; both must agree, event lines included. Returns the fast
// simulator's (reused tries, kept reservations).
struct FastPathCounts {
    uint64_t reused = 0, kept = 0, short_selections = 0;
};
template <class Run>
FastPathCounts compare_with_oracle(int nodes, const char* queue_policy, int64_t queue_depth,
                                   int64_t reservation_depth, const std::string& what, Run run) {
    std::string recipe = rq::testing::machine_recipe(1, nodes, 1, 8);
    Harness oracle(nodes * 8, queue_policy, queue_depth, reservation_depth, "first", false, recipe);
    Harness fast(nodes * 8, queue_policy, queue_depth, reservation_depth, "first", true, recipe);
    std::vector<int64_t> a = run(oracle), b = run(fast);
    EXPECT_EQ(a, b) << what;
    EXPECT_EQ(oracle.lines.str(), fast.lines.str()) << what;
    EXPECT_EQ(oracle.sim.kept_reservations(), 0u) << what;
    EXPECT_EQ(oracle.matcher.traverser->short_selections(), 0u) << what;
    return {fast.sim.reused_tries(), fast.sim.kept_reservations(), fast.matcher.traverser->short_selections()};
}

}  // namespace rq::queue::testing
