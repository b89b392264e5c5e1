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

size_t PathIndex::probe(std::string_view path, uint32_t hash) const {
    size_t mask = slots_.size() - 1;
    size_t tomb = SIZE_MAX;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t s = slots_[i];
        if (s == kNone) return tomb != SIZE_MAX ? tomb : i;
        if (s == kTomb) {
            if (tomb == SIZE_MAX) tomb = i;
            continue;
        }
        if (keys_[s].hash == hash && keys_[s].view() == path) return i;
    }
}

uint32_t PathIndex::find_key(std::string_view path) const {
    if (slots_.empty()) return kNone;
    size_t mask = slots_.size() - 1;
    uint32_t hash = hash_of(path);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t s = slots_[i];
        if (s == kNone) return kNone;
        if (s != kTomb && keys_[s].hash == hash && keys_[s].view() == path) return s;
    }
}

void PathIndex::grow() {
    size_t cap = slots_.empty() ? 64 : slots_.size();
    while (live_keys_ * 2 + 2 > cap) cap *= 2;
    if (cap == slots_.size()) cap *= 2;
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

void PathIndex::add(std::string_view path, Vertex v) {
    if ((used_slots_ + 1) * 2 > slots_.size()) grow();
    uint32_t hash = hash_of(path);
    size_t i = probe(path, hash);
    auto node = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back({v, kNone});
    uint32_t s = slots_[i];
    if (s != kNone && s != kTomb) {
        Key& k = keys_[s];
        if (k.tail == kNone)
            k.head = node;
        else
            nodes_[k.tail].next = node;
        k.tail = node;
        return;
    }
    if (s == kNone) ++used_slots_;
    slots_[i] = static_cast<uint32_t>(keys_.size());
    keys_.push_back({path.data(), static_cast<uint32_t>(path.size()), hash, node, node});
    ++live_keys_;
}

bool PathIndex::erase(std::string_view path) {
    if (slots_.empty()) return false;
    size_t i = probe(path, hash_of(path));
    uint32_t s = slots_[i];
    if (s == kNone || s == kTomb) return false;
    slots_[i] = kTomb;
    keys_[s].head = keys_[s].tail = kNone;
    --live_keys_;
    return true;
}

std::vector<PathIndex::Vertex> PathIndex::lookup(std::string_view path) const {
    std::vector<Vertex> out;
    for_each(path, [&](Vertex v) { out.push_back(v); });
    return out;
}

size_t PathIndex::bytes() const {
    return slots_.capacity() * sizeof(uint32_t) + keys_.capacity() * sizeof(Key) +
           nodes_.capacity() * sizeof(Node);
}

}  // namespace rq
