// TimeTree: the scheduled points of one planner, in a B+-tree.
//
// A planner's availability is a step function that only changes at its
// scheduled points (spec/planner.md §2). Instead of storing the availability
// of each segment (which a span add would have to update over a whole range),
// every point stores the *net change of usage* at that instant: +amount for
// each span starting there, -amount for each span ending there. The usage of
// the segment [p, next point) is then the prefix sum of the changes of all
// points <= p, and availability is `total - usage`.
//
// Every subtree is summarized by the sum of its changes and the maximum and
// minimum prefix sum inside it. With those:
//   * adding or removing a span is two point updates;
//   * the usage at a time is one descent;
//   * the maximum usage over a window visits the two boundary paths;
//   * "the first point after t whose usage is above (or at most) a cap"
//     walks the path of t and descends into the first subtree whose max (or
//     min) prefix admits an answer.
// Each is O(B log_B s) for s points and node size B: O(log s).
// No lazy propagation is needed, and changing the planner's total does not
// touch the tree at all.
//
// Why a B+-tree rather than a binary tree: planners reach millions of points
// and a binary search tree then pays a cache miss per level (~30 levels).
// Here the inner nodes of even a million-span planner take a few MB and stay
// cached; an operation touches one or two leaves.
//
// Nodes live in vectors addressed by 32-bit indices (node layout in
// resource/time_tree_nodes.h). A leaf's storage is sized to what it holds,
// so a planner with a handful of spans costs a few hundred bytes of tree,
// and copying a tree is a plain deep copy.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "resource/time_tree_nodes.h"

namespace rq {

class TimeTree {
public:
    using Time = int64_t;

    // Default node sizes; tests use tiny ones to get deep trees quickly.
    static constexpr uint32_t kLeafCapacity = 64;
    static constexpr uint32_t kInnerCapacity = time_tree_detail::InnerNode::kMaxChildren;

    // A new tree holds the base point 0 with one pinned reference, so the
    // base point exists for as long as the tree does. Capacities are
    // clamped to [4, 1 << 20] for leaves and [4, kInnerCapacity] for inner
    // nodes.
    explicit TimeTree(uint32_t leaf_capacity = kLeafCapacity,
                      uint32_t inner_capacity = kInnerCapacity);

    // Adds one reference to the point `time` (creating the point if needed)
    // and adds `usage_change` to the net change at that point.
    void add_reference(Time time, int64_t usage_change);

    // Drops one reference to `time` and adds `usage_change` to its net
    // change; the point disappears with its last reference. Returns false
    // (and changes nothing) if there is no such point.
    bool remove_reference(Time time, int64_t usage_change);

    // Adds `usage_change` to the net change at an existing point (used when a
    // span's amount is reduced). Returns false if there is no such point.
    bool change_usage(Time time, int64_t usage_change);

    // Number of points (including the base point 0).
    size_t size() const { return point_count_; }
    // Levels above the leaves (0: the root is a leaf). For tests.
    int height() const { return height_; }

    // Usage at instant `time`: sum of the changes of every point <= time.
    int64_t usage_at(Time time) const;

    // Maximum usage over the instants [from, to); requires from < to.
    int64_t max_usage(Time from, Time to) const;

    // Smallest point >= time, if any.
    std::optional<Time> first_point_at_or_after(Time time) const;

    // Smallest point p > after whose usage is above `cap` / at most `cap`.
    std::optional<Time> first_point_above(Time after, int64_t cap) const;
    std::optional<Time> first_point_at_most(Time after, int64_t cap) const;

    // Every point, ascending.
    std::vector<Time> points() const;

    // Checks every structural invariant (order, separators, summaries,
    // node fill, point count). For tests; O(s).
    bool check_invariants() const;

private:
    using Index = time_tree_detail::Index;
    using Summary = time_tree_detail::Summary;
    using PointRecord = time_tree_detail::PointRecord;
    using ChildRecord = time_tree_detail::ChildRecord;
    using LeafNode = time_tree_detail::LeafNode;
    using InnerNode = time_tree_detail::InnerNode;

    // One step of a root-to-leaf path.
    struct Step {
        Index inner;
        uint32_t position;
    };
    // Nodes other than the root hold at least 2 children, so a tree this
    // tall would need 2^40 points.
    static constexpr int kMaxHeight = 40;

    enum class Wanted { kAny, kAbove, kAtMost };

    // ---- structure maintenance ----
    Index new_leaf();
    Index new_inner();
    Index descend(Time time, Step* path) const;
    void repair(const Step* path);
    size_t node_size(Index node, bool is_leaf) const;
    size_t min_fill(bool is_leaf) const;
    Summary summarize(Index node, bool is_leaf) const;
    Time low_of(Index node, bool is_leaf) const;
    void split_child(Index parent, uint32_t position, bool is_leaf);
    void rebalance_child(Index parent, uint32_t position, bool is_leaf);
    void distribute(Index left, Index right, bool is_leaf, size_t left_count);

    // ---- searches ----
    std::optional<Time> first_point_where(Time after, int64_t cap,
                                          Wanted wanted) const;
    std::optional<Time> find_after(Index node, int level, int64_t offset,
                                   Time after, int64_t cap, Wanted wanted) const;
    int64_t window_max(Index node, int level, int64_t offset, Time lo, Time hi,
                       bool with_start) const;
    void collect(Index node, int level, std::vector<Time>& out) const;
    bool check_node(Index node, int level, Time low, Time high, bool is_root,
                    size_t& points_seen) const;

    uint32_t leaf_capacity_;
    uint32_t inner_capacity_;
    std::vector<LeafNode> leaves_;
    std::vector<InnerNode> inners_;
    std::vector<Index> free_leaves_;
    std::vector<Index> free_inners_;
    // Scratch space for moving points/children between nodes.
    std::vector<PointRecord> point_scratch_;
    std::vector<ChildRecord> child_scratch_;
    Index root_ = 0;
    int height_ = 0;  // inner levels above the leaves
    size_t point_count_ = 0;
};

}  // namespace rq
