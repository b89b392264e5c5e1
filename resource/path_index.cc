#include "resource/path_index.h"

#include <algorithm>

namespace rq {

uint32_t PathIndex::hash_of(std::string_view path) {
    // FNV-1a: paths are short, and this is much cheaper than std::hash's
    // generic byte hash for the table's needs.
    uint32_t h = 2166136261u;
    for (unsigned char c : path) h = (h ^ c) * 16777619u;
    // Final avalanche (murmur3 fmix32): paths differ in their last bytes
    // and the table uses the low bits.
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

void PathIndex::append_vertex(Key& key, Vertex v) {
    if (key.first == kNone) {
        key.first = v;
        return;
    }
    auto node = static_cast<uint32_t>(nodes_.size());
    if (key.more == kNone) {
        nodes_.push_back({v, node});  // a list of one: points at itself
    } else {
        nodes_.push_back({v, nodes_[key.more].next});  // new last, before the first
        nodes_[key.more].next = node;
    }
    key.more = node;
}

std::vector<uint64_t> PathIndex::order_by_hash(const std::vector<uint32_t>& hashes, size_t first) {
    // A counting sort on the top 12 bits, then a sort of each (cache-sized)
    // bucket: linear, and no random access over a large array.
    constexpr int kTop = 12;
    std::vector<uint32_t> start((size_t(1) << kTop) + 1, 0);
    for (uint32_t h : hashes) ++start[(h >> (32 - kTop)) + 1];
    for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    std::vector<uint64_t> order(hashes.size());
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < hashes.size(); ++i)
        order[fill[hashes[i] >> (32 - kTop)]++] = uint64_t(hashes[i]) << 32 | static_cast<uint64_t>(first + i);
    for (size_t b = 0; b + 1 < start.size(); ++b)
        std::sort(order.begin() + start[b], order.begin() + start[b + 1]);
    return order;
}

size_t PathIndex::bytes() const {
    return slots_.capacity() * sizeof(uint32_t) + keys_.capacity() * sizeof(Key) +
           nodes_.capacity() * sizeof(Node) + deferred_hashes_.capacity() * sizeof(uint32_t);
}

}  // namespace rq
