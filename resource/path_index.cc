#include "resource/path_index.h"

#include <functional>

namespace rq {

namespace {
size_t hash_of(std::string_view s) { return std::hash<std::string_view>{}(s); }
}  // namespace

uint32_t PathIndex::find_key(std::string_view path) const {
    if (slots_.empty()) return kNone;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash_of(path) & mask;; i = (i + 1) & mask) {
        uint32_t s = slots_[i];
        if (s == kNone) return kNone;
        if (s != kTomb && keys_[s].text == path) return s;
    }
}

void PathIndex::grow() {
    size_t cap = slots_.empty() ? 64 : slots_.size() * 2;
    while (live_keys_ * 2 >= cap) cap *= 2;
    std::vector<uint32_t> old;
    old.swap(slots_);
    slots_.assign(cap, kNone);
    used_slots_ = 0;
    size_t mask = cap - 1;
    for (uint32_t s : old) {
        if (s == kNone || s == kTomb) continue;
        size_t i = hash_of(keys_[s].text) & mask;
        while (slots_[i] != kNone) i = (i + 1) & mask;
        slots_[i] = s;
        ++used_slots_;
    }
}

void PathIndex::add(std::string_view path, Vertex v) {
    auto node = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back({v, kNone});
    uint32_t k = find_key(path);
    if (k != kNone) {
        if (keys_[k].tail == kNone)
            keys_[k].head = node;
        else
            nodes_[keys_[k].tail].next = node;
        keys_[k].tail = node;
        return;
    }
    if ((used_slots_ + 1) * 2 > slots_.size()) grow();
    k = static_cast<uint32_t>(keys_.size());
    keys_.push_back({path, node, node});
    size_t mask = slots_.size() - 1;
    size_t i = hash_of(path) & mask;
    while (slots_[i] != kNone && slots_[i] != kTomb) i = (i + 1) & mask;
    if (slots_[i] == kNone) ++used_slots_;
    slots_[i] = k;
    ++live_keys_;
}

bool PathIndex::erase(std::string_view path) {
    if (slots_.empty()) return false;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash_of(path) & mask;; i = (i + 1) & mask) {
        uint32_t s = slots_[i];
        if (s == kNone) return false;
        if (s != kTomb && keys_[s].text == path) {
            slots_[i] = kTomb;
            keys_[s].head = keys_[s].tail = kNone;
            --live_keys_;
            return true;
        }
    }
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
