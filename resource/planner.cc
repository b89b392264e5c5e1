#include "resource/planner.h"

#include <algorithm>
#include <array>
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

namespace {

// The most spans a planner keeps in an array before its point tree (a
// State's few mode, below); the scans' scratch is sized by it.
constexpr uint32_t kScanMax = 16;

// Queries over a short array of spans (the planner's own few, or a
// State's, at most kScanMax), answered by scanning it.
int64_t usage_at(const Span* spans, uint32_t n, Time t) {
    int64_t usage = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (spans[i].start <= t && t < spans[i].end) usage += spans[i].amount;
    return usage;
}
// The usage changes only at span starts, so its maximum over [from, to)
// is at `from` or at a start inside the window. When the spans meeting
// the window all cover one instant (the latest of their starts), the
// maximum is their sum, found in one pass: the usual case, kept linear.
int64_t max_usage_of(const Span* spans, uint32_t n, Time from, Time to) {
    int64_t sum = 0;
    Time latest_start = from, earliest_end = to;
    for (uint32_t i = 0; i < n; ++i) {
        if (spans[i].start >= to || spans[i].end <= from) continue;
        sum += spans[i].amount;
        latest_start = std::max(latest_start, spans[i].start);
        earliest_end = std::min(earliest_end, spans[i].end);
    }
    if (latest_start < earliest_end) return sum;
    // Otherwise (a core's reservations one after another in the window):
    // the usage at `from`, then a sweep over the starts and ends inside the
    // window in time order, sorted in place: O(n log n) rather than a scan
    // per start.
    struct Step {
        Time t;
        int64_t delta;
    };
    Step steps[2 * kScanMax];
    uint32_t k = 0;
    int64_t usage = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const Span& span = spans[i];
        if (span.start >= to || span.end <= from) continue;
        if (span.start <= from)
            usage += span.amount;
        else
            steps[k++] = {span.start, span.amount};
        if (span.end < to) steps[k++] = {span.end, -span.amount};
    }
    std::sort(steps, steps + k, [](const Step& a, const Step& b) { return a.t < b.t; });
    int64_t most = usage;
    for (uint32_t i = 0; i < k;) {
        const Time t = steps[i].t;
        for (; i < k && steps[i].t == t; ++i) usage += steps[i].delta;
        most = std::max(most, usage);
    }
    return most;
}
std::vector<Time> points_of(const Span* spans, uint32_t n) {
    std::vector<Time> points{0};
    for (uint32_t i = 0; i < n; ++i) {
        points.push_back(spans[i].start);
        points.push_back(spans[i].end);
    }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    return points;
}
// Span is Span or const Span.
template <typename S>
S* find_in(S* spans, uint32_t n, SpanId id) {
    for (uint32_t i = 0; i < n; ++i)
        if (spans[i].id == id) return &spans[i];
    return nullptr;
}
// Removes span `id` from the array, keeping the others in id order
// (maybe_to_few and the tree agree); false if it is not there.
bool erase_in(Span* spans, uint32_t& n, SpanId id) {
    Span* found = find_in(spans, n, id);
    if (found == nullptr) return false;
    std::copy(found + 1, spans + n, found);
    --n;
    return true;
}

}  // namespace

// Everything a planner needs once it has two spans or more.
//
// Few mode (`big` null): up to kFewSpans spans in a plain array, queried
// by scanning it. A busy core holds its running job plus a reservation or
// two, and every scheduling pass of a replay adds and removes those spans
// by the thousand (docs/replay-performance.md "First round"
// and "Second round"): building a point tree for two spans and tearing it down
// again cost more than the scans it saves. Sixteen, not eight: under
// conservative backfill a core holds a reservation per queued job that
// covers it, and a node's subtree plan a span per job on its cores; their
// trees (nodes scattered in memory, a span table beside them) cost more
// time and memory than a 16-span scan (docs/replay-performance.md,
// "Second round": conservative 0.81× the time and 41 MB instead of 53 MB, the
// synthetic trace 0.87×; 32 was slower again). A few-mode planner answers
// every query exactly as the tree does: its scheduled points are 0 and
// every distinct start and end of a span (spec/planner.md §2).
//
// Tree mode (`big` set): the point tree and the span table; a planner goes
// there when a span arrives while the array is full, and comes back when
// its spans drop to half the array (the gap keeps a planner that hovers at
// the limit from converting at every add and remove).
struct Planner::State {
    struct Big {
        TimeTree tree;
        KeyedIdTable<Span> spans;
        // Set once the total changed under live spans: from then on the
        // reference's point-by-point model answers (see planner_resized.h).
        std::unique_ptr<ResizedPoints> resized;

        Big() = default;
        Big(const Big& o)
            : tree(o.tree),
              spans(o.spans),
              resized(o.resized ? std::make_unique<ResizedPoints>(*o.resized) : nullptr) {}
        void add_to_tree(const Span& span) {
            spans.add(span);
            tree.add_reference(span.start, span.amount);
            tree.add_reference(span.end, -span.amount);
        }
    };
    static constexpr uint32_t kFewSpans = kScanMax;

