// Whether this build runs under AddressSanitizer + UBSan (-DRQ_SANITIZE=ON).
// Tests that sweep every recipe skip the largest ones there: round-tripping
// sierra's 350,000 vertices takes minutes under the sanitizers, the Release
// run covers it, and the smaller recipes exercise the same code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rq {

#ifdef RQ_SANITIZED
inline constexpr size_t kSanitizedMaxTestVertices = 100000;
#else
inline constexpr size_t kSanitizedMaxTestVertices = SIZE_MAX;
#endif

}  // namespace rq
