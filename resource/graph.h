// ResourceGraph: the multi-subsystem resource graph.
//
// Storage is LEMON style: a few dense arrays indexed by VertexId / EdgeId.
// Topology is two linked lists of edges per vertex (out-edges in creation
// order, which is the child visiting order of every traversal, and
// in-edges), threaded through per-edge "next" arrays: 8 bytes per vertex
// and 16 per edge, no allocation per vertex. The graph models the Boost
// Graph Library concepts (resource/graph_boost.h), so BGL algorithms and
// writers run on it directly. Attributes live apart from the topology: the
// ones a match reads constantly (type, id, size, status) are plain arrays;
// names and units are ids into a string pool; paths and properties, rarely
// read during a match, live in side tables.
//
// Vertices are never deleted: `remove` detaches them (edges and index
// entries go away) and leaves unreachable objects, as the reference does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "resource/compact_column.h"
#include "resource/interner.h"
#include "resource/paged_column.h"
#include "resource/path_index.h"
#include "utilities/string_pool.h"

namespace rq {

using VertexId = uint32_t;
using EdgeId = uint32_t;
inline constexpr VertexId kNoVertex = UINT32_MAX;
inline constexpr EdgeId kNoEdge = UINT32_MAX;

using PropertyMap = std::map<std::string, std::string>;

// What a reader supplies to create a vertex.
struct VertexSpec {
    TypeId type = 0;
    std::string_view basename;
    std::string_view name;
    int64_t id = -1;
    int64_t uniq_id = -1;  // -1: use the creation index
    int64_t rank = -1;
    int64_t size = 1;
    std::string_view unit;
    bool up = true;
};

// Per-edge scheduling scratch data written by the selection phase and read
// by the update walk (spec/README.md glossary: needs, exclusive, seq,
// weight).
// 16 bytes per edge: `seq` and `exclusive` share a word. The ordered-child
// weight lives apart (ResourceGraph::weight), set only on edges a job used.
struct EdgeMarks {
    EdgeMarks() : seq(0), exclusive(0) {}
    int64_t needs = 0;
    uint64_t seq : 63;
    uint64_t exclusive : 1;
};

// One entry of a vertex's ordered child index (the "first" policies' child
// order): descending weight, ties by descending target uniq_id.
struct OrderedChild {
    uint64_t weight;
    int64_t uniq_id;
    EdgeId edge;
    bool operator<(const OrderedChild& o) const {
        if (weight != o.weight) return weight > o.weight;
        if (uniq_id != o.uniq_id) return uniq_id > o.uniq_id;
        return edge < o.edge;
    }
};
// A balanced tree: re-weighting one child is O(log degree), which keeps a
// match on a flat machine (thousands of nodes under one vertex) from
// growing with its size.
using ChildOrder = std::set<OrderedChild>;

// What changed in a graph while a change log is attached (the state
// file's graph rows, state/graph_rows.h): vertices added, detached or
// given a path, edges added or removed, by-path keys added or erased.
struct GraphChangeLog {
    std::vector<VertexId> vertices;
    std::vector<EdgeId> edges;
    std::vector<std::string> keys;
    bool empty() const { return vertices.empty() && edges.empty() && keys.empty(); }
};

class ResourceGraph {
    // The by-path index's view of key texts (path entries).
    struct PathTexts {
        const ResourceGraph* g;
        bool equals(uint32_t p, std::string_view text) const { return g->path_equals(p, text); }
        void text(uint32_t p, std::string& out) const { g->append_path(p, out); }
    };

public:
    ResourceGraph();

    Interner& types() { return types_; }
    const Interner& types() const { return types_; }
    Interner& subsystems() { return subsystems_; }
    const Interner& subsystems() const { return subsystems_; }

