// Replay results (docs/queue.md, "Replay metrics"):
// one CSV row per finished job, and the summary: makespan, utilization,
// throughput, waits (mean, median, p90, p99, max), bounded slowdown (mean,
// max) with a bound of 10 s unless told otherwise; for the whole trace,
// per queue and per user.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "queue/job.h"

namespace rq::queue {

inline constexpr int64_t kSlowdownBound = 10;

struct Summary {
    int64_t jobs = 0;
    int64_t killed = 0;
    int64_t zero_runtime = 0;   // jobs that ran 0 s (kept, counted apart)
    int64_t makespan = 0;       // last end - first submit
    double core_seconds = 0;
    double utilization = 0;     // core-seconds used / (machine cores * makespan)
    double throughput = 0;      // jobs per hour of makespan
    double wait_mean = 0;
    double wait_median = 0;
    int64_t wait_p90 = 0;       // nearest rank: the wait of rank ceil(0.9 n)
    int64_t wait_p99 = 0;
    int64_t wait_max = 0;
    double bsld_mean = 0;       // mean of max(1, (wait + run) / max(run, bound))
    double bsld_max = 0;
};

// The statistics of a set of finished jobs. Waits are whole seconds, so
// an exact histogram (count per wait) gives the median and percentiles
// without one entry per job: dense below `dense_limit` (grown to the
// longest wait seen), sparse above; memory follows the range of the
// waits, never the number of jobs.
class JobStats {
public:
    explicit JobStats(int64_t dense_limit) : dense_limit_(dense_limit) {}
    void add(int64_t submit, int64_t wait, int64_t run, int64_t size, bool killed, double bsld);
    // `machine_cores` 0: no utilization.
    Summary summary(int64_t machine_cores) const;
    int64_t jobs() const { return jobs_; }
    double core_seconds() const { return core_seconds_; }

private:
    int64_t wait_of_rank(int64_t k) const;  // 0-based, ascending
    int64_t dense_limit_;
    int64_t jobs_ = 0, killed_ = 0, zero_runtime_ = 0;
    int64_t first_submit_ = INT64_MAX, last_end_ = INT64_MIN;
    double core_seconds_ = 0, wait_sum_ = 0, bsld_sum_ = 0, bsld_max_ = 0;
    int64_t wait_max_ = 0;
    std::vector<int64_t> dense_;
    std::map<int64_t, int64_t> sparse_;
};

class Metrics {
public:
    explicit Metrics(int64_t machine_cores, int64_t slowdown_bound = kSlowdownBound)
        : machine_cores_(machine_cores), bound_(slowdown_bound) {}
    // `size`: the job's cores (job.size, or its nodes in cores); `user`
    // may be empty (no per-user entry).
    void add(const QueueJob& job, int64_t size, const std::string& user = "");
    void add(const QueueJob& job) { add(job, job.size); }
    Summary summary() const { return total_.summary(machine_cores_); }
    int64_t slowdown_bound() const { return bound_; }
    // Per queue (every queue), per user (the `top` users by core-seconds,
    // ties by name).
    std::vector<std::pair<std::string, Summary>> by_queue() const;
    std::vector<std::pair<std::string, Summary>> top_users(size_t top) const;
    size_t users() const { return by_user_.size(); }

    // The per-job CSV; `nodes`: the job's nodes as a hostlist
    // (queue/job_nodes.h), empty if none.
    static void csv_header(std::ostream& out);
    static void csv_row(std::ostream& out, const QueueJob& job, int64_t size, const std::string& nodes = "");

private:
    int64_t machine_cores_;
    int64_t bound_;
    static constexpr int64_t kDenseWaits = int64_t(1) << 20;
    JobStats total_{kDenseWaits};
    // Groups keep sparse histograms only: a dense one each would cost
    // megabytes per user.
    std::map<std::string, JobStats> by_queue_, by_user_;
};

// One CSV field as RFC 4180 writes it: quoted (inner quotes doubled) when
// it holds a comma, a quote, or a line break; as is otherwise.
std::string csv_field(const std::string& s);

}  // namespace rq::queue
