#include "queue/metrics.h"

#include <algorithm>

namespace rq::queue {

void Metrics::add(const QueueJob& job, int64_t size) {
    int64_t wait = job.start - job.submit;
    int64_t run = job.end - job.start;
    ++jobs_;
    if (job.killed()) ++killed_;
    first_submit_ = std::min(first_submit_, job.submit);
    last_end_ = std::max(last_end_, job.end);
    core_seconds_ += double(size) * double(run);
    wait_sum_ += double(wait);
    wait_max_ = std::max(wait_max_, wait);
    bsld_sum_ += std::max(1.0, double(wait + run) / double(std::max(run, kSlowdownBound)));
    if (wait >= 0 && wait < kDenseWaits) {
        if (static_cast<size_t>(wait) >= dense_.size()) dense_.resize(static_cast<size_t>(wait) + 1, 0);
        ++dense_[static_cast<size_t>(wait)];
    } else {
        ++sparse_[wait];
    }
}

int64_t Metrics::wait_of_rank(int64_t k) const {
    // Negative waits (none in practice) sort first, then the dense range.
    auto it = sparse_.begin();
    for (; it != sparse_.end() && it->first < 0; ++it) {
        if (k < it->second) return it->first;
        k -= it->second;
    }
    for (size_t w = 0; w < dense_.size(); ++w) {
        if (k < dense_[w]) return static_cast<int64_t>(w);
        k -= dense_[w];
    }
    for (; it != sparse_.end(); ++it) {
        if (k < it->second) return it->first;
        k -= it->second;
    }
    return wait_max_;  // not reached: k < jobs_
}

Summary Metrics::summary() const {
    Summary s;
    s.jobs = jobs_;
    s.killed = killed_;
    if (jobs_ == 0) return s;
    s.makespan = last_end_ - first_submit_;
    if (s.makespan > 0 && machine_cores_ > 0) s.utilization = core_seconds_ / (double(machine_cores_) * double(s.makespan));
    s.wait_mean = wait_sum_ / double(jobs_);
    s.wait_max = wait_max_;
    s.bsld_mean = bsld_sum_ / double(jobs_);
    int64_t mid = jobs_ / 2;
    double hi = double(wait_of_rank(mid));
    s.wait_median = jobs_ % 2 == 0 ? (double(wait_of_rank(mid - 1)) + hi) / 2 : hi;
    return s;
}

void Metrics::csv_header(std::ostream& out) {
    out << "job,name,queue,submit,start,end,wait,runtime,estimate,size,status\n";
}

void Metrics::csv_row(std::ostream& out, const QueueJob& j, int64_t size) {
    out << j.id << ',' << j.name << ',' << j.queue << ',' << j.submit << ',' << j.start << ',' << j.end << ','
        << (j.start - j.submit) << ',' << j.runtime << ',' << j.estimate << ',' << size << ','
        << (j.killed() ? "killed" : "completed") << '\n';
}

}  // namespace rq::queue
