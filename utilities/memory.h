// How much memory this process may use: the machine's physical memory, or
// the control group's limit when that is lower (a container).
#pragma once

#include <cstdint>

namespace rq {

// Bytes; 0 if unknown.
uint64_t usable_memory_bytes();

}  // namespace rq
