#include "queue/metrics.h"

#include <algorithm>

namespace rq::queue {

void JobStats::add(int64_t submit, int64_t wait, int64_t run, int64_t size, bool killed, double bsld) {
    ++jobs_;
    if (killed) ++killed_;
    if (run == 0) ++zero_runtime_;
    first_submit_ = std::min(first_submit_, submit);
    last_end_ = std::max(last_end_, submit + wait + run);
    core_seconds_ += double(size) * double(run);
    wait_sum_ += double(wait);
    wait_max_ = std::max(wait_max_, wait);
    bsld_sum_ += bsld;
    bsld_max_ = std::max(bsld_max_, bsld);
    if (wait >= 0 && wait < dense_limit_) {
        if (static_cast<size_t>(wait) >= dense_.size()) dense_.resize(static_cast<size_t>(wait) + 1, 0);
        ++dense_[static_cast<size_t>(wait)];
    } else {
        ++sparse_[wait];
    }
}

int64_t JobStats::wait_of_rank(int64_t k) const {
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

Summary JobStats::summary(int64_t machine_cores) const {
    Summary s;
    s.jobs = jobs_;
    s.killed = killed_;
    s.zero_runtime = zero_runtime_;
    if (jobs_ == 0) return s;
    s.makespan = last_end_ - first_submit_;
    s.core_seconds = core_seconds_;
    if (s.makespan > 0 && machine_cores > 0) s.utilization = core_seconds_ / (double(machine_cores) * double(s.makespan));
    if (s.makespan > 0) s.throughput = double(jobs_) * 3600.0 / double(s.makespan);
    s.wait_mean = wait_sum_ / double(jobs_);
    s.wait_max = wait_max_;
    s.bsld_mean = bsld_sum_ / double(jobs_);
    s.bsld_max = bsld_max_;
    int64_t mid = jobs_ / 2;
    double hi = double(wait_of_rank(mid));
    s.wait_median = jobs_ % 2 == 0 ? (double(wait_of_rank(mid - 1)) + hi) / 2 : hi;
    // Nearest rank: the smallest wait with at least p% of the jobs at or
    // below it, rank ceil(p n / 100) counted from 1.
    auto percentile = [&](int64_t p) { return wait_of_rank((p * jobs_ + 99) / 100 - 1); };
    s.wait_p90 = percentile(90);
    s.wait_p99 = percentile(99);
    return s;
}

void Metrics::add(const QueueJob& job, int64_t size, const std::string& user) {
    int64_t wait = job.start - job.submit;
    int64_t run = job.end - job.start;
    double bsld = std::max(1.0, double(wait + run) / double(std::max(run, bound_)));
    total_.add(job.submit, wait, run, size, job.killed(), bsld);
    by_queue_.try_emplace(job.queue, 0).first->second.add(job.submit, wait, run, size, job.killed(), bsld);
    if (!user.empty()) by_user_.try_emplace(user, 0).first->second.add(job.submit, wait, run, size, job.killed(), bsld);
}

std::vector<std::pair<std::string, Summary>> Metrics::by_queue() const {
    std::vector<std::pair<std::string, Summary>> out;
    for (auto& [name, stats] : by_queue_) out.emplace_back(name, stats.summary(machine_cores_));
    return out;
}

std::vector<std::pair<std::string, Summary>> Metrics::top_users(size_t top) const {
    std::vector<const std::pair<const std::string, JobStats>*> users;
    for (auto& entry : by_user_) users.push_back(&entry);
    auto order = [](auto* a, auto* b) {
        if (a->second.core_seconds() != b->second.core_seconds()) return a->second.core_seconds() > b->second.core_seconds();
        return a->first < b->first;
    };
    size_t n = std::min(top, users.size());
    std::partial_sort(users.begin(), users.begin() + static_cast<std::ptrdiff_t>(n), users.end(), order);
    std::vector<std::pair<std::string, Summary>> out;
    for (size_t i = 0; i < n; ++i) out.emplace_back(users[i]->first, users[i]->second.summary(machine_cores_));
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

void Metrics::csv_header(std::ostream& out) {
    out << "job,name,queue,submit,start,end,wait,runtime,estimate,size,status,nodes\n";
}

void Metrics::csv_row(std::ostream& out, const QueueJob& j, int64_t size, const std::string& nodes) {
    out << j.id << ',' << csv_field(j.name) << ',' << csv_field(j.queue) << ',' << j.submit << ',' << j.start << ','
        << j.end << ',' << (j.start - j.submit) << ',' << j.runtime << ',' << j.estimate << ',' << size << ','
        << (j.killed() ? "killed" : "completed") << ',' << csv_field(nodes) << '\n';
}

}  // namespace rq::queue