    // ---- construction -------------------------------------------------
    // Capacity hint for loaders that know the final size.
    void reserve(size_t vertices, size_t edges);
    // Capacity hints for the by-type list of `t` and the by-rank list of `rank`.
    void reserve_type(TypeId t, size_t n);
    void reserve_rank(int64_t rank, size_t n);
    VertexId add_vertex(const VertexSpec& spec);
    // Appends a new edge src->dst in subsystem `s`.
    EdgeId add_edge(VertexId src, VertexId dst, SubsystemId s);
    // GRUG semantics (spec/grug.md §4): reuse the first existing src->dst
    // edge (its subsystem is overwritten), else append a new one.
    EdgeId add_or_reuse_edge(VertexId src, VertexId dst, SubsystemId s);
    void remove_edge(EdgeId e);

    // ---- vertex attributes ---------------------------------------------
    size_t num_vertices() const { return type_.size(); }
    size_t num_edges() const { return live_edges_; }
    size_t edge_capacity() const { return edge_src_.size(); }

    TypeId type(VertexId v) const { return type_[v]; }
    const std::string& type_name(VertexId v) const { return types_.name(type_[v]); }
    std::string_view basename(VertexId v) const { return strings_.get(kinds_[kind_[v]].basename); }
    std::string_view name(VertexId v) const { return strings_.get(name_[v]); }
    NameId name_id(VertexId v) const { return name_[v]; }
    std::string_view unit(VertexId v) const { return strings_.get(kinds_[kind_[v]].unit); }
    int64_t id(VertexId v) const { return id_[v]; }
    int64_t uniq_id(VertexId v) const { return uniq_id_.empty() ? static_cast<int64_t>(v) : uniq_id_[v]; }
    int64_t rank(VertexId v) const { return rank_[v]; }
    int64_t size(VertexId v) const { return size_[v]; }
    bool is_up(VertexId v) const { return !(flags_[v] & kDown); }
    void set_up(VertexId v, bool up);
    bool is_removed(VertexId v) const { return flags_[v] & kRemoved; }

    const PropertyMap* properties(VertexId v) const;
    void set_property(VertexId v, const std::string& key, const std::string& value);

    // Per-subsystem paths. `path` is empty when the vertex has none in `s`.
    // Paths are stored as parent entry + last component (a path costs 16
    // bytes, not its text), so `path` builds the text and returns it by value.
    std::string path(VertexId v, SubsystemId s) const;
    bool has_path(VertexId v, SubsystemId s) const;
    // Sets (or replaces) the path of `v` in `s`, without touching the
    // by-path index. Text of the form P + "/" + L where P is an indexed
    // path is stored in the compact form.
    void set_path(VertexId v, SubsystemId s, std::string_view path);
    // Sets the path of `v` in `s` to the path of `parent` in `parent_s` (the
    // empty text if it has none, or if `parent` is kNoVertex) + "/" + the
    // name of `v`: what tree loaders do, without building or searching text.
    void set_path_below(VertexId v, SubsystemId s, VertexId parent, SubsystemId parent_s);
    // Registers `v` under `path` in the by-path index (append). Placing
    // the key in the table waits for the next index operation or
    // finish_load(), so that a loader's keys are placed in one pass.
    void index_path(VertexId v, std::string_view path);
    // Completes deferred index work (loaders call it when done).
    void finish_load() { by_path_.place_deferred(path_texts()); }
    // Calls fn(subsystem, path) in subsystem interning order; `path` is
    // valid during the call only.
    template <class Fn>
    void for_each_path(VertexId v, Fn&& fn) const {
        std::string text;
        for (uint32_t p = first_path_[v]; p != kNoPath; p = paths_[p].next) {
            text.clear();
            append_path(p, text);
            fn(paths_[p].subsystem, std::string_view(text));
        }
    }

