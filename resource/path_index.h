// PathIndex: path text -> the vertices registered at that path, in
// registration order (the reference's `by_path` multimap).
//
// An open-addressing hash table (linear probing, at most 70% full) of
// 32-bit slots pointing at 12-byte keys. A key holds no text and no hash:
// it holds a reference (`ref`, a path entry of the graph) and the caller's
// `texts` object compares (`texts.equals(ref, text)`) and rebuilds
// (`texts.text(ref, out)`) it, so the paths of a million vertices are
// stored once, in the graph's compact parent + leaf form. The first vertex
// of a key lives in the key; further ones (rare) go to a circular list of
// nodes, which keeps appending O(1). About 12 bytes of key plus 6 to 12
// bytes of slots per path.
//
// A loader that registers many paths and looks none up (GRUG) uses
// add_deferred(): keys are appended with their hash and placed in one pass
// in slot order (sequential memory instead of a cache miss per path) on
// place_deferred(), which every other operation calls first.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rq {

class PathIndex {
public:
    using Vertex = uint32_t;

    static uint32_t hash_of(std::string_view path);

    // Sizes the table for `keys` keys without further growth.
    template <class Texts>
    void reserve(size_t keys, const Texts& texts) {
        place_deferred(texts);
        keys_.reserve(keys);
        if (!too_full(keys + 1, slots_.size())) return;
        size_t cap = 64;
        while (too_full(keys + 1, cap)) cap *= 2;
        rebuild(cap, texts);
    }

    // Appends `v` to the list at `path` (creating the key, which refers to
    // `ref`, if needed).
    template <class Texts>
    void add(std::string_view path, uint32_t ref, Vertex v, const Texts& texts) {
        place_deferred(texts);
        if (too_full(used_slots_ + 1, slots_.size())) grow(live_keys_ + 1, texts);
        size_t i = probe(path, hash_of(path), texts);
        uint32_t s = slots_[i];
        if (s != kNone && s != kTomb) {
            append_vertex(keys_[s], v);
            return;
        }
        if (s == kNone) ++used_slots_;
        slots_[i] = static_cast<uint32_t>(keys_.size());
        keys_.push_back({ref, v, kNone});
        ++live_keys_;
    }

    // add(), placed later (see above).
    void add_deferred(std::string_view path, uint32_t ref, Vertex v) {
        deferred_hashes_.push_back(hash_of(path));
        keys_.push_back({ref, v, kNone});
    }
    template <class Texts>
    void place_deferred(const Texts& texts) const {
        if (!deferred_hashes_.empty()) const_cast<PathIndex*>(this)->place(texts);
    }

    // Removes the key and its whole vertex list; false if absent.
    template <class Texts>
    bool erase(std::string_view path, const Texts& texts) {
        place_deferred(texts);
        if (slots_.empty()) return false;
        size_t i = probe(path, hash_of(path), texts);
        uint32_t s = slots_[i];
        if (s == kNone || s == kTomb) return false;
        slots_[i] = kTomb;
        keys_[s].first = keys_[s].more = kNone;
        --live_keys_;
        return true;
    }

