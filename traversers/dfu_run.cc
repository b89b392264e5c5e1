// A match request end to end (spec/traversal.md §3, §9): jobspec priming,
// duration checks, the node feasibility pre-check, scheduling at now or at
// the earliest later time, the far-future satisfiability probe, and the
// update walk.
#include <algorithm>
#include <cmath>
#include <optional>

#include "traversers/dfu.h"
#include "utilities/saturating.h"

namespace rq {

namespace {

bool without_allocating(MatchOp op) {
    return op == MatchOp::kWithoutAllocating || op == MatchOp::kWithoutAllocatingFuture;
}

}  // namespace

void DfuTraverser::prime_jobspec(std::vector<JobResource>& resources, TypeCounts& totals) {
    const PruneSpec& spec = specs_.front();
    // -T flexible: slots are alternatives; the parent gets their minimum.
    flexible::AlternativeMinimum slot_alternatives;
    for (JobResource& r : resources) {
        if (r.exclusive == Tristate::kTrue) {
            if (excl_types_.size() <= r.type) excl_types_.resize(r.type + 1u, false);
            excl_types_[r.type] = true;
        }
        add_if_tracked(spec, totals, r.type, r.count.min);
        TypeCounts below;
        prime_jobspec(r.with, below);
        r.aggregate.clear();
        below.for_each([&](TypeId t, int64_t n) { r.aggregate.emplace_back(t, n); });
        if (flexible_ && flexible::is_slot_type(r.type)) {
            slot_alternatives.add(r.count.min, below);
            continue;
        }
        below.for_each([&](TypeId t, int64_t n) { add_if_tracked(spec, totals, t, saturating_mul(r.count.min, n)); });
    }
    slot_alternatives.add_to(spec, totals);
}

Errc DfuTraverser::feasible(const Jobspec& jobspec, MatchOp op) const {
    const bool with_sat = op == MatchOp::kAllocateWithSatisfiability;
    const Errc failure = with_sat ? Errc::kUnsatisfiable : Errc::kBusy;
    int64_t needed = 0;
    for (auto& [t, n] : totals_) needed = saturating_add(needed, t == types::kNode ? n : 0);
    if (!jobspec.constraint && needed <= graph_.nodes_up) return Errc::kOk;
    if (needed > graph_.nodes_up) return failure;
    const std::vector<VertexId>& nodes = graph_.by_type(types::kNode);
    if (nodes.empty()) return Errc::kOk;
    int64_t when = op == MatchOp::kAllocate || op == MatchOp::kWithoutAllocating ? now_ : kGraphEnd - 1;
    int64_t found = 0;
    for (VertexId v : nodes) {
        if (found >= needed) break;
        if (!jobspec.constraint->matches(graph_.name(v), graph_.rank(v), graph_.properties(v))) continue;
        if (!with_sat && !graph_.is_up(v)) continue;
        if (store_.avail(v, graph_.size(v), when, duration_) != 1) continue;
        ++found;
    }
    return found < needed ? failure : Errc::kOk;
}

Errc DfuTraverser::select_jobspec(Jobspec& jobspec, int64_t at) {
    return xor_variants_ ? select_xor_variants(at) : select(jobspec.resources, at);
}

// A necessary condition finer than the root's aggregate. A unit a walk
// takes is free over the whole window, so below any vertex v there are at
// most F(v) such units, F(v) = the least free units of v's subtree plan
// over the window; and also at most the sum of F over v's children. The
// root's aggregate alone misses what the sum sees when free units change
// hands inside the window (a reservation starting on cores free now while
// a running job's cores come free: a busy queue with reservations). A
// vertex below two parents counts twice, which only loosens the bound.
bool DfuTraverser::surely_short(int64_t at) const {
    VertexId root = graph_.root(dominant());
    const SubtreePlan* top = store_.subtree(root, 0);
    if (top == nullptr || flexible_ || xor_variants_) return false;
    for (size_t i = 0; i < top->plan.size(); ++i) {
        TypeId t = top->plan.type(i);
        int64_t need = totals_lookup(t);
        if (need <= 0) continue;
        // The root's own aggregate first: the sum below bounds it from
        // below (a sum of minima over the window is at most the minimum of
        // the sum), so when the root is short the sum is too, and one query
        // answers what a scan of every child would (a reservation's first
        // try, at now, on a busy machine).
        auto own = top->plan.planner(i).avail_during(at, duration_);
        if (own.ok() && *own < need) return true;
        auto sum = children_free_bound(root, t, at, kShortLevels - 1, need);
        if (!sum) return false;
        if (*sum < need) return true;
    }
    return false;
}

// At most `cap`: an upper bound on the units of type t strictly below v
// that are free over [at, at + duration_), looking `levels` levels down.
// What the plans do not tell counts as plenty (cap).
int64_t DfuTraverser::free_units_bound(VertexId v, TypeId t, int64_t at, int levels, int64_t cap) const {
    const SubtreePlan* plan = store_.subtree(v, 0);
    if (plan == nullptr) return graph_.is_leaf(v) ? 0 : cap;
    int64_t j = plan->plan.index_of(t);
    if (j < 0) return cap;
    auto free = plan->plan.planner(static_cast<size_t>(j)).avail_during(at, duration_);
    if (!free.ok()) return cap;
    int64_t bound = std::min(*free, cap);
    if (levels == 0 || bound == 0) return bound;
    auto sum = children_free_bound(v, t, at, levels - 1, bound);
    return sum ? *sum : bound;
}

// The bounds of v's children summed, at most `cap`; none when a child is
// itself of type t (its own unit is in no plan of its own).
std::optional<int64_t> DfuTraverser::children_free_bound(VertexId v, TypeId t, int64_t at, int levels,
                                                         int64_t cap) const {
    int64_t sum = 0;
    for (EdgeId e : graph_.out(v)) {
        if (graph_.subsystem(e) != dominant()) continue;
        VertexId c = graph_.target(e);
        if (graph_.type(c) == t) return std::nullopt;
        sum = saturating_add(sum, free_units_bound(c, t, at, levels, cap - sum));
        if (sum >= cap) return cap;
    }
    return sum;
}

Errc DfuTraverser::select_unless_short(Jobspec& jobspec, int64_t at) {
    if (skip_short_walks_ && surely_short(at)) return ++short_selections_, Errc::kBusy;
    return select_jobspec(jobspec, at);
}

Errc DfuTraverser::probe_far_future(Jobspec& jobspec) {
    kind_ = AllocKind::kSat;
    Errc code = select_jobspec(jobspec, kPlannerEnd - duration_ - 1);
    return code == Errc::kBusy || code == Errc::kRange ? Errc::kUnsatisfiable : code;
}

Errc DfuTraverser::schedule(Jobspec& jobspec, MatchOp op, int64_t& at) {
    if (Errc f = feasible(jobspec, op); f != Errc::kOk) return f;
    at = now_;
    if (select_unless_short(jobspec, now_) == Errc::kOk) return Errc::kOk;
    switch (op) {
    case MatchOp::kAllocate:
    case MatchOp::kWithoutAllocating:
        return Errc::kBusy;
    case MatchOp::kAllocateWithSatisfiability: {
        Errc probe = probe_far_future(jobspec);
        return probe == Errc::kOk ? Errc::kBusy : probe;
    }
    case MatchOp::kAllocateOrElseReserve:
        kind_ = AllocKind::kOrElse;
        [[fallthrough]];
    case MatchOp::kWithoutAllocatingFuture:
    default: {
        const SubtreePlan* plan = store_.subtree(graph_.root(dominant()), 0);
        if (plan != nullptr) {
            std::vector<int64_t> request;
            for (size_t i = 0; i < plan->plan.size(); ++i) request.push_back(totals_lookup(plan->plan.type(i)));
            AllocKind kind = kind_;
            for (int64_t from = now_ + 1;;) {
                auto t = plan->plan.earliest(from, duration_, request);
                if (!t.ok()) break;
                kind_ = kind;
                at = *t;
                if (select_unless_short(jobspec, at) == Errc::kOk) return Errc::kOk;
                from = at + 1;
                if (span_ends_ != nullptr) {
                    auto next = span_ends_->upper_bound(at);
                    if (next == span_ends_->end()) break;  // nothing is ever released after at
                    from = *next;
                }
            }
        }
        Errc probe = probe_far_future(jobspec);
        return probe == Errc::kOk ? Errc::kBusy : probe;
    }
    }
}

void DfuTraverser::begin_order_reads() {
    run_order_clock_ = graph_.order_clock();
    if (!track_orders_) return;
    order_reads_.clear();
    if (++order_read_epoch_ == 0) {  // wrapped: no mark may look current
        std::fill(order_read_mark_.begin(), order_read_mark_.end(), 0);
        order_read_epoch_ = 1;
    }
}

DfuTraverser::OrderWalk DfuTraverser::take_order_walk() {
    // The root is visited by select_once() itself, every other vertex by a step.
    order_walk_.complete = record_steps_ && !other_walk_ && dfv_calls_ == order_walk_.steps.size() + order_walk_.folded_steps + 1;
    order_walk_.tied = ScoreSet::ties() != walk_ties_;
    return std::move(order_walk_);
}

MatchResult DfuTraverser::run(Jobspec& jobspec, MatchOp op, JobId jobid, MatchWriter& writer) {
    MatchResult result;
    if (x_deferred_ && reads_checkers(jobspec.resources)) set_deferred_checkers(false);
    begin_order_reads();
    jobspec_ = &jobspec;
    reweight_time_ = now_;
    VertexId root = graph_.root(dominant());
    x_root_ = false;
    for (const JobResource& r : jobspec.resources)
        if (r.type == graph_.type(root) && r.exclusive == Tristate::kTrue) x_root_ = true;

    std::vector<bool> saved_excl = excl_types_;
    TypeCounts totals;
    prime_jobspec(jobspec.resources, totals);
    totals_.clear();
    totals.for_each([&](TypeId t, int64_t n) { totals_.emplace_back(t, n); });

    // Duration checks (jobspec.md §7). Like the reference, an invalid
    // request keeps the exclusive-type marks its priming added.
    double d = jobspec.duration;
    if (std::isnan(d) || d < 0 || d > double(kGraphEnd) || jobspec.resources.empty()) {
        result.code = Errc::kInvalid;
        return result;
    }
    duration_ = d == 0 ? kGraphEnd : static_cast<int64_t>(std::ceil(d));
    kind_ = without_allocating(op) ? AllocKind::kNoAlloc : AllocKind::kAlloc;

    xor_variants_.reset();
    if (flexible_ && flexible::XorVariants::has_xor_slot(jobspec.resources)) {
        auto variants = flexible::XorVariants::expand(jobspec.resources);
        if (!variants.ok()) {
            message_ += variants.message() + "\n";
            excl_types_ = saved_excl;
            result.code = variants.code();
            return result;
        }
        xor_variants_ = std::move(*variants);
    }

    if (op == MatchOp::kSatisfiability) {
        result.code = probe_far_future(jobspec);
        reset_colours();
        excl_types_ = saved_excl;
        xor_variants_.reset();
        return result;
    }

    int64_t at = 0;
    result.code = schedule(jobspec, op, at);
    if (result.code == Errc::kOk) {
        if (at == kGraphEnd) {
            result.code = Errc::kBusy;
        } else if (at < 0 || at > kGraphEnd) {
            result.code = Errc::kInvalid;
        } else {
            at_ = at;
            if (at + duration_ > kGraphEnd) duration_ = kGraphEnd - at;
            result.at = at;
            result.duration = duration_;
            if (!update(jobid, writer, true)) result.code = Errc::kBusy;
        }
    }
    excl_types_ = saved_excl;
    xor_variants_.reset();
    return result;
}

}  // namespace rq