    uint32_t nfew = 0;
    std::array<Span, kFewSpans> few{};
    std::unique_ptr<Big> big;

    State() = default;
    State(const State& o) : nfew(o.nfew), few(o.few), big(o.big ? std::make_unique<Big>(*o.big) : nullptr) {}

    size_t span_count() const { return big ? big->spans.size() : nfew; }
    Span* find(SpanId id) { return big ? big->spans.find(id) : find_in(few.data(), nfew, id); }
    template <typename F>
    void for_each_span(F f) const {
        if (big) {
            big->spans.for_each(f);
        } else {
            for (uint32_t i = 0; i < nfew; ++i) f(few[i]);
        }
    }

    // ---- few mode ----
    int64_t few_usage_at(Time t) const { return usage_at(few.data(), nfew, t); }
    int64_t few_max_usage(Time from, Time to) const { return max_usage_of(few.data(), nfew, from, to); }
    std::vector<Time> few_points() const { return points_of(few.data(), nfew); }
    void to_tree() {
        // The table wants ascending ids; restored spans may come in any order.
        std::sort(few.begin(), few.begin() + nfew, [](const Span& a, const Span& b) { return a.id < b.id; });
        big = std::make_unique<Big>();
        for (uint32_t i = 0; i < nfew; ++i) big->add_to_tree(few[i]);
        nfew = 0;
    }
    // Back from the tree when few enough spans are left (ids ascend in the
    // table, as they do in the array).
    void maybe_to_few() {
        if (!big || big->resized || big->spans.size() > kFewSpans / 2) return;
        nfew = 0;
        big->spans.for_each([&](const Span& s) { few[nfew++] = s; });
        big.reset();
    }
};

// Planners leave and re-enter few mode by the thousand in a busy replay
// pass; recycling their states skips malloc's bin management (a quarter
// of such a pass went to malloc and free). Per thread (the library's
// sessions may live on different threads); at most kPooledStates (~35 MB,
// though only ever as many as were live at once: a reservation of 4,096
// cores frees two states per core).
std::vector<Planner::State*>& Planner::state_pool() {
    struct Pool {
        std::vector<State*> free;
        ~Pool() {
            for (State* s : free) delete s;
        }
    };
    thread_local Pool pool;
    return pool.free;
}

Planner::StatePtr Planner::new_state() {
    std::vector<State*>& free = state_pool();
    if (free.empty()) return StatePtr(new State);
    State* s = free.back();
    free.pop_back();
    return StatePtr(s);
}

Planner::StatePtr Planner::copy_state(const State& other) { return StatePtr(new State(other)); }

void Planner::StateDeleter::operator()(State* s) const {
    constexpr size_t kPooledStates = 65536;
    std::vector<State*>& free = state_pool();
    if (s->big || free.size() >= kPooledStates) {
        delete s;
        return;
    }
    s->nfew = 0;
    free.push_back(s);
}

// Leaves local mode (a span arrives while the local array is full, or a
// resize).
void Planner::materialize() {
    if (state_) return;
    state_ = new_state();
    for (uint32_t i = 0; i < nlocal_; ++i) state_->few[state_->nfew++] = local_[i];
    nlocal_ = 0;
}

