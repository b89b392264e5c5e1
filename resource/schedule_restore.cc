// Restore hooks for saved planners (state/rows.cc): additive, so that the
// planner internals can change without touching the state file code.
#include "resource/multi_planner.h"
#include "resource/planner.h"

namespace rq {

Result<SpanId> Planner::restore_span(const Span& span) {
    if (span.id < 1 || span.end <= span.start) return make_error(Errc::kInvalid, "bad saved span");
    if (this->span(span.id) != nullptr) return make_error(Errc::kInvalid, "saved span id twice");
    SpanId next = next_id_;
    next_id_ = span.id;
    auto added = add_span(span.start, span.end - span.start, span.amount);
    next_id_ = next;
    return added;
}

Status MultiPlanner::restore_multispan(SpanId id, const std::vector<SpanId>& per_type) {
    if (id < 0 || per_type.size() != spans_.width()) return make_error(Errc::kInvalid, "bad saved multi-span");
    for (SpanId part : per_type)
        if (part < kZeroPart) return make_error(Errc::kInvalid, "bad saved multi-span");
    spans_.add(id, per_type.data());
    for (size_t i = 0; i < per_type.size(); ++i)
        if (per_type[i] == kZeroPart) ++zeros_[i];
    return ok_status();
}

}  // namespace rq
