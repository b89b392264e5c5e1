// Free-node slots: the slots a `first`-family walk packs at a vertex whose
// leaves are all free, remembered and handed out again
// (docs/replay-performance.md "Ninth round").
//
// A replay of `slot[N]{core[1]}` on whole nodes packs, at every node it
// enters, the slots of the node's cores. Where every core of the node is
// free over the window and N is more than the node has, the walk
// (dom_slot: the early-stop child walk of spec/traversal.md §4.4, the
// leaves' visits, the policy's finish_slot, the packing) visits every core
// in the node's child order and finds each with one unit and its id-based
// score, so it always packs the same slots and leaves the same order
// steps, colours and counters behind. The first such walk at a vertex
// records them; later ones, while the same conditions hold, replay the
// record instead of the walk.
//
// The conditions (free_slots_apply): leaf holds on (a replay owns the
// traverser: not in the exhaustive oracle, whose passes the randomized
// replay tests compare with), a stop-on-first policy, not flexible, not
// the exhaustive or ordered walk; one member of fixed count 1 with
// nothing below it and no label; every dominant child of u a leaf of u
// alone (DfuTraverser::set_leaf_holds), of the member's type, up, with no
// record of its own (no span, label or checker), and none held by u over
// the window; N more than u's children; the child order unchanged (u's
// order stamp) and the first leaf's score the one recorded (the policy's
// level offset); the recording walk sorted no equal candidates.
#include "traversers/dfu.h"

namespace rq {

namespace {

bool member_is_plain_unit(const std::vector<JobResource>& shape) {
    if (shape.size() != 1) return false;
    const JobResource& m = shape.front();
    return m.with.empty() && m.label.empty() && m.count.min == 1 && m.count.max == 1 &&
           m.exclusive != Tristate::kFalse;
}

}  // namespace

// Whether the conditions above hold at u now (all but the record's own).
bool DfuTraverser::free_slots_apply(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots) const {
    if (!leaf_holds_ || !policy_.stop_on_first || flexible_ || exhaustive_select_ || walk_.index != nullptr)
        return false;
    if (!member_is_plain_unit(shape) || !Planner::valid_window(at_, duration_)) return false;
    const TypeId type = shape.front().type;
    if (jobspec_->constraint && (type == types::kNode || type == types::kStorageNode)) return false;
    // The cheap tests first: most visits of a partly taken machine fail
    // them (a small request, a node with a hold in the window).
    uint32_t children = 0;
    for (EdgeId e : graph_.out(u))
        if (graph_.subsystem(e) == dominant()) ++children;
    if (children == 0 || nslots <= children) return false;
    const VertexSchedule* record = store_.find(u);
    if (record != nullptr && record->leaves_held_mask(at_, duration_) != 0) return false;
    const std::vector<HoldSlot>& slots = store_.hold_slots();
    for (EdgeId e : graph_.out(u)) {
        if (graph_.subsystem(e) != dominant()) continue;
        VertexId v = graph_.target(e);
        if (v >= slots.size() || slots[v].parent != u || graph_.type(v) != type || !graph_.is_up(v) ||
            store_.find(v) != nullptr || colour(0, v) != kWhite)
            return false;
    }
    return true;
}

// The first leaf's score as the policy gives it now; false if it states none.
bool DfuTraverser::first_leaf_score(VertexId u, int64_t& score) const {
    for (EdgeId e : graph_.out(u))
        if (graph_.subsystem(e) == dominant())
            return policy_.leaf_score(PolicyContext{graph_, dominant()}, graph_.target(e), score);
    return false;
}

DfuTraverser::FreeSlots* DfuTraverser::free_slots_record(VertexId u, bool create) {
    if (free_slots_at_.size() <= u) {
        if (!create) return nullptr;
        free_slots_at_.resize(graph_.num_vertices() > u ? graph_.num_vertices() : u + 1u, kNoRecord);
    }
    uint32_t& i = free_slots_at_[u];
    if (i == kNoRecord) {
        if (!create) return nullptr;
        i = static_cast<uint32_t>(free_slots_.size());
        free_slots_.emplace_back();
    }
    return &free_slots_[i];
}

bool DfuTraverser::free_slots_replay(VertexId u, const std::vector<JobResource>& shape,
                                     ScoreSet& scores) {
    FreeSlots* record = free_slots_record(u, false);
    if (record == nullptr || record->type != shape.front().type ||
        record->order_stamp != graph_.order_stamp(u))
        return false;
    int64_t score = 0;
    if (!first_leaf_score(u, score) || score != record->first_score) return false;
    preorder_ += record->preorder;
    postorder_ += record->postorder;
    dfv_calls_ += record->dfv_calls;
    leaf_visits_ += record->leaf_visits;
    note_order_read(u);
    for (const OrderStep& step : record->steps) set_colour(0, graph_.target(step.edge), kBlack);
    // The steps name u's leaves, which have no subtree plan: no update
    // re-weights their edges, so a keep proof drops them and lists u as
    // fixed (Simulator::keep_changeable_steps); u's tally is read only
    // where an order changed. Counted, not copied.
    if (record_steps_) {
        order_walk_.fixed.push_back(u);
        order_walk_.folded_steps += record->steps.size();
    }
    scores.add_copies(dominant(), types::kSlot, record->slots);
    ++free_slot_replays_;
    return true;
}

DfuTraverser::FreeSlotsCapture DfuTraverser::free_slots_begin() {
    FreeSlotsCapture c;
    c.preorder = preorder_;
    c.postorder = postorder_;
    c.dfv_calls = dfv_calls_;
    c.leaf_visits = leaf_visits_;
    c.ties = ScoreSet::ties();
    c.steps = order_walk_.steps.size();
    c.stopped = order_walk_.stopped.size();
    c.tallies = order_walk_.tallies.size();
    c.fixed = order_walk_.fixed.size();
    c.folded_steps = order_walk_.folded_steps;
    c.record_steps = record_steps_;
    record_steps_ = true;  // the record needs the steps; dropped below if the walk keeps none
    return c;
}

void DfuTraverser::free_slots_end(VertexId u, const std::vector<JobResource>& shape, const FreeSlotsCapture& c,
                                  const std::vector<EGroup>* slots) {
    int64_t score = 0;
    const bool keep = slots != nullptr && ScoreSet::ties() == c.ties && order_walk_.stopped.size() == c.stopped &&
                      order_walk_.tallies.size() == c.tallies + 1 && first_leaf_score(u, score);
    if (keep) {
        FreeSlots& record = *free_slots_record(u, true);
        record.type = shape.front().type;
        record.order_stamp = graph_.order_stamp(u);
        record.first_score = score;
        record.preorder = preorder_ - c.preorder;
        record.postorder = postorder_ - c.postorder;
        record.dfv_calls = dfv_calls_ - c.dfv_calls;
        record.leaf_visits = leaf_visits_ - c.leaf_visits;
        record.steps.assign(order_walk_.steps.begin() + static_cast<std::ptrdiff_t>(c.steps), order_walk_.steps.end());
        record.slots.assign(slots->begin(), slots->end());
    }
    record_steps_ = c.record_steps;
    if (!record_steps_) {
        order_walk_.steps.resize(c.steps);
        order_walk_.stopped.resize(c.stopped);
        order_walk_.tallies.resize(c.tallies);
        order_walk_.fixed.resize(c.fixed);
        order_walk_.folded_steps = c.folded_steps;
    }
}

}  // namespace rq
