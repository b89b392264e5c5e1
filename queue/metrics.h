// Replay results: one CSV row per finished job, and the summary (makespan,
// utilization, waits, mean bounded slowdown with a 10 s bound).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <vector>

#include "queue/job.h"

namespace rq::queue {

inline constexpr int64_t kSlowdownBound = 10;

struct Summary {
    int64_t jobs = 0;
    int64_t killed = 0;
    int64_t makespan = 0;       // last end - first submit
    double utilization = 0;     // core-seconds used / (machine cores * makespan)
    double wait_mean = 0;
    double wait_median = 0;
    int64_t wait_max = 0;
    double bsld_mean = 0;       // mean of max(1, (wait + run) / max(run, 10))
};

class Metrics {
public:
    explicit Metrics(int64_t machine_cores) : machine_cores_(machine_cores) {}
    // `size`: the job's cores (job.size, or its nodes in cores).
    void add(const QueueJob& job, int64_t size);
    void add(const QueueJob& job) { add(job, job.size); }
    Summary summary() const;

    static void csv_header(std::ostream& out);
    static void csv_row(std::ostream& out, const QueueJob& job, int64_t size);

private:
    int64_t machine_cores_;
    int64_t jobs_ = 0, killed_ = 0;
    int64_t first_submit_ = INT64_MAX, last_end_ = INT64_MIN;
    double core_seconds_ = 0, wait_sum_ = 0, bsld_sum_ = 0;
    int64_t wait_max_ = 0;
    // The median without one entry per job: waits are whole seconds, so an
    // exact histogram (count per wait) gives it. Dense below kDenseWaits
    // (grown to the longest wait seen), sparse above; memory follows the
    // range of the waits, never the number of jobs.
    static constexpr int64_t kDenseWaits = int64_t(1) << 20;
    std::vector<int64_t> dense_;
    std::map<int64_t, int64_t> sparse_;
    // The wait of rank k (0-based) in ascending order.
    int64_t wait_of_rank(int64_t k) const;
};

}  // namespace rq::queue