// Back to local mode when at most kLocal spans are left (an empty planner
// holds no state).
void Planner::maybe_demote() {
    if (!state_) return;
    if (state_->span_count() == 0) {
        state_.reset();  // a resized planner's quirks end with its last span
    } else if (!(state_->big && state_->big->resized) && state_->span_count() <= kLocal) {
        nlocal_ = 0;
        state_->for_each_span([&](const Span& s) { local_[nlocal_++] = s; });
        state_.reset();
    } else {
        state_->maybe_to_few();
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
      local_(other.local_),
      nlocal_(other.nlocal_),
      state_(other.state_ ? copy_state(*other.state_) : nullptr) {}

Planner& Planner::operator=(const Planner& other) {
    if (this != &other) {
        count_release();
        total_ = other.total_;
        next_id_ = other.next_id_;
        local_ = other.local_;
        nlocal_ = other.nlocal_;
        state_ = other.state_ ? copy_state(*other.state_) : nullptr;
    }
    return *this;
}

Planner::Planner(Planner&& other) noexcept = default;
Planner& Planner::operator=(Planner&& other) noexcept {
    if (this != &other) {
        count_release();
        total_ = other.total_;
        next_id_ = other.next_id_;
        local_ = other.local_;
        nlocal_ = other.nlocal_;
        state_ = std::move(other.state_);
    }
    return *this;
}
Planner::~Planner() {
    if (state_ || nlocal_ > 0) count_release();
}

// ---- queries -------------------------------------------------------------

bool Planner::resized() const { return state_ && state_->big && state_->big->resized; }

int64_t Planner::max_usage(Time at, Time end) const {
    static_assert(kLocal <= kScanMax, "max_usage_of's scratch holds the local spans");
    if (!state_) return max_usage_of(local_.data(), nlocal_, at, end);
    if (!state_->big) return state_->few_max_usage(at, end);
    return state_->big->tree.max_usage(at, end);
}

Result<int64_t> Planner::avail_during(Time at, Time d) const {
    if (!valid_window(at, d))
        return make_error(Errc::kInvalid,
                          "planner: invalid time window " + window_text(at, d));
    if (resized()) return state_->big->resized->avail_during(at, d);
    return total_ - max_usage(at, at + d);
}

int64_t Planner::avail_at(Time at) const {
    if (at < 0 || at >= kPlannerEnd) return total_;
    if (!state_) return total_ - usage_at(local_.data(), nlocal_, at);
    if (!state_->big) return total_ - state_->few_usage_at(at);
    if (state_->big->resized) return state_->big->resized->avail_at(at);
    return total_ - state_->big->tree.usage_at(at);
}

bool Planner::fits(Time at, Time d, int64_t amount) const {
    if (!valid_window(at, d) || amount < 0 || amount > total_) return false;
    if (resized()) return state_->big->resized->avail_during(at, d) >= amount;
    return max_usage(at, at + d) <= total_ - amount;
}

const Span* Planner::span(SpanId id) const {
    if (!state_) return find_in(local_.data(), nlocal_, id);
    return state_->find(id);
}

size_t Planner::span_count() const {
    if (!state_) return nlocal_;
    return state_->span_count();
}

size_t Planner::point_count() const {
    if (!state_ || !state_->big) return points().size();
    return state_->big->resized ? state_->big->resized->points().size() : state_->big->tree.size();
}

std::vector<Time> Planner::points() const {
    if (!state_) return points_of(local_.data(), nlocal_);
    if (!state_->big) return state_->few_points();
    return state_->big->resized ? state_->big->resized->points() : state_->big->tree.points();
}

// Cost: each loop iteration is O(log s) and either returns or skips one
// whole "gap" — a run of points whose usage is low enough but which ends
// (at `too_busy`) less than d after its start — together with the busy run
// after it. So the search is O(log s) per rejected gap, never per point.
// Without a tree (at most kFewSpans spans) it tries the points in turn.
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
    const int64_t cap = total_ - amount;  // the most usage `amount` tolerates
    const Time last_start = kPlannerEnd - d;
    if (!state_ || !state_->big) {
        for (Time t : points())
            if (t >= from && t <= last_start && max_usage(t, t + d) <= cap) return t;
        return exhausted();
    }
    if (state_->big->resized) {
        Time t = state_->big->resized->earliest(from, d, amount);
        if (t < 0) return exhausted();
        return t;
    }
    const TimeTree& tree = state_->big->tree;
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
    if ((state_ || nlocal_ > 0) && delta != 0) {
        materialize();
        if (!state_->big) state_->to_tree();
        State::Big& big = *state_->big;
        if (!big.resized) {
            const TimeTree& tree = big.tree;
            big.resized = std::make_unique<ResizedPoints>(
                tree.points(), [&](Time t) { return total_ - tree.usage_at(t); });
            big.spans.for_each([&](const Span& span) {
                big.resized->add_boundary_reference(span.start);
                big.resized->add_boundary_reference(span.end);
            });
        }
        big.resized->change_total(delta);
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
    if (!state_ && nlocal_ < kLocal) {
        local_[nlocal_++] = added;
        return id;
    }
    materialize();
    State& state = *state_;
    if (!state.big && state.nfew < State::kFewSpans) {
        state.few[state.nfew++] = added;
        return id;
    }
    if (!state.big) state.to_tree();
    if (state.big->resized) {
        state.big->spans.add(added);
        state.big->resized->add_span(at, at + d, amount);
    } else {
        state.big->add_to_tree(added);
    }
    return id;
}

Status Planner::remove_span(SpanId id) {
    count_release();
    if (!state_) {
        return erase_in(local_.data(), nlocal_, id) ? ok_status() : unknown_span(id);
    }
    State& state = *state_;
    if (!state.big) {
        if (!erase_in(state.few.data(), state.nfew, id)) return unknown_span(id);
        maybe_demote();
        return ok_status();
    }
    State::Big& big = *state.big;
    const Span* found = big.spans.find(id);
    if (found == nullptr) return unknown_span(id);
    const Span removed = *found;
    big.spans.erase(id);
    if (big.resized) {
        big.resized->remove_span(removed.start, removed.end, removed.amount);
    } else {
        big.tree.remove_reference(removed.start, -removed.amount);
        big.tree.remove_reference(removed.end, removed.amount);
    }
    // Give the memory back: most planners are idle most of the time.
    maybe_demote();
    return ok_status();
}

Status Planner::reduce_span(SpanId id, int64_t by) {
    Span* found = state_ ? state_->find(id) : find_in(local_.data(), nlocal_, id);
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
    if (!state_ || !state_->big) return ok_status();
    if (state_->big->resized) {
        state_->big->resized->reduce_span(reduced.start, reduced.end, by);
    } else {
        state_->big->tree.change_usage(reduced.start, -by);
        state_->big->tree.change_usage(reduced.end, by);
    }
    return ok_status();
}

}  // namespace rq
