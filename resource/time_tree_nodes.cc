#include "resource/time_tree_nodes.h"

#include <algorithm>
#include <cstring>

namespace rq {
namespace time_tree_detail {

// ---- LeafNode ------------------------------------------------------------

LeafNode::LeafNode(const LeafNode& other) { *this = other; }

LeafNode& LeafNode::operator=(const LeafNode& other) {
    if (this == &other) return *this;
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (capacity_ == 0) {
        block_.reset();
    } else {
        block_ = std::make_unique<int64_t[]>(3 * static_cast<size_t>(capacity_));
        std::memcpy(block_.get(), other.block_.get(), 3 * sizeof(int64_t) * capacity_);
    }
    return *this;
}

namespace {

constexpr size_t kTimesPerCacheLine = 64 / sizeof(Time);

// Asks for every cache line of `times` at once, so that a binary search
// over an uncached node waits for memory about once instead of once per
// probe.
void prefetch_times(const Time* times, uint32_t count) {
    for (uint32_t i = 0; i < count; i += kTimesPerCacheLine) __builtin_prefetch(times + i);
}

// Number of elements of the sorted array `times` that are < t (or <= t
// when `or_equal`): a binary search whose steps compile to conditional
// moves, so it costs no branch mispredictions.
template <bool or_equal>
uint32_t count_before(const Time* times, uint32_t count, Time t) {
    if (count == 0) return 0;
    const Time* base = times;
    uint32_t length = count;
    while (length > 1) {
        const uint32_t half = length / 2;
        const bool below = or_equal ? base[half] <= t : base[half] < t;
        base = below ? base + half : base;
        length -= half;
    }
    const bool below = or_equal ? *base <= t : *base < t;
    return static_cast<uint32_t>(base - times) + (below ? 1 : 0);
}

}  // namespace

// Both searches prefetch the prefix sums along with the times: every
// caller reads the prefix sum at (or after) the position found.
uint32_t LeafNode::lower_bound(Time t) const {
    prefetch_times(block_.get(), size_);
    prefetch_times(block_.get() + capacity_, size_);
    return count_before<false>(block_.get(), size_, t);
}

uint32_t LeafNode::upper_bound(Time t) const {
    prefetch_times(block_.get(), size_);
    prefetch_times(block_.get() + capacity_, size_);
    return count_before<true>(block_.get(), size_, t);
}

void LeafNode::reallocate(uint32_t capacity) {
    auto block = std::make_unique<int64_t[]>(3 * static_cast<size_t>(capacity));
    for (int array = 0; array < 3; ++array) {
        if (size_ > 0)
            std::memcpy(block.get() + array * capacity,
                        block_.get() + array * capacity_, sizeof(int64_t) * size_);
    }
    block_ = std::move(block);
    capacity_ = capacity;
}

void LeafNode::insert(uint32_t i, Time t, int64_t change, uint32_t max_capacity) {
    if (size_ == capacity_) {
        uint32_t grown = std::min(std::max<uint32_t>(4, 2 * capacity_), max_capacity);
        reallocate(std::max(grown, size_ + 1));
    }
    const int64_t before = i == 0 ? 0 : prefix(i - 1);
    for (int array = 0; array < 3; ++array) {
        int64_t* base = block_.get() + array * capacity_;
        std::memmove(base + i + 1, base + i, sizeof(int64_t) * (size_ - i));
    }
    ++size_;
    block_[i] = t;
    block_[capacity_ + i] = before;
    block_[2 * capacity_ + i] = 1;
    add_change(i, change);
}

void LeafNode::erase(uint32_t i) {
    const int64_t removed_change = change(i);
    for (int array = 0; array < 3; ++array) {
        int64_t* base = block_.get() + array * capacity_;
        std::memmove(base + i, base + i + 1, sizeof(int64_t) * (size_ - i - 1));
    }
    --size_;
    if (i < size_) add_change(i, -removed_change);  // later prefixes lose it
}

void LeafNode::add_change(uint32_t i, int64_t change) {
    int64_t* prefixes = block_.get() + capacity_;
    for (uint32_t k = i; k < size_; ++k) prefixes[k] += change;
}

Summary LeafNode::summary() const {
    Summary s;
    if (size_ == 0) return s;
    const int64_t* prefixes = block_.get() + capacity_;
    s.sum = prefixes[size_ - 1];
    s.max_prefix = *std::max_element(prefixes, prefixes + size_);
    s.min_prefix = *std::min_element(prefixes, prefixes + size_);
    return s;
}

void LeafNode::export_points(std::vector<PointRecord>& out) const {
    for (uint32_t i = 0; i < size_; ++i)
        out.push_back(PointRecord{time(i), change(i), references(i)});
}

void LeafNode::assign(const PointRecord* first, uint32_t count) {
    size_ = 0;
    if (count > capacity_ || capacity_ > 2 * std::max<uint32_t>(count, 4))
        reallocate(std::max<uint32_t>(count, 4));
    int64_t running = 0;
    for (uint32_t i = 0; i < count; ++i) {
        running += first[i].change;
        block_[i] = first[i].time;
        block_[capacity_ + i] = running;
        block_[2 * capacity_ + i] = first[i].references;
    }
    size_ = count;
}

void LeafNode::release() {
    block_.reset();
    size_ = capacity_ = 0;
}

// ---- InnerNode -----------------------------------------------------------

uint32_t InnerNode::position_of(Time t) const {
    prefetch_times(low_, size_);
    prefetch_times(before_, size_);  // the caller reads before_ and child_ next
    for (uint32_t i = 0; i < size_; i += 16) __builtin_prefetch(child_ + i);
    return count_before<true>(low_ + 1, size_ - 1, t);
}

ChildRecord InnerNode::record(uint32_t i) const {
    const int64_t start = before_[i];
    return ChildRecord{low_[i], child_[i],
                       Summary{before_[i + 1] - start, max_prefix_[i] - start,
                               min_prefix_[i] - start}};
}

void InnerNode::export_children(std::vector<ChildRecord>& out) const {
    for (uint32_t i = 0; i < size_; ++i) out.push_back(record(i));
}

void InnerNode::assign(const ChildRecord* first, uint32_t count) {
    size_ = count;
    before_[0] = 0;
    for (uint32_t i = 0; i < count; ++i) {
        low_[i] = first[i].low;
        child_[i] = first[i].node;
        max_prefix_[i] = before_[i] + first[i].summary.max_prefix;
        min_prefix_[i] = before_[i] + first[i].summary.min_prefix;
        before_[i + 1] = before_[i] + first[i].summary.sum;
    }
}

void InnerNode::insert(uint32_t i, const ChildRecord& record) {
    ChildRecord records[kMaxChildren + 2];
    uint32_t count = 0;
    for (uint32_t k = 0; k < size_; ++k) {
        if (k == i) records[count++] = record;
        records[count++] = this->record(k);
    }
    if (i >= size_) records[count++] = record;
    assign(records, count);
}

void InnerNode::erase(uint32_t i) {
    ChildRecord records[kMaxChildren + 1];
    uint32_t count = 0;
    for (uint32_t k = 0; k < size_; ++k)
        if (k != i) records[count++] = record(k);
    assign(records, count);
}

// Child i's content changed: its own entries change, and every later
// child's position-dependent values shift by the change of its sum.
void InnerNode::set_summary(uint32_t i, const Summary& summary) {
    const int64_t shift = summary.sum - (before_[i + 1] - before_[i]);
    max_prefix_[i] = before_[i] + summary.max_prefix;
    min_prefix_[i] = before_[i] + summary.min_prefix;
    if (shift == 0) return;
    for (uint32_t k = i + 1; k < size_; ++k) {
        before_[k] += shift;
        max_prefix_[k] += shift;
        min_prefix_[k] += shift;
    }
    before_[size_] += shift;
}

Summary InnerNode::summary() const {
    Summary s;
    if (size_ == 0) return s;
    s.sum = before_[size_];
    s.max_prefix = *std::max_element(max_prefix_, max_prefix_ + size_);
    s.min_prefix = *std::min_element(min_prefix_, min_prefix_ + size_);
    return s;
}

}  // namespace time_tree_detail
}  // namespace rq
