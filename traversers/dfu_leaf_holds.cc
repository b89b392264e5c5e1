// Leaf holds (docs/matching.md "Leaf holds"): a job that takes leaf
// children of a vertex (cores of a node or a socket, each of size 1,
// exclusively) over one window is recorded once, at that vertex, with a
// bit per leaf it took, instead of with a span, a tag and an allocation or
// reservation entry on every leaf. The update walk still visits and emits
// each leaf, so the writers see the same match; ScheduleStore::avail()
// reads the parent's holds for a leaf, so every walk sees the leaf as
// taken over the window; the cancel walks release the hold with the
// parent's other records (release_tagged).
//
// Only the selection, the update and the cancel know about holds. Every
// other reader of a leaf's own records (find, R, the saved state, partial
// cancel, grow and shrink, the pool matcher) would miss them, so holds are
// on only while a simulator owns the traverser (Simulator::set_owns_traverser),
// and turning them off writes every hold back out as the per-leaf records
// it stands for (expand_leaf_holds()).
#include "traversers/dfu.h"

namespace rq {

void DfuTraverser::set_leaf_holds(bool on) {
    if (on == leaf_holds_) return;
    free_slots_.clear();  // recorded while holds were on (dfu_free_slots.cc)
    free_slots_at_.clear();
    if (!on) {
        expand_leaf_holds();
        store_.set_hold_slots({});
        leaf_holds_ = false;
        return;
    }
    // A vertex may hold its leaves when each of its dominant children (at
    // most 64, one bit each) is a leaf of size 1 (no out-edge at all) with
    // it as the only parent.
    const SubsystemId dom = dominant();
    const size_t n = graph_.num_vertices();
    std::vector<uint32_t> parents_seen(n, 0);
    for (VertexId u = 0; u < n; ++u)
        for (EdgeId e : graph_.out(u))
            if (graph_.subsystem(e) == dom) ++parents_seen[graph_.target(e)];
    std::vector<HoldSlot> slots(n);
    const VertexId root = graph_.root(dom);
    for (VertexId u = 0; u < n; ++u) {
        bool eligible = false;
        uint32_t leaves = 0;
        for (EdgeId e : graph_.out(u)) {
            if (graph_.subsystem(e) != dom) continue;
            VertexId v = graph_.target(e);
            eligible = ++leaves <= 64 && v != root && graph_.size(v) == 1 && graph_.out(v).empty() &&
                       parents_seen[v] == 1;
            if (!eligible) break;
        }
        if (!eligible) continue;
        uint32_t bit = 0;
        for (EdgeId e : graph_.out(u))
            if (graph_.subsystem(e) == dom) slots[graph_.target(e)] = HoldSlot{u, bit++};
    }
    store_.set_hold_slots(std::move(slots));
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
                if ((hold.leaves >> store_.hold_slots()[v].bit & 1) == 0) continue;
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
        record->clear_leaf_holds();  // records never move (VertexSlots)
    }
}

// The leaves of u the update walk takes, one bit each (HoldSlot::bit),
// when it takes only leaves there, each exclusively and whole (in shadow
// mode, `mod`, every child), in a recorded update; 0 otherwise.
uint64_t DfuTraverser::leaves_taken(VertexId u, bool mod) const {
    if (!full_update_ || (kind_ != AllocKind::kAlloc && kind_ != AllocKind::kOrElse)) return 0;
    const std::vector<HoldSlot>& slots = store_.hold_slots();
    uint64_t taken = 0;
    for (EdgeId e : graph_.out(u)) {
        if (graph_.subsystem(e) != dominant()) continue;
        VertexId v = graph_.target(e);
        if (v >= slots.size() || slots[v].parent != u) return 0;
        if (!mod) {
            const EdgeMarks& m = graph_.marks(e);
            if (m.seq != seq_) continue;
            if (m.needs != 1 || !m.exclusive) return 0;
        }
        if (colour(0, v) != kWhite) return 0;
        taken |= uint64_t(1) << slots[v].bit;
    }
    return taken;
}

// upd() of the leaves of u its hold names (`leaves`, leaves_taken()),
// called in u's upd(): in out-edge order, the order every branch of upd()
// follows, each with the counts and the emission upd() gives an exclusive
// leaf of size 1 taken whole (one level below u), and no record. A leaf
// has no subtree plan, so reweight() leaves its edge as it is.
int64_t DfuTraverser::upd_held_leaves(VertexId u, uint64_t leaves, bool parent_excl, TypeCounts& out) {
    const std::vector<HoldSlot>& slots = store_.hold_slots();
    const PruneSpec& spec = specs_.front();
    VertexEmission emission;
    emission.needs = 1;
    emission.exclusive = true;
    emission.parent_exclusive = parent_excl;
    emission.level = level_ + 1;
    int64_t n = 0;
    // The counts by run of one type (a node's cores): added once a run.
    TypeId run_type = kNoId;
    int64_t run_units = 0;
    for (EdgeId e : graph_.out(u)) {
        if (graph_.subsystem(e) != dominant()) continue;
        VertexId v = graph_.target(e);
        if ((leaves >> slots[v].bit & 1) == 0) continue;
        set_colour(0, v, kBlack);
        if (TypeId t = graph_.type(v); t != run_type) {
            if (run_type != kNoId) add_if_tracked(spec, out, run_type, run_units);
            run_type = t;
            run_units = 0;
        }
        run_units += graph_.size(v);  // 1: leaves held are of size 1
        emission.vertex = v;
        emission.ephemeral = nullptr;
        if (const VertexSchedule* record = store_.find(v); record && !record->ephemeral.empty())
            emission.ephemeral = record->ephemeral.get();
        writer_->vertex(graph_, emission);
        if (leaf_edges_) writer_->edge(graph_, e, parent_excl);
        ++n;
    }
    if (run_type != kNoId) add_if_tracked(spec, out, run_type, run_units);
    return n;
}

}  // namespace rq
