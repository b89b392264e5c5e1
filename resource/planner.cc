#include "resource/planner.h"

#include <atomic>
#include <string>

#include "resource/id_table.h"
#include "resource/planner_resized.h"
#include "resource/time_tree.h"

namespace rq {

namespace {
std::atomic<uint64_t> g_releases{0};
void count_release() { g_releases.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

uint64_t Planner::release_count() { return g_releases.load(std::memory_order_relaxed); }

// Everything a planner needs once it has spans. Point 0 is pinned inside
// the tree, so the tree's points are exactly the planner's scheduled points.
struct Planner::State {
    TimeTree tree;
    KeyedIdTable<Span> spans;
    // Set once the total changed under live spans: from then on the
    // reference's point-by-point model answers (see planner_resized.h).
    std::unique_ptr<ResizedPoints> resized;

    State() = default;
    State(const State& o)
        : tree(o.tree),
          spans(o.spans),
          resized(o.resized ? std::make_unique<ResizedPoints>(*o.resized) : nullptr) {}

    Span* find(SpanId id) {
        return spans.find(id);
    }
    void add_to_tree(const Span& span) {
        spans.add(span);
        tree.add_reference(span.start, span.amount);
        tree.add_reference(span.end, -span.amount);
    }
};

// Leaves single-span mode (a second span arrives, or a resize).
void Planner::materialize() {
    if (state_) return;
    state_ = std::make_unique<State>();
    if (has_single()) state_->add_to_tree(single_);
    single_ = Span{};
}

// Back to single-span mode when one span is left in the tree, and to the
// empty planner when none is.
void Planner::maybe_demote() {
    if (!state_) return;
    if (state_->spans.empty()) {
        state_.reset();
    } else if (!state_->resized && state_->spans.size() == 1) {
        state_->spans.for_each([&](const Span& only) { single_ = only; });
        state_.reset();
    }
}

namespace {

std::string window_text(Time at, Time d) {
    return "[" + std::to_string(at) + ", +" + std::to_string(d) + ")";
}

Error unknown_span(SpanId id) {
    return make_error(Errc::kNotFound,
                      "planner: unknown span id " + std::to_string(id));
}

}  // namespace

Planner::Planner(int64_t total) : total_(total) {}

Planner::Planner(const Planner& other)
    : total_(other.total_),
      next_id_(other.next_id_),
      single_(other.single_),
      state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}

Planner& Planner::operator=(const Planner& other) {
    if (this != &other) {
        count_release();
        total_ = other.total_;
        next_id_ = other.next_id_;
        single_ = other.single_;
        state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
    }
    return *this;
}

Planner::Planner(Planner&& other) noexcept = default;
Planner& Planner::operator=(Planner&& other) noexcept {
    if (this != &other) {
        count_release();
        total_ = other.total_;
        next_id_ = other.next_id_;
        single_ = other.single_;
        state_ = std::move(other.state_);
    }
    return *this;
}
Planner::~Planner() {
    if (state_ || has_single()) count_release();
}

// ---- queries -------------------------------------------------------------

Result<int64_t> Planner::avail_during(Time at, Time d) const {
    if (!valid_window(at, d))
        return make_error(Errc::kInvalid,
                          "planner: invalid time window " + window_text(at, d));
    if (!state_) return total_ - single_usage(at, at + d);
    if (state_->resized) return state_->resized->avail_during(at, d);
    return total_ - state_->tree.max_usage(at, at + d);
}

int64_t Planner::avail_at(Time at) const {
    if (at < 0 || at >= kPlannerEnd) return total_;
    if (!state_) return total_ - single_usage(at, at + 1);
    if (state_->resized) return state_->resized->avail_at(at);
    return total_ - state_->tree.usage_at(at);
}

bool Planner::fits(Time at, Time d, int64_t amount) const {
    if (!valid_window(at, d) || amount < 0 || amount > total_) return false;
    if (!state_) return single_usage(at, at + d) <= total_ - amount;
    if (state_->resized) return state_->resized->avail_during(at, d) >= amount;
    return state_->tree.max_usage(at, at + d) <= total_ - amount;
}

const Span* Planner::span(SpanId id) const {
    if (!state_) return has_single() && single_.id == id ? &single_ : nullptr;
    return state_->find(id);
}

size_t Planner::span_count() const {
    if (!state_) return has_single() ? 1 : 0;
    return state_->spans.size();
}

size_t Planner::point_count() const {
    if (!state_) return points().size();
    return state_->resized ? state_->resized->points().size() : state_->tree.size();
}

std::vector<Time> Planner::points() const {
    if (!state_) {
        if (!has_single()) return {0};
        const Span& only = single_;
        if (only.start == 0) return {0, only.end};
        return {0, only.start, only.end};
    }
    return state_->resized ? state_->resized->points() : state_->tree.points();
}

// Cost: each loop iteration is O(log s) and either returns or skips one
// whole "gap" — a run of points whose usage is low enough but which ends
// (at `too_busy`) less than d after its start — together with the busy run
// after it. So the search is O(log s) per rejected gap, never per point.
Result<Time> Planner::earliest(Time from, Time d, int64_t amount) const {
    if (d < 1 || amount < 0)
        return make_error(Errc::kInvalid,
                          "planner: invalid earliest-time request (duration " +
                              std::to_string(d) + ", amount " +
                              std::to_string(amount) + ")");
    if (amount > total_)
        return make_error(Errc::kRange, "planner: request of " +
                                            std::to_string(amount) +
                                            " exceeds total " +
                                            std::to_string(total_));
    auto exhausted = [&] {
        return make_error(Errc::kNotFound, "planner: no scheduled point at or after " +
                                               std::to_string(from) + " fits " +
                                               std::to_string(amount) + " for " +
                                               std::to_string(d));
    };
    if (!state_) {
        // The scheduled points are 0, and the single span's start and end.
        for (Time t : points())
            if (t >= from && t <= kPlannerEnd - d && single_usage(t, t + d) <= total_ - amount) return t;
        return exhausted();
    }
    if (state_->resized) {
        Time t = state_->resized->earliest(from, d, amount);
        if (t < 0) return exhausted();
        return t;
    }
    const TimeTree& tree = state_->tree;
    const int64_t cap = total_ - amount;  // the most usage `amount` tolerates
    const Time last_start = kPlannerEnd - d;

    std::optional<Time> candidate = tree.first_point_at_or_after(from);
    if (candidate && tree.usage_at(*candidate) > cap)
        candidate = tree.first_point_at_most(*candidate, cap);
    // Invariant: usage at *candidate <= cap.
    while (candidate && *candidate <= last_start) {
        Time start = *candidate;
        std::optional<Time> too_busy = tree.first_point_above(start, cap);
        if (!too_busy || *too_busy >= start + d) return start;
        candidate = tree.first_point_at_most(*too_busy, cap);
    }
    return exhausted();
}

// ---- updates -------------------------------------------------------------

void Planner::set_total(int64_t total) {
    count_release();
    const int64_t delta = total - total_;
    if ((state_ || has_single()) && delta != 0) {
        materialize();
        if (!state_->resized) {
            const TimeTree& tree = state_->tree;
            state_->resized = std::make_unique<ResizedPoints>(
                tree.points(), [&](Time t) { return total_ - tree.usage_at(t); });
            state_->spans.for_each([&](const Span& span) {
                state_->resized->add_boundary_reference(span.start);
                state_->resized->add_boundary_reference(span.end);
            });
        }
        state_->resized->change_total(delta);
    }
    total_ = total;
}

Result<SpanId> Planner::add_span(Time at, Time d, int64_t amount) {
    if (!valid_window(at, d))
        return make_error(Errc::kInvalid,
                          "planner: invalid time window " + window_text(at, d));
    if (amount < 0)
        return make_error(Errc::kInvalid, "planner: negative span amount " +
                                              std::to_string(amount));
    if (amount > total_)
        return make_error(Errc::kRange, "planner: span amount " +
                                            std::to_string(amount) +
                                            " exceeds total " +
                                            std::to_string(total_));
    if (!fits(at, d, amount))
        return make_error(Errc::kBusy, "planner: " + std::to_string(amount) +
                                           " units not available during " +
                                           window_text(at, d));
    return add_checked_span(at, d, amount);
}

SpanId Planner::add_checked_span(Time at, Time d, int64_t amount) {
    const SpanId id = next_id_++;
    const Span added{id, at, at + d, amount};
    if (!state_ && !has_single()) {
        single_ = added;
        return id;
    }
    materialize();
    if (state_->resized) {
        state_->spans.add(added);
        state_->resized->add_span(at, at + d, amount);
    } else {
        state_->add_to_tree(added);
    }
    return id;
}

Status Planner::remove_span(SpanId id) {
    count_release();
    if (!state_) {
        if (!has_single() || single_.id != id) return unknown_span(id);
        single_ = Span{};
        return ok_status();
    }
    const Span* found = state_->spans.find(id);
    if (found == nullptr) return unknown_span(id);
    const Span removed = *found;
    state_->spans.erase(id);
    if (state_->resized) {
        state_->resized->remove_span(removed.start, removed.end, removed.amount);
    } else {
        state_->tree.remove_reference(removed.start, -removed.amount);
        state_->tree.remove_reference(removed.end, removed.amount);
    }
    // Give the memory back: most planners are idle most of the time.
    maybe_demote();
    return ok_status();
}

Status Planner::reduce_span(SpanId id, int64_t by) {
    Span* found = state_ ? state_->find(id) : has_single() && single_.id == id ? &single_ : nullptr;
    if (found == nullptr) return unknown_span(id);
    Span& reduced = *found;
    if (by < 0)
        return make_error(Errc::kInvalid,
                          "planner: cannot reduce span " + std::to_string(id) +
                              " by a negative amount " + std::to_string(by));
    if (by > reduced.amount)
        return make_error(Errc::kRange, "planner: cannot reduce span " +
                                            std::to_string(id) + " of " +
                                            std::to_string(reduced.amount) +
                                            " by " + std::to_string(by));
    // Checked before by == 0 so that reducing a zero-amount span by 0
    // removes it: partial release must be able to drop every span.
    if (by == reduced.amount) return remove_span(id);
    if (by == 0) return ok_status();
    count_release();
    reduced.amount -= by;
    if (!state_) return ok_status();
    if (state_->resized) {
        state_->resized->reduce_span(reduced.start, reduced.end, by);
    } else {
        state_->tree.change_usage(reduced.start, -by);
        state_->tree.change_usage(reduced.end, by);
    }
    return ok_status();
}

}  // namespace rq
