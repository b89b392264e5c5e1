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
    if (!proof.valid || job.pool || job.reserved_at <= now_) return false;
    if (proof.slot >= 0 ? proof.touched : proof.touched_until > job.reserved_at) return false;
    if (held_amounts_[held_next_].empty() || job.span_end - job.reserved_at != job.estimate) return false;
    const ResourceGraph& graph = traverser_.graph();
    uint32_t held_bits = 0;  // the proofs of reservations still held (not kept yet)
    for (size_t i = held_next_; i < held_.size(); ++i)
        if (int slot = jobs_[held_[i]].keep.slot; slot >= 0) held_bits |= 1u << slot;
    for (VertexId v : proof.order_reads)
        if (graph.order_stamp(v) > proof.order_clock && !same_walk_order(job, v, held_bits)) return false;
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
    proof.walk = traverser_.take_order_walk();
    take_proof_slot(job);
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

void Simulator::note_change(const QueueJob& changed, int64_t span_end) {
    if (span_end <= now_) return;  // nothing in the future changed
    uint32_t bits = changed.pool ? ~0u : 0;  // the proofs that read a vertex it holds
    if (slots_used_ != 0)
        for (VertexId v : changed.held)
            if (v < read_mask_.size()) bits |= read_mask_[v];
    for (int64_t id : reserved_) {
        QueueJob& job = jobs_[id];
        QueueJob::KeepProof& proof = job.keep;
        proof.touched_until = std::max(proof.touched_until, span_end);
        // [now, span_end) against its window [reserved_at, span_end).
        bool overlaps = job.reserved_at < span_end && now_ < job.span_end;
        if (proof.slot >= 0 && overlaps && (bits >> proof.slot & 1u)) proof.touched = true;
    }
}

// ---- vertex-level proofs ----------------------------------------------------
//
// The time-only rule above refuses a reservation whenever any change ends
// after its start; and a changed child order anywhere it read refuses it
// too. Yet a match reads only the vertices its walk visited, over its
// window, and a walk's outcome depends on a child order only through the
// children it visits (spec/traversal.md §4.4: the `first` walk takes the
// children in weight order and stops once satisfied). So a reservation
// whose walk was complete (DfuTraverser::take_order_walk) is also kept when
//   * no change since overlaps its window on a vertex its walk visited
//     (the per-vertex read bits; the root is read only through its
//     aggregate, which keep_holds() checks as before), and
//   * at every vertex whose child order changed, the new order presents
//     the children the walk found something in, in the same order, with
//     only children between them that must still find nothing: ones the
//     walk visited in vain (unchanged over its window), or ones whose
//     subtree has none of its single requested type free over its window
//     and that no held reservation (cancelled before a re-make) occupies
//     during that window; where the walk counted one type and no choice
//     met equal scores, the children that found something may come in
//     another order if the tally, replayed over it, stops after exactly
//     them (same candidates; the choice sorts them by score).

void Simulator::take_proof_slot(QueueJob& job) {
    QueueJob::KeepProof& proof = job.keep;
    proof.slot = -1;
    if (!proof.walk.complete || slots_used_ == ~0u) return;
    for (const JobResource& r : job.jobspec->resources)
        if (r.exclusive == Tristate::kTrue) return;  // the root's own planners would be read
    const SubtreePlan* root = traverser_.store().subtree(traverser_.graph().root(traverser_.dominant()), 0);
    if (root == nullptr) return;
    int tracked = 0;
    for (auto& [type, n] : job.totals)
        if (root->plan.index_of(type) >= 0) proof.type = type, ++tracked;
    if (tracked != 1) return;
    int slot = __builtin_ctz(~slots_used_);
    slots_used_ |= 1u << slot;
    slot_job_[static_cast<size_t>(slot)] = job.id;
    proof.slot = slot;
    size_t n = traverser_.graph().num_vertices();
    if (read_mask_.size() < n) read_mask_.resize(n, 0), hold_mask_.resize(n, 0);
    const ResourceGraph& graph = traverser_.graph();
    auto& steps = proof.walk.steps;
    proof.reads.reserve(steps.size());
    for (const auto& step : steps) proof.reads.push_back(graph.target(step.edge));
    for (VertexId v : proof.reads) read_mask_[v] |= 1u << slot;
    for (VertexId v : job.held) hold_mask_[v] |= 1u << slot;
    keep_changeable_steps(proof);
}

// Memory (a deep conservative queue holds 32 proofs over thousands of
// cores): only an edge to a vertex with a subtree plan is ever re-weighted
// (spec/traversal.md §4.4), so under a parent none of whose visited
// children has one the order cannot change: its steps are dropped, the
// parent listed in `fixed`. What stays is grouped by parent (ascending), in
// walk order under each, for same_walk_order()'s binary search. Parents are
// marked first and only the kept steps sorted: most steps (a node's cores)
// are dropped.
void Simulator::keep_changeable_steps(QueueJob::KeepProof& proof) {
    enum : uint8_t { kSeen = 1, kKeep = 2, kListed = 3 };
    auto& steps = proof.walk.steps;
    auto& mark = parent_mark_;
    if (mark.size() < traverser_.graph().num_vertices()) mark.resize(traverser_.graph().num_vertices(), 0);
    for (const auto& step : steps) {
        if (mark[step.parent] == kKeep) continue;
        const SubtreePlan* plan = traverser_.store().subtree(traverser_.graph().target(step.edge), 0);
        mark[step.parent] = plan != nullptr && plan->plan.size() != 0 ? kKeep : kSeen;
    }
    size_t out = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
        uint8_t& m = mark[steps[i].parent];
        if (m == kKeep)
            steps[out++] = steps[i];
        else if (m == kSeen)
            proof.fixed.push_back(steps[i].parent), m = kListed;
    }
    for (size_t i = 0; i < out; ++i) mark[steps[i].parent] = 0;
    for (VertexId p : proof.fixed) mark[p] = 0;
    proof.fixed.insert(proof.fixed.end(), proof.walk.fixed.begin(), proof.walk.fixed.end());
    proof.walk.fixed = {};
    steps.resize(out);
    std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.parent < b.parent; });
    std::sort(proof.fixed.begin(), proof.fixed.end());
    steps.shrink_to_fit();
}

