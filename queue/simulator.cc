#include "queue/simulator.h"

#include <algorithm>
#include <cctype>

namespace rq::queue {

namespace {

void add_totals(const std::vector<JobResource>& resources, int64_t multiplier,
                std::vector<std::pair<TypeId, int64_t>>& totals) {
    for (const JobResource& r : resources) {
        int64_t n = multiplier * static_cast<int64_t>(r.count.min);
        auto it = std::find_if(totals.begin(), totals.end(), [&](auto& p) { return p.first == r.type; });
        if (it == totals.end())
            totals.emplace_back(r.type, n);
        else
            it->second += n;
        add_totals(r.with, n, totals);
    }
}

}  // namespace

Simulator::Simulator(DfuTraverser& traverser, QueuePolicy policy, EventLog& log, int64_t& next_id)
    : traverser_(traverser), policy_(std::move(policy)), log_(log), next_id_(next_id) {
    collector_.keep_names(log_.active());
}

Simulator::~Simulator() {
    if (!owns_traverser_) return;
    traverser_.set_span_ends(nullptr);
    traverser_.set_replay_shortcuts(false);  // the per-leaf records and checkers again, for whoever reads them next
}

Event Simulator::event(const QueueJob& job, const char* name) const {
    Event e;
    e.time = now_;
    e.event = name;
    e.job = job.id;
    e.queue = job.queue;
    e.name = job.name;
    return e;
}

Result<int64_t> Simulator::submit(QueueJob job) {
    if (job.priority < 1 || job.priority > 10)
        return make_error(Errc::kInvalid, "priority must be 1 to 10, not " + std::to_string(job.priority));
    if (job.estimate <= 0) return make_error(Errc::kInvalid, "the job needs a positive duration (requested time)");
    if (job.runtime < 0) return make_error(Errc::kInvalid, "the run time must not be negative");
    if (policy_.jqm) RQ_TRY(jqm_check(job));
    if (multi_queue_ && jqm_.find(job.queue) == nullptr) return make_error(Errc::kNotFound, "no queue '" + job.queue + "'");
    MatchResult sat = match(job, MatchOp::kSatisfiability);
    traverser_.clear_message();
    if (!sat.ok())
        return make_error(sat.code, sat.code == Errc::kUnsatisfiable
                                        ? "the request can never be satisfied on this resource graph"
                                        : std::string("the request is invalid: ") + errc_text(sat.code));
    return enqueue(std::move(job));
}

void Simulator::add_job_totals(QueueJob& job) { add_totals(job.jobspec->resources, 1, job.totals); }

int64_t Simulator::enqueue(QueueJob job) {
    job.totals.clear();
    add_job_totals(job);
    job.id = next_id_++;
    job.submit = now_;
    job.seq = next_seq_++;
    job.state = QueueJobState::kPending;
    job.reason = "submitted; the pass of this instant has not run yet";
    if (log_.active()) {  // a replay without an event log builds none
        Event e = event(job, "submit");
        e.fields = {{"priority", std::to_string(job.priority)},
                    {"estimate", std::to_string(job.estimate)},
                    {"runtime", std::to_string(job.runtime)}};
        log_.emit(e);
    }
    int64_t id = job.id;
    if (reusable_ && !kept_.empty() && key_of(job) < key_of(jobs_.at(kept_.back().id))) reusable_ = false;
    pending_.insert(key_of(job));
    jobs_.emplace(id, std::move(job));
    pass_due_ = true;
    return id;
}

Status Simulator::set_priority(int64_t id, int priority) {
    if (priority < 1 || priority > 10)
        return make_error(Errc::kInvalid, "priority must be 1 to 10, not " + std::to_string(priority));
    auto it = jobs_.find(id);
    if (it == jobs_.end() || it->second.state == QueueJobState::kRunning)
        return make_error(Errc::kNotFound, "no pending job " + std::to_string(id));
    reusable_ = false;
    pending_.erase(key_of(it->second));
    it->second.priority = priority;
    pending_.insert(key_of(it->second));
    pass_due_ = true;
    return ok_status();
}

Status Simulator::dequeue(int64_t id) {
    auto it = jobs_.find(id);
    if (it == jobs_.end() || it->second.state == QueueJobState::kRunning)
        return make_error(Errc::kNotFound, "no pending job " + std::to_string(id));
    if (it->second.state == QueueJobState::kReserved) {
        drop_proof_slot(it->second);
        release(it->second);
        reserved_.erase(std::find(reserved_.begin(), reserved_.end(), id));
        for (int64_t other : reserved_) jobs_[other].keep.valid = false;  // its window was freed
    }
    reusable_ = false;
    pending_.erase(key_of(it->second));
    jobs_.erase(it);
    pass_due_ = true;
    return ok_status();
}

void Simulator::settle() {
    if (!pass_due_) return;
    if (!policy_.jqm) {
        pass();
        return;
    }
    // JQM polls on a grid of poll intervals.
    if (poll_at_ == kNever) poll_at_ = at_poll_instant() ? now_ : (now_ / jqm_.poll_interval + 1) * jqm_.poll_interval;
    if (poll_at_ <= now_) pass();
}

Status Simulator::advance(int64_t seconds) {
    if (seconds < 0) return make_error(Errc::kInvalid, "advance needs a non-negative number of seconds");
    if (seconds > kGraphEnd - now_) return make_error(Errc::kRange, "advance would pass the end of the planning window");
    int64_t target = now_ + seconds;
    RQ_TRY(process_until(target, nullptr));
    now_ = target;
    return ok_status();
}

Result<size_t> Simulator::run(Arrivals* arrivals) {
    RQ_TRY(process_until(kNever, arrivals));
    return pending_.size();
}

Status Simulator::process_until(int64_t limit, Arrivals* arrivals) {
    settle();
    for (;;) {
        int64_t t = ends_.empty() ? kNever : ends_.top().end;
        if (arrivals != nullptr) t = std::min(t, arrivals->next_time());
        if (pass_due_) t = std::min(t, poll_at_);
        if (t == kNever || t > limit) return ok_status();
        if (t < now_) return make_error(Errc::kInvalid, "an arrival at " + std::to_string(t) + " is before the clock");
        now_ = t;
        release_ends(t);
        if (arrivals != nullptr && arrivals->next_time() == t) RQ_TRY(arrivals->enqueue_due(t));
        settle();
        if (on_instant_) on_instant_(now_);
    }
}

void Simulator::release_ends(int64_t t) {
    while (!ends_.empty() && ends_.top().end == t) {
        int64_t id = ends_.top().id;
        ends_.pop();
        auto it = jobs_.find(id);
        note_change(it->second, it->second.span_end);  // frees [t, span_end): kept_reservations.cc
        release(it->second);
        if (policy_.jqm) jqm_release(it->second);
        if (log_.active()) {
            Event e = event(it->second, "end");
            e.fields = {{"status", it->second.killed() ? "killed" : "completed"}};
            log_.emit(e);
        }
        if (on_finish_) on_finish_(it->second);
        jobs_.erase(it);
        pass_due_ = true;
        reusable_ = false;
    }
}

// Whether this pass may keep the previous pass's outcome for its leading
// jobs. It recomputes from scratch in principle (docs/queue.md "A pass"); keeping is
// exact when the recomputation would read the same inputs: the planner
// holds the same spans (no release, no start since), every edge weight is
// the same (the `first` policies order children by them), the same jobs
// lead the queue, and time only moved forward without crossing a span
// boundary (no release; every kept reservation is still in the future).
// A kept reservation then comes out at the same time on the same
// vertices, and a job that could not start at the previous pass cannot
// start now: every running span covers both instants, and a window that
// starts later overlaps every reservation the earlier one did.
bool Simulator::reuse_now() const {
    if (!owns_traverser_ || !reusable_) return false;
    auto it = pending_.begin();
    for (const Kept& k : kept_) {
        if (it == pending_.end() || it->id != k.id) return false;
        if (k.reserved && jobs_.at(k.id).reserved_at <= now_) return false;
        ++it;
    }
    return true;
}

void Simulator::pass() {
    if (policy_.jqm) {
        jqm_pass();
        return;
    }
    if (multi_queue_) {  // several queues: queue/queue_set.cc
        multi_pass();
        return;
    }
    pass_due_ = false;
    ++passes_;
    traverser_.set_now(now_);
    if (owns_traverser_ && !walk_cancel_) {
        traverser_.set_span_ends(&span_ends_);
        traverser_.set_skip_short_walks(true);  // a match's message is never read here
    }
    bool reuse = reuse_now();
    // Reservations are recomputed from scratch (docs/queue.md "A pass"): cancel them all
    // (unless they are kept, see reuse_now() and kept_reservations.cc).
    std::vector<int64_t> previously;
    if (!reuse) previously = keeping() ? hold_reservations() : cancel_reservations();
    failed_.clear();
    std::vector<Kept> kept;
    bool blocked_seen = false, changed_after = false;
    size_t reused = 0;
    int64_t considered = 0, reservations = 0;
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (policy_.queue_depth != 0 && considered >= policy_.queue_depth) break;
        ++considered;
        QueueJob& job = jobs_[it->id];
        Outcome outcome;
        if (reuse && reused < kept_.size()) {
            job.considered_in = passes_;
            outcome = kept_[reused].reserved ? Outcome::kReserved : Outcome::kBlocked;
            if (outcome == Outcome::kReserved) ++reservations;
            ++reused;
            ++reused_tries_;
        } else if (held_next_ < held_.size() && keep_holds(job)) {
            outcome = keep_reservation(job, reservations);
            if (collector_.weights_changed()) changed_after = true;
        } else {
            drop_held();
            traverser_.track_order_reads(keeping() && reservations < policy_.reservation_depth);
            outcome = try_job(job, reservations, policy_);
            if (outcome == Outcome::kReserved) note_keep_proof(job, keeping());
            if (blocked_seen && (outcome == Outcome::kStarted ||
                                 (outcome == Outcome::kReserved && collector_.weights_changed())))
                changed_after = true;
            if (outcome == Outcome::kReserved && collector_.weights_changed()) changed_after = true;
        }
        if (outcome == Outcome::kReserved || outcome == Outcome::kBlocked) {
            blocked_seen = true;
            kept.push_back({job.id, outcome == Outcome::kReserved});
        }
        if (!step_past(outcome, it, policy_)) break;
    }
    drop_held();
    traverser_.track_order_reads(false);
    forget_unreserved(previously);
    kept_ = std::move(kept);
    reusable_ = owns_traverser_ && !changed_after;
    traverser_.clear_message();
    traverser_.set_span_ends(nullptr);
    traverser_.set_skip_short_walks(false);
    // A plain `match` keeps the reference's time-0 behaviour.
    traverser_.set_now(0);
}

