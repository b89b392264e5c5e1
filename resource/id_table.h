// IdTable: id -> value for ids handed out in increasing order (planner and
// multi-planner span ids), in one contiguous array.
//
// Entries are appended (ids only grow), looked up by binary search, and
// erased by marking them dead; the array is compacted once the dead
// outnumber the living, so every operation is O(log n) amortized and an
// entry costs its value plus 8 bytes — against ~70 bytes for a node of an
// unordered_map. Pointers to values are valid until the next add or erase.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rq {

namespace id_table_detail {
inline constexpr size_t kNone = SIZE_MAX;
// Dead entries hold ~id: negative, and ~ keeps the order.
inline int64_t key(int64_t stored) { return stored >= 0 ? stored : ~stored; }
// The index of the live entry with `id` in [first, last), which is
// ascending by key(id_of(entry)); kNone if there is none.
template <class It, class IdOf>
size_t find_live(It first, It last, int64_t id, IdOf id_of) {
    if (id < 0) return kNone;
    auto it = std::lower_bound(first, last, id, [&](const auto& e, int64_t k) { return key(id_of(e)) < k; });
    if (it == last || id_of(*it) != id) return kNone;
    return static_cast<size_t>(it - first);
}
inline int64_t stored_id(int64_t stored) { return stored; }
}  // namespace id_table_detail

template <class T>
class IdTable {
public:
    size_t size() const { return live_; }
    bool empty() const { return live_ == 0; }

    // `id` must be larger than every id added before (and >= 0).
    void add(int64_t id, T value) {
        ids_.push_back(id);
        values_.push_back(std::move(value));
        ++live_;
    }
    T* find(int64_t id) {
        size_t i = slot(id);
        return i == kNone ? nullptr : &values_[i];
    }
    const T* find(int64_t id) const {
        size_t i = slot(id);
        return i == kNone ? nullptr : &values_[i];
    }
    size_t count(int64_t id) const { return slot(id) == kNone ? 0 : 1; }
    bool erase(int64_t id) {
        size_t i = slot(id);
        if (i == kNone) return false;
        ids_[i] = ~id;  // dead: negative, and ~ keeps the order
        values_[i] = T{};
        --live_;
        if (live_ == 0) {
            clear();
        } else if (ids_.size() - live_ > live_ && ids_.size() > 16) {
            compact();
        }
        return true;
    }
    void clear() {
        std::vector<int64_t>().swap(ids_);
        std::vector<T>().swap(values_);
        live_ = 0;
    }
    // Calls fn(id, value) for every entry in increasing id order.
    template <class Fn>
    void for_each(Fn&& fn) const {
        for (size_t i = 0; i < ids_.size(); ++i)
            if (ids_[i] >= 0) fn(ids_[i], values_[i]);
    }
    template <class Fn>
    void for_each(Fn&& fn) {
        for (size_t i = 0; i < ids_.size(); ++i)
            if (ids_[i] >= 0) fn(ids_[i], values_[i]);
    }

private:
    static constexpr size_t kNone = id_table_detail::kNone;

    size_t slot(int64_t id) const {
        return id_table_detail::find_live(ids_.begin(), ids_.end(), id, id_table_detail::stored_id);
    }
    void compact() {
        size_t out = 0;
        for (size_t i = 0; i < ids_.size(); ++i) {
            if (ids_[i] < 0) continue;
            ids_[out] = ids_[i];
            values_[out] = std::move(values_[i]);
            ++out;
        }
        ids_.resize(out);
        values_.resize(out);
        ids_.shrink_to_fit();
        values_.shrink_to_fit();
    }

    std::vector<int64_t> ids_;  // ascending by id; dead entries hold ~id
    std::vector<T> values_;
    size_t live_ = 0;
};

// KeyedIdTable: IdTable for values that carry their own id (a `.id`
// member, e.g. Span): one array of values, no separate id array, so an
// entry costs just its value. Same rules as IdTable.
template <class T>
class KeyedIdTable {
public:
    size_t size() const { return live_; }
    bool empty() const { return live_ == 0; }

    // value.id must be larger than every id added before (and >= 0).
    void add(const T& value) {
        values_.push_back(value);
        ++live_;
    }
    T* find(int64_t id) {
        size_t i = slot(id);
        return i == kNone ? nullptr : &values_[i];
    }
    const T* find(int64_t id) const {
        size_t i = slot(id);
        return i == kNone ? nullptr : &values_[i];
    }
    bool erase(int64_t id) {
        size_t i = slot(id);
        if (i == kNone) return false;
        values_[i] = T{};
        values_[i].id = ~id;  // dead: negative, and ~ keeps the order
        --live_;
        if (live_ == 0) {
            std::vector<T>().swap(values_);
        } else if (values_.size() - live_ > live_ && values_.size() > 16) {
            compact();
        }
        return true;
    }
    // Calls fn(value) for every live entry in increasing id order.
    template <class Fn>
    void for_each(Fn&& fn) const {
        for (const T& v : values_)
            if (v.id >= 0) fn(v);
    }

private:
    static constexpr size_t kNone = id_table_detail::kNone;

