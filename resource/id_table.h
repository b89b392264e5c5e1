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
    static constexpr size_t kNone = SIZE_MAX;
    static int64_t key(int64_t stored) { return stored >= 0 ? stored : ~stored; }

    size_t slot(int64_t id) const {
        if (id < 0) return kNone;
        auto it = std::lower_bound(ids_.begin(), ids_.end(), id,
                                   [](int64_t stored, int64_t k) { return key(stored) < k; });
        if (it == ids_.end() || *it != id) return kNone;
        return static_cast<size_t>(it - ids_.begin());
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

}  // namespace rq
