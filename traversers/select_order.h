// The ordered child index of the ID-based policies without early stop
// (high, low, hinode, lonode, hinodex, lonodex and custom strings): for one
// requested type T, every vertex whose subtree holds a T vertex lists those
// of its children, best possible candidate score first. The traverser walks
// a prefix-omitted (pristine) level in that order and stops once nothing
// left can beat the candidates already found (dfu_select.cc).
//
// A T vertex w scores id(w) + 2, plus the factor of its enclosing node when
// the policy is node-centric (policies.md §4); a subtree's bound is the best
// such score in it. The bounds depend on ids only, so the index is built
// once per (type, policy) and dropped when the graph changes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "policies/id_order.h"
#include "resource/graph.h"
#include "resource/planner.h"

namespace rq {

class IdOrderIndex {
public:
    struct Child {
        int64_t bound;  // best score of a T vertex in the child's subtree
        EdgeId edge;
    };

    // Whether v's subtree (v excluded) surely holds no vertex of the type;
    // such subtrees are not walked (the subtree plans know for tracked types).
    using NoneBelow = std::function<bool(VertexId)>;

    // Builds the index of type `t` over the dominant subsystem `s`.
    // `t_total` (or -1: unknown) is the size sum of every T vertex below
    // the root (the root's subtree plan): when the walk that stops at T
    // vertices finds exactly that much, no T vertex holds another, and the
    // subtrees below T vertices (most of the graph) are never walked.
    IdOrderIndex(const ResourceGraph& graph, SubsystemId s, TypeId t, IdOrder order, const NoneBelow& none_below,
                 int64_t t_total = -1);

    TypeId type() const { return type_; }
    const IdOrder& order() const { return order_; }
    // False when the graph breaks an assumption of the bounds (nested
    // nodes with the node factor on): the caller walks exhaustively.
    bool usable() const { return usable_; }
    // The children of `u` holding a T vertex, best bound first; nullptr if
    // none.
    const std::vector<Child>* children(VertexId u) const;
    // Whether bound `a` is strictly worse than score `b` for this order.
    bool worse(int64_t a, int64_t b) const { return order_.high ? a < b : a > b; }

    // Children a walk found with nothing free in its window (exclusively
    // taken nodes ahead of the free ones under hinodex, lonodex,
    // firstnodex...), or whose subtree plan could not fit the request
    // (full nodes ahead of the free ones under high, low, lonode...).
    // Later walks over the same window skip them without a query, so a
    // match does not cost one visit per taken node. The marks hold for one
    // window [at, at+d) and one request (`request`: what the rejection
    // depended on) while no planner gave units back
    // (Planner::release_count()); begin_walk() drops them otherwise.
    void begin_walk(int64_t at, int64_t d, const std::vector<int64_t>& request) const;
    // The first position >= i in u's children not marked full.
    size_t next_open(VertexId u, size_t i) const;
    void mark_full(VertexId u, size_t i) const;

private:
    // Returns whether v's subtree holds a T vertex; `best` gets its bound.
    bool build(const ResourceGraph& graph, VertexId v, int64_t factor, int depth, int64_t& best);

    const NoneBelow* none_below_ = nullptr;  // during construction only
    bool shallow_ = false;                   // construction: stop at T vertices
    int64_t t_found_ = 0;                    // construction: size sum of T vertices reached
    std::vector<Child> stack_;               // construction: the lists being built

    SubsystemId subsystem_;
    TypeId type_;
    IdOrder order_;
    bool usable_ = true;
    std::unordered_map<VertexId, std::vector<Child>> children_;

    // Skip marks: per list, next[i] == i when child i is open, else a
    // later position (union-find with path halving; next[n] == n).
    mutable std::unordered_map<VertexId, std::vector<uint32_t>> full_;
    mutable int64_t marks_at_ = -1, marks_d_ = -1;
    mutable uint64_t marks_releases_ = 0;
    mutable std::vector<int64_t> marks_request_;
};

// True when every vertex id is >= -1, so that every candidate score of the
// ID-based, locality and variation policies is positive (and qualifies).
// Skipping a subtree that cannot hold the request is exact only then.
bool ids_give_positive_scores(const ResourceGraph& graph);

}  // namespace rq
