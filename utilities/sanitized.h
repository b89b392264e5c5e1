// Whether this build runs under AddressSanitizer + UBSan (-DRQ_SANITIZE=ON).
// Tests that sweep every recipe skip the largest ones there: round-tripping
// sierra's 350,000 vertices takes minutes under the sanitizers, the Release
// run covers it, and the smaller recipes exercise the same code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rq {

// Long randomized streams (the 10,000-operation state stream, the pass
// reuse workloads) run a shorter prefix of the same stream there; the
// Release run keeps their full length.
#ifdef RQ_SANITIZED
inline constexpr size_t kSanitizedMaxTestVertices = 100000;
inline constexpr int kSanitizedMaxTestOperations = 3000;
inline constexpr int kSanitizedWorkloadDivisor = 3;
#else
inline constexpr size_t kSanitizedMaxTestVertices = SIZE_MAX;
inline constexpr int kSanitizedMaxTestOperations = INT32_MAX;
inline constexpr int kSanitizedWorkloadDivisor = 1;
#endif

}  // namespace rq