Simulator::Outcome Simulator::try_job(QueueJob& job, int64_t& reservations, const QueuePolicy& policy) {
    job.considered_in = passes_;
    bool may_reserve = reservations < policy.reservation_depth;
    job.jobspec->duration = static_cast<double>(job.estimate);
    collector_.reset();
    MatchOp op = may_reserve ? MatchOp::kAllocateOrElseReserve : MatchOp::kAllocate;
    MatchResult r;
    if (!may_reserve && surely_busy(job))
        r.code = Errc::kBusy;
    else
        r = match(job, op);
    if (r.ok()) failed_.clear();  // the planners changed
    if (r.ok() && r.at == now_) {
        hold(job, r);
        start(job);
        return Outcome::kStarted;
    }
    if (!may_reserve && r.code == Errc::kBusy) {
        auto [it, inserted] = failed_.emplace(job.jobspec.get(), job.estimate);
        if (!inserted) it->second = std::min(it->second, job.estimate);
    }
    if (r.ok()) {
        ++reservations;
        reserved_.push_back(job.id);
        hold(job, r);
        job.state = QueueJobState::kReserved;
        job.reason = "reserved at " + std::to_string(r.at);
        if (job.reserved_at != r.at) {
            Event e = event(job, "reserve");
            e.fields = {{"at", std::to_string(r.at)}};
            e.resources = &collector_.names();
            log_.emit(e);
        }
        job.reserved_at = r.at;
        return Outcome::kReserved;
    }
    if (r.code == Errc::kBusy) {
        job.reason = may_reserve ? "busy, and no reservation possible (resources down)"
                     : policy.stop_at_first_blocked ? "resources busy (fcfs: the queue waits for this job)"
                                                     : "resources busy; no reservation left in this pass";
        return Outcome::kBlocked;
    }
    Event e = event(job, "reject");
    std::string why = r.code == Errc::kUnsatisfiable ? "the request can never be satisfied on this resource graph"
                                                     : std::string("invalid request: ") + errc_text(r.code);
    e.fields = {{"reason", "\"" + why + "\""}};
    log_.emit(e);
    return Outcome::kRejected;
}

