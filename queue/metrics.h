// Replay results: one CSV row per finished job, and the summary (makespan,
// utilization, waits, mean bounded slowdown with a 10 s bound).
#pragma once

#include <cstdint>
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
    void add(const QueueJob& job);
    Summary summary() const;

    static void csv_header(std::ostream& out);
    static void csv_row(std::ostream& out, const QueueJob& job);

private:
    int64_t machine_cores_;
    int64_t jobs_ = 0, killed_ = 0;
    int64_t first_submit_ = INT64_MAX, last_end_ = INT64_MIN;
    double core_seconds_ = 0, wait_sum_ = 0, bsld_sum_ = 0;
    int64_t wait_max_ = 0;
    // One int per job for the median (the only per-job state kept).
    std::vector<int32_t> waits_;
};

}  // namespace rq::queue
