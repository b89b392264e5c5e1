// VertexSlots<T>: an optional T per vertex, for records most vertices
// never get (schedules, subtree plans).
//
// A 32-bit index per vertex into a pool of records, so a vertex without a
// record costs 4 bytes instead of the 8 of a null pointer: 5 MB less on a
// million-vertex machine. The pool is a list of fixed-size chunks (records
// never move, so references stay valid while other records come and go)
// with a free list: a record costs its own size, with no heap block and
// owning pointer of its own, and creating or dropping one allocates
// nothing once the pool has grown (a queue replay does both once per core
// and job). The first 2 MiB of chunks are ordinary heap blocks, so that a
// small pool stays small and a short session does not touch a whole huge
// page it will not fill; past that the chunks are cut from 2 MiB huge-page
// blocks (utilities/page_block.h), where one page fault maps 2 MiB of
// records instead of 4 KiB.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "utilities/page_block.h"

namespace rq {

template <class T>
class VertexSlots {
public:
    VertexSlots() = default;
    VertexSlots(const VertexSlots&) = delete;
    VertexSlots& operator=(const VertexSlots&) = delete;
    VertexSlots(VertexSlots&& o) noexcept { swap(o); }
    VertexSlots& operator=(VertexSlots&& o) noexcept {
        if (this != &o) {
            VertexSlots gone;
            swap(o);
            o.swap(gone);
        }
        return *this;
    }
    ~VertexSlots() {
        for (uint32_t i : index_)
            if (i != kNone) at(i)->~T();
    }

    size_t size() const { return index_.size(); }
    void resize(size_t n) {
        if (index_.size() < n) index_.resize(n, kNone);
    }
    T* get(size_t v) const {
        if (v >= index_.size()) return nullptr;
        uint32_t i = index_[v];
        return i == kNone ? nullptr : at(i);
    }
    // Replaces v's record by T(args...) and returns it.
    template <class... Args>
    T& emplace(size_t v, Args&&... args) {
        reset(v);
        resize(v + 1);
        uint32_t i = take_slot();
        T* item = new (at(i)) T(std::forward<Args>(args)...);  // if this throws, the slot is lost (harmless)
        index_[v] = i;
        return *item;
    }
    void reset(size_t v) {
        if (v >= index_.size() || index_[v] == kNone) return;
        at(index_[v])->~T();
        free_.push_back(index_[v]);
        index_[v] = kNone;
    }

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr uint32_t kChunkBits = 8;  // 256 records a chunk
    static constexpr uint32_t kChunk = 1u << kChunkBits;
    static constexpr size_t kChunkBytes = kChunk * sizeof(T);
    // Chunks a huge-page block holds, and chunks that are heap blocks (at
    // least 2 MiB of them, at least 4).
    static constexpr size_t kBlockChunks = std::max<size_t>(1, PageBlock::kHugePage / kChunkBytes);
    static constexpr size_t kHeapChunks = std::max<size_t>(4, kBlockChunks);
    struct Chunk {
        alignas(T) unsigned char bytes[kChunkBytes];
    };

    T* at(uint32_t i) const {
        return std::launder(reinterpret_cast<T*>(chunks_[i >> kChunkBits] + (i & (kChunk - 1)) * sizeof(T)));
    }
    unsigned char* new_chunk() {
        if (heap_.size() < kHeapChunks) {
            heap_.push_back(std::unique_ptr<Chunk>(new Chunk));  // not zeroed
            return heap_.back()->bytes;
        }
        // Chunk offsets in a block are multiples of kChunkBytes, itself a
        // multiple of alignof(T): every record stays aligned.
        if (block_used_ == kBlockChunks) {
            blocks_.emplace_back(kBlockChunks * kChunkBytes);
            block_used_ = 0;
        }
        return blocks_.back().data() + kChunkBytes * block_used_++;
    }
    uint32_t take_slot() {
        if (!free_.empty()) {
            uint32_t i = free_.back();
            free_.pop_back();
            return i;
        }
        if ((used_ & (kChunk - 1)) == 0) chunks_.push_back(new_chunk());
        return used_++;
    }
    void swap(VertexSlots& o) noexcept {
        index_.swap(o.index_);
        chunks_.swap(o.chunks_);
        heap_.swap(o.heap_);
        blocks_.swap(o.blocks_);
        std::swap(block_used_, o.block_used_);
        free_.swap(o.free_);
        std::swap(used_, o.used_);
    }

    std::vector<uint32_t> index_;         // per vertex: a slot, or kNone
    std::vector<unsigned char*> chunks_;  // the bytes of chunk i (in heap_ or blocks_)
    std::vector<std::unique_ptr<Chunk>> heap_;  // the first kHeapChunks chunks
    std::vector<PageBlock> blocks_;       // the others, many a block
    size_t block_used_ = kBlockChunks;    // chunks cut from the last block (none yet: full)
    std::vector<uint32_t> free_;          // slots of dropped records, for reuse
    uint32_t used_ = 0;                   // slots ever handed out
};

}  // namespace rq
