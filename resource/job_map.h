// JobMap / JobSet: the per-vertex job records (job -> span, set of jobs)
// in compact storage.
//
// Almost every record holds one or a few jobs (a core: one; a node: one
// per core), and a std::map costs 48 bytes empty plus a 48-byte heap node
// per entry. Here a small table is one sorted array (16 bytes an entry for
// a map, 8 for a set) and four entries are kept inline, so a table of at
// most four jobs allocates nothing (a map takes 72 bytes, a set 40); one
// that grew past four keeps its heap array until it is empty again. A
// table that grows past kFlatMax entries (the root and the upper levels
// hold one entry per running job) moves into a chunked sorted sequence
// (see Chunked) so that insert and erase never move more than a chunk — a
// big flat vector would make every erase O(n) — and moves back once it is
// small again. Iteration is in ascending job order either way.
#pragma once

#include <algorithm>
#include <cstring>
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

// The big representation: a sorted sequence cut into chunks of at most
// kChunk entries (a one-level B-tree). Lookup is two binary searches;
// insert and erase move at most kChunk entries plus, when a chunk splits or
// empties, kChunk-times fewer chunk handles than there are entries. Entries
// take their own size (8 or 16 bytes) instead of a 48-byte tree node, and
// appending ever-larger job ids fills chunks completely.
template <class Entry>
class Chunked {
public:
    static constexpr size_t kChunk = 256;

    class const_iterator {
    public:
        const_iterator() = default;
        const_iterator(const std::vector<std::vector<Entry>>* c, size_t i, size_t j) : chunks_(c), i_(i), j_(j) {}
        const Entry& operator*() const { return (*chunks_)[i_][j_]; }
        const_iterator& operator++() {
            if (++j_ == (*chunks_)[i_].size()) ++i_, j_ = 0;
            return *this;
        }
        bool operator==(const const_iterator& o) const { return i_ == o.i_ && j_ == o.j_; }
        bool operator!=(const const_iterator& o) const { return !(*this == o); }

    private:
        const std::vector<std::vector<Entry>>* chunks_ = nullptr;
        size_t i_ = 0, j_ = 0;
    };

    Chunked(const Entry* first, const Entry* last) {
        for (; first != last; ++first) insert_entry(*first);
    }
    size_t size() const { return size_; }
    const_iterator cbegin() const { return const_iterator(&chunks_, 0, 0); }
    const_iterator cend() const { return const_iterator(&chunks_, chunks_.size(), 0); }
    const_iterator begin() const { return cbegin(); }
    const_iterator end() const { return cend(); }
    size_t count(int64_t k) const { return find_ptr(k) ? 1 : 0; }
    const_iterator find(int64_t k) const {
        size_t i = chunk_of(k);
        if (i == chunks_.size()) return cend();
        const auto& c = chunks_[i];
        auto it = lower(c, k);
        if (it == c.end() || key_of(*it) != k) return cend();
        return const_iterator(&chunks_, i, static_cast<size_t>(it - c.begin()));
    }
    const Entry* find_ptr(int64_t k) const {
        size_t i = chunk_of(k);
        if (i == chunks_.size()) return nullptr;
        auto it = lower(chunks_[i], k);
        return it == chunks_[i].end() || key_of(*it) != k ? nullptr : &*it;
    }
    // Inserts `e` unless its key is present; returns the entry and whether
    // it was inserted.
    std::pair<Entry*, bool> insert_entry(const Entry& e) {
        const int64_t k = key_of(e);
        if (chunks_.empty() || (key_of(chunks_.back().back()) < k && chunks_.back().size() == kChunk)) {
            chunks_.emplace_back();  // appending past a full last chunk
            chunks_.back().reserve(kChunk);
            chunks_.back().push_back(e);
            ++size_;
            return {&chunks_.back().back(), true};
        }
        size_t i = chunk_of(k);
        if (i == chunks_.size()) i = chunks_.size() - 1;  // beyond every key
        auto& c = chunks_[i];
        auto it = lower(c, k);
        if (it != c.end() && key_of(*it) == k) return {&*it, false};
        size_t pos = static_cast<size_t>(it - c.begin());
        c.insert(it, e);
        ++size_;
        if (c.size() > kChunk) {  // split in halves
            std::vector<Entry> upper(c.begin() + kChunk / 2, c.end());
            c.resize(kChunk / 2);
            chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(upper));
            if (pos >= kChunk / 2) return {&chunks_[i + 1][pos - kChunk / 2], true};
        }
        return {&chunks_[i][pos], true};
    }
    size_t erase(int64_t k) {
        size_t i = chunk_of(k);
        if (i == chunks_.size()) return 0;
        auto& c = chunks_[i];
        auto it = lower(c, k);
        if (it == c.end() || key_of(*it) != k) return 0;
        c.erase(it);
        --size_;
        if (c.empty()) chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(i));
        return 1;
    }

