// Differential test of the queue policies (docs/queue.md "A pass",
// "Graph vs flat pool").
//
// Machine: a GRUG graph of ONE node with N individual cores (not a sum
// pool: the pools work is on another branch), matched with the `low`
// policy. On such a graph a reservation is tied to particular cores, so the
// independent model below ties them too: a job takes the k lowest-numbered
// cores that are free over its whole window [t, t + requested time), where
// "free" means not covered by a running job's span (start .. start +
// requested time) nor by a reservation made earlier in the same pass.
//
// The model is deliberately simple (per-core interval lists, brute-force
// earliest time over span ends) and shares no code with queue/ or the
// planner. For ≥ 1,000 random workloads and each of fcfs, easy and
// conservative, every job's start time must agree exactly. It also checks
// EASY's guarantee: the reserved head job never starts later than the
// reservation it was first given (all jobs have one priority, so nothing
// can overtake it).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "queue/queue_test_util.h"

namespace rq::queue {
namespace {

using testing::Harness;
using testing::Spec;

struct Interval {
    int64_t from, to;
};

class Model {
public:
    Model(int cores, int64_t reservation_depth, bool stop_at_blocked, int64_t queue_depth)
        : busy_(cores), res_depth_(reservation_depth), stop_(stop_at_blocked), depth_(queue_depth) {}

    std::vector<int64_t> run(const std::vector<Spec>& jobs) {
        std::vector<int64_t> start(jobs.size(), -1);
        std::vector<std::vector<int>> held(jobs.size());
        std::vector<int64_t> end(jobs.size(), -1);
        std::vector<size_t> pending;
        size_t next = 0;
        int64_t now = 0;
        for (;;) {
            int64_t t = std::numeric_limits<int64_t>::max();
            if (next < jobs.size()) t = jobs[next].submit;
            for (size_t j = 0; j < jobs.size(); ++j)
                if (start[j] >= 0 && end[j] > now) t = std::min(t, end[j]);
            if (next >= jobs.size() && pending.empty() && t == std::numeric_limits<int64_t>::max()) break;
            if (t == std::numeric_limits<int64_t>::max()) break;  // stuck
            now = t;
            for (size_t j = 0; j < jobs.size(); ++j)
                if (start[j] >= 0 && end[j] == now)
                    for (int c : held[j]) drop(busy_[c], start[j]);
            while (next < jobs.size() && jobs[next].submit == now) pending.push_back(next++);
            std::stable_sort(pending.begin(), pending.end(),
                             [&](size_t a, size_t b) { return jobs[a].priority > jobs[b].priority; });
            // One pass.
            std::vector<std::vector<Interval>> reserved(busy_.size());
            int64_t considered = 0, reservations = 0;
            std::vector<size_t> still;
            size_t i = 0;
            for (; i < pending.size(); ++i) {
                if (depth_ != 0 && considered >= depth_) break;
                ++considered;
                const Spec& s = jobs[pending[i]];
                std::vector<int> cores;
                if (fit(now, s, reserved, cores)) {
                    size_t j = pending[i];
                    start[j] = now;
                    end[j] = now + std::min(s.runtime, s.estimate);
                    held[j] = cores;
                    for (int c : cores) busy_[c].push_back({now, now + s.estimate});
                    continue;
                }
                still.push_back(pending[i]);
                if (reservations < res_depth_) {
                    int64_t at = earliest(now, s, reserved, cores);
                    ++reservations;
                    first_reservation_.emplace(pending[i], at);
                    for (int c : cores) reserved[c].push_back({at, at + s.estimate});
                } else if (stop_) {
                    ++i;
                    break;
                }
            }
            for (; i < pending.size(); ++i) still.push_back(pending[i]);
            pending = still;
        }
        return start;
    }