    size_t slot(int64_t id) const {
        return id_table_detail::find_live(values_.begin(), values_.end(), id, [](const T& v) { return v.id; });
    }
    void compact() {
        values_.erase(std::remove_if(values_.begin(), values_.end(), [](const T& v) { return v.id < 0; }),
                      values_.end());
        values_.shrink_to_fit();
    }

    std::vector<T> values_;  // ascending by id; dead entries hold ~id
    size_t live_ = 0;
};

// IdRows: id -> a row of `width` int64 values, ids handed out in increasing
// order (the per-type span ids of a multi-planner). The rows live in one
// flat array, so a row costs 8 bytes per column plus 8 for its id (a
// vector per row cost 48 bytes for up to three columns). Same erase and
// compaction rule as IdTable. Row pointers are valid until the next add,
// erase or set_width.
class IdRows {
public:
    explicit IdRows(size_t width = 0) : width_(width) {}
    size_t width() const { return width_; }
    size_t size() const { return live_; }
    bool empty() const { return live_ == 0; }

    // `id` must be larger than every id added before (and >= 0); `row`
    // holds width() values.
    void add(int64_t id, const int64_t* row) {
        ids_.push_back(id);
        if (width_ != 0) values_.insert(values_.end(), row, row + width_);  // `row` may be null then
        ++live_;
    }
    // The row of `id` (not null even for width 0), or nullptr if absent.
    int64_t* find(int64_t id) { return row(slot(id)); }
    const int64_t* find(int64_t id) const { return const_cast<IdRows*>(this)->row(slot(id)); }
    size_t count(int64_t id) const { return slot(id) == kNone ? 0 : 1; }
    bool erase(int64_t id) {
        size_t i = slot(id);
        if (i == kNone) return false;
        ids_[i] = ~id;  // dead: negative, and ~ keeps the order
        --live_;
        if (live_ == 0) {
            // Small arrays are kept for the next row: a node's subtree
            // plan empties and refills at every replay pass that re-makes
            // a reservation on it (docs/replay-performance.md "Third round").
            if (ids_.capacity() > kKeptWhenEmpty) {
                std::vector<int64_t>().swap(ids_);
                std::vector<int64_t>().swap(values_);
            } else {
                ids_.clear();
                values_.clear();
            }
        } else if (ids_.size() - live_ > live_ && ids_.size() > 16) {
            compact();
        }
        return true;
    }
    // Changes the width: column k of every live row becomes the old
    // column from[k], or `fill` where from[k] < 0.
    void set_width(const std::vector<int64_t>& from, int64_t fill) {
        compact();
        std::vector<int64_t> values(ids_.size() * from.size(), fill);
        for (size_t r = 0; r < ids_.size(); ++r)
            for (size_t k = 0; k < from.size(); ++k)
                if (from[k] >= 0) values[r * from.size() + k] = values_[r * width_ + static_cast<size_t>(from[k])];
        values_ = std::move(values);
        width_ = from.size();
    }

private:
    static constexpr size_t kNone = id_table_detail::kNone;
    static constexpr size_t kKeptWhenEmpty = 8;  // rows

    int64_t* row(size_t i) {
        static int64_t empty_row;  // what a width-0 row points to
        if (i == kNone) return nullptr;
        return width_ == 0 ? &empty_row : values_.data() + i * width_;
    }
    size_t slot(int64_t id) const {
        return id_table_detail::find_live(ids_.begin(), ids_.end(), id, id_table_detail::stored_id);
    }
    void compact() {
        size_t out = 0;
        for (size_t i = 0; i < ids_.size(); ++i) {
            if (ids_[i] < 0) continue;
            ids_[out] = ids_[i];
            std::copy_n(values_.begin() + static_cast<std::ptrdiff_t>(i * width_), width_,
                        values_.begin() + static_cast<std::ptrdiff_t>(out * width_));
            ++out;
        }
        ids_.resize(out);
        values_.resize(out * width_);
        ids_.shrink_to_fit();
        values_.shrink_to_fit();
    }

    std::vector<int64_t> ids_;     // ascending by id; dead entries hold ~id
    std::vector<int64_t> values_;  // width_ values per entry of ids_
    size_t width_ = 0;
    size_t live_ = 0;
};

}  // namespace rq
