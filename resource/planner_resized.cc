#include "resource/planner_resized.h"

#include <algorithm>

namespace rq {

std::map<Time, ResizedPoints::Point>::iterator ResizedPoints::segment_of(Time t) {
    auto it = points_.upper_bound(t);
    return std::prev(it);  // the base point 0 is always there
}

std::map<Time, ResizedPoints::Point>::const_iterator ResizedPoints::segment_of(Time t) const {
    auto it = points_.upper_bound(t);
    return std::prev(it);
}

void ResizedPoints::change_total(int64_t delta) {
    for (auto& [t, p] : points_) p.remaining = std::max<int64_t>(0, p.remaining + delta);
}

int64_t ResizedPoints::avail_at(Time t) const { return segment_of(t)->second.remaining; }

int64_t ResizedPoints::avail_during(Time at, Time d) const {
    auto it = segment_of(at);
    int64_t least = it->second.remaining;
    for (++it; it != points_.end() && it->first < at + d; ++it) least = std::min(least, it->second.remaining);
    return least;
}

ResizedPoints::Point& ResizedPoints::ensure(Time t) {
    auto found = points_.find(t);
    if (found != points_.end()) return found->second;
    int64_t remaining = segment_of(t)->second.remaining;
    return points_.emplace(t, Point{remaining, remaining, 0}).first->second;
}

void ResizedPoints::apply(Time at, Time end, int64_t change) {
    for (auto it = points_.lower_bound(at); it != points_.end() && it->first < end; ++it) {
        it->second.remaining += change;
        it->second.key = it->second.remaining;  // re-inserted in the search tree
    }
}

void ResizedPoints::release(Time t) {
    auto it = points_.find(t);
    if (it == points_.end()) return;
    if (--it->second.refs <= 0 && t != 0) points_.erase(it);
}

void ResizedPoints::add_span(Time at, Time end, int64_t amount) {
    ++ensure(at).refs;
    ++ensure(end).refs;
    apply(at, end, -amount);
}

void ResizedPoints::remove_span(Time at, Time end, int64_t amount) {
    apply(at, end, amount);
    release(at);
    release(end);
}

void ResizedPoints::reduce_span(Time at, Time end, int64_t by) { apply(at, end, by); }

Time ResizedPoints::earliest(Time from, Time d, int64_t amount) const {
    for (auto it = points_.lower_bound(from); it != points_.end(); ++it) {
        Time t = it->first;
        if (t > kPlannerEnd - d) break;
        if (it->second.key < amount) continue;
        if (avail_during(t, d) >= amount) return t;
    }
    return -1;
}

std::vector<Time> ResizedPoints::points() const {
    std::vector<Time> out;
    for (auto& [t, p] : points_) out.push_back(t);
    return out;
}

}  // namespace rq
