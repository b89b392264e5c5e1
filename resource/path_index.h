// PathIndex: path text -> the vertices registered at that path, in
// registration order (the reference's `by_path` multimap).
//
// An open-addressing hash table of 32-bit slots pointing at keys, and a
// singly linked list of vertex nodes per key: about 8 bytes of table plus
// 8 bytes of node per registered path, instead of the ~100 bytes a
// std::unordered_map<std::string, std::vector<...>> costs. Keys are views
// into storage owned by the caller (the graph's text arena).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace rq {

class PathIndex {
public:
    using Vertex = uint32_t;

    // Appends `v` to the list at `path` (creating the key if needed).
    void add(std::string_view path, Vertex v);
    // Removes the key and its whole vertex list; false if absent.
    bool erase(std::string_view path);
    // Calls fn(v) for each vertex at `path`, in registration order.
    template <class Fn>
    void for_each(std::string_view path, Fn&& fn) const {
        uint32_t k = find_key(path);
        if (k == kNone) return;
        for (uint32_t n = keys_[k].head; n != kNone; n = nodes_[n].next) fn(nodes_[n].vertex);
    }
    std::vector<Vertex> lookup(std::string_view path) const;
    bool contains(std::string_view path) const { return find_key(path) != kNone; }
    size_t key_count() const { return live_keys_; }
    size_t bytes() const;

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr uint32_t kTomb = UINT32_MAX - 1;
    struct Key {
        const char* text;
        uint32_t length;
        uint32_t hash;  // kept to grow the table without rehashing text
        uint32_t head;
        uint32_t tail;
        std::string_view view() const { return {text, length}; }
    };
    struct Node {
        Vertex vertex;
        uint32_t next;
    };

    static uint32_t hash_of(std::string_view path);
    // Slot holding `path` or the empty slot where it would go.
    size_t probe(std::string_view path, uint32_t hash) const;
    uint32_t find_key(std::string_view path) const;
    void grow();

    std::vector<uint32_t> slots_;  // kNone (empty), kTomb, or index into keys_
    std::vector<Key> keys_;
    std::vector<Node> nodes_;
    size_t used_slots_ = 0;  // live + tombstones
    size_t live_keys_ = 0;
};

}  // namespace rq
