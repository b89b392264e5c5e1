// The RFC 16 records a vertex keeps about jobs (spec/planner.md §4, §6):
// its own schedule planner with allocation/reservation spans, the job tags,
// the exclusivity checker, and the subtree plan (pruning filter) with its
// per-job spans.
//
// Most vertices of a large graph are never touched by a job, so the records
// are created on first use; an untouched vertex costs one null pointer.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "resource/graph.h"
#include "resource/job_map.h"
#include "resource/multi_planner.h"
#include "resource/planner.h"
#include "resource/vertex_slots.h"

namespace rq {

using JobId = int64_t;

// Capacity of the exclusivity checker: one unit per job touching a vertex;
// a vertex is free for exclusive use only if no unit is taken (2^30).
inline constexpr int64_t kCheckerCapacity = int64_t(1) << 30;

// Jobspec labels of a vertex (JGF "ephemeral"): rarely set, so a null
// pointer until the first label.
class Labels {
public:
    using Map = std::map<std::string, std::string>;
    std::string& operator[](const std::string& key) {
        if (!map_) map_ = std::make_unique<Map>();
        return (*map_)[key];
    }
    bool empty() const { return !map_ || map_->empty(); }
    void clear() { map_.reset(); }
    const Map* get() const { return empty() ? nullptr : map_.get(); }

private:
    std::unique_ptr<Map> map_;
};

// The exclusivity checker of a vertex and the span each job holds in it.
// Capacity 2^30: one unit per job touching the vertex, except a leaf of
// size 1 held exclusively, whose own span stands for it
// (DfuTraverser::own_span_stands_for_exclusivity).
struct Exclusivity {
    Planner checker{kCheckerCapacity};
    JobMap<SpanId> spans;
};

// A job holding leaf children of a vertex (cores of a node, each of size
// 1, exclusively) over one window, recorded once at the parent in place of
// a span, a tag and a table entry on each leaf (docs/matching.md "Leaf
// holds"). Only while the traverser's leaf holds are on (a replay).
struct LeafHold {
    Time at = 0;
    Time duration = 0;
    uint64_t leaves = 0;    // bit i: the parent's leaf i (HoldSlot::bit)
    bool reserved = false;  // a reservation (else an allocation)

    bool overlaps(Time a, Time d) const { return at < a + d && a < at + duration; }
};

// Where a leaf's holds are kept: its parent, and its bit in LeafHold::leaves.
struct HoldSlot {
    VertexId parent = kNoVertex;
    uint32_t bit = 0;
};
using LeafHolds = JobMap<LeafHold>;

struct VertexSchedule {
    explicit VertexSchedule(int64_t size) : plan(size) {}

    // The fields a core's match, update and release touch come first, so
    // that they share the record's first cache lines (docs/replay-performance.md
    // "Sixth round", "Eighth round"): the planner, the tags and the
    // allocation table, which a job started at now writes on every core it
    // takes (the first 208 of 296 bytes); the exclusivity checker, which a
    // core held exclusively never uses, lives apart and is created on first
    // write.
    Planner plan;                 // capacity = vertex size
    JobSet tags;                  // every job that emitted this vertex
    JobMap<SpanId> allocations;   // exclusive spans at time 0
    JobMap<SpanId> reservations;  // exclusive spans in the future
    Labels ephemeral;             // jobspec labels (JGF "ephemeral")

    // Whether `job` holds an own span here (allocated or reserved).
    bool holds_own_span(JobId job) const { return allocations.count(job) != 0 || reservations.count(job) != 0; }
    // Removes the job's own span (allocated or reserved), if it has one;
    // false only if the planner did not know the span its table named.
    bool remove_own_span(JobId job) {
        if (auto a = allocations.find(job); a != allocations.end()) {
            bool ok = plan.remove_span(a->second).ok();
            allocations.erase(a);
            return ok;
        }
        if (auto r = reservations.find(job); r != reservations.end()) {
            bool ok = plan.remove_span(r->second).ok();
            reservations.erase(r);
            return ok;
        }
        return true;
    }