void Simulator::drop_proof_slot(QueueJob& job) {
    QueueJob::KeepProof& proof = job.keep;
    if (proof.slot < 0) return;
    uint32_t keep = ~(1u << proof.slot);
    for (VertexId v : proof.reads) read_mask_[v] &= keep;
    for (VertexId v : job.held) hold_mask_[v] &= keep;
    slots_used_ &= keep;
    proof.slot = -1;
}

// Whether a reservation still held (cancelled before a re-make, so absent
// from the recomputation) holds v during job's window: then v's planners
// over that window are not what the re-made match would read. Held spans
// outside the window do not change v's availability inside it.
bool Simulator::held_overlap(VertexId v, uint32_t held_bits, const QueueJob& job) const {
    for (uint32_t bits = hold_mask_[v] & held_bits; bits != 0; bits &= bits - 1) {
        const QueueJob& other = jobs_.at(slot_job_[static_cast<size_t>(__builtin_ctz(bits))]);
        if (other.reserved_at < job.span_end && job.reserved_at < other.span_end) return true;
    }
    return false;
}

bool Simulator::surely_empty(VertexId v, const QueueJob& job) const {
    const SubtreePlan* plan = traverser_.store().subtree(v, 0);
    if (plan == nullptr) return false;
    int64_t i = plan->plan.index_of(job.keep.type);
    if (i < 0) return false;
    auto free = plan->plan.planner(static_cast<size_t>(i)).avail_during(job.reserved_at, job.span_end - job.reserved_at);
    return free.ok() && *free == 0;
}

bool Simulator::same_walk_order(const QueueJob& job, VertexId u, uint32_t held_bits) {
    const QueueJob::KeepProof& proof = job.keep;
    if (proof.slot < 0 || std::binary_search(proof.fixed.begin(), proof.fixed.end(), u)) return false;
    const DfuTraverser::OrderWalk& walk = proof.walk;
    auto first = std::lower_bound(walk.steps.begin(), walk.steps.end(), u,
                                  [](const auto& s, VertexId p) { return s.parent < p; });
    auto last = std::upper_bound(first, walk.steps.end(), u, [](VertexId p, const auto& s) { return p < s.parent; });
    const bool stopped = std::find(walk.stopped.begin(), walk.stopped.end(), u) != walk.stopped.end();
    // Where the walk counted one type and no choice met equal candidates,
    // only which children found something matters, not their order: the
    // tally replayed in the new order must stop (or not) just as the walk
    // did, after the same children.
    auto tally = std::find_if(walk.tallies.begin(), walk.tallies.end(), [&](const auto& t) { return t.parent == u; });
    const bool any_order = !walk.tied && tally != walk.tallies.end();
    // The steps at u by edge: a per-edge array kept between calls, all
    // null outside them (the loop below asks it once per child of u, a
    // thousand at a cluster's root). An edge stepped twice keeps its
    // first step, as emplace into a map did.
    auto& step_at = step_at_edge_;
    if (step_at.size() < traverser_.graph().edge_capacity()) step_at.resize(traverser_.graph().edge_capacity(), nullptr);
    size_t wanted = 0;
    for (auto it = first; it != last; ++it) {
        if (step_at[it->edge] == nullptr) step_at[it->edge] = &*it;
        if (it->ok) ++wanted;
    }
    struct Unmark {  // every return leaves the array null again
        std::vector<const DfuTraverser::OrderStep*>& at;
        DfuTraverser::OrderWalk::Steps::const_iterator first, last;
        ~Unmark() {
            for (auto it = first; it != last; ++it) at[it->edge] = nullptr;
        }
    } unmark{step_at, first, last};
    auto step_of = [&](EdgeId e) -> const DfuTraverser::OrderStep* { return e < step_at.size() ? step_at[e] : nullptr; };
    auto next = first;  // in walk order: the next step that found something
    auto skip_vain = [&] {
        while (next != last && !next->ok) ++next;
    };
    skip_vain();
    size_t found = 0;
    EarlyStop::Shares shares = any_order ? tally->shares : EarlyStop::Shares{};
    bool stops = false;
    ResourceGraph& graph = traverser_.graph();
    for (const OrderedChild& child : graph.ordered_children(u)) {
        if (stops || (found == wanted && stopped && !any_order)) break;
        if (const DfuTraverser::OrderStep* step = step_of(child.edge)) {
            const DfuTraverser::OrderStep& s = *step;
            if (!s.ok) continue;  // visited in vain, and untouched since
            if (any_order) {
                if (s.added < 0) return false;
                shares.add(s.added);
                stops = shares.satisfied();
            } else {
                if (next == last || next->edge != child.edge) return false;  // out of its place
                ++next;
                skip_vain();
            }
            ++found;
            continue;
        }
        VertexId v = graph.target(child.edge);
        if (graph.subsystem(child.edge) != traverser_.dominant()) continue;  // never walked
        if (held_overlap(v, held_bits, job) || !surely_empty(v, job)) return false;
    }
    if (any_order && stops != stopped) return false;
    return found == wanted;
}

}  // namespace rq::queue
