// TimeTree: point updates with node splits and merges, then the searches.
// The node layouts are in time_tree_nodes.h.
#include "resource/time_tree.h"

#include <algorithm>
#include <functional>

namespace rq {

TimeTree::TimeTree(uint32_t leaf_capacity, uint32_t inner_capacity)
    : leaf_capacity_(std::clamp<uint32_t>(leaf_capacity, 4, 1u << 20)),
      inner_capacity_(std::clamp<uint32_t>(inner_capacity, 4, kInnerCapacity)) {
    root_ = new_leaf();
    const PointRecord base{0, 0, 1};  // the pinned base point
    leaves_[root_].assign(&base, 1);
    point_count_ = 1;
}

// ---- node storage --------------------------------------------------------

TimeTree::Index TimeTree::new_leaf() {
    if (!free_leaves_.empty()) {
        Index leaf = free_leaves_.back();
        free_leaves_.pop_back();
        return leaf;
    }
    leaves_.emplace_back();
    return static_cast<Index>(leaves_.size() - 1);
}

TimeTree::Index TimeTree::new_inner() {
    if (!free_inners_.empty()) {
        Index inner = free_inners_.back();
        free_inners_.pop_back();
        return inner;
    }
    inners_.emplace_back();
    return static_cast<Index>(inners_.size() - 1);
}

// ---- small helpers -------------------------------------------------------

size_t TimeTree::node_size(Index node, bool is_leaf) const {
    return is_leaf ? leaves_[node].size() : inners_[node].size();
}

// Below this a non-root node is merged with or refilled from a sibling. A
// quarter of the capacity (rather than the textbook half) leaves room so
// that alternating inserts and removals do not split and merge repeatedly.
size_t TimeTree::min_fill(bool is_leaf) const {
    return is_leaf ? std::max<size_t>(1, leaf_capacity_ / 4)
                   : std::max<size_t>(2, inner_capacity_ / 4);
}

TimeTree::Summary TimeTree::summarize(Index node, bool is_leaf) const {
    return is_leaf ? leaves_[node].summary() : inners_[node].summary();
}

// The separator a parent keeps for `node` when it is not its first child:
// its first point, or for an inner node the low of its first child (which
// `distribute` always leaves set to a real separator).
TimeTree::Time TimeTree::low_of(Index node, bool is_leaf) const {
    return is_leaf ? leaves_[node].time(0) : inners_[node].low(0);
}

// Spreads the elements of adjacent nodes `left` and `right` (left's first,
// all of them ordered) so that `left` keeps the first `left_count` and
// `right` the rest (nothing when `left` keeps everything: the caller then
// frees `right`). The scratch vectors must already hold all the elements.
void TimeTree::distribute(Index left, Index right, bool is_leaf, size_t left_count) {
    const uint32_t keep = static_cast<uint32_t>(left_count);
    if (is_leaf) {
        const uint32_t total = static_cast<uint32_t>(point_scratch_.size());
        leaves_[left].assign(point_scratch_.data(), keep);
        if (keep < total) leaves_[right].assign(point_scratch_.data() + keep, total - keep);
    } else {
        const uint32_t total = static_cast<uint32_t>(child_scratch_.size());
        inners_[left].assign(child_scratch_.data(), keep);
        if (keep < total) inners_[right].assign(child_scratch_.data() + keep, total - keep);
    }
}

// ---- splits and merges ---------------------------------------------------

void TimeTree::split_child(Index parent, uint32_t position, bool is_leaf) {
    const Index left = inners_[parent].child(position);
    const Index right = is_leaf ? new_leaf() : new_inner();  // may reallocate
    point_scratch_.clear();
    child_scratch_.clear();
    if (is_leaf)
        leaves_[left].export_points(point_scratch_);
    else
        inners_[left].export_children(child_scratch_);
    distribute(left, right, is_leaf, node_size(left, is_leaf) / 2);
    InnerNode& node = inners_[parent];
    node.set_summary(position, summarize(left, is_leaf));
    node.insert(position + 1,
                ChildRecord{low_of(right, is_leaf), right, summarize(right, is_leaf)});
}

// Child `position` is under-full: pool it with a neighbour, then either
// keep the pool in one node or split it evenly between the two.
void TimeTree::rebalance_child(Index parent, uint32_t position, bool is_leaf) {
    InnerNode& node = inners_[parent];
    if (node.size() < 2) {  // no sibling (only possible under the root)
        node.set_summary(position, summarize(node.child(position), is_leaf));
        return;
    }
    const uint32_t left_position = position > 0 ? position - 1 : 0;
    const uint32_t right_position = left_position + 1;
    const Index left = node.child(left_position);
    const Index right = node.child(right_position);
    point_scratch_.clear();
    child_scratch_.clear();
    size_t pooled;
    if (is_leaf) {
        leaves_[left].export_points(point_scratch_);
        leaves_[right].export_points(point_scratch_);
        pooled = point_scratch_.size();
    } else {
        const size_t right_start = inners_[left].size();
        inners_[left].export_children(child_scratch_);
        inners_[right].export_children(child_scratch_);
        // The right node's first child is bounded by the parent's separator.
        child_scratch_[right_start].low = node.low(right_position);
        pooled = child_scratch_.size();
    }
    if (pooled <= (is_leaf ? leaf_capacity_ : inner_capacity_)) {
        distribute(left, right, is_leaf, pooled);  // everything to the left
        if (is_leaf) {
            leaves_[right].release();
            free_leaves_.push_back(right);
        } else {
            free_inners_.push_back(right);
        }
        node.erase(right_position);
        node.set_summary(left_position, summarize(left, is_leaf));
        return;
    }
    distribute(left, right, is_leaf, pooled / 2);
    node.set_low(right_position, low_of(right, is_leaf));
    node.set_summary(left_position, summarize(left, is_leaf));
    node.set_summary(right_position, summarize(right, is_leaf));
}

// After a point changed in the leaf `path` leads to: walk back up, splitting
// over-full and rebalancing under-full nodes and refreshing each summary in
// its parent; then grow or shrink the root as needed.
void TimeTree::repair(const Step* path) {
    for (int level = height_ - 1; level >= 0; --level) {
        const Step& step = path[level];
        const bool is_leaf = level == height_ - 1;
        const Index node = inners_[step.inner].child(step.position);
        const size_t size = node_size(node, is_leaf);
        if (size > (is_leaf ? leaf_capacity_ : inner_capacity_))
            split_child(step.inner, step.position, is_leaf);
        else if (size < min_fill(is_leaf))
            rebalance_child(step.inner, step.position, is_leaf);
        else
            inners_[step.inner].set_summary(step.position, summarize(node, is_leaf));
    }
    const bool root_is_leaf = height_ == 0;
    if (node_size(root_, root_is_leaf) > (root_is_leaf ? leaf_capacity_ : inner_capacity_)) {
        const Index new_root = new_inner();
        const ChildRecord only{0, root_, summarize(root_, root_is_leaf)};
        inners_[new_root].assign(&only, 1);
        root_ = new_root;
        ++height_;
        split_child(root_, 0, root_is_leaf);
    }
    while (height_ > 0 && inners_[root_].size() == 1) {
        const Index only_child = inners_[root_].child(0);
        free_inners_.push_back(root_);
        root_ = only_child;
        --height_;
    }
}

// ---- point updates -------------------------------------------------------

// Fills path[0 .. height_-1] with the route to the leaf holding `time`.
TimeTree::Index TimeTree::descend(Time time, Step* path) const {
    Index node = root_;
    for (int level = 0; level < height_; ++level) {
        const InnerNode& inner = inners_[node];
        const uint32_t position = inner.position_of(time);
        path[level] = Step{node, position};
        node = inner.child(position);
    }
    return node;
}

void TimeTree::add_reference(Time time, int64_t usage_change) {
    Step path[kMaxHeight];
    LeafNode& leaf = leaves_[descend(time, path)];
    const uint32_t i = leaf.lower_bound(time);
    if (i < leaf.size() && leaf.time(i) == time) {
        leaf.add_reference(i, 1);
        leaf.add_change(i, usage_change);
    } else {
        leaf.insert(i, time, usage_change, leaf_capacity_ + 1);
        ++point_count_;
    }
    repair(path);
}

bool TimeTree::remove_reference(Time time, int64_t usage_change) {
    Step path[kMaxHeight];
    LeafNode& leaf = leaves_[descend(time, path)];
    const uint32_t i = leaf.lower_bound(time);
    if (i == leaf.size() || leaf.time(i) != time) return false;
    if (leaf.references(i) > 1) {
        leaf.add_reference(i, -1);
        leaf.add_change(i, usage_change);
    } else {
        leaf.erase(i);  // its change (normally 0 by now) goes with it
        --point_count_;
    }
    repair(path);
    return true;
}

bool TimeTree::change_usage(Time time, int64_t usage_change) {
    Step path[kMaxHeight];
    LeafNode& leaf = leaves_[descend(time, path)];
    const uint32_t i = leaf.lower_bound(time);
    if (i == leaf.size() || leaf.time(i) != time) return false;
    leaf.add_change(i, usage_change);
    repair(path);
    return true;
}

// ---- searches ------------------------------------------------------------
//
// All of them follow one or two root-to-leaf paths and, off those paths,
// only look at the per-child arrays of inner nodes, so each costs
// O(B * height) = O(log s) for node size B (in practice a binary search per
// level plus a short scan in one leaf).

namespace {

// "No point in range" in window_max: the identity of max. It never escapes
// max_usage, whose result always includes the usage at `from`.
constexpr int64_t kNoUsage = INT64_MIN;

}  // namespace

int64_t TimeTree::usage_at(Time time) const {
    int64_t usage = 0;
    Index node = root_;
    for (int level = 0; level < height_; ++level) {
        const InnerNode& inner = inners_[node];
        const uint32_t position = inner.position_of(time);
        usage += inner.before(position);
        node = inner.child(position);
    }
    const LeafNode& leaf = leaves_[node];
    const uint32_t after = leaf.upper_bound(time);
    if (after > 0) usage += leaf.prefix(after - 1);
    return usage;
}

// The usage over [from, to) is the usage at `from` (set by the last point
// <= from) or the usage at a point strictly inside the window; one walk
// collects both.
int64_t TimeTree::max_usage(Time from, Time to) const {
    return window_max(root_, 0, 0, from, to, true);
}

// Max prefix sum over the points of `node` with lo < time < hi, and also
// over the usage at lo itself when `with_start` (which is then passed down
// the path of lo only). `offset` is the sum of the changes of every point
// before the node. Children strictly between the one holding lo and the one
// holding hi - 1 lie entirely inside the range and are answered from the
// node's arrays; only those two children are entered, so each level enters
// at most two nodes.
int64_t TimeTree::window_max(Index node, int level, int64_t offset, Time lo, Time hi,
                             bool with_start) const {
    int64_t best = kNoUsage;
    if (level == height_) {
        const LeafNode& leaf = leaves_[node];
        uint32_t i = leaf.upper_bound(lo);
        if (with_start) best = offset + (i > 0 ? leaf.prefix(i - 1) : 0);
        for (; i < leaf.size() && leaf.time(i) < hi; ++i)
            best = std::max(best, offset + leaf.prefix(i));
        return best;
    }
    const InnerNode& inner = inners_[node];
    const uint32_t first = inner.position_of(lo);
    const uint32_t last = inner.position_of(hi - 1);  // hi > lo, no overflow
    best = window_max(inner.child(first), level + 1, offset + inner.before(first), lo,
                      hi, with_start);
    if (last == first) return best;
    for (uint32_t i = first + 1; i < last; ++i)
        best = std::max(best, offset + inner.max_prefix(i));
    return std::max(best, window_max(inner.child(last), level + 1,
                                     offset + inner.before(last), lo, hi, false));
}

std::optional<TimeTree::Time> TimeTree::first_point_at_or_after(Time time) const {
    if (time <= 0) return Time{0};  // the base point always exists
    return first_point_where(time - 1, 0, Wanted::kAny);
}

std::optional<TimeTree::Time> TimeTree::first_point_above(Time after,
                                                          int64_t cap) const {
    return first_point_where(after, cap, Wanted::kAbove);
}

std::optional<TimeTree::Time> TimeTree::first_point_at_most(Time after,
                                                            int64_t cap) const {
    return first_point_where(after, cap, Wanted::kAtMost);
}

std::optional<TimeTree::Time> TimeTree::first_point_where(Time after, int64_t cap,
                                                          Wanted wanted) const {
    return find_after(root_, 0, 0, after, cap, wanted);
}

// First point of `node` with time > after whose prefix sum is what
// `wanted` asks for. Children whose summary rules out a match are skipped
// without entering them; the child holding `after` is entered (it may hold
// no later point, in which case the scan moves on), and the first other
// child that passes the summary test certainly holds the answer. So only
// O(1) children per level are entered.
std::optional<TimeTree::Time> TimeTree::find_after(Index node, int level,
                                                   int64_t offset, Time after,
                                                   int64_t cap,
                                                   Wanted wanted) const {
    auto matches = [&](int64_t usage) {
        switch (wanted) {
        case Wanted::kAny: return true;
        case Wanted::kAbove: return usage > cap;
        case Wanted::kAtMost: return usage <= cap;
        }
        return false;
    };
    if (level == height_) {
        const LeafNode& leaf = leaves_[node];
        for (uint32_t i = leaf.upper_bound(after); i < leaf.size(); ++i)
            if (matches(offset + leaf.prefix(i))) return leaf.time(i);
        return std::nullopt;
    }
    const InnerNode& inner = inners_[node];
    for (uint32_t i = inner.position_of(after); i < inner.size(); ++i) {
        const bool may_match =
            wanted == Wanted::kAny ||
            (wanted == Wanted::kAbove ? offset + inner.max_prefix(i) > cap
                                      : offset + inner.min_prefix(i) <= cap);
        if (!may_match) continue;
        std::optional<Time> found = find_after(inner.child(i), level + 1,
                                               offset + inner.before(i), after, cap, wanted);
        if (found) return found;
    }
    return std::nullopt;
}

std::vector<TimeTree::Time> TimeTree::points() const {
    std::vector<Time> out;
    out.reserve(point_count_);
    collect(root_, 0, out);
    return out;
}

void TimeTree::collect(Index node, int level, std::vector<Time>& out) const {
    if (level == height_) {
        const LeafNode& leaf = leaves_[node];
        for (uint32_t i = 0; i < leaf.size(); ++i) out.push_back(leaf.time(i));
        return;
    }
    const InnerNode& inner = inners_[node];
    for (uint32_t i = 0; i < inner.size(); ++i) collect(inner.child(i), level + 1, out);
}

// ---- invariant check (tests) ---------------------------------------------

bool TimeTree::check_invariants() const {
    size_t points_seen = 0;
    if (!check_node(root_, 0, INT64_MIN, INT64_MAX, true, points_seen)) return false;
    if (points_seen != point_count_) return false;
    std::vector<Time> all = points();
    if (all.empty() || all.front() != 0) return false;  // base point present
    return std::adjacent_find(all.begin(), all.end(), std::greater_equal<Time>()) ==
           all.end();
}

// `node` must hold only points in [low, high], respect the fill bounds, and
// (for inner nodes) carry for each child exactly that child's summary.
bool TimeTree::check_node(Index node, int level, Time low, Time high, bool is_root,
                          size_t& points_seen) const {
    const bool is_leaf = level == height_;
    const size_t size = node_size(node, is_leaf);
    const size_t capacity = is_leaf ? leaf_capacity_ : inner_capacity_;
    if (size == 0 || size > capacity) return false;
    if (!is_root && size < min_fill(is_leaf)) return false;
    if (is_root && !is_leaf && size < 2) return false;
    if (is_leaf) {
        const LeafNode& leaf = leaves_[node];
        for (uint32_t i = 0; i < leaf.size(); ++i) {
            if (leaf.time(i) < low || leaf.time(i) > high || leaf.references(i) < 1)
                return false;
        }
        points_seen += size;
        return true;
    }
    const InnerNode& inner = inners_[node];
    for (uint32_t i = 0; i < inner.size(); ++i) {
        const Time child_low = i == 0 ? low : inner.low(i);
        const Time child_high = i + 1 < inner.size() ? inner.low(i + 1) - 1 : high;
        if (child_low > child_high || child_low < low || child_high > high) return false;
        const Summary expected = summarize(inner.child(i), level + 1 == height_);
        const Summary stored = inner.record(i).summary;
        if (expected.sum != stored.sum || expected.max_prefix != stored.max_prefix ||
            expected.min_prefix != stored.min_prefix)
            return false;
        if (!check_node(inner.child(i), level + 1, child_low, child_high, false,
                        points_seen))
            return false;
    }
    return true;
}

}  // namespace rq
