// Leaf holds (docs/matching.md "Leaf holds"): a job that takes every leaf
// child of a vertex (every core of a node, each of size 1, exclusively)
// over one window is recorded once, at that vertex, instead of with a
// span, a tag and an allocation or reservation entry on every leaf. The
// update walk still visits and emits each leaf, so the writers see the
// same match; ScheduleStore::avail() reads the parent's holds for a leaf,
// so every walk sees the leaf as taken over the window; the cancel walks
// release the hold with the parent's other records (release_tagged).
//
// Only the selection, the update and the cancel know about holds. Every
// other reader of a leaf's own records (find, R, the saved state, partial
// cancel, grow and shrink, the pool matcher) would miss them, so holds are
// on only while a replay owns the traverser (queue/replay.cc), and turning
// them off writes every hold back out as the per-leaf records it stands
// for (expand_leaf_holds()).
#include "traversers/dfu.h"

namespace rq {

void DfuTraverser::set_leaf_holds(bool on) {
    if (on == leaf_holds_) return;
    if (!on) {
        expand_leaf_holds();
        store_.set_hold_parents({});
        leaf_holds_ = false;
        return;
    }
    // A vertex may hold its leaves when each of its dominant children is
    // a leaf of size 1 (no out-edge at all) with it as the only parent.
    const SubsystemId dom = dominant();
    const size_t n = graph_.num_vertices();
    std::vector<uint32_t> parents_seen(n, 0);
    for (VertexId u = 0; u < n; ++u)
        for (EdgeId e : graph_.out(u))
            if (graph_.subsystem(e) == dom) ++parents_seen[graph_.target(e)];
    std::vector<VertexId> hold_parent(n, kNoVertex);
    const VertexId root = graph_.root(dom);
    for (VertexId u = 0; u < n; ++u) {
        bool eligible = false;
        for (EdgeId e : graph_.out(u)) {
            if (graph_.subsystem(e) != dom) continue;
            VertexId v = graph_.target(e);
            eligible = v != root && graph_.size(v) == 1 && graph_.out(v).empty() && parents_seen[v] == 1;
            if (!eligible) break;
        }
        if (!eligible) continue;
        for (EdgeId e : graph_.out(u))
            if (graph_.subsystem(e) == dom) hold_parent[graph_.target(e)] = u;
    }
    store_.set_hold_parents(std::move(hold_parent));
    leaf_holds_ = true;
}

void DfuTraverser::expand_leaf_holds() {
    const SubsystemId dom = dominant();
    for (VertexId u = 0; u < graph_.num_vertices(); ++u) {
        VertexSchedule* record = store_.find(u);
        if (record == nullptr || record->leaf_holds() == nullptr || record->leaf_holds()->empty()) continue;
        for (auto& [job, hold] : *record->leaf_holds()) {
            for (EdgeId e : graph_.out(u)) {
                if (graph_.subsystem(e) != dom) continue;
                VertexId v = graph_.target(e);
                VertexSchedule& leaf = store_.get(v, graph_.size(v));
                auto span = leaf.plan.add_span(hold.at, hold.duration, 1);
                if (!span.ok()) {
                    message_ += "expanding a leaf hold: can't add a span to " + std::string(graph_.name(v)) + ": " +
                                span.message() + "\n";
                    continue;
                }
                (hold.reserved ? leaf.reservations : leaf.allocations)[job] = *span;
                leaf.tags.insert(job);
            }
        }
        record->leaf_holds_for_writing() = LeafHolds();  // records never move (VertexSlots)
    }
}

// Whether the update walk at u (in shadow mode or not: `mod`) takes every
// one of u's leaves exclusively, one unit each, in a recorded update.
bool DfuTraverser::takes_all_leaves(VertexId u, bool mod) const {
    if (!full_update_ || (kind_ != AllocKind::kAlloc && kind_ != AllocKind::kOrElse)) return false;
    const std::vector<VertexId>& parents = store_.hold_parents();
    bool any = false;
    for (EdgeId e : graph_.out(u)) {
        if (graph_.subsystem(e) != dominant()) continue;
        VertexId v = graph_.target(e);
        if (v >= parents.size() || parents[v] != u || colour(0, v) != kWhite) return false;
        if (!mod) {
            const EdgeMarks& m = graph_.marks(e);
            if (m.seq != seq_ || m.needs != 1 || !m.exclusive) return false;
        }
        any = true;
    }
    return any;
}

// upd() of a leaf its parent holds: the counts and the emission upd()
// gives an exclusive leaf of size 1 taken whole, and no record.
int64_t DfuTraverser::upd_held_leaf(VertexId u, bool parent_excl, TypeCounts& out) {
    set_colour(0, u, kBlack);
    add_if_tracked(specs_.front(), out, graph_.type(u), graph_.size(u));
    VertexEmission emission;
    emission.vertex = u;
    emission.needs = 1;
    emission.exclusive = true;
    emission.parent_exclusive = parent_excl;
    emission.level = level_ + 1;
    if (const VertexSchedule* record = store_.find(u); record && !record->ephemeral.empty())
        emission.ephemeral = record->ephemeral.get();
    writer_->vertex(graph_, emission);
    return 1;
}

}  // namespace rq
