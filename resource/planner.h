// Planner: the time-varying availability of one resource pool
// (spec/planner.md §1-2, RFC 16 "array of job allocations over time").
//
// A planner has a capacity `total` and a set of spans, each reserving
// `amount` units over [start, end). Availability at an instant is
// `total - Σ amounts of the spans covering it`. The window is [0, 2^63-1).
//
// Every query and update is O(log s) in the number s of scheduled points
// (see resource/time_tree.h); the reference walks spans linearly.
//
// Memory: there are hundreds of thousands of planners (one or two per graph
// vertex) and most never get a span, so an empty planner allocates nothing;
// two spans are stored inline; up to sixteen in a small array beside it; the
// tree and the span table are created beyond that (planner.cc).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "utilities/result.h"

namespace rq {

using Time = int64_t;  // abstract seconds
using SpanId = int64_t;
inline constexpr Time kPlannerEnd = INT64_MAX;  // window is [0, 2^63-1)

struct Span {
    SpanId id = 0;
    Time start = 0;
    Time end = 0;  // exclusive
    int64_t amount = 0;
};

class Planner {
public:
    explicit Planner(int64_t total = 0);
    Planner(const Planner& other);
    Planner& operator=(const Planner& other);
    Planner(Planner&& other) noexcept;
    Planner& operator=(Planner&& other) noexcept;
    ~Planner();

    // True iff [at, at+d) is a valid window: at >= 0, d >= 1 and
    // at + d <= kPlannerEnd (checked without overflowing).
    static bool valid_window(Time at, Time d) {
        return at >= 0 && d >= 1 && at <= kPlannerEnd - d;
    }

    // How many times any planner anywhere gave units back (a span removed
    // or reduced, a total changed, a planner with spans overwritten or
    // destroyed). A cached "nothing free here" stays true while it does
    // not move (traversers/select_order.h).
    static uint64_t release_count();

    int64_t total() const { return total_; }
    // Changes the capacity and keeps every span (availability may then be
    // negative, in which case nothing fits there).
    // Changes the capacity, keeping every span. With live spans this
    // follows the reference exactly, quirks included: every point's free
    // amount moves by the difference, clamped at 0, and the earliest-time
    // search keeps the old amounts of points no span change touched since
    // (resource/planner_resized.h). The planner is then O(points) per
    // operation until its last span goes.
    void set_total(int64_t total);

    // Minimum availability over [at, at+d); kInvalid for a bad window.
    Result<int64_t> avail_during(Time at, Time d) const;
    // Availability at one instant (total outside the window).
    int64_t avail_at(Time at) const;
    // Whether `amount` units are free during all of [at, at+d). False (not
    // an error) for a bad window, a negative amount or amount > total.
    bool fits(Time at, Time d, int64_t amount) const;

    // Reserves `amount` units over [at, at+d). Ids are 1, 2, 3... per
    // planner. Errors: kInvalid (bad window / negative amount), kRange
    // (amount > total), kBusy (not enough free units during the window).
    Result<SpanId> add_span(Time at, Time d, int64_t amount);
    // add_span() for a caller that has just seen fits(at, d, amount) hold
    // (MultiPlanner checks all its planners first, all or nothing): the
    // same span without a second check (a subtree span per ancestor and
    // tracked type on every match).
    SpanId add_checked_span(Time at, Time d, int64_t amount);
    // kNotFound for an unknown id.
    Status remove_span(SpanId id);
    // Releases `by` units of a span: by == amount removes it (also for a
    // zero-amount span), otherwise by == 0 does nothing; by > amount is
    // kRange, by < 0 kInvalid, unknown id kNotFound.
    Status reduce_span(SpanId id, int64_t by);

    const Span* span(SpanId id) const;  // nullptr if unknown
    size_t span_count() const;

    // Scheduled points: 0 plus every distinct start/end of a current span.
    size_t point_count() const;
    std::vector<Time> points() const;  // ascending

    // The first scheduled point t >= from with t + d <= kPlannerEnd and
    // fits(t, d, amount). kInvalid for d < 1 or amount < 0, kRange if
    // amount > total, kNotFound if there is no such point.
    Result<Time> earliest(Time from, Time d, int64_t amount) const;

    // Restoring a saved planner (state/, resource/schedule_restore.cc):
    // the id the next span gets, a span put back under its own id, and
    // the next id set back. Spans go back in any order (amounts only add).
    SpanId next_span_id() const { return next_id_; }
    Result<SpanId> restore_span(const Span& span);
    void restore_next_id(SpanId next) { next_id_ = next; }

    struct State;  // spans beyond the first (planner.cc)

private:
    struct StateDeleter {
        void operator()(State* s) const;  // back to a per-thread pool
    };
    using StatePtr = std::unique_ptr<State, StateDeleter>;
    static std::vector<State*>& state_pool();
    static StatePtr new_state();
    static StatePtr copy_state(const State& other);
    void materialize();
    void maybe_demote();
    // Most usage over [at, end), and whether the total changed under live spans.
    int64_t max_usage(Time at, Time end) const;
    bool resized() const;

    int64_t total_ = 0;
    SpanId next_id_ = 1;
    // Local mode: while a planner holds at most kLocal spans (and was
    // never resized) they live here and state_ stays null. Most busy
    // planners (a core, a node's exclusivity checker) hold their running
    // job and perhaps the queue head's reservation, so those spans cost no
    // allocation and no pointer to follow. With more, state_ holds a few in
    // an array, or a point tree (planner.cc).
    static constexpr uint32_t kLocal = 2;
    std::array<Span, kLocal> local_{};
    uint32_t nlocal_ = 0;
    StatePtr state_;  // null while there are at most kLocal spans
};

}  // namespace rq
