// The ordered walk extended to a slot's members (issue 13): inside the
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

const std::vector<EdgeId>* DfuTraverser::slot_member_order(VertexId u, TypeId type) {
    uint64_t key = (uint64_t(u) << 16) | type;
    auto [it, fresh] = slot_orders_.try_emplace(key);
    SlotOrder& order = it->second;
    if (fresh) {
        order.usable = true;
        for (EdgeId e : graph_.out(u)) {
            VertexId v = graph_.target(e);
            if (graph_.subsystem(e) != dominant() || graph_.type(v) != type) continue;
            if (graph_.size(v) != 1) order.usable = false;  // a candidate may count more than 1
            order.edges.push_back(e);
        }
        const IdOrderIndex& index = *walk_.index;
        std::stable_sort(order.edges.begin(), order.edges.end(), [&](EdgeId a, EdgeId b) {
            return index.worse(graph_.id(graph_.target(b)), graph_.id(graph_.target(a)));
        });
    }
    return order.usable ? &order.edges : nullptr;
}

bool DfuTraverser::ordered_slot(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots,
                                ScoreSet& scores) {
    if (walk_.index == nullptr || policy_.stop_on_first || shape.size() != 1) return false;
    const JobResource& member = shape.front();
    if (member.type == types::kSlot || member.count.min != member.count.max || member.count.min == 0 ||
        member.exclusive == Tristate::kFalse)
        return false;
    const std::vector<EdgeId>* order = slot_member_order(u, member.type);
    if (order == nullptr) return false;
    const IdOrderIndex& index = *walk_.index;
    const int64_t wanted = saturating_mul(nslots, member.count.min);
    int64_t got = 0, last_id = 0;
    for (EdgeId e : *order) {
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
