// MultiPlanner: one Planner per tracked resource type, used for subtree
// plans (spec/planner.md §3, §5). A multi-span reserves an amount of every
// type over the same window and is identified by one id (0, 1, 2... per
// multi-planner).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "resource/id_table.h"
#include "resource/planner.h"
#include "utilities/result.h"

namespace rq {

class MultiPlanner {
public:
    MultiPlanner() = default;
    // Planner i tracks types[i] with capacity totals[i] (a missing total is
    // taken as 0, surplus totals are ignored).
    MultiPlanner(std::vector<uint16_t> types, std::vector<int64_t> totals);

    size_t size() const { return types_.size(); }
    uint16_t type(size_t i) const { return types_[i]; }
    const Planner& planner(size_t i) const { return planners_[i]; }
    // -1 if absent. Inline: the walk asks it at every vertex it visits.
    int64_t index_of(uint16_t type) const {
        for (size_t i = 0; i < types_.size(); ++i)
            if (types_[i] == type) return static_cast<int64_t>(i);
        return -1;
    }

    // Whether planner i fits amounts[i] during [at, at+d) for every i.
    // False if `amounts` does not have one entry per planner.
    bool fits(Time at, Time d, const std::vector<int64_t>& amounts) const;

    // Adds one span per type (amounts may be 0), all or nothing. An amount
    // of 0 for a type after the first changes no availability and no
    // candidate of earliest(), so it is kept in the multi-span's row only,
    // not as a span of the type's planner: a slot request of cores adds 0
    // nodes to every ancestor's plan, and those spans were half the
    // planner tree work of a busy replay (docs/replay-performance.md "Seventh round").
    Result<SpanId> add_span(Time at, Time d, const std::vector<int64_t>& amounts);
    Status remove_span(SpanId id);

    // Partial release: reduces the span of type index i by `by`. A per-type
    // span reaching 0 is removed; when every per-type span is gone the
    // multi-span is forgotten. Returns whether the multi-span still exists.
    Result<bool> reduce_span(SpanId id, size_t i, int64_t by);

    // Amount of the type-i span of a multi-span; nullopt if gone/unknown.
    std::optional<int64_t> span_amount(SpanId id, size_t i) const;
    bool has_span(SpanId id) const { return spans_.count(id) != 0; }
    size_t span_count() const { return spans_.size(); }
    // Multi-spans with a part (zero or not) left for type index i: what
    // planner(i).span_count() would be if zero amounts were planner spans.
    size_t span_count(size_t i) const { return planners_[i].span_count() + zeros_[i]; }
    // The per-type span id (multispan(), a saved row) of an amount of 0
    // that no planner span holds.
    static constexpr SpanId kZeroPart = -1;

    // Replaces the type list: kept types keep their spans (with the new
    // total), new types start empty, vanished types are dropped. Existing
    // multi-spans stay known (even if none of their types survived), so a
    // later remove_span for them still succeeds.
    void reset(std::vector<uint16_t> types, std::vector<int64_t> totals);

    // spec §5: the first scheduled point t >= from of planner 0 with
    // t + d <= kPlannerEnd where every planner i fits amounts[i].
    // kInvalid for no planners / wrong amount count / d < 1 / negative
    // amounts, kRange if amounts[0] > total(0), kNotFound when exhausted.
    Result<Time> earliest(Time from, Time d,
                          const std::vector<int64_t>& amounts) const;

    // Restoring a saved subtree plan (state/, resource/schedule_restore.cc).
    SpanId next_span_id() const { return next_id_; }
    // The per-type span ids of multi-span `id` (nullopt if unknown).
    std::optional<std::vector<SpanId>> multispan(SpanId id) const {
        const int64_t* row = spans_.find(id);
        if (row == nullptr) return std::nullopt;
        return std::vector<SpanId>(row, row + spans_.width());
    }
    Planner& planner_to_restore(size_t i) { return planners_[i]; }
    // Puts multi-span `id` back; the caller gives ids in increasing order,
    // above every multi-span known.
    Status restore_multispan(SpanId id, const std::vector<SpanId>& per_type);
    void restore_next_id(SpanId next) { next_id_ = next; }

private:
    Status check_amounts(const std::vector<int64_t>& amounts) const;

    std::vector<uint16_t> types_;
    std::vector<Planner> planners_;
    // Multi-span id -> row of per-type span ids, column i in planners_[i]
    // (0 once that per-type span has been released, kZeroPart for an amount
    // of 0 held by no planner span; planner span ids start at 1). One flat
    // table: every match adds a multi-span on each
    // ancestor of what it takes, so this is 8 bytes a type and a job.
    IdRows spans_;
    std::vector<size_t> zeros_;  // per type: rows holding kZeroPart
    SpanId next_id_ = 0;
};

}  // namespace rq
