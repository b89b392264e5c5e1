// Ordered selection (docs/matching.md "Ordered selection"): the pieces that let select() skip what
// cannot change its choice, and prove afterwards that nothing did.
//
//  * cannot_hold(): at a prefix-omitted (pristine) level, a child whose
//    subtree plan lacks what every requested resource needs is not walked
//    (for all policies). Such a subtree yields no candidate of the
//    requested types: each vertex of such a type inside it would be pruned
//    by the same aggregate test (traversal.md §5), since a subtree holds at
//    least what any vertex inside it holds. It only yields egroups of other
//    types, which are never chosen and, with every id >= -1, all qualify.
//  * For the ID-based policies without early stop, pristine levels are
//    walked best bound first (select_order.h) and the walk stops once the
//    next bound is strictly worse than the last candidate the choice takes.
//    The choice is kept only if the taken candidates have distinct scores,
//    all strictly better than every other candidate: the reference's sort
//    then puts exactly them, in that order, in front, whatever order the
//    walk found them in. Otherwise select() walks again exhaustively.
#include <algorithm>

#include "traversers/dfu.h"

namespace rq {

namespace {

// A label on a non-slot resource is stored on every vertex the walk
// matches to it, chosen or not; the ordered walk would store fewer.
bool has_vertex_label(const std::vector<JobResource>& resources) {
    for (const JobResource& r : resources) {
        if (r.type != types::kSlot && !r.label.empty()) return true;
        if (has_vertex_label(r.with)) return true;
    }
    return false;
}

}  // namespace

const IdOrderIndex* DfuTraverser::ordered_index(const std::vector<JobResource>& resources) {
    const IdOrder* order = policy_.id_order();
    if (exhaustive_select_ || order == nullptr || flexible_ || subsystems_.size() != 1 || !ids_positive_)
        return nullptr;
    if (resources.size() != 1) return nullptr;
    const JobResource& r = resources.front();
    VertexId root = graph_.root(dominant());
    if (r.type == types::kSlot || root == kNoVertex || r.type == graph_.type(root)) return nullptr;
    if (has_vertex_label(resources)) return nullptr;
    if (!id_index_ || id_index_->type() != r.type || !(id_index_->order() == *order))
    {
        TypeId t = r.type;
        IdOrderIndex::NoneBelow none_below = [this, t](VertexId v) {
            const SubtreePlan* plan = store_.subtree(v, 0);
            if (plan == nullptr) return false;
            int64_t i = plan->plan.index_of(t);
            return i >= 0 && plan->plan.planner(static_cast<size_t>(i)).total() == 0;
        };
        int64_t t_total = -1;
        if (const SubtreePlan* top = store_.subtree(root, 0)) {
            int64_t i = top->plan.index_of(t);
            if (i >= 0) t_total = top->plan.planner(static_cast<size_t>(i)).total();
        }
        id_index_ = std::make_unique<IdOrderIndex>(graph_, dominant(), t, *order, none_below, t_total);
    }
    return id_index_->usable() ? id_index_.get() : nullptr;
}

const std::vector<TypeId>& DfuTraverser::tracked_below(TypeId t) {
    if (tracked_below_.size() <= t) tracked_below_.resize(t + 1u), tracked_below_ready_.resize(t + 1u, 0);
    if (!tracked_below_ready_[t]) {
        tracked_below_[t] = specs_.front().types_for(t);
        tracked_below_ready_[t] = 1;
    }
    return tracked_below_[t];
}

bool DfuTraverser::cannot_hold(VertexId v, const std::vector<JobResource>& list) {
    if (exhaustive_select_ || !ids_positive_ || list.empty()) return false;
    const SubtreePlan* plan = store_.subtree(v, 0);
    if (plan == nullptr) return false;
    const MultiPlanner& mp = plan->plan;
    TypeId vtype = graph_.type(v);
    std::vector<int64_t>& request = request_;
    for (const JobResource& r : list) {
        if (r.type == vtype) return false;  // v itself may be the candidate
        // None of the resource itself, or of something it needs, below v.
        bool lacks = false;
        auto absent = [&](TypeId t) {
            int64_t i = mp.index_of(t);
            return i >= 0 && t != vtype && mp.planner(static_cast<size_t>(i)).total() == 0;
        };
        if (r.type != types::kSlot) lacks = absent(r.type);
        for (auto& [t, n] : r.aggregate)
            if (!lacks && n > 0) lacks = absent(t);
        // Not enough free now, of a type the resource's own vertices track.
        if (!lacks && r.type != types::kSlot && !flexible_ && !r.aggregate.empty()) {
            request.assign(mp.size(), 0);
            bool any = false;
            for (TypeId t : tracked_below(r.type)) {
                int64_t i = mp.index_of(t);
                if (i < 0 || t == vtype) continue;
                for (auto& [at, n] : r.aggregate)
                    if (at == t && n > 0) request[static_cast<size_t>(i)] = n, any = true;
            }
            lacks = any && !mp.fits(at_, duration_, request);
        }
        if (!lacks) return false;
    }
    return true;
}

// A failed match (every node taken: the rest of the *nodex rows at 256
// and 1,024 nodes) is refused from the root's subtree plan, instead of a
// visit per child (below the root, cannot_hold() makes the same test
// before a vertex is entered): with one requested resource r, if
// u's plan cannot fit what r's own vertices track of r.aggregate, no child
// can. A child of r's type has a plan of those types (pruning.cc installs
// one per vertex of a tracking type), holding at most what u's holds, so
// prune() rejects it, silently: classify() has one resource, by_excl needs
// r.exclusive false, and the checks before the plan's raise no message. A
// child of another type holds no vertex that would not be rejected so
// (cannot_hold()'s argument), and yields egroups of other types only.
bool DfuTraverser::level_refused(VertexId u, const std::vector<JobResource>& list) {
    if (exhaustive_select_ || !ids_positive_ || flexible_ || list.size() != 1) return false;
    const JobResource& r = list.front();
    if (r.type == types::kSlot || r.exclusive == Tristate::kFalse || r.aggregate.empty()) return false;
    const SubtreePlan* plan = store_.subtree(u, 0);
    if (plan == nullptr || graph_.type(u) == r.type) return false;
    const MultiPlanner& mp = plan->plan;
    std::vector<int64_t>& request = request_;
    request.assign(mp.size(), 0);
    bool any = false;
    for (TypeId t : tracked_below(r.type)) {
        int64_t i = mp.index_of(t);
        if (i < 0) continue;
        for (auto& [at, n] : r.aggregate)
            if (at == t && n > 0) request[static_cast<size_t>(i)] = n, any = true;
    }
    return any && !mp.fits(at_, duration_, request);
}

bool DfuTraverser::surely_rejected(VertexId v, const std::vector<JobResource>& list) {
    // dom_dfv() rejects a vertex with nothing free in the window (prune)
    // before any effect beyond the visit counter; with a single requested
    // resource classify() cannot leave a message first. Checking that up
    // front spares classify() and prune() on every exclusively taken node
    // ranked ahead of the best free one (hinodex, lonodex).
    if (list.size() != 1 || avail(v) != 0) return false;
    ++preorder_;
    return true;
}

void DfuTraverser::record_candidate(int64_t score, int64_t count) {
    walk_.found.emplace_back(score, count);
    if (score > 0) walk_.qualified += count;
    walk_.dirty = true;
}

bool DfuTraverser::beyond_threshold(int64_t bound) {
    const JobResource& r = *walk_.request;
    // Until the qualified count reaches the maximum, how many units the
    // choice takes (calc_count) may still change.
    if (walk_.qualified < int64_t(r.count.max) || walk_.qualified > int64_t(UINT32_MAX)) return false;
    if (walk_.dirty) {
        walk_.dirty = false;
        walk_.has_threshold = false;
        int64_t k = calc_count(r, static_cast<uint32_t>(walk_.qualified));
        if (k <= 0) return false;
        auto sorted = walk_.found;
        const IdOrderIndex& index = *walk_.index;
        std::sort(sorted.begin(), sorted.end(),
                  [&](const auto& a, const auto& b) { return index.worse(b.first, a.first); });
        int64_t covered = 0;
        for (auto& [score, count] : sorted) {
            covered += count;
            if (covered >= k) {
                walk_.threshold = score;
                walk_.has_threshold = true;
                break;
            }
        }
    }
    return walk_.has_threshold && walk_.index->worse(bound, walk_.threshold);
}

// A failed ordered walk (every node taken under hinodex, lonodex,
// firstnodex...) is refused as it stands, without the exhaustive walk,
// when it did not stop at a threshold: then it visited every child the
// exhaustive walk visits except those rejected silently there too, as
// the ordered walk itself rejected them (the same prune() in the same
// window, or marked full by such a rejection, see IdOrderIndex::mark_full)
// and subtrees with no vertex of the requested type (no candidate, no
// message: nothing there matches a resource of the single-resource list;
// their egroups all qualify and are never chosen). Both walks thus see
// the same candidates, and fail the same way. Messages (the caller checks
// them) and a shortcut that could not prove itself (walk_.inexact) send
// it to the exhaustive walk.
bool DfuTraverser::failure_is_exact() const {
    return !walk_.cut && !walk_.inexact;
}

bool DfuTraverser::choice_is_exact(const ScoreSet& outer) const {
    if (walk_.index == nullptr) return false;
    const TypeEvals* evals = outer.find(dominant(), walk_.index->type());
    if (evals == nullptr || evals->best_k <= 0 || evals->best_i == 0) return false;
    const auto& groups = evals->groups;
    size_t taken = std::min(evals->best_i, groups.size());
    auto strictly_after = [&](size_t later, size_t earlier) {
        return walk_.index->worse(groups[later].score, groups[earlier].score);
    };
    for (size_t i = 1; i < taken; ++i)
        if (!strictly_after(i, i - 1)) return false;
    if (taken < groups.size() && !strictly_after(taken, taken - 1)) return false;
    for (const EGroup& g : groups)
        if (!g.qualified()) return false;
    return true;
}

}  // namespace rq