    // ---- topology --------------------------------------------------------
    // Edge ids of `v`'s out-edges (creation order) / in-edges.
    //   for (EdgeId e : g.out(v)) ...
    size_t out_degree(VertexId v) const;
    bool is_leaf(VertexId v) const { return out_head_[v] == kNoEdge; }
    VertexId source(EdgeId e) const { return edge_src_[e]; }
    VertexId target(EdgeId e) const { return edge_dst_[e]; }
    SubsystemId subsystem(EdgeId e) const { return edge_sub_[e]; }
    // Position of `e` in its source's out-edge order (increasing along the
    // list; gaps after removals): sorting edges of one source by it gives
    // their out-edge order.
    uint32_t out_position(EdgeId e) const { return out_pos_[e]; }
    bool edge_alive(EdgeId e) const { return edge_sub_[e] != kNoId; }

    EdgeMarks& marks(EdgeId e) { return marks_[e]; }
    const EdgeMarks& marks(EdgeId e) const { return marks_[e]; }
    // The virtual edge "into the root" of each subsystem.
    EdgeMarks& root_marks(SubsystemId s);

    // The ordered child index of `v` (built on first use, kept current).
    const ChildOrder& ordered_children(VertexId v);
    void set_weight(EdgeId e, uint64_t weight);
    // The ordered-child weight of `e` (UINT64_MAX until set).
    uint64_t weight(EdgeId e) const { return weight_.get(e); }
    // A clock that ticks whenever some vertex's child order may change (a
    // weight set to a new value, an out-edge added or removed), and the
    // tick at which `v`'s last did (0: never). A caller that remembers the
    // clock when it read an order knows whether that order is still the
    // same (the queue keeps reservations by it, docs/queue.md "Kept
    // reservations").
    uint64_t order_clock() const { return order_clock_; }
    uint64_t order_stamp(VertexId v) const { return v < order_stamp_.size() ? order_stamp_[v] : 0; }

    // First in-edge of `v` in subsystem `s`, or kNoEdge.
    EdgeId parent_edge(VertexId v, SubsystemId s) const {  // inline: the selection marks a path up per chosen core
        for (EdgeId e : in(v))
            if (edge_sub_[e] == s) return e;
        return kNoEdge;
    }

    // ---- roots and indexes ------------------------------------------------
    VertexId root(SubsystemId s) const;
    void set_root(SubsystemId s, VertexId v);
    bool has_root(SubsystemId s) const { return root(s) != kNoVertex; }

    // The by-path index, read through the graph's path storage.
    class PathLookup {
    public:
        explicit PathLookup(const ResourceGraph& g) : g_(g) {}
        template <class Fn>
        void for_each(std::string_view path, Fn&& fn) const {
            g_.by_path_.for_each(path, g_.path_texts(), fn);
        }
        std::vector<VertexId> lookup(std::string_view path) const {
            std::vector<VertexId> out;
            for_each(path, [&](VertexId v) { out.push_back(v); });
            return out;
        }
        bool contains(std::string_view path) const { return g_.by_path_.contains(path, g_.path_texts()); }
        size_t key_count() const { return g_.by_path_.key_count(g_.path_texts()); }
        size_t bytes() const { return g_.by_path_.bytes(); }

    private:
        const ResourceGraph& g_;
    };
    PathLookup by_path() const { return PathLookup(*this); }
    std::vector<VertexId> at_path(std::string_view path) const { return by_path().lookup(path); }
    const std::vector<VertexId>& by_type(TypeId t) const;
    const std::map<int64_t, std::vector<VertexId>>& by_rank() const { return by_rank_; }
    size_t distinct_names() const { return distinct_names_; }

    // Detaches `v`: deletes its edges and index entries (spec §17 remove).
    void detach_vertex(VertexId v);
    // Detaches every vertex of `doomed` at once, in time linear in them,
    // their edges and the index lists they are in.
    void detach_vertices(const std::vector<VertexId>& doomed);

    // Number of up nodes minus down nodes (spec/grug.md §5), maintained by
    // set-status.
    int64_t nodes_up = 0;
    void recount_nodes_up();

