#include "queue/metrics.h"

#include <algorithm>

namespace rq::queue {

void Metrics::add(const QueueJob& job) {
    int64_t wait = job.start - job.submit;
    int64_t run = job.end - job.start;
    ++jobs_;
    if (job.killed()) ++killed_;
    first_submit_ = std::min(first_submit_, job.submit);
    last_end_ = std::max(last_end_, job.end);
    core_seconds_ += double(job.size) * double(run);
    wait_sum_ += double(wait);
    wait_max_ = std::max(wait_max_, wait);
    bsld_sum_ += std::max(1.0, double(wait + run) / double(std::max(run, kSlowdownBound)));
    waits_.push_back(static_cast<int32_t>(std::min<int64_t>(wait, INT32_MAX)));
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
    std::vector<int32_t> w = waits_;
    size_t mid = w.size() / 2;
    std::nth_element(w.begin(), w.begin() + mid, w.end());
    double hi = w[mid];
    if (w.size() % 2 == 0) {
        double lo = *std::max_element(w.begin(), w.begin() + mid);
        s.wait_median = (lo + hi) / 2;
    } else {
        s.wait_median = hi;
    }
    return s;
}

void Metrics::csv_header(std::ostream& out) {
    out << "job,name,queue,submit,start,end,wait,runtime,estimate,size,status\n";
}

void Metrics::csv_row(std::ostream& out, const QueueJob& j) {
    out << j.id << ',' << j.name << ',' << j.queue << ',' << j.submit << ',' << j.start << ',' << j.end << ','
        << (j.start - j.submit) << ',' << j.runtime << ',' << j.estimate << ',' << j.size << ','
        << (j.killed() ? "killed" : "completed") << '\n';
}

}  // namespace rq::queue
