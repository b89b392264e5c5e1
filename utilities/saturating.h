// Saturating arithmetic for resource counts. A graph may hold more units of
// a type than int64_t counts (eight memory vertices of size 2^62): sums
// stop at the largest value instead of overflowing (undefined behaviour),
// and "more than can be counted" still compares correctly with any
// request, which is at most 2^32-1 units.
#pragma once

#include <cstdint>
#include <limits>

namespace rq {

inline int64_t saturating_add(int64_t a, int64_t b) {
    int64_t sum;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

// For non-negative counts: a * b, or the largest int64_t.
inline int64_t saturating_mul(int64_t a, int64_t b) {
    int64_t product;
    if (!__builtin_mul_overflow(a, b, &product)) return product;
    return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
}

// A count of available units as the uint32_t that calc_count() takes:
// anything beyond 2^32-1 is 2^32-1 (the reference truncates instead, so
// 2^32 units read as none).
inline uint32_t clamp_to_u32(int64_t n) {
    if (n <= 0) return 0;
    return n >= static_cast<int64_t>(std::numeric_limits<uint32_t>::max()) ? std::numeric_limits<uint32_t>::max()
                                                                           : static_cast<uint32_t>(n);
}

}  // namespace rq
