#include "utilities/memory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace rq {
namespace {

TEST(Memory, UsableMemoryIsKnownHere) { EXPECT_GT(usable_memory_bytes(), 0u); }

#if defined(__GLIBC__) && !defined(RQ_SANITIZED)  // the sanitizers bring their own allocator
// With the setting, a large block freed at the top of the heap stays
// with the process (no brk back to the kernel) and the next one of that
// size reuses it; glibc's defaults give it back at once (above 128 KiB).
TEST(Memory, FreedTopOfHeapIsKept) {
    ASSERT_TRUE(keep_freed_memory_for_reuse());
    const size_t size = 8u << 20;  // below kMmapBytes: from the heap
    char* block = static_cast<char*>(std::malloc(size));
    ASSERT_NE(block, nullptr);
    std::memset(block, 1, size);
    void* top_in_use = sbrk(0);
    ASSERT_LT(static_cast<void*>(block), top_in_use) << "not served from the heap (mmap threshold)";
    std::free(block);
    EXPECT_EQ(sbrk(0), top_in_use) << "the heap shrank after a free below the kept size";
    char* again = static_cast<char*>(std::malloc(size));
    EXPECT_EQ(sbrk(0), top_in_use) << "the heap grew again for a block it had just freed";
    std::free(again);
}
#endif

}  // namespace
}  // namespace rq
