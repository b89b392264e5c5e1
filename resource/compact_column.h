// CompactColumn: a per-vertex int64 column stored in 32 bits.
//
// Ids, ranks and sizes of real machines fit in 32 bits; the rare value that
// does not is kept in a side map behind an escape value, so the column
// costs 4 bytes per vertex instead of 8 and every value stays exact.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace rq {

class CompactColumn {
public:
    void reserve(size_t n) { small_.reserve(n); }
    size_t size() const { return small_.size(); }
    void push_back(int64_t value) {
        if (value > INT32_MIN && value <= INT32_MAX) {
            small_.push_back(static_cast<int32_t>(value));
        } else {
            big_.emplace(static_cast<uint32_t>(small_.size()), value);
            small_.push_back(kEscape);
        }
    }
    int64_t operator[](size_t i) const {
        int32_t v = small_[i];
        return v != kEscape ? v : big_.at(static_cast<uint32_t>(i));
    }
    size_t bytes() const { return small_.capacity() * sizeof(int32_t) + big_.size() * 32; }

private:
    static constexpr int32_t kEscape = INT32_MIN;
    std::vector<int32_t> small_;
    std::unordered_map<uint32_t, int64_t> big_;
};

}  // namespace rq
