#include "resource/schedule.h"

#include <sstream>

namespace rq {

void ScheduleStore::resize(size_t n) {
    records_.resize(n);
    for (auto& slot : subtree_) slot.resize(n);
}

VertexSchedule& ScheduleStore::get(VertexId v, int64_t size) {
    if (v >= records_.size()) resize(v + 1u);
    if (VertexSchedule* r = records_.get(v)) return *r;
    return records_.emplace(v, size);
}

void ScheduleStore::clear(VertexId v) {
    records_.reset(v);
}

int64_t ScheduleStore::avail(VertexId v, int64_t size, Time at, Time d) const {
    const VertexSchedule* r = find(v);
    int64_t a = size;
    if (r == nullptr) {
        if (!Planner::valid_window(at, d)) return 0;
    } else {
        auto own = r->plan.avail_during(at, d);
        if (!own.ok()) return 0;
        a = *own;
    }
    if (a > 0 && v < hold_slot_.size() && hold_slot_[v].parent != kNoVertex) {
        const HoldSlot slot = hold_slot_[v];
        const VertexSchedule* parent = find(slot.parent);
        const uint64_t bit = uint64_t(1) << slot.bit;
        if (parent == nullptr || !parent->any_leaf_held(bit)) return a;
        HeldMask& m = held_mask_;
        if (m.parent != slot.parent || m.stamp != parent->holds_stamp() || m.at != at || m.d != d)
            m = {slot.parent, parent->holds_stamp(), at, d, parent->leaves_held_mask(at, d)};
        if ((m.mask & bit) != 0) return 0;
    }
    return a;
}

SubtreePlan& ScheduleStore::set_subtree(VertexId v, size_t slot, MultiPlanner plan) {
    if (subtree_.size() <= slot) subtree_.resize(slot + 1u);
    subtree_[slot].resize(records_.size());
    return subtree_[slot].emplace(v, SubtreePlan{std::move(plan), {}});
}

void ScheduleStore::drop_subtree(VertexId v, size_t slot) {
    if (slot < subtree_.size()) subtree_[slot].reset(v);
}

namespace {

void describe_planner(std::ostringstream& out, const char* what, const Planner& p) {
    out << " " << what << "(total " << p.total() << ":";
    for (Time t : p.points()) out << " " << t << "=" << p.avail_at(t);
    out << ")";
}

template <class Map>
void describe_map(std::ostringstream& out, const char* what, const Map& m) {
    if (m.empty()) return;
    out << " " << what << "{";
    for (auto& [k, v] : m) out << k << ":" << v << ",";
    out << "}";
}

}  // namespace

std::string ScheduleStore::describe() const {
    std::ostringstream out;
    for (size_t v = 0; v < records_.size(); ++v) {
        const VertexSchedule* r = records_.get(v);
        // A record that holds nothing says what no record says (a vertex
        // a walk never wrote on, or one whose leaves a LeafHold covered).
        bool holds_nothing = r != nullptr && r->plan.span_count() == 0 && r->x_checker().span_count() == 0 &&
                             r->tags.empty() && r->allocations.empty() && r->reservations.empty() &&
                             r->x_spans().empty() && (r->leaf_holds() == nullptr || r->leaf_holds()->empty());
        if (r != nullptr && !holds_nothing) {
            out << "v" << v;
            describe_planner(out, "plan", r->plan);
            describe_planner(out, "x", r->x_checker());
            describe_map(out, "alloc", r->allocations);
            describe_map(out, "resv", r->reservations);
            describe_map(out, "xspan", r->x_spans());
            if (const LeafHolds* holds = r->leaf_holds(); holds != nullptr && !holds->empty()) {
                out << " holds{";
                for (auto& [job, h] : *holds)
                    out << job << ":" << h.at << "+" << h.duration << (h.reserved ? "r" : "a") << "/" << h.leaves
                        << ",";
                out << "}";
            }
            if (!r->tags.empty()) {
                out << " tags{";
                for (JobId j : r->tags) out << j << ",";
                out << "}";
            }
            out << "\n";
        }
        for (size_t slot = 0; slot < subtree_.size(); ++slot) {
            const SubtreePlan* s = subtree(static_cast<VertexId>(v), slot);
            if (s == nullptr) continue;
            out << "v" << v << " subtree" << slot;
            for (size_t i = 0; i < s->plan.size(); ++i) describe_planner(out, "t", s->plan.planner(i));
            describe_map(out, "job2span", s->job2span);
            out << "\n";
        }
    }
    return out.str();
}

}  // namespace rq
