// How much memory this process may use: the machine's physical memory, or
// the control group's limit when that is lower (a container).
#pragma once

#include <cstdint>

namespace rq {

// Bytes; 0 if unknown.
uint64_t usable_memory_bytes();

// For a program (never a library: the allocator is the process's): keep
// up to kKeptFreeBytes of freed memory at the top of the heap instead of
// giving it back to the kernel at once, and serve blocks below
// kMmapBytes from the heap. A busy replay grows and shrinks its working
// vectors thousands of times a second; glibc's defaults (give back above
// 128 KiB) made that one brk call and fresh page faults each time, a
// fifth of a replay's time (docs/replay-performance.md "Third round"). Peak
// memory stays what the program uses at its busiest.
inline constexpr int kKeptFreeBytes = 64 << 20;
inline constexpr int kMmapBytes = 32 << 20;
// False if the allocator refused a setting (not glibc: nothing changes).
bool keep_freed_memory_for_reuse();

}  // namespace rq
