#include "resource/path_index.h"

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

void PathIndex::reserve(size_t keys) {
    keys_.reserve(keys);
    if (!too_full(keys + 1, slots_.size())) return;
    size_t cap = 64;
    while (too_full(keys + 1, cap)) cap *= 2;
    rebuild(cap);
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

void PathIndex::grow(size_t keys) {
    // At most half full of live keys afterwards, so that at least a fifth
    // of the table fills (or tombstones) before the next rebuild.
    size_t cap = slots_.empty() ? 64 : slots_.size();
    while (keys * 2 > cap) cap *= 2;
    rebuild(cap);
}

void PathIndex::rebuild(size_t cap) {
    std::vector<uint32_t> old;
    old.swap(slots_);
    slots_.assign(cap, kNone);
    used_slots_ = 0;
    size_t mask = cap - 1;
    for (uint32_t s : old) {
        if (s == kNone || s == kTomb) continue;
        size_t i = keys_[s].hash & mask;
        while (slots_[i] != kNone) i = (i + 1) & mask;
        slots_[i] = s;
        ++used_slots_;
    }
}

size_t PathIndex::bytes() const {
    return slots_.capacity() * sizeof(uint32_t) + keys_.capacity() * sizeof(Key) +
           nodes_.capacity() * sizeof(Node);
}

}  // namespace rq
