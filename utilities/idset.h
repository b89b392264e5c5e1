// idsets: compact text for sets of non-negative integers (RFC 22 subset).
//
// Encoding is the form the tool prints for ranks and core/gpu ids
// (spec/README.md "idset encoding"): ascending, runs of two or more
// consecutive ids as `lo-hi`, items joined by `,`, no brackets:
// `0-35`, `3-4,7`, `18,20-35`.
//
// Decoding accepts what RFC 22 allows users to write: the same list,
// optionally enclosed in one pair of brackets (`[0-2,5]`); an empty text
// (or `[]`) is the empty set. Every id is plain decimal, a range's low end
// may not exceed its high end, and ids are limited to 0..kMaxIdsetId.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "utilities/result.h"

namespace rq {

// Largest id an idset may hold (the reference's idsets are unsigned int
// with UINT_MAX reserved as "invalid id").
inline constexpr int64_t kMaxIdsetId = 4294967294;

// decode_idset() refuses to expand sets larger than this (an attacker-sized
// `0-4294967294` would otherwise allocate 32 GiB); decode_idset_ranges()
// has no such limit.
inline constexpr int64_t kMaxExpandedIds = int64_t{1} << 24;

// Inclusive range [lo, hi].
struct IdRange {
    int64_t lo = 0;
    int64_t hi = 0;
    bool operator==(const IdRange& other) const { return lo == other.lo && hi == other.hi; }
};

// Sorts and de-duplicates `ids`, then encodes them. Negative ids cannot be
// represented in an idset and are skipped.
std::string encode_idset(std::vector<int64_t> ids);

// Parses `text` into sorted, disjoint, non-adjacent ranges (overlapping or
// touching input ranges are merged). Error message: ``Invalid idset `<text>'``.
Result<std::vector<IdRange>> decode_idset_ranges(std::string_view text);

// Parses `text` into its ids, ascending and unique. Errors as
// decode_idset_ranges(), plus Errc::kRange for sets above kMaxExpandedIds.
Result<std::vector<int64_t>> decode_idset(std::string_view text);

// True if `id` lies in one of `ranges` (as returned by decode_idset_ranges).
bool idset_ranges_contain(const std::vector<IdRange>& ranges, int64_t id);

}  // namespace rq
