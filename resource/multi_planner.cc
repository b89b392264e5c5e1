#include "resource/multi_planner.h"

#include <string>
#include <utility>

#include <boost/container/small_vector.hpp>

namespace rq {

namespace {

constexpr SpanId kReleased = 0;  // per-type slot whose span is gone

Error unknown_multi_span(SpanId id) {
    return make_error(Errc::kNotFound,
                      "multi-planner: unknown span id " + std::to_string(id));
}

}  // namespace

MultiPlanner::MultiPlanner(std::vector<uint16_t> types, std::vector<int64_t> totals) {
    reset(std::move(types), std::move(totals));
}

Status MultiPlanner::check_amounts(const std::vector<int64_t>& amounts) const {
    if (amounts.size() != planners_.size())
        return make_error(Errc::kInvalid,
                          "multi-planner: " + std::to_string(amounts.size()) +
                              " amounts given for " +
                              std::to_string(planners_.size()) + " types");
    for (int64_t amount : amounts)
        if (amount < 0)
            return make_error(Errc::kInvalid, "multi-planner: negative amount " +
                                                  std::to_string(amount));
    return ok_status();
}

bool MultiPlanner::fits(Time at, Time d, const std::vector<int64_t>& amounts) const {
    if (amounts.size() != planners_.size()) return false;
    for (size_t i = 0; i < planners_.size(); ++i)
        if (!planners_[i].fits(at, d, amounts[i])) return false;
    return true;
}

Result<SpanId> MultiPlanner::add_span(Time at, Time d,
                                      const std::vector<int64_t>& amounts) {
    RQ_TRY(check_amounts(amounts));
    if (!Planner::valid_window(at, d))
        return make_error(Errc::kInvalid, "multi-planner: invalid time window [" +
                                              std::to_string(at) + ", +" +
                                              std::to_string(d) + ")");
    // Check everything first so that a failure leaves no partial spans.
    for (size_t i = 0; i < planners_.size(); ++i) {
        if (!planners_[i].fits(at, d, amounts[i]))
            return make_error(Errc::kBusy,
                              "multi-planner: " + std::to_string(amounts[i]) +
                                  " units of type index " + std::to_string(i) +
                                  " not available at " + std::to_string(at));
    }
    boost::container::small_vector<SpanId, 4> per_type(planners_.size(), kReleased);
    // Planner 0's points are earliest()'s candidates, zero amounts
    // included: its spans are all kept.
    for (size_t i = 0; i < planners_.size(); ++i) {
        if (amounts[i] == 0 && i > 0) {
            per_type[i] = kZeroPart;
            ++zeros_[i];
        } else {
            per_type[i] = planners_[i].add_checked_span(at, d, amounts[i]);
        }
    }
    const SpanId id = next_id_++;
    spans_.add(id, per_type.data());
    return id;
}

Status MultiPlanner::remove_span(SpanId id) {
    const SpanId* per_type = spans_.find(id);
    if (per_type == nullptr) return unknown_multi_span(id);
    for (size_t i = 0; i < spans_.width(); ++i) {
        if (per_type[i] == kZeroPart)
            --zeros_[i];
        else if (per_type[i] != kReleased)
            (void)planners_[i].remove_span(per_type[i]);
    }
    spans_.erase(id);
    return ok_status();
}

Result<bool> MultiPlanner::reduce_span(SpanId id, size_t i, int64_t by) {
    SpanId* per_type = spans_.find(id);
    if (per_type == nullptr) return unknown_multi_span(id);
    if (i >= spans_.width())
        return make_error(Errc::kInvalid, "multi-planner: type index " +
                                              std::to_string(i) + " out of range");
    if (per_type[i] == kReleased)
        return make_error(Errc::kNotFound,
                          "multi-planner: span " + std::to_string(id) +
                              " has no span left for type index " +
                              std::to_string(i));
    if (per_type[i] == kZeroPart) {
        // As the planner treats a span of 0: reducing by 0 removes it.
        if (by < 0) return make_error(Errc::kInvalid, "multi-planner: cannot reduce span " + std::to_string(id) +
                                                          " by a negative amount " + std::to_string(by));
        if (by > 0) return make_error(Errc::kRange, "multi-planner: cannot reduce span " + std::to_string(id) +
                                                        " of 0 by " + std::to_string(by));
        per_type[i] = kReleased;
        --zeros_[i];
    } else {
        Planner& planner = planners_[i];
        const Span* span = planner.span(per_type[i]);
        const bool releases_all = span && span->amount == by;
        RQ_TRY(planner.reduce_span(per_type[i], by));
        if (releases_all) per_type[i] = kReleased;  // reduce_span removed it
    }
    for (size_t k = 0; k < spans_.width(); ++k)
        if (per_type[k] != kReleased) return true;
    spans_.erase(id);
    return false;
}

std::optional<int64_t> MultiPlanner::span_amount(SpanId id, size_t i) const {
    const SpanId* found = spans_.find(id);
    if (found == nullptr || i >= spans_.width() || found[i] == kReleased)
        return std::nullopt;
    if (found[i] == kZeroPart) return 0;
    const Span* span = planners_[i].span(found[i]);
    if (!span) return std::nullopt;
    return span->amount;
}

void MultiPlanner::reset(std::vector<uint16_t> types, std::vector<int64_t> totals) {
    std::vector<Planner> planners;
    planners.reserve(types.size());
    // new_to_old[k] = position of types[k] in the old list, or -1.
    std::vector<int64_t> new_to_old(types.size(), -1);
    std::vector<bool> taken(planners_.size(), false);
    for (size_t k = 0; k < types.size(); ++k) {
        const int64_t total = k < totals.size() ? totals[k] : 0;
        const int64_t old = index_of(types[k]);
        if (old >= 0 && !taken[old]) {  // a repeated type only keeps one copy
            taken[old] = true;
            new_to_old[k] = old;
            planners.push_back(std::move(planners_[old]));
            planners.back().set_total(total);
        } else {
            planners.emplace_back(total);
        }
    }
    spans_.set_width(new_to_old, kReleased);
    std::vector<size_t> zeros(types.size(), 0);
    for (size_t k = 0; k < types.size(); ++k)
        if (new_to_old[k] >= 0) zeros[k] = zeros_[static_cast<size_t>(new_to_old[k])];
    zeros_ = std::move(zeros);
    types_ = std::move(types);
    planners_ = std::move(planners);
}

// Candidates are planner 0's points. When planner i rejects candidate t,
// no time in [t, u) can satisfy planner i, where u = planner i's own
// earliest point >= t: inside one segment of planner i, moving the start
// later only extends the window to the right, so a rejected start stays
// rejected until planner i's next point. Planner 0's search therefore
// resumes from u instead of from the next candidate, which keeps the cost
// at O(log s) per rejected gap of any planner.
Result<Time> MultiPlanner::earliest(Time from, Time d,
                                    const std::vector<int64_t>& amounts) const {
    if (planners_.empty())
        return make_error(Errc::kInvalid, "multi-planner: no types to search");
    RQ_TRY(check_amounts(amounts));
    if (d < 1)
        return make_error(Errc::kInvalid,
                          "multi-planner: invalid duration " + std::to_string(d));
    Time search_from = from;
    while (true) {
        Result<Time> candidate = planners_[0].earliest(search_from, d, amounts[0]);
        if (!candidate.ok()) return candidate.error();
        const Time t = *candidate;
        std::optional<Time> resume;
        for (size_t i = 1; i < planners_.size() && !resume; ++i) {
            if (planners_[i].fits(t, d, amounts[i])) continue;
            Result<Time> next = planners_[i].earliest(t, d, amounts[i]);
            if (!next.ok())  // kRange here (amount > total) also means never
                return make_error(Errc::kNotFound,
                                  "multi-planner: no time at or after " +
                                      std::to_string(from) + " fits type index " +
                                      std::to_string(i));
            resume = *next;  // > t, since planner i rejects t
        }
        if (!resume) return t;
        search_from = *resume;
    }
}

}  // namespace rq