bool Simulator::surely_busy(const QueueJob& job) {
    auto failed = failed_.find(job.jobspec.get());
    if (failed != failed_.end() && failed->second <= job.estimate) return true;
    const SubtreePlan* root = traverser_.store().subtree(traverser_.graph().root(traverser_.dominant()), 0);
    if (root == nullptr || root->plan.size() == 0) return false;
    request_.assign(root->plan.size(), 0);
    bool any = false;
    for (auto& [type, n] : job.totals) {
        int64_t i = root->plan.index_of(type);
        if (i < 0) continue;
        request_[static_cast<size_t>(i)] += n;
        any = true;
    }
    return any && !root->plan.fits(now_, job.estimate, request_);
}

std::vector<int64_t> Simulator::cancel_reservations() {
    std::vector<int64_t> previously = std::move(reserved_);
    reserved_.clear();
    for (int64_t id : previously) unreserve(jobs_[id]);
    return previously;
}

void Simulator::unreserve(QueueJob& job) {
    drop_proof_slot(job);
    release(job);
    job.state = QueueJobState::kPending;
    job.keep = {};  // a pending job keeps no proof (memory: the queue may be deep)
}

bool Simulator::step_past(Outcome outcome, std::set<Key>::iterator& it, const QueuePolicy& policy) {
    if (outcome == Outcome::kStarted) {
        it = pending_.erase(it);
    } else if (outcome == Outcome::kRejected) {
        int64_t id = it->id;
        it = pending_.erase(it);
        jobs_.erase(id);
    } else if (outcome == Outcome::kBlocked && policy.stop_at_first_blocked) {
        return false;
    } else {
        ++it;
    }
    return true;
}

