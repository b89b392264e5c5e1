// JQM's default scheduler (seed 003 "The default resource scheduler") and
// its resource-manager skip behaviour, as one poll of the simulator.
//
// A poll orders the queues by how long their head (highest priority, then
// oldest) has waited. A tour takes each queue's head in that order and
// asks the queue's managers, then the graph matcher. A refusal ends that
// queue for the poll and marks the refusing managers full for the rest of
// the poll. Tours repeat while some queue still open has room in all its
// managers. With jqm-skip, a "not enough, but not empty" answer skips to
// the queue's next job instead.
#include <algorithm>

#include "queue/jqm_pools.h"
#include "queue/simulator.h"

namespace rq::queue {

namespace {

std::string full_key(const JqmQueue& q, const ResourceManager& m) { return q.name + "/" + m.key; }

}  // namespace

Status Simulator::jqm_check(const QueueJob& job) const {
    const JqmQueue* q = jqm_.find(job.queue);
    if (q == nullptr) return make_error(Errc::kNotFound, "no queue '" + job.queue + "'");
    for (auto& entry : job.rm) {
        // A named reference, not a structured binding: C++17 lambdas
        // cannot capture bindings (clang refuses; GCC accepts).
        const std::string& key = entry.first;
        if (entry.second < 0) return make_error(Errc::kInvalid, "resource manager " + key + ": consumption must be >= 0");
        bool known = std::any_of(q->managers.begin(), q->managers.end(), [&](auto& m) { return m.key == key; });
        if (!known) return make_error(Errc::kNotFound, "queue '" + q->name + "' has no resource manager '" + key + "'");
    }
    auto pools = pools_of(*q);
    if (!pools) return pools.error();
    return (*pools)->check(job);
}

// The managers' answers are the pool matcher's: every need fits now (go),
// or each manager says what it can (see RmAnswer). A manager marked full
// in this poll answers "empty".
RmAnswer Simulator::jqm_ask(const JqmQueue& q, const QueueJob& job, const std::set<std::string>& full) const {
    auto pools = pools_of(q);
    if (!pools) return RmAnswer::kEmpty;
    RmAnswer worst = RmAnswer::kGo;
    for (const ResourceManager& m : q.managers) {
        RmAnswer a = full.count(full_key(q, m)) ? RmAnswer::kEmpty : (*pools)->ask(m, job, now_);
        if (a == RmAnswer::kEmpty) return a;
        if (a == RmAnswer::kNotEnough) worst = a;
    }
    if (worst == RmAnswer::kGo && !(*pools)->fit(job, now_)) worst = RmAnswer::kNotEnough;
    return worst;
}

void Simulator::jqm_take(JqmQueue& q, QueueJob& job) {
    auto pools = pools_of(q);
    if (!pools) return;
    auto fit = (*pools)->fit(job, now_);
    if (!fit) return;  // jqm_ask said go at this instant: cannot happen
    auto items = (*pools)->take(*fit, job, now_);
    if (!items) return;
    for (const ResourceManager& m : q.managers) job.rm_taken[m.key] = consumption(m, job);
    job.rm_items = std::move(*items);
}

void Simulator::jqm_release(QueueJob& job) {
    if (const JqmQueue* q = jqm_.find(job.queue))
        if (q->pools) q->pools->release(job);
    // A job's end wakes the poller at once, not at its next interval:
    // JQM's QueuePoller.releaseResources ends with loop.release(1) ("Force
    // a new loop at once", QueuePoller.java:437-440, unless the global
    // strictPollingPeriod is set), and the poll loop waits on that
    // semaphore with tryAcquire(pollingInterval) (QueuePoller.java:362).
    // Our queues share one poller clock, so the poll covers every queue.
    poll_at_ = now_;
}

void Simulator::jqm_pass() {
    pass_due_ = false;
    poll_at_ = kNever;
    ++passes_;
    traverser_.set_now(now_);
    // Each queue's pending jobs, in queue order.
    std::vector<std::vector<int64_t>> jobs(jqm_.queues.size());
    for (const Key& k : pending_) {
        const QueueJob& j = jobs_.at(k.id);
        for (size_t q = 0; q < jqm_.queues.size(); ++q)
            if (jqm_.queues[q].name == j.queue) jobs[q].push_back(k.id);
    }
    // Queues ordered by their head's waiting time (longest first; equal
    // waits: the head submitted first).
    std::vector<size_t> order;
    for (size_t q = 0; q < jobs.size(); ++q)
        if (!jobs[q].empty()) order.push_back(q);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const QueueJob& x = jobs_.at(jobs[a][0]);
        const QueueJob& y = jobs_.at(jobs[b][0]);
        return x.submit != y.submit ? x.submit < y.submit : x.seq < y.seq;
    });
    std::vector<size_t> cursor(jobs.size(), 0);
    std::vector<bool> done(jobs.size(), false);
    std::set<std::string> full;
    bool started_any = false;
    for (bool tour = true; tour;) {
        for (size_t q : order) {
            JqmQueue& queue = jqm_.queues[q];
            while (!done[q]) {
                if (cursor[q] >= jobs[q].size()) {
                    done[q] = true;
                    break;
                }
                QueueJob& job = jobs_.at(jobs[q][cursor[q]]);
                job.considered_in = passes_;
                RmAnswer answer = jqm_ask(queue, job, full);
                MatchResult r;
                if (answer == RmAnswer::kGo) {
                    r = match(job, MatchOp::kAllocate);
                    if (!r.ok()) answer = RmAnswer::kNotEnough;  // the graph is busy
                }
                if (answer == RmAnswer::kGo) {
                    jqm_take(queue, job);
                    pending_.erase(key_of(job));
                    start(job);
                    started_any = true;
                    ++cursor[q];
                    break;  // one job per queue per tour
                }
                if (answer == RmAnswer::kNotEnough && policy_of(queue.name).jqm_skip) {
                    job.reason = "not enough resources (skipped to the next job)";
                    ++cursor[q];
                    continue;
                }
                job.reason = answer == RmAnswer::kEmpty ? "a resource manager is full for this poll"
                                                        : "not enough resources; the queue waits for this job";
                done[q] = true;
                auto pools = pools_of(queue);
                for (const ResourceManager& m : queue.managers)
                    if (pools && (*pools)->ask(m, job, now_) != RmAnswer::kGo) full.insert(full_key(queue, m));
            }
        }
        // Another tour while some open queue's managers all have room.
        tour = false;
        for (size_t q : order) {
            if (done[q]) continue;
            const JqmQueue& queue = jqm_.queues[q];
            auto pools = pools_of(queue);
            bool room = pools && std::all_of(queue.managers.begin(), queue.managers.end(), [&](const ResourceManager& m) {
                return (*pools)->has_room(m, now_) && !full.count(full_key(queue, m));
            });
            if (room) tour = true;
        }
    }
    traverser_.clear_message();
    traverser_.set_now(0);
    // JQM polls every interval. A poll that started nothing changed
    // nothing, so the next one would repeat it: only schedule the next
    // poll after a poll that started something (events set their own).
    if (started_any && !pending_.empty()) {
        pass_due_ = true;
        poll_at_ = now_ + jqm_.poll_interval;
    }
}

}  // namespace rq::queue