    // Calls fn(v) for each vertex at `path`, in registration order.
    template <class Texts, class Fn>
    void for_each(std::string_view path, const Texts& texts, Fn&& fn) const {
        uint32_t k = find_key(path, texts);
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

    // Calls fn(ref, vertices) for each live key, in slot order (the
    // state file's rows read the whole index this way).
    template <class Texts, class Fn>
    void for_each_key(const Texts& texts, Fn&& fn) const {
        place_deferred(texts);
        std::vector<Vertex> list;
        for (uint32_t s : slots_) {
            if (s == kNone || s == kTomb || keys_[s].first == kNone) continue;
            const Key& key = keys_[s];
            list.assign(1, key.first);
            if (key.more != kNone) {
                uint32_t n = key.more;
                do {
                    n = nodes_[n].next;
                    list.push_back(nodes_[n].vertex);
                } while (n != key.more);
            }
            fn(key.ref, list);
        }
    }

    template <class Texts>
    bool contains(std::string_view path, const Texts& texts) const {
        return find_key(path, texts) != kNone;
    }
    template <class Texts>
    size_t key_count(const Texts& texts) const {
        place_deferred(texts);
        return live_keys_;
    }
    size_t bytes() const;

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr uint32_t kTomb = UINT32_MAX - 1;
    struct Key {
        uint32_t ref;    // the caller's reference to the text
        Vertex first;    // first vertex registered, kNone once erased
        uint32_t more;   // last node of the circular list of the others, or kNone
    };
    struct Node {
        Vertex vertex;
        uint32_t next;
    };

    static bool too_full(size_t used, size_t slots) { return used * 10 > slots * 7; }
    // The home slot of a hash: its top bits, so that sorting by hash sorts
    // by home slot.
    static size_t home(uint32_t hash, size_t slots) { return static_cast<size_t>((uint64_t(hash) * slots) >> 32); }

    // Slot holding `path` or the empty slot where it would go.
    template <class Texts>
    size_t probe(std::string_view path, uint32_t hash, const Texts& texts) const {
        size_t mask = slots_.size() - 1;
        size_t tomb = SIZE_MAX;
        for (size_t i = home(hash, slots_.size());; i = (i + 1) & mask) {
            uint32_t s = slots_[i];
            if (s == kNone) return tomb != SIZE_MAX ? tomb : i;
            if (s == kTomb) {
                if (tomb == SIZE_MAX) tomb = i;
                continue;
            }
            if (texts.equals(keys_[s].ref, path)) return i;
        }
    }
    template <class Texts>
    uint32_t find_key(std::string_view path, const Texts& texts) const {
        place_deferred(texts);
        if (slots_.empty()) return kNone;
        size_t mask = slots_.size() - 1;
        for (size_t i = home(hash_of(path), slots_.size());; i = (i + 1) & mask) {
            uint32_t s = slots_[i];
            if (s == kNone) return kNone;
            if (s != kTomb && texts.equals(keys_[s].ref, path)) return s;
        }
    }
    void append_vertex(Key& key, Vertex v);
    // Rebuilds the table at least twice as big as `keys` live keys.
    template <class Texts>
    void grow(size_t keys, const Texts& texts) {
        size_t cap = slots_.empty() ? 64 : slots_.size();
        while (keys * 2 > cap) cap *= 2;
        rebuild(cap, texts);
    }
    // Re-inserts the live keys into `slots` slots (texts rebuilt to hash).
    template <class Texts>
    void rebuild(size_t slots, const Texts& texts) {
        std::vector<uint32_t> old;
        old.swap(slots_);
        slots_.assign(slots, kNone);
        used_slots_ = 0;
        size_t mask = slots - 1;
        std::string text;
        for (uint32_t s : old) {
            if (s == kNone || s == kTomb) continue;
            text.clear();
            texts.text(keys_[s].ref, text);
            size_t i = home(hash_of(text), slots);
            while (slots_[i] != kNone) i = (i + 1) & mask;
            slots_[i] = s;
            ++used_slots_;
        }
    }
    // Places the deferred keys.
    template <class Texts>
    void place(const Texts& texts) {
        std::vector<uint32_t> hashes;
        hashes.swap(deferred_hashes_);
        size_t first = keys_.size() - hashes.size();
        if (live_keys_ > 0 || used_slots_ > 0) {
            // Not a fresh table: insert one by one (merges with old keys).
            std::vector<Key> fresh(keys_.begin() + static_cast<std::ptrdiff_t>(first), keys_.end());
            keys_.resize(first);
            std::string text;
            for (const Key& k : fresh) {
                text.clear();
                texts.text(k.ref, text);
                add(text, k.ref, k.first, texts);
            }
            return;
        }
        size_t cap = slots_.empty() ? 64 : slots_.size();
        while (too_full(keys_.size() + 1, cap)) cap *= 2;
        slots_.assign(cap, kNone);
        std::vector<uint64_t> order = order_by_hash(hashes, first);
        std::vector<uint32_t>().swap(hashes);
        place_in_order(order, texts);
    }
    // (hash << 32 | key index) of each deferred key, sorted.
    static std::vector<uint64_t> order_by_hash(const std::vector<uint32_t>& hashes, size_t first);
    template <class Texts>
    void place_in_order(const std::vector<uint64_t>& order, const Texts& texts) {
        size_t mask = slots_.size() - 1;
        size_t group = 0;  // start in `order` of the run with the same hash
        size_t at = 0;     // next free slot candidate (positions only increase, then wrap)
        std::string a;
        for (size_t i = 0; i < order.size(); ++i) {
            auto hash = static_cast<uint32_t>(order[i] >> 32);
            auto k = static_cast<uint32_t>(order[i]);
            if (i == 0 || hash != (order[i - 1] >> 32)) group = i;
            // Same text => same hash: look for a duplicate among the earlier
            // keys with this hash (rarely any).
            bool merged = false;
            if (group < i) {
                a.clear();
                texts.text(keys_[k].ref, a);
                for (size_t j = group; j < i && !merged; ++j) {
                    auto other = static_cast<uint32_t>(order[j]);
                    if (keys_[other].first == kNone && keys_[other].more == kNone) continue;  // merged away
                    if (texts.equals(keys_[other].ref, a)) {
                        append_vertex(keys_[other], keys_[k].first);
                        keys_[k].first = keys_[k].more = kNone;
                        merged = true;
                    }
                }
            }
            if (merged) continue;
            size_t h = home(hash, slots_.size());
            if (at < h) at = h;
            while (slots_[at & mask] != kNone) ++at;
            slots_[at & mask] = k;
            ++at;
            ++used_slots_;
            ++live_keys_;
        }
    }

    std::vector<uint32_t> slots_;  // kNone (empty), kTomb, or index into keys_
    std::vector<Key> keys_;
    std::vector<Node> nodes_;
    std::vector<uint32_t> deferred_hashes_;  // of keys_'s last entries, not yet placed
    size_t used_slots_ = 0;  // live + tombstones
    size_t live_keys_ = 0;
};

}  // namespace rq
