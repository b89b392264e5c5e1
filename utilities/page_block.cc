#include "utilities/page_block.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace rq {

PageBlock::PageBlock(size_t bytes) {
    size_ = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    // Map one huge page more than needed and cut the ends off, so that the
    // block starts on a huge-page boundary (the kernel backs only aligned
    // 2 MiB ranges with a huge page).
    size_t mapped = size_ + kHugePage;
    void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    auto start = reinterpret_cast<uintptr_t>(raw);
    uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start) munmap(raw, aligned - start);
    uintptr_t end = start + mapped, used_end = aligned + size_;
    if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
    data_ = reinterpret_cast<unsigned char*>(aligned);
#ifdef MADV_HUGEPAGE
    madvise(data_, size_, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
#endif
}

PageBlock& PageBlock::operator=(PageBlock&& o) noexcept {
    if (this != &o) {
        PageBlock gone(std::move(*this));
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
    }
    return *this;
}

PageBlock::~PageBlock() {
    if (data_ != nullptr) munmap(data_, size_);
}

}  // namespace rq