    // The checker and its spans; an untouched vertex reads an empty
    // checker (as a fresh one: no span, next id 1).
    const Planner& x_checker() const { return x_ ? x_->checker : empty_exclusivity().checker; }
    const JobMap<SpanId>& x_spans() const { return x_ ? x_->spans : empty_exclusivity().spans; }
    // For writing: created on first use, kept with the record.
    Exclusivity& exclusivity() {
        if (!x_) x_ = std::make_unique<Exclusivity>();
        return *x_;
    }
    // Null while nothing was ever written (nothing to remove).
    Exclusivity* exclusivity_if_any() { return x_.get(); }
    // Records `job` in the checker over [at, at+d) (one unit); nothing if
    // the checker refuses the span.
    void add_x_span(JobId job, Time at, Time d) {
        Exclusivity& xs = exclusivity();
        auto span = xs.checker.add_span(at, d, 1);
        if (span.ok()) xs.spans[job] = *span;
    }
    // Removes the job's checker span, if it has one; false only if the
    // checker did not know the span its table named.
    bool remove_x_span(JobId job) {
        if (!x_) return true;
        auto x = x_->spans.find(job);
        if (x == x_->spans.end()) return true;
        bool ok = x_->checker.remove_span(x->second).ok();
        x_->spans.erase(x);
        return ok;
    }

    // The leaf holds recorded here (null while none ever was).
    const LeafHolds* leaf_holds() const { return holds_ ? &holds_->map : nullptr; }
    void add_leaf_hold(JobId job, const LeafHold& hold) {
        if (!holds_) holds_ = std::make_unique<HoldTable>();
        holds_->map[job] = hold;
        holds_->any |= hold.leaves;
        holds_->stamp = next_hold_stamp();
    }
    void clear_leaf_holds() { holds_.reset(); }
    // The leaves named by holds overlapping [at, at+d), one bit each.
    uint64_t leaves_held_mask(Time at, Time d) const {
        uint64_t mask = 0;
        if (holds_)
            for (auto& entry : holds_->map)
                if (entry.second.overlaps(at, d)) mask |= entry.second.leaves;
        return mask;
    }
    // Whether some hold names one of `mask`'s leaves (at any time).
    bool any_leaf_held(uint64_t mask) const { return holds_ && (holds_->any & mask) != 0; }
    // Changes with every change of the holds here, never repeating (0:
    // none): what ScheduleStore::avail's cache is keyed by.
    uint64_t holds_stamp() const { return holds_ ? holds_->stamp : 0; }
    // Removes the job's hold, if any.
    void remove_leaf_hold(JobId job) {
        if (!holds_ || holds_->map.erase(job) == 0) return;
        holds_->stamp = next_hold_stamp();
        holds_->any = 0;
        for (auto& entry : holds_->map) holds_->any |= entry.second.leaves;
    }

private:
    static const Exclusivity& empty_exclusivity() {
        static const Exclusivity empty;
        return empty;
    }
    std::unique_ptr<Exclusivity> x_;
    struct HoldTable {
        LeafHolds map;
        uint64_t any = 0;    // the union of the holds' leaves
        uint64_t stamp = 0;  // next_hold_stamp() at the last change
    };
    // One counter for every table, so that a table made anew never
    // repeats a stamp an earlier one at the same place had.
    static uint64_t next_hold_stamp() {
        static std::atomic<uint64_t> counter{0};
        return counter.fetch_add(1, std::memory_order_relaxed) + 1;
    }
    std::unique_ptr<HoldTable> holds_;
};

// A subtree plan: how many units of each tracked type are free below a
// vertex over time, and the span each job holds on it.
struct SubtreePlan {
    MultiPlanner plan;
    JobMap<SpanId> job2span;