private:
    static typename std::vector<Entry>::const_iterator lower(const std::vector<Entry>& c, int64_t k) {
        return std::lower_bound(c.begin(), c.end(), k, [](const Entry& e, int64_t key) { return key_of(e) < key; });
    }
    static typename std::vector<Entry>::iterator lower(std::vector<Entry>& c, int64_t k) {
        return std::lower_bound(c.begin(), c.end(), k, [](const Entry& e, int64_t key) { return key_of(e) < key; });
    }
    // The first chunk whose last key is >= k (chunks_.size() if none).
    size_t chunk_of(int64_t k) const {
        auto it = std::lower_bound(chunks_.begin(), chunks_.end(), k,
                                   [](const std::vector<Entry>& c, int64_t key) { return key_of(c.back()) < key; });
        return static_cast<size_t>(it - chunks_.begin());
    }

    std::vector<std::vector<Entry>> chunks_;  // none empty
    size_t size_ = 0;
};

// Entry: int64_t (a set) or std::pair<int64_t, V> (a map); Tree: the
// chunked sequence used once big.
template <class Entry, class Tree>
class FlatOrTree {
public:
    static constexpr size_t kFlatMax = 32;
    // Entries kept inline. Four: a busy core holds its running job and the
    // reservations of the first jobs in the queue, and every replay pass
    // made and dropped the heap array of those beyond the inline ones (a
    // cache miss per core on each update and release). Measured against
    // two and eight (docs/replay-performance.md "Sixth round"): four was fastest
    // under hybrid and conservative, for 1.5-2 MB more.
    static constexpr uint32_t kInline = 4;

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
    FlatOrTree(const FlatOrTree& o) { copy_from(o); }
    FlatOrTree& operator=(const FlatOrTree& o) {
        if (this != &o) {
            release();
            copy_from(o);
        }
        return *this;
    }
    FlatOrTree(FlatOrTree&& o) noexcept { steal(o); }
    FlatOrTree& operator=(FlatOrTree&& o) noexcept {
        if (this != &o) {
            release();
            steal(o);
        }
        return *this;
    }
    ~FlatOrTree() { release(); }

    size_t size() const { return in_tree() ? tree()->size() : size_; }
    bool empty() const { return size() == 0; }
    size_t count(int64_t k) const {
        if (in_tree()) return tree()->count(k);
        const Entry* it = lower(k);
        return it != flat_end() && key_of(*it) == k ? 1 : 0;
    }
    const_iterator begin() const {
        return in_tree() ? const_iterator(tree()->cbegin(), tree()->cend()) : const_iterator(flat(), flat_end());
    }
    const_iterator end() const {
        return in_tree() ? const_iterator(tree()->cend(), tree()->cend()) : const_iterator(flat_end(), flat_end());
    }
    const_iterator find(int64_t k) const {
        if (in_tree()) return const_iterator(tree()->find(k), tree()->cend());
        const Entry* it = lower(k);
        if (it == flat_end() || key_of(*it) != k) return end();
        return const_iterator(it, flat_end());
    }
    size_t erase(int64_t k) {
        if (in_tree()) {
            size_t n = tree()->erase(k);
            if (tree()->size() < kFlatMax / 2) to_flat();
            return n;
        }
        Entry* it = lower(k);
        if (it == flat_end() || key_of(*it) != k) return 0;
        std::copy(it + 1, flat_end(), it);
        --size_;
        // Back to inline storage only once empty: a core that holds a
        // running job and two reservations moves between two and three
        // entries at every replay pass, and going inline at two made that
        // a heap array allocated and freed each time (docs/replay-performance.md
        // "Third round"). The array held meanwhile is at most kFlatMax
        // entries, and only while the vertex has a job.
        if (size_ == 0 && cap_ > kInline) {
            delete[] heap_data();
            cap_ = kInline;
        }
        return 1;
    }
    void erase(const_iterator it) { erase(key_of(*it)); }

protected:
    // Storage: cap_ == kInline holds at most kInline entries inline in
    // buf_; cap_ > kInline a heap array of cap_ entries; cap_ == 0 a tree
    // (pointer in buf_).
    bool in_tree() const { return cap_ == 0; }
    Tree* tree() const {
        Tree* t;
        std::memcpy(&t, buf_, sizeof t);
        return t;
    }
    Entry* heap_data() const {
        Entry* p;
        std::memcpy(&p, buf_, sizeof p);
        return p;
    }
    void set_pointer(const void* p) { std::memcpy(buf_, &p, sizeof p); }
    const Entry* flat() const {
        return cap_ == kInline ? reinterpret_cast<const Entry*>(buf_) : heap_data();
    }
    Entry* flat() { return cap_ == kInline ? reinterpret_cast<Entry*>(buf_) : heap_data(); }
    const Entry* flat_end() const { return flat() + size_; }
    Entry* flat_end() { return flat() + size_; }

