// The two node kinds of TimeTree (resource/time_tree.h), laid out for cache
// efficiency: every array a search scans is contiguous, and every number a
// descent needs is stored ready to use (prefix sums rather than per-item
// values), so a step down the tree is a binary search plus one read.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace rq {
namespace time_tree_detail {

using Time = int64_t;
using Index = uint32_t;

// Aggregates of a run of consecutive points.
struct Summary {
    int64_t sum = 0;         // sum of the usage changes
    int64_t max_prefix = 0;  // max prefix sum, relative to the run's start
    int64_t min_prefix = 0;  // min prefix sum
};

// One point, in the portable form used when points move between leaves.
struct PointRecord {
    Time time = 0;
    int64_t change = 0;        // net usage change at this instant
    int64_t references = 0;    // span starts/ends here (+1 pin for point 0)
};

// The points of one leaf, ascending by time, as three parallel arrays in
// one allocation sized to the content (a planner with one span holds a
// three-point leaf, not a full-size one). Instead of each point's change it
// stores the prefix sum of changes from the leaf's first point through it.
class LeafNode {
public:
    LeafNode() = default;
    LeafNode(const LeafNode& other);
    LeafNode& operator=(const LeafNode& other);
    LeafNode(LeafNode&&) noexcept = default;
    LeafNode& operator=(LeafNode&&) noexcept = default;

    uint32_t size() const { return size_; }
    Time time(uint32_t i) const { return block_[i]; }
    int64_t prefix(uint32_t i) const { return block_[capacity_ + i]; }
    int64_t references(uint32_t i) const { return block_[2 * capacity_ + i]; }
    int64_t change(uint32_t i) const {
        return i == 0 ? prefix(0) : prefix(i) - prefix(i - 1);
    }

    uint32_t lower_bound(Time t) const;  // first i with time(i) >= t
    uint32_t upper_bound(Time t) const;  // first i with time(i) > t

    // Inserts a point with one reference at position i. The allocation grows
    // geometrically but never beyond `max_capacity` slots.
    void insert(uint32_t i, Time t, int64_t change, uint32_t max_capacity);
    void erase(uint32_t i);
    void add_change(uint32_t i, int64_t change);  // to point i's change
    void add_reference(uint32_t i, int64_t delta) { block_[2 * capacity_ + i] += delta; }

    Summary summary() const;
    void export_points(std::vector<PointRecord>& out) const;  // appends
    void assign(const PointRecord* first, uint32_t count);
    void release();  // back to empty, memory freed

private:
    void reallocate(uint32_t capacity);

    uint32_t size_ = 0;
    uint32_t capacity_ = 0;
    std::unique_ptr<int64_t[]> block_;  // times | prefixes | references
};

// One child of an inner node, in portable form.
struct ChildRecord {
    Time low = 0;  // every point of the child is >= low (not meaningful for
                   // a first child, whose bound is its parent's)
    Index node = 0;
    Summary summary;
};

// An inner node: up to kMaxChildren children (+1 while over-full, before
// its parent splits it). Besides each child's separator and index it keeps,
// relative to its own start, the usage before each child and the max/min
// prefix reached inside each child.
class InnerNode {
public:
    static constexpr uint32_t kMaxChildren = 32;

    uint32_t size() const { return size_; }
    Index child(uint32_t i) const { return child_[i]; }
    Time low(uint32_t i) const { return low_[i]; }
    void set_low(uint32_t i, Time t) { low_[i] = t; }
    // Sum of the changes of children [0, i); before(size()) is the total.
    int64_t before(uint32_t i) const { return before_[i]; }
    int64_t max_prefix(uint32_t i) const { return max_prefix_[i]; }
    int64_t min_prefix(uint32_t i) const { return min_prefix_[i]; }

    // The child whose range holds t: the last one whose low is <= t (the
    // first child also takes everything below).
    uint32_t position_of(Time t) const;

    ChildRecord record(uint32_t i) const;
    void export_children(std::vector<ChildRecord>& out) const;  // appends
    void assign(const ChildRecord* first, uint32_t count);
    void insert(uint32_t i, const ChildRecord& record);
    void erase(uint32_t i);
    void set_summary(uint32_t i, const Summary& summary);
    Summary summary() const;

private:
    uint32_t size_ = 0;
    Index child_[kMaxChildren + 1];
    Time low_[kMaxChildren + 1];
    int64_t before_[kMaxChildren + 2];
    int64_t max_prefix_[kMaxChildren + 1];
    int64_t min_prefix_[kMaxChildren + 1];
};

}  // namespace time_tree_detail
}  // namespace rq