    // Removes the job's span, if it has one; false only if the plan did
    // not know the span the table named.
    bool remove_job(JobId job) {
        auto s = job2span.find(job);
        if (s == job2span.end()) return true;
        bool ok = plan.remove_span(s->second).ok();
        job2span.erase(s);
        return ok;
    }
};

class ScheduleStore {
public:
    // Grows the store to cover `n` vertices (new vertices have no records).
    void resize(size_t n);
    size_t size() const { return records_.size(); }

    const VertexSchedule* find(VertexId v) const { return records_.get(v); }
    VertexSchedule* find(VertexId v) { return records_.get(v); }
    // The record of `v`, created with a planner of capacity `size` if absent.
    VertexSchedule& get(VertexId v, int64_t size);
    // Drops the record (vertex cleared by `remove`).
    void clear(VertexId v);

    // Removes every record `job` holds at v: its tag, its checker span,
    // its span in v's subtree plan (subsystem slot 0) and its own span
    // (spec/traversal.md §11). False, removing nothing, when v holds no tag
    // of `job` (a walk over a job's vertices stops there). `ok` turns
    // false if a planner did not know a span its table named; the other
    // records are removed all the same. Inline: a replay releases every
    // core of every job it ends.
    bool release_tagged(VertexId v, JobId job, bool& ok) {
        VertexSchedule* record = find(v);
        if (record == nullptr || record->tags.erase(job) == 0) return false;
        ok = record->remove_x_span(job) && ok;
        if (SubtreePlan* plan = subtree(v, 0)) ok = plan->remove_job(job) && ok;
        ok = record->remove_own_span(job) && ok;
        record->remove_leaf_hold(job);
        return true;
    }

    // min available units of v's own planner over [at, at+d); an untouched
    // vertex has its whole size available. A leaf whose parent holds it
    // (a LeafHold overlapping the window) has none.
    int64_t avail(VertexId v, int64_t size, Time at, Time d) const;

    // Per vertex, the parent that may record its leaf holds (kNoVertex for
    // the rest); empty while leaf holds are off (DfuTraverser::set_leaf_holds).
    void set_hold_slots(std::vector<HoldSlot> slots) { hold_slot_ = std::move(slots); }
    const std::vector<HoldSlot>& hold_slots() const { return hold_slot_; }

    // Subtree plans per subsystem slot (the matcher's subsystem index).
    SubtreePlan* subtree(VertexId v, size_t slot) {
        return slot < subtree_.size() ? subtree_[slot].get(v) : nullptr;
    }
    const SubtreePlan* subtree(VertexId v, size_t slot) const {
        return slot < subtree_.size() ? subtree_[slot].get(v) : nullptr;
    }
    SubtreePlan& set_subtree(VertexId v, size_t slot, MultiPlanner plan);
    void drop_subtree(VertexId v, size_t slot);

    // A canonical text of every record and span (vertex by vertex), to
    // compare states: two stores with the same describe() hold the same
    // allocations, reservations, tags and subtree spans.
    std::string describe() const;

    // While set, the vertices whose labels a walk changes are appended to
    // `log` (duplicates possible): what `save FILE changes` must rewrite
    // (state/). Null: not watched, as the graph's change log.
    void set_label_log(std::vector<VertexId>* log) { label_log_ = log; }
    std::vector<VertexId>* label_log() const { return label_log_; }
    void note_labels(VertexId v) {
        if (label_log_ != nullptr) label_log_->push_back(v);
    }

private:
    VertexSlots<VertexSchedule> records_;
    std::vector<HoldSlot> hold_slot_;
    // avail() of a held leaf: the leaves its parent's holds name over the
    // window, for the last (parent, holds' stamp, window) asked. A walk
    // asks for a socket's cores one after another, each scanning the
    // same holds before.
    struct HeldMask {
        VertexId parent = kNoVertex;
        uint64_t stamp = 0;
        Time at = 0, d = 0;
        uint64_t mask = 0;
    };
    mutable HeldMask held_mask_;
    std::vector<VertexId>* label_log_ = nullptr;
    std::vector<VertexSlots<SubtreePlan>> subtree_;
};

}  // namespace rq