    // ---- the state file's graph rows (resource/graph_rows_access.cc) ----
    uint32_t kind(VertexId v) const { return kind_[v]; }
    size_t kind_count() const { return kinds_.size(); }
    std::string_view kind_basename(uint32_t k) const { return strings_.get(kinds_[k].basename); }
    std::string_view kind_unit(uint32_t k) const { return strings_.get(kinds_[k].unit); }
    bool has_explicit_uniq_ids() const { return !uniq_id_.empty(); }
    // Whether v's only path is the one set_path_below(v, s, parent, s)
    // makes (parent's path in s, or "" for kNoVertex, + "/" + v's name).
    bool path_is_below(VertexId v, SubsystemId s, VertexId parent) const;
    // Calls fn(vertices, own, text) for each key of the by-path index:
    // `own` is the subsystem of the first path of its only vertex with the
    // key's text (kNoId if none, or several vertices); `text` is the key's
    // text when `own` is kNoId (empty otherwise).
    void for_each_path_key(
        const std::function<void(const std::vector<VertexId>&, SubsystemId, std::string_view)>& fn) const;
    // Appends an edge that is dead from the start: restores the ids a
    // removal left unused, so that later edges keep theirs.
    EdgeId add_dead_edge();
    // Records changes into `log` from now on (nullptr: stop).
    void set_change_log(GraphChangeLog* log) { log_ = log; }

    // Approximate heap bytes used by the graph, for the memory report.
    size_t bytes() const;

    // Edge-list steps taken by add_or_reuse_edge and detach_vertices since
    // construction: lets tests check that both stay linear without timing.
    uint64_t list_steps() const { return list_steps_; }

private:
    static constexpr uint8_t kDown = 1;
    static constexpr uint8_t kRemoved = 2;
    static constexpr uint32_t kNoPath = UINT32_MAX;

    static void append(EdgeId& head, EdgeId& tail, std::vector<EdgeId>& next, EdgeId e);
    static void unlink(EdgeId& head, EdgeId& tail, std::vector<EdgeId>& next, EdgeId e);
    // Drops the dead edges from one edge list, keeping the order.
    void drop_dead(EdgeId& head, EdgeId& tail, std::vector<EdgeId>& next);

    // One path of a vertex: either `prefix` entry's text (empty for
    // kNoPath) + "/" + name `leaf`, or the explicit text path_texts_[leaf].
    // Entries are never changed once made (a replaced path gets a new one),
    // so an entry's text is fixed even when others are built on it.
    struct PathEntry {
        uint32_t prefix;
        uint32_t leaf;
        uint32_t next;  // the vertex's next entry, by subsystem
        SubsystemId subsystem;
        bool derived;
    };
    uint32_t add_entry(uint32_t prefix, uint32_t leaf, SubsystemId s, bool derived);
    uint32_t find_entry(VertexId v, SubsystemId s) const;
    // Links entry `p` as v's path in its subsystem (replacing any).
    void link_entry(VertexId v, uint32_t p);
    void append_path(uint32_t p, std::string& out) const;
    bool path_equals(uint32_t p, std::string_view text) const;
    PathTexts path_texts() const { return PathTexts{this}; }

    Interner types_;
    Interner subsystems_;
    StringPool strings_;
    TextArena path_text_;
    std::vector<std::string_view> path_texts_;  // explicit path texts (in path_text_)

    // vertex columns
    std::vector<TypeId> type_;
    std::vector<uint8_t> flags_;
    std::vector<NameId> name_;
    // (basename, unit) pairs, shared by the vertices of one kind (a few per
    // recipe): 4 bytes per vertex instead of 8.
    struct Kind {
        NameId basename, unit;
    };
    std::vector<uint32_t> kind_;
    std::vector<Kind> kinds_;
    std::unordered_map<uint64_t, uint32_t> kind_ids_;
    uint32_t kind_of(std::string_view basename, std::string_view unit);
    CompactColumn id_, rank_, size_;
    // Empty while every uniq_id is the creation index (GRUG, hwloc, ...).
    std::vector<int64_t> uniq_id_;
    std::vector<uint32_t> first_path_;
    std::vector<PathEntry> paths_;
    std::unordered_map<VertexId, PropertyMap> properties_;

