// Pruning filters (spec/traversal.md §2): which lower-level types each
// vertex tracks in aggregate in its subtree plan, so that the traverser can
// skip a subtree that cannot hold the request.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "resource/graph.h"
#include "resource/schedule.h"
#include "utilities/result.h"
#include "utilities/saturating.h"

namespace rq {

class PruneSpec {
public:
    // Registers "HL:LL" pairs ("ALL" = any anchor type). Fails on a pair
    // without ':' or with an empty half. Types unknown to the graph are
    // ignored: no vertex can hold them.
    Status parse(const std::string& spec, const Interner& types);

    static constexpr TypeId kAnyAnchor = kNoId;
    void add(TypeId anchor, TypeId type);
    bool is_tracked(TypeId t) const { return t < tracked_.size() && tracked_[t]; }
    // The types a vertex of type `t` tracks: its own anchor set, then the
    // ANY set, each in interning order, without `t` itself.
    std::vector<TypeId> types_for(TypeId t) const;

private:
    std::vector<std::vector<TypeId>> anchored_;  // by anchor type, sorted
    std::vector<TypeId> any_;                    // sorted
    std::vector<bool> tracked_;
};

// A map TypeId -> count, in interning order. An entry can be present with
// count 0, and presence matters: the reference adds a (possibly all-zero)
// subtree span whenever the map is non-empty.
class TypeCounts {
public:
    // Saturates at the int64_t range: a graph may hold more units of a
    // type in total than int64_t counts (8 memory vertices of size 2^62),
    // and "more than can be counted" still prunes correctly.
    void add(TypeId t, int64_t n) {
        if (counts_.size() <= t) counts_.resize(t + 1u, 0), present_.resize(t + 1u, 0);
        counts_[t] = saturating_add(counts_[t], n);
        present_[t] = 1;
        any_ = true;
    }
    bool empty() const { return !any_; }
    bool has(TypeId t) const { return t < present_.size() && present_[t]; }
    int64_t get(TypeId t) const { return t < counts_.size() ? counts_[t] : 0; }
    // Calls fn(type, count) for present entries in interning order.
    template <class Fn>
    void for_each(Fn&& fn) const {
        for (TypeId t = 0; t < present_.size(); ++t)
            if (present_[t]) fn(t, counts_[t]);
    }
    void clear() { counts_.clear(), present_.clear(), any_ = false; }

private:
    // Inline for the usual handful of types: the update walk keeps one
    // per vertex it records (80 per node under *nodex on El Capitan).
    boost::container::small_vector<int64_t, 16> counts_;
    boost::container::small_vector<uint8_t, 16> present_;
    bool any_ = false;
};

// Adds `n` to counts[t] if t is a tracked (pruning) type.
inline void add_if_tracked(const PruneSpec& spec, TypeCounts& counts, TypeId t, int64_t n) {
    if (spec.is_tracked(t)) counts.add(t, n);
}

// The installation walk of §2.2 for one subsystem (slot = its index in the
// matcher): creates or resets the subtree plan of every vertex reachable
// from the subsystem's root. Leaf types that nothing tracks become tracked,
// anchored at "cluster". Fails if the subsystem has no root.
Status install_subtree_plans(const ResourceGraph& graph, SubsystemId subsystem, size_t slot, PruneSpec& spec,
                             ScheduleStore& store);

}  // namespace rq
