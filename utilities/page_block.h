// PageBlock: a 2 MiB-aligned block of memory taken straight from the
// kernel and marked for transparent huge pages (madvise MADV_HUGEPAGE).
//
// Record pools that grow one job at a time (the schedule records of
// resource/vertex_slots.h: ~80 a job under the *nodex policies on El
// Capitan) otherwise fault their memory in 4 KiB at a time: four page
// faults a match, a quarter of its time. In a huge-page block one fault
// maps 2 MiB. Where the kernel gives no huge pages (THP "never", another
// OS) the block is ordinary memory and everything still works.
#pragma once

#include <cstddef>

namespace rq {

class PageBlock {
public:
    static constexpr size_t kHugePage = size_t(2) << 20;

    // A block of `bytes` (rounded up to whole huge pages), untouched: the
    // kernel supplies zeroed pages on first use. Throws std::bad_alloc if
    // the kernel refuses the mapping.
    explicit PageBlock(size_t bytes);
    PageBlock(PageBlock&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr, o.size_ = 0; }
    PageBlock& operator=(PageBlock&& o) noexcept;
    PageBlock(const PageBlock&) = delete;
    PageBlock& operator=(const PageBlock&) = delete;
    ~PageBlock();

    unsigned char* data() const { return data_; }
    size_t size() const { return size_; }

private:
    unsigned char* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace rq