    const Entry* lower(int64_t k) const {
        return std::lower_bound(flat(), flat_end(), k, [](const Entry& e, int64_t key) { return key_of(e) < key; });
    }
    Entry* lower(int64_t k) {
        return std::lower_bound(flat(), flat_end(), k, [](const Entry& e, int64_t key) { return key_of(e) < key; });
    }
    // Inserts `e` before `at` (flat mode, size_ < kFlatMax); returns it.
    Entry* insert_flat(Entry* at, const Entry& e) {
        size_t pos = static_cast<size_t>(at - flat());
        if (size_ == cap_) {
            uint32_t cap = cap_ * 2;
            Entry* grown = new Entry[cap];
            std::copy(flat(), flat_end(), grown);
            if (cap_ > kInline) delete[] heap_data();
            cap_ = cap;
            set_pointer(grown);
        }
        Entry* data = flat();
        std::copy_backward(data + pos, data + size_, data + size_ + 1);
        data[pos] = e;
        ++size_;
        return data + pos;
    }
    void to_tree() {
        Tree* t = new Tree(flat(), flat_end());
        if (cap_ > kInline) delete[] heap_data();
        size_ = 0;
        cap_ = 0;
        set_pointer(t);
    }
    void to_flat() {
        Tree* t = tree();
        cap_ = kInline;
        size_ = 0;
        for (auto& e : *t) insert_flat(flat_end(), Entry(e));
        delete t;
    }
    void release() {
        if (in_tree())
            delete tree();
        else if (cap_ > kInline)
            delete[] heap_data();
        size_ = 0;
        cap_ = kInline;
    }
    void copy_from(const FlatOrTree& o) {
        size_ = 0;
        cap_ = kInline;
        if (o.in_tree()) {
            cap_ = 0;
            set_pointer(new Tree(*o.tree()));
        } else {
            for (const Entry* e = o.flat(); e != o.flat_end(); ++e) insert_flat(flat_end(), *e);
        }
    }
    void steal(FlatOrTree& o) {
        size_ = o.size_;
        cap_ = o.cap_;
        std::memcpy(buf_, o.buf_, sizeof buf_);
        o.size_ = 0;
        o.cap_ = kInline;
    }

    uint32_t size_ = 0;
    uint32_t cap_ = kInline;
    alignas(Entry) alignas(void*) unsigned char buf_[kInline * sizeof(Entry)] = {};
};

}  // namespace job_map_detail

// job -> value (a span id), ordered by job.
template <class V>
class JobMap : public job_map_detail::FlatOrTree<std::pair<int64_t, V>, job_map_detail::Chunked<std::pair<int64_t, V>>> {
    using Base = job_map_detail::FlatOrTree<std::pair<int64_t, V>, job_map_detail::Chunked<std::pair<int64_t, V>>>;

public:
    V& operator[](int64_t k) {
        if (this->in_tree()) return this->tree()->insert_entry({k, V{}}).first->second;
        auto* it = this->lower(k);
        if (it != this->flat_end() && it->first == k) return it->second;
        if (this->size_ < Base::kFlatMax) return this->insert_flat(it, {k, V{}})->second;
        this->to_tree();
        return this->tree()->insert_entry({k, V{}}).first->second;
    }
    // The value of `k`, or a default value if absent.
    const V& at(int64_t k) const {
        static const V kAbsent{};
        auto it = this->find(k);
        if (it == this->end()) return kAbsent;
        if (this->in_tree()) return this->tree()->find_ptr(k)->second;
        return this->lower(k)->second;
    }
};

// A set of jobs, ascending.
class JobSet : public job_map_detail::FlatOrTree<int64_t, job_map_detail::Chunked<int64_t>> {
public:
    // True if `k` was not there.
    bool insert(int64_t k) {
        if (in_tree()) return tree()->insert_entry(k).second;
        int64_t* it = lower(k);
        if (it != flat_end() && *it == k) return false;
        if (size_ < kFlatMax) {
            insert_flat(it, k);
            return true;
        }
        to_tree();
        return tree()->insert_entry(k).second;
    }
};

}  // namespace rq
