// The ordered walk extended to a slot's members (docs/matching.md
// "Ordered selection of the `*nodex` policies"): inside the
// ordered selection of an ID-based policy (dfu_select_fast.cc), a slot
// packed from u's children by the resource u matched (`socket[1] ->
// slot[1] -> core[1]`, hinodex/lonodex on El Capitan: 22 cores a socket)
// visits its member candidates best id first and stops once the slots the
// resource asks for are filled, instead of scoring every member.
//
// Why the choice is the exhaustive walk's: a member's score is
// 1 + (the enclosing node's factor) + id + 1 (policies/multilevel.cc), so
// among u's children it ranks by id alone. With one member type of a
// fixed count c and size-1 members (each candidate counts 1), the first
// nslots * c candidates in that order pack the first nslots slots of the
// exhaustive walk's sorted list, and u's own choice (u matched the
// resource, so it chooses among the slots: choose_children) takes
// calc_count(slot, q) = nslots of them either way. This holds when the
// taken scores are distinct and strictly better than the next candidate;
// a tie (equal ids) makes the walk inexact, and select() then walks
// again exhaustively. The members not visited would only have added
// candidates behind the cut.
#include <algorithm>

#include "traversers/dfu.h"

namespace rq {

bool DfuTraverser::slot_member_order(VertexId u, TypeId type, SlotMembers& out) {
    // Ids ascend along the out-edges on graphs the readers build (then no
    // sort); otherwise sorted by id, ties in out-edge order.
    bool ascending = true;
    for (EdgeId e : graph_.out(u)) {
        VertexId v = graph_.target(e);
        if (graph_.subsystem(e) != dominant() || graph_.type(v) != type) continue;
        if (graph_.size(v) != 1) return false;  // a candidate may count more than 1
        if (!out.empty() && graph_.id(graph_.target(out.back())) >= graph_.id(v)) ascending = false;
        out.push_back(e);
    }
    const IdOrderIndex& index = *walk_.index;
    if (ascending) {
        if (index.order().high) std::reverse(out.begin(), out.end());
        return true;
    }
    std::stable_sort(out.begin(), out.end(), [&](EdgeId a, EdgeId b) {
        return index.worse(graph_.id(graph_.target(b)), graph_.id(graph_.target(a)));
    });
    return true;
}

bool DfuTraverser::ordered_slot(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots,
                                ScoreSet& scores) {
    other_walk_ = true;  // not a step walk: no keep proof from its order (take_order_walk)
    if (walk_.index == nullptr || policy_.stop_on_first || shape.size() != 1) return false;
    const JobResource& member = shape.front();
    if (member.type == types::kSlot || member.count.min != member.count.max || member.count.min == 0 ||
        member.exclusive == Tristate::kFalse)
        return false;
    SlotMembers order;
    if (!slot_member_order(u, member.type, order)) return false;
    const IdOrderIndex& index = *walk_.index;
    const int64_t wanted = saturating_mul(nslots, member.count.min);
    int64_t got = 0, last_id = 0;
    for (EdgeId e : order) {
        VertexId v = graph_.target(e);
        int64_t id = graph_.id(v);
        if (got >= wanted && index.worse(id, last_id)) break;  // nothing behind can be taken
        if (colour(0, v) != kWhite) continue;
        bool x_child = true;
        if (!dom_dfv(v, shape, false, x_child, scores)) continue;
        if (got > 0 && !index.worse(id, last_id)) walk_.inexact = true;  // a tie: order not provable
        scores.add(dominant(), graph_.type(v), EGroup::of_child(scores.score, scores.avail, x_child, e));
        ++got;
        last_id = id;
    }
    return true;
}

}  // namespace rq
