// PagedColumn: a per-edge (or per-vertex) column that is mostly at a
// default value, stored in fixed pages allocated on first write.
//
// The edge weights of the ordered child index are set only on the edges a
// job used; a flat vector resized to every edge on the first write cost
// the first `first` match on the El Capitan-sized recipe 10.5 MB and 2.6
// million instructions (a zero-fill of 1.3 million entries): a cost that
// grew with the machine. A page holds 1,024 entries, so a write costs at
// most one page and reads stay O(1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rq {

template <typename T, T kDefault>
class PagedColumn {
public:
    static constexpr size_t kPageBits = 10;
    static constexpr size_t kPageSize = size_t(1) << kPageBits;

    T get(size_t i) const {
        size_t p = i >> kPageBits;
        return p < pages_.size() && pages_[p] ? pages_[p][i & (kPageSize - 1)] : kDefault;
    }
    void set(size_t i, T value) {
        size_t p = i >> kPageBits;
        if (p >= pages_.size()) pages_.resize(p + 1);
        if (!pages_[p]) {
            pages_[p].reset(new T[kPageSize]);
            std::fill(pages_[p].get(), pages_[p].get() + kPageSize, kDefault);
            ++allocated_;
        }
        pages_[p][i & (kPageSize - 1)] = value;
    }
    // Every entry back to the default, the pages freed.
    void clear() { pages_.clear(), allocated_ = 0; }
    size_t bytes() const {
        return pages_.capacity() * sizeof(pages_[0]) + allocated_ * kPageSize * sizeof(T);
    }

private:
    std::vector<std::unique_ptr<T[]>> pages_;
    size_t allocated_ = 0;
};

}  // namespace rq