    // job -> the first planned start it was given.
    std::map<size_t, int64_t> first_reservation_;

private:
    static void drop(std::vector<Interval>& list, int64_t from) {
        for (size_t i = 0; i < list.size(); ++i)
            if (list[i].from == from) {
                list.erase(list.begin() + static_cast<long>(i));
                return;
            }
    }
    static bool free_over(const std::vector<Interval>& list, int64_t a, int64_t b) {
        for (const Interval& x : list)
            if (x.from < b && a < x.to) return false;
        return true;
    }
    bool fit(int64_t t, const Spec& s, const std::vector<std::vector<Interval>>& reserved, std::vector<int>& cores) {
        cores.clear();
        for (int c = 0; c < static_cast<int>(busy_.size()) && static_cast<int64_t>(cores.size()) < s.cores; ++c)
            if (free_over(busy_[c], t, t + s.estimate) && free_over(reserved[c], t, t + s.estimate)) cores.push_back(c);
        return static_cast<int64_t>(cores.size()) == s.cores;
    }
    int64_t earliest(int64_t now, const Spec& s, const std::vector<std::vector<Interval>>& reserved,
                     std::vector<int>& cores) {
        std::vector<int64_t> candidates;
        for (const std::vector<std::vector<Interval>>* lists :
             {static_cast<const std::vector<std::vector<Interval>>*>(&busy_), &reserved})
            for (auto& list : *lists)
                for (const Interval& x : list)
                    if (x.to > now) candidates.push_back(x.to);
        std::sort(candidates.begin(), candidates.end());
        for (int64_t t : candidates)
            if (fit(t, s, reserved, cores)) return t;
        ADD_FAILURE() << "model: no reservation time";
        return -1;
    }

    std::vector<std::vector<Interval>> busy_;  // per core: running spans
    int64_t res_depth_;
    bool stop_;
    int64_t depth_;
};

std::vector<Spec> random_workload(std::mt19937_64& rng, int cores) {
    std::uniform_int_distribution<int> njobs(2, 14), size(1, cores), est(1, 30), gap(0, 6), coin(0, 3);
    int n = njobs(rng);
    std::vector<Spec> jobs;
    int64_t t = 0;
    for (int i = 0; i < n; ++i) {
        t += coin(rng) == 0 ? 0 : gap(rng);
        Spec s;
        s.submit = t;
        s.cores = size(rng);
        s.estimate = est(rng);
        int r = coin(rng);
        // Exact, early (early finishes re-plan), or overrun (killed).
        s.runtime = r == 0 ? s.estimate : r == 1 ? std::max<int64_t>(1, s.estimate / 3) : r == 2 ? s.estimate : s.estimate + 5;
        jobs.push_back(s);
    }
    return jobs;
}

struct PolicyCase {
    const char* name;
    int64_t reservation_depth;
    bool stop;
};

TEST(QueueDifferential, StartTimesAgreeWithASimpleCoreTiedModel) {
    const int kCores = 6;
    const PolicyCase cases[] = {{"fcfs", 0, true}, {"easy", 1, false}, {"conservative", 1 << 30, false}};
    std::mt19937_64 rng(20261124);
    int workloads = 0, compared = 0;
    for (int w = 0; w < 1000; ++w) {
        auto jobs = random_workload(rng, kCores);
        int64_t depth = w % 5 == 0 ? 1 : w % 7 == 0 ? 2 : 0;
        ++workloads;
        for (const PolicyCase& p : cases) {
            Harness h(kCores, p.name, depth);
            auto ours = h.replay(jobs);
            Model model(kCores, p.reservation_depth, p.stop, depth);
            auto theirs = model.run(jobs);
            ASSERT_EQ(ours, theirs) << "policy " << p.name << " depth " << depth << " workload " << w << "\n"
                                    << h.lines.str();
            compared += static_cast<int>(jobs.size());
            if (std::string(p.name) != "easy") continue;
            // EASY: our own first reserve event for each job bounds its start.
            for (int64_t id = 1; id <= static_cast<int64_t>(jobs.size()); ++id) {
                auto reserves = h.events("reserve", id);
                if (reserves.empty()) continue;
                auto at = reserves[0].find(" at=");
                ASSERT_NE(at, std::string::npos);
                int64_t planned = std::stoll(reserves[0].substr(at + 4));
                EXPECT_LE(ours[static_cast<size_t>(id - 1)], planned)
                    << "EASY delayed its reserved job " << id << " in workload " << w;
                EXPECT_EQ(model.first_reservation_.at(static_cast<size_t>(id - 1)), planned);
            }
        }
    }
    EXPECT_EQ(workloads, 1000);
    EXPECT_GT(compared, 10000);
}

}  // namespace
}  // namespace rq::queue
