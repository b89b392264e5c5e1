// JobMap / JobSet: the per-vertex job records (job -> span, set of jobs)
// in compact storage.
//
// Almost every record holds one or a few jobs (a core: one; a node: one
// per core), and a std::map costs 48 bytes empty plus a 48-byte heap node
// per entry. Here a small table is one sorted vector (16 bytes an entry,
// 32 bytes empty, nothing allocated while empty). A table that grows past
// kFlatMax entries (the root and the upper levels hold one entry per
// running job) moves into a balanced tree so that insert and erase stay
// O(log n) — a big flat vector would make every erase O(n) — and moves back
// once it is small again. Iteration is in ascending job order either way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace rq {
namespace job_map_detail {

inline int64_t key_of(int64_t k) { return k; }
template <class V>
int64_t key_of(const std::pair<int64_t, V>& e) { return e.first; }

// Entry: int64_t (a set) or std::pair<int64_t, V> (a map); Tree: the
// std::set / std::map used once big.
template <class Entry, class Tree>
class FlatOrTree {
public:
    static constexpr size_t kFlatMax = 32;

    // A read-only iterator over either representation; it holds a copy of
    // the current entry, so `auto& [job, span] : table` binds to it.
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Entry;
        using difference_type = std::ptrdiff_t;
        using pointer = const Entry*;
        using reference = const Entry&;
        const_iterator() = default;
        const_iterator(const Entry* p, const Entry* end) : flat_(p), flat_end_(end) { load(); }
        const_iterator(typename Tree::const_iterator it, typename Tree::const_iterator end)
            : tree_(it), tree_end_(end), in_tree_(true) { load(); }
        const Entry& operator*() const { return cur_; }
        const Entry* operator->() const { return &cur_; }
        const_iterator& operator++() {
            if (in_tree_)
                ++tree_;
            else
                ++flat_;
            load();
            return *this;
        }
        bool operator==(const const_iterator& o) const {
            return in_tree_ ? tree_ == o.tree_ : flat_ == o.flat_;
        }
        bool operator!=(const const_iterator& o) const { return !(*this == o); }

    private:
        void load() {
            if (in_tree_ ? tree_ != tree_end_ : flat_ != flat_end_) cur_ = in_tree_ ? Entry(*tree_) : *flat_;
        }
        const Entry* flat_ = nullptr;
        const Entry* flat_end_ = nullptr;
        typename Tree::const_iterator tree_{}, tree_end_{};
        bool in_tree_ = false;
        Entry cur_{};
    };
    using iterator = const_iterator;

    FlatOrTree() = default;
    FlatOrTree(const FlatOrTree& o) : flat_(o.flat_), tree_(o.tree_ ? std::make_unique<Tree>(*o.tree_) : nullptr) {}
    FlatOrTree& operator=(const FlatOrTree& o) {
        if (this != &o) *this = FlatOrTree(o);
        return *this;
    }
    FlatOrTree(FlatOrTree&&) noexcept = default;
    FlatOrTree& operator=(FlatOrTree&&) noexcept = default;

    size_t size() const { return tree_ ? tree_->size() : flat_.size(); }
    bool empty() const { return size() == 0; }
    size_t count(int64_t k) const {
        if (tree_) return tree_->count(k);
        auto it = lower(k);
        return it != flat_.end() && key_of(*it) == k ? 1 : 0;
    }
    const_iterator begin() const {
        return tree_ ? const_iterator(tree_->cbegin(), tree_->cend())
                     : const_iterator(flat_.data(), flat_.data() + flat_.size());
    }
    const_iterator end() const {
        return tree_ ? const_iterator(tree_->cend(), tree_->cend())
                     : const_iterator(flat_.data() + flat_.size(), flat_.data() + flat_.size());
    }
    const_iterator find(int64_t k) const {
        if (tree_) return const_iterator(tree_->find(k), tree_->cend());
        auto it = lower(k);
        if (it == flat_.end() || key_of(*it) != k) return end();
        return const_iterator(&*it, flat_.data() + flat_.size());
    }
    size_t erase(int64_t k) {
        if (tree_) {
            size_t n = tree_->erase(k);
            if (tree_->size() < kFlatMax / 2) to_flat();
            return n;
        }
        auto it = lower(k);
        if (it == flat_.end() || key_of(*it) != k) return 0;
        flat_.erase(it);
        if (flat_.empty()) flat_.shrink_to_fit();
        return 1;
    }
    void erase(const_iterator it) { erase(key_of(*it)); }

protected:
    typename std::vector<Entry>::const_iterator lower(int64_t k) const {
        return std::lower_bound(flat_.begin(), flat_.end(), k,
                                [](const Entry& e, int64_t key) { return key_of(e) < key; });
    }
    typename std::vector<Entry>::iterator lower(int64_t k) {
        return std::lower_bound(flat_.begin(), flat_.end(), k,
                                [](const Entry& e, int64_t key) { return key_of(e) < key; });
    }
    void to_tree() {
        tree_ = std::make_unique<Tree>(flat_.begin(), flat_.end());
        std::vector<Entry>().swap(flat_);
    }
    void to_flat() {
        flat_.assign(tree_->begin(), tree_->end());
        tree_.reset();
    }

    std::vector<Entry> flat_;
    std::unique_ptr<Tree> tree_;  // set while big
};

}  // namespace job_map_detail

// job -> value (a span id), ordered by job.
template <class V>
class JobMap : public job_map_detail::FlatOrTree<std::pair<int64_t, V>, std::map<int64_t, V>> {
    using Base = job_map_detail::FlatOrTree<std::pair<int64_t, V>, std::map<int64_t, V>>;

public:
    V& operator[](int64_t k) {
        if (this->tree_) return (*this->tree_)[k];
        auto it = this->lower(k);
        if (it != this->flat_.end() && it->first == k) return it->second;
        if (this->flat_.size() < Base::kFlatMax) return this->flat_.insert(it, {k, V{}})->second;
        this->to_tree();
        return (*this->tree_)[k];
    }
    // The value of `k`, or a default value if absent.
    const V& at(int64_t k) const {
        static const V kAbsent{};
        auto it = this->find(k);
        if (it == this->end()) return kAbsent;
        if (this->tree_) return this->tree_->find(k)->second;
        return this->lower(k)->second;
    }
};

// A set of jobs, ascending.
class JobSet : public job_map_detail::FlatOrTree<int64_t, std::set<int64_t>> {
public:
    // True if `k` was not there.
    bool insert(int64_t k) {
        if (tree_) return tree_->insert(k).second;
        auto it = lower(k);
        if (it != flat_.end() && *it == k) return false;
        if (flat_.size() < kFlatMax) {
            flat_.insert(it, k);
            return true;
        }
        to_tree();
        return tree_->insert(k).second;
    }
};

}  // namespace rq
