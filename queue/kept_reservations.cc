// Kept reservations (docs/queue.md "Kept reservations"). A pass recomputes
// every reservation from scratch in principle (docs/queue.md "A pass"); at
// every job end that meant cancelling the head reservation (all of them,
// under conservative) over thousands of per-core planners and making it
// again, mostly unchanged. Here a pass keeps the previous pass's
// reservation R = (T, V) of job J, made at an earlier pass P0, when the
// recomputation provably gives the same:
//
//   * every job before J in this walk kept its reservation (the planner J
//     would be re-matched on holds exactly what it held for J at P0, apart
//     from the changes below), and T > now;
//   * every span released or started since P0 ends by T (touched_until):
//     the planners over J's window [T, T+d) are as they were, so the
//     selection at T reads the same availability;
//   * no vertex whose child order J's match read (the `first` policies
//     order children by edge weights, which updates rewrite) changed its
//     order since: the selection walks the same way and chooses V;
//   * the root's aggregate, without J's reservation and those after it,
//     first fits J's totals at T from now on: the search tries now, fails
//     (the aggregate is a necessary condition), then tries the aggregate's
//     earliest fit after now, which is T, and succeeds there.
//
// Keeping J then does what re-making it would do beyond the identical
// spans: its update walk re-weights the edges it takes at now
// (DfuTraverser::reweight_at_now).
#include <algorithm>

#include "queue/simulator.h"

namespace rq::queue {

bool Simulator::keeping() const {
    return owns_traverser_ && !walk_cancel_ && !multi_queue_ && !policy_.jqm && !on_hold_change_;
}

void Simulator::lift_root_span(QueueJob& job, std::vector<int64_t>& amounts) {
    amounts.clear();
    SubtreePlan* root = traverser_.store().subtree(traverser_.graph().root(traverser_.dominant()), 0);
    if (root == nullptr) return;
    auto it = root->job2span.find(job.id);
    if (it == root->job2span.end()) return;
    SpanId span = it->second;
    for (size_t i = 0; i < root->plan.size(); ++i) amounts.push_back(root->plan.span_amount(span, i).value_or(0));
    (void)root->plan.remove_span(span);
    root->job2span.erase(job.id);
}

void Simulator::put_back_root_span(QueueJob& job, const std::vector<int64_t>& amounts) {
    if (amounts.empty()) return;
    SubtreePlan* root = traverser_.store().subtree(traverser_.graph().root(traverser_.dominant()), 0);
    auto span = root->plan.add_span(job.reserved_at, job.span_end - job.reserved_at, amounts);
    if (span.ok()) root->job2span[job.id] = *span;
}

std::vector<int64_t> Simulator::hold_reservations() {
    // A reservation due now starts or moves in this pass; until it is
    // cancelled its span counts at now, where a kept one's re-weighting
    // reads (reweight_at_now): cancel everything, as the recomputation does.
    for (int64_t id : reserved_)
        if (jobs_[id].reserved_at <= now_) return cancel_reservations();
    held_ = reserved_;
    reserved_.clear();
    held_next_ = 0;
    held_amounts_.resize(held_.size());
    for (size_t i = 0; i < held_.size(); ++i) lift_root_span(jobs_[held_[i]], held_amounts_[i]);
    return held_;
}

bool Simulator::keep_holds(const QueueJob& job) {
    if (held_next_ >= held_.size() || held_[held_next_] != job.id) return false;
    const QueueJob::KeepProof& proof = job.keep;
    if (!proof.valid || job.pool || job.reserved_at <= now_ || proof.touched_until > job.reserved_at) return false;
    if (held_amounts_[held_next_].empty() || job.span_end - job.reserved_at != job.estimate) return false;
    const ResourceGraph& graph = traverser_.graph();
    for (VertexId v : proof.order_reads)
        if (graph.order_stamp(v) > proof.order_clock) return false;
    const SubtreePlan* root = traverser_.store().subtree(graph.root(traverser_.dominant()), 0);
    request_.assign(root->plan.size(), 0);
    for (auto& [type, n] : job.totals) {
        int64_t i = root->plan.index_of(type);
        if (i >= 0) request_[static_cast<size_t>(i)] += n;
    }
    // The search (DfuTraverser::schedule) tries now, then the aggregate's
    // first fitting scheduled point after now.
    int64_t d = job.span_end - job.reserved_at;
    if (root->plan.fits(now_, d, request_)) return false;
    auto first_fit = root->plan.earliest(now_ + 1, d, request_);
    return first_fit.ok() && *first_fit == job.reserved_at;
}

Simulator::Outcome Simulator::keep_reservation(QueueJob& job, int64_t& reservations) {
    job.considered_in = passes_;
    put_back_root_span(job, held_amounts_[held_next_]);
    ++held_next_;
    traverser_.reweight_at_now(job.keep.edges);
    collector_.reset();  // weights_changed() as the re-made match's walk would leave it
    for (EdgeId e : job.keep.edges) collector_.edge(traverser_.graph(), e, false);
    failed_.clear();  // what re-making it does (the planners changed)
    ++reservations;
    ++kept_reservations_;
    reserved_.push_back(job.id);
    return Outcome::kReserved;
}

void Simulator::note_keep_proof(QueueJob& job, bool keep) {
    QueueJob::KeepProof& proof = job.keep;
    proof = {};
    if (!keep || job.pool) return;
    proof.valid = true;
    proof.order_reads = traverser_.take_order_reads();
    proof.order_clock = traverser_.run_order_clock();
    proof.edges = collector_.take_held_edges();
}

void Simulator::drop_held() {
    for (; held_next_ < held_.size(); ++held_next_) {
        QueueJob& job = jobs_[held_[held_next_]];
        put_back_root_span(job, held_amounts_[held_next_]);
        unreserve(job);
    }
    held_.clear();
    held_amounts_.clear();
    held_next_ = 0;
}

void Simulator::note_change(int64_t span_end) {
    if (span_end <= now_) return;  // nothing in the future changed
    for (int64_t id : reserved_) {
        QueueJob& job = jobs_[id];
        job.keep.touched_until = std::max(job.keep.touched_until, span_end);
    }
}

}  // namespace rq::queue