void Simulator::forget_unreserved(const std::vector<int64_t>& previously) {
    for (int64_t id : previously) {
        auto it = jobs_.find(id);
        if (it != jobs_.end() && it->second.state == QueueJobState::kPending) it->second.reserved_at = -1;
    }
}

void Simulator::release(QueueJob& job) {
    if (on_hold_change_) on_hold_change_(job);
    if (walk_cancel_)
        (void)traverser_.cancel(job.id);
    else
        (void)traverser_.cancel_held(job.id, job.held);
    job.held.clear();
    job.held.shrink_to_fit();
    if (job.span_end >= 0) span_ends_.erase(span_ends_.find(job.span_end));
    job.span_end = -1;
}

void Simulator::hold(QueueJob& job, const MatchResult& r) {
    // A pool request's records are the pool matcher's: released by the
    // full cancel (an empty list), not by what it emitted (left in the
    // collector for on_start).
    if (!job.pool) job.held = collector_.take_held();
    job.span_end = r.at + r.duration;
    span_ends_.insert(job.span_end);
    if (on_hold_change_) on_hold_change_(job);
}

void Simulator::start(QueueJob& job) {
    job.state = QueueJobState::kRunning;
    job.start = now_;
    job.end = now_ + std::min(job.runtime, job.estimate);
    job.reserved_at = -1;
    drop_proof_slot(job);
    job.keep = {};
    note_change(job, job.span_end);  // takes [now, span_end): kept_reservations.cc
    // A JQM start (no span end kept: JQM never reserves).
    if (job.held.empty() && !job.pool) job.held = collector_.take_held();
    if (job.size == 0) job.size = collector_.cores();
    if (on_start_) on_start_(job, job.pool ? collector_.held() : job.held);
    if (!log_.active()) {
        ends_.push({job.end, job.seq, job.id});
        return;
    }
    Event e = event(job, "start");
    for (auto& [key, items] : job.rm_items) {
        std::string list;
        for (auto& item : items) list += (list.empty() ? "" : ",") + item;
        std::string k = key;
        for (char& c : k) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (!items.empty()) e.fields.emplace_back("JQM_RM_DISCRETE_" + k + "_ITEMS", list);
    }
    e.resources = &collector_.names();
    log_.emit(e);
    ends_.push({job.end, job.seq, job.id});
}

std::vector<const QueueJob*> Simulator::pending() const {
    std::vector<const QueueJob*> out;
    out.reserve(pending_.size());
    for (const Key& k : pending_) out.push_back(&jobs_.at(k.id));
    return out;
}

}  // namespace rq::queue
