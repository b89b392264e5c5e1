// PathIndex: path text -> the vertices registered at that path, in
// registration order (the reference's `by_path` multimap).
//
// An open-addressing hash table of 32-bit slots pointing at 16-byte keys.
// A key does not hold its text: it holds a reference (`ref`, a path entry
// of the graph) and the caller supplies `eq(ref, text)` to compare, so the
// paths of a million vertices are stored once, in the graph's compact
// parent + leaf form. The first vertex of a key lives in the key itself;
// further ones (rare: several vertices at one path) go to a circular list
// of nodes, which keeps appending O(1). About 16 bytes of key plus 6 to 12
// bytes of slots (at most 70% full) per registered path.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace rq {

class PathIndex {
public:
    using Vertex = uint32_t;

    static uint32_t hash_of(std::string_view path);

    // Sizes the table for `keys` keys without further growth.
    void reserve(size_t keys);

    // Appends `v` to the list at `path` (creating the key, which refers to
    // `ref`, if needed). `eq(ref, text)` tells whether a key's text is `text`.
    template <class Eq>
    void add(std::string_view path, uint32_t ref, Vertex v, Eq&& eq) {
        if (too_full(used_slots_ + 1, slots_.size())) grow(live_keys_ + 1);
        uint32_t hash = hash_of(path);
        size_t i = probe(path, hash, eq);
        uint32_t s = slots_[i];
        if (s != kNone && s != kTomb) {
            append_vertex(keys_[s], v);
            return;
        }
        if (s == kNone) ++used_slots_;
        slots_[i] = static_cast<uint32_t>(keys_.size());
        keys_.push_back({ref, hash, v, kNone});
        ++live_keys_;
    }

    // Removes the key and its whole vertex list; false if absent.
    template <class Eq>
    bool erase(std::string_view path, Eq&& eq) {
        if (slots_.empty()) return false;
        size_t i = probe(path, hash_of(path), eq);
        uint32_t s = slots_[i];
        if (s == kNone || s == kTomb) return false;
        slots_[i] = kTomb;
        keys_[s].first = keys_[s].more = kNone;
        --live_keys_;
        return true;
    }

    // Calls fn(v) for each vertex at `path`, in registration order.
    template <class Eq, class Fn>
    void for_each(std::string_view path, Eq&& eq, Fn&& fn) const {
        uint32_t k = find_key(path, eq);
        if (k == kNone) return;
        const Key& key = keys_[k];
        if (key.first == kNone) return;
        fn(key.first);
        if (key.more == kNone) return;
        uint32_t n = key.more;
        do {
            n = nodes_[n].next;
            fn(nodes_[n].vertex);
        } while (n != key.more);
    }

    template <class Eq>
    bool contains(std::string_view path, Eq&& eq) const {
        return find_key(path, eq) != kNone;
    }
    size_t key_count() const { return live_keys_; }
    size_t bytes() const;

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr uint32_t kTomb = UINT32_MAX - 1;
    struct Key {
        uint32_t ref;    // the caller's reference to the text
        uint32_t hash;   // kept to grow the table without the text
        Vertex first;    // first vertex registered, kNone once erased
        uint32_t more;   // last node of the circular list of the others, or kNone
    };
    struct Node {
        Vertex vertex;
        uint32_t next;
    };

    // Slot holding `path` or the empty slot where it would go.
    template <class Eq>
    size_t probe(std::string_view path, uint32_t hash, Eq& eq) const {
        size_t mask = slots_.size() - 1;
        size_t tomb = SIZE_MAX;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            uint32_t s = slots_[i];
            if (s == kNone) return tomb != SIZE_MAX ? tomb : i;
            if (s == kTomb) {
                if (tomb == SIZE_MAX) tomb = i;
                continue;
            }
            if (keys_[s].hash == hash && eq(keys_[s].ref, path)) return i;
        }
    }
    template <class Eq>
    uint32_t find_key(std::string_view path, Eq& eq) const {
        if (slots_.empty()) return kNone;
        size_t mask = slots_.size() - 1;
        uint32_t hash = hash_of(path);
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            uint32_t s = slots_[i];
            if (s == kNone) return kNone;
            if (s != kTomb && keys_[s].hash == hash && eq(keys_[s].ref, path)) return s;
        }
    }
    // Linear probing up to 70% full: about 2 probes per hit, 6 per miss.
    static bool too_full(size_t used, size_t slots) { return used * 10 > slots * 7; }
    void append_vertex(Key& key, Vertex v);
    // Rebuilds the table for at least `keys` live keys.
    void grow(size_t keys);
    void rebuild(size_t slots);

    std::vector<uint32_t> slots_;  // kNone (empty), kTomb, or index into keys_
    std::vector<Key> keys_;
    std::vector<Node> nodes_;
    size_t used_slots_ = 0;  // live + tombstones
    size_t live_keys_ = 0;
};

}  // namespace rq