    // edge columns
    std::vector<VertexId> edge_src_, edge_dst_;
    std::vector<SubsystemId> edge_sub_;
    std::vector<EdgeMarks> marks_;
    PagedColumn<uint64_t, UINT64_MAX> weight_;  // per edge once a weight is set
    uint64_t order_clock_ = 0;
    std::vector<uint64_t> order_stamp_;  // per source vertex, grown on demand
    void touch_order(VertexId v);
    std::vector<EdgeId> out_next_, in_next_;   // next out-/in-edge of the same vertex
    std::vector<EdgeId> out_head_, out_tail_;  // per vertex, in insertion order
    std::vector<uint32_t> out_pos_;            // per edge: see out_position()
    std::vector<EdgeId> in_head_, in_tail_;
    size_t live_edges_ = 0;
    uint64_t list_steps_ = 0;

    std::vector<VertexId> roots_;
    std::vector<EdgeMarks> root_marks_;
    // Built lazily, per vertex (null until first asked for).
    // Built on first use for the vertices a walk visits (a handful per
    // match), so a map: a slot per vertex cost 10 MB and a 24 ms first
    // match on 1.3 million vertices.
    std::unordered_map<VertexId, std::unique_ptr<ChildOrder>> child_order_;
    ChildOrder* child_order_of(VertexId v) const {
        auto it = child_order_.find(v);
        return it == child_order_.end() ? nullptr : it->second.get();
    }

    PathIndex by_path_;
    std::vector<std::vector<VertexId>> by_type_;
    std::map<int64_t, std::vector<VertexId>> by_rank_;
    // Vertices per name id (dense: name ids are the pool's), and how many
    // names have at least one vertex.
    std::vector<uint32_t> name_count_;
    size_t distinct_names_ = 0;
    // The by_rank_ list of the last vertex added (loaders add runs of
    // vertices of one rank); null after a removal, and never copied.
    struct RankCache {
        std::vector<VertexId>* list = nullptr;
        int64_t rank = 0;
        RankCache() = default;
        RankCache(const RankCache&) {}
        RankCache& operator=(const RankCache&) {
            list = nullptr;
            return *this;
        }
    };
    RankCache last_rank_;
    GraphChangeLog* log_ = nullptr;


public:
    // A range of edge ids along one of the linked lists.
    class EdgeList {
    public:
        class iterator {
        public:
            using iterator_category = std::forward_iterator_tag;
            using value_type = EdgeId;
            using difference_type = std::ptrdiff_t;
            using pointer = const EdgeId*;
            using reference = EdgeId;
            iterator() = default;
            iterator(EdgeId e, const std::vector<EdgeId>* next) : e_(e), next_(next) {}
            EdgeId operator*() const { return e_; }
            iterator& operator++() { e_ = (*next_)[e_]; return *this; }
            iterator operator++(int) { iterator old = *this; ++*this; return old; }
            bool operator!=(const iterator& o) const { return e_ != o.e_; }
            bool operator==(const iterator& o) const { return e_ == o.e_; }

        private:
            EdgeId e_ = kNoEdge;
            const std::vector<EdgeId>* next_ = nullptr;
        };
        EdgeList(EdgeId head, const std::vector<EdgeId>* next) : head_(head), next_(next) {}
        iterator begin() const { return {head_, next_}; }
        iterator end() const { return {kNoEdge, next_}; }
        bool empty() const { return head_ == kNoEdge; }

    private:
        EdgeId head_;
        const std::vector<EdgeId>* next_;
    };
    EdgeList out(VertexId v) const { return EdgeList(out_head_[v], &out_next_); }
    EdgeList in(VertexId v) const { return EdgeList(in_head_[v], &in_next_); }
};

}  // namespace rq
