// ResizedPoints: a planner's state, point by point, after its total changed
// under live spans (attach/remove re-install the pruning filters with new
// totals while jobs hold spans).
//
// The reference keeps, per scheduled point, a "remaining" amount and a key
// in its earliest-time search tree. Changing the total adds the difference
// to every point's remaining, clamped at 0, and does not re-key the search
// tree. Both quirks are visible (spec conformance cases t3028.009 and
// t3035.007: which reservation time is found, and how much is free after a
// node that held a job was removed), so a planner whose total changed under
// live spans switches to this exact, point-by-point model. It is O(points)
// per operation, which only resized planners pay; the fast TimeTree model
// (resource/time_tree.h) serves every other planner and returns when the
// last span goes.
#pragma once

#include <cstdint>
#include <map>

#include "resource/planner.h"

namespace rq {

class ResizedPoints {
public:
    // Builds the point model from the availability each point has now.
    template <class AvailAt>
    ResizedPoints(const std::vector<Time>& points, AvailAt avail_at) {
        for (Time t : points) {
            int64_t remaining = avail_at(t);
            points_[t] = Point{remaining, remaining, 0};
        }
    }
    // Adds one reference per span boundary already in the planner.
    void add_boundary_reference(Time t) { ++points_.at(t).refs; }

    // Every point's remaining += delta, clamped at 0; search keys unchanged.
    void change_total(int64_t delta);

    int64_t avail_at(Time t) const;
    int64_t avail_during(Time at, Time d) const;
    void add_span(Time at, Time end, int64_t amount);
    void remove_span(Time at, Time end, int64_t amount);
    void reduce_span(Time at, Time end, int64_t by);
    // First point t >= from, t + d within the window, whose search key and
    // whole window admit `amount`; -1 if none.
    Time earliest(Time from, Time d, int64_t amount) const;
    std::vector<Time> points() const;

private:
    struct Point {
        int64_t remaining;
        int64_t key;  // `remaining` when the search tree last saw this point
        int refs;     // span boundaries at this time (the base point 0: pinned)
    };
    std::map<Time, Point>::iterator segment_of(Time t);
    std::map<Time, Point>::const_iterator segment_of(Time t) const;
    // Creates the point `t` (copying its segment's remaining) if needed.
    Point& ensure(Time t);
    void apply(Time at, Time end, int64_t change);  // remaining += change on [at, end)
    void release(Time t);

    std::map<Time, Point> points_;
};

}  // namespace rq
