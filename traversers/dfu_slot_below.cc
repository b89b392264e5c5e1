// A slot whose members sit below the children of the resource that holds
// it: `node[1]->slot[1]->core[N]` on node -> socket -> L3 -> core, as hwloc
// loads real machines (traversal.md §7 corner case; a deviation, see
// docs/differences.md). The slot is packed at the node from every member-type vertex
// below it, taken as if they were the node's children, so the choice is
// the one the same request makes on the flat graph `-W node,core,gpu`
// loads from the same file. classify() takes this way when a member type
// is not among the node's children, or when a child that is not a member
// has children (GPUs on the machine and on the packages); otherwise the
// slot is packed from the children as the original does:
//
//   * candidates in depth-first order, which is the flat node's out-edge
//     order (the hwloc reader creates vertices depth-first);
//   * for the early-stopping policies (`first`, `firstnodex`, custom
//     stop_on_1_matches), the order of the ordered child index instead
//     (descending in-edge weight, then descending uniq_id), with the same
//     early stop as traversal.md §4.4;
//   * a vertex in between (socket, cache, group, numanode) is passed when
//     it is down, taken whole, or its subtree plan shows none of a member
//     type free: it can hold no candidate then.
//
// The chosen edges start below the node; mark_paths_down_from() marks the
// way to them.
#include <algorithm>

#include "traversers/dfu.h"
#include "traversers/early_stop.h"

namespace rq {

namespace {

bool is_member(TypeId t, const std::vector<JobResource>& shape) {
    return std::any_of(shape.begin(), shape.end(), [t](const JobResource& m) { return m.type == t; });
}

}  // namespace

bool DfuTraverser::may_hold_members(VertexId u, const std::vector<JobResource>& shape) {
    for (const ChildType& c : child_types(u))
        if (c.dominant_inner && !is_member(c.type, shape)) return true;
    return false;
}

bool DfuTraverser::passage_closed(VertexId v, const std::vector<JobResource>& shape) {
    if (!graph_.is_up(v) && kind_ != AllocKind::kSat) return true;
    if (avail(v) == 0) return true;
    const SubtreePlan* plan = store_.subtree(v, 0);
    if (plan == nullptr) return false;
    std::vector<int64_t>& one = request_;
    for (const JobResource& member : shape) {
        int64_t i = plan->plan.index_of(member.type);
        if (i < 0) return false;  // not tracked: it may be there
        one.assign(plan->plan.size(), 0);
        one[static_cast<size_t>(i)] = 1;
        if (plan->plan.fits(at_, duration_, one)) return false;
    }
    return true;
}

void DfuTraverser::collect_members(VertexId u, const std::vector<JobResource>& shape, std::vector<EdgeId>& out) {
    SubsystemId s = dominant();
    for (EdgeId e : graph_.out(u)) {
        VertexId v = graph_.target(e);
        if (graph_.subsystem(e) != s || colour(0, v) != kWhite) continue;
        if (is_member(graph_.type(v), shape)) {
            out.push_back(e);
            if (policy_.stop_on_first) note_order_read(u);  // explore_below() sorts by weight
        } else if (!passage_closed(v, shape))
            collect_members(v, shape, out);
    }
}

void DfuTraverser::explore_below(VertexId u, const std::vector<JobResource>& shape, ScoreSet& scores,
                                 uint32_t multiplier) {
    other_walk_ = true;  // not a step walk: no keep proof from its order (take_order_walk)
    SubsystemId s = dominant();
    std::vector<EdgeId> members;
    collect_members(u, shape, members);
    if (policy_.stop_on_first) {
        auto key = [this](EdgeId e) {
            return OrderedChild{graph_.weight(e), graph_.uniq_id(graph_.target(e)), e};
        };
        std::sort(members.begin(), members.end(), [&](EdgeId a, EdgeId b) { return key(a) < key(b); });
    }
    // Early stop (§4.4), as explore_down() does over a vertex's children.
    EarlyStop early_stop(shape, multiplier);
    for (EdgeId e : members) {
        VertexId v = graph_.target(e);
        if (policy_.stop_on_first && early_stop.satisfied(graph_.type(v))) continue;
        bool x_child = true;
        if (!dom_dfv(v, shape, false, x_child, scores)) continue;
        scores.add(s, graph_.type(v), EGroup::of_child(scores.score, scores.avail, x_child, e));
        if (!policy_.stop_on_first) continue;
        if (early_stop.update(scores, s)) break;
    }
}

}  // namespace rq
