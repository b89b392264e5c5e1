// The decisions of loading a JGF document into a graph (spec/readers.md
// §1.2-§1.3), written once for two targets: the graph itself (read_jgf,
// jgf_reader.cc) and a dry run over the graph plus an overlay of what the
// document would add (check_jgf_attach, jgf_check.cc), which must stop at
// the very error the load would stop at.
//
// Decided here: interning the type and subsystem names, reusing a vertex
// found by path+rank, repeated JGF ids, sizes, duplicate roots, edge ends,
// which edges are added, and the ordered child index. A Target provides
// the storage:
//
//   TypeId intern_type(const std::string&);            kNoId: too many
//   SubsystemId intern_subsystem(const std::string&);  kNoId: too many
//   VertexId at_path(const std::string& path, int64_t rank) const;
//   void reuse(VertexId);
//   VertexId create(const JgfVertex&, TypeId, const std::vector<SubsystemId>&);
//   bool has_root(SubsystemId) const;
//   void set_root(SubsystemId, VertexId);
//   void index_path(VertexId, const std::string& path);
//   void add_edge(VertexId source, VertexId target, SubsystemId);
//   int64_t uniq_id(VertexId) const;
//   std::string name(VertexId) const;
//   const ResourceGraph& graph() const;   the graph being loaded into
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "resource/graph.h"
#include "resource/jgf_reader.h"
#include "utilities/result.h"

namespace rq {

template <class Target>
class JgfLoad {
public:
    explicit JgfLoad(Target& target)
        : target_(target), first_new_(static_cast<VertexId>(target.graph().num_vertices())) {}

    Status load(const JgfDocument& doc) {
        for (size_t i = 0; i < doc.vertex_count(); ++i) {
            auto v = doc.vertex(i);
            if (!v) return v.error();
            RQ_TRY(add_vertex(*v));
        }
        for (size_t i = 0; i < doc.edge_count(); ++i) {
            auto e = doc.edge(i);
            if (!e) return e.error();
            RQ_TRY(add_edge(*e));
        }
        return ok_status();
    }

    // JGF id -> vertex, for what was loaded so far.
    std::unordered_map<std::string, VertexId> vertex_of;

private:
    // Vertex ids are dense: the vertices this load created are exactly
    // those at or beyond the graph's size when it started.
    bool created_here(VertexId v) const { return v >= first_new_; }

    // The load-time lookup (§1.2): for each path in subsystem interning
    // order, the first vertex registered there with the vertex's rank.
    VertexId find_existing(const JgfVertex& v, const std::vector<SubsystemId>& subsystems) const {
        std::vector<size_t> order(v.paths.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return subsystems[a] < subsystems[b]; });
        for (size_t i : order) {
            VertexId u = target_.at_path(v.paths[i].second, v.rank);
            if (u != kNoVertex) return u;
        }
        return kNoVertex;
    }

    Status add_vertex(const JgfVertex& v) {
        // Names are interned in node order: type, then the paths' keys.
        TypeId type = target_.intern_type(v.type);
        if (type == kNoId) return make_error(Errc::kRange, "fill_fetcher: too many resource types at " + v.type + ".");
        std::vector<SubsystemId> subsystems;
        for (auto& [subsystem, path] : v.paths) {
            SubsystemId s = target_.intern_subsystem(subsystem);
            if (s == kNoId) return make_error(Errc::kRange, "fill_fetcher: too many subsystems at " + subsystem + ".");
            subsystems.push_back(s);
        }

        VertexId existing = find_existing(v, subsystems);
        if (existing != kNoVertex) {
            if (!vertex_of.emplace(v.jgf_id, existing).second)
                return make_error(Errc::kExists, "update_vmap: can't insert into vmap for " + v.jgf_id + ".");
            target_.reuse(existing);
            return ok_status();
        }
        if (vertex_of.count(v.jgf_id) != 0)
            return make_error(Errc::kExists, "add_vtx: found duplicate JGF node id for " + v.jgf_id + ".");
        if (v.size < 0)  // the reference cannot create a planner this small
            return make_error(Errc::kInvalid, "create_vtx: invalid size " + std::to_string(v.size) + " for " +
                                                  v.jgf_id + ".");

        VertexId u = target_.create(v, type, subsystems);
        // The vertex exists before its roots are checked: on a duplicate
        // root it stays in the graph, unconnected and unindexed by path.
        for (size_t i = 0; i < v.paths.size(); ++i)
            if (is_root_path(v.paths[i].second) && target_.has_root(subsystems[i]))
                return make_error(Errc::kExists, "add_graph_metadata: failed to add root metadata for " +
                                                     v.paths[i].first + " subsystem. Possible duplicate root.");
        for (size_t i = 0; i < v.paths.size(); ++i) {
            if (is_root_path(v.paths[i].second)) target_.set_root(subsystems[i], u);
            target_.index_path(u, v.paths[i].second);
        }
        vertex_of.emplace(v.jgf_id, u);
        return ok_status();
    }

    Status add_edge(const JgfEdge& e) {
        auto source = vertex_of.find(e.source);
        auto target = vertex_of.find(e.target);
        if (source == vertex_of.end() || target == vertex_of.end())
            return make_error(Errc::kNotFound,
                              "unpack_edge: source and/or target vertex not found" + e.source + " -> " + e.target + ".");
        SubsystemId subsystem = target_.intern_subsystem(e.subsystem);
        if (subsystem == kNoId) return make_error(Errc::kRange, "fill_fetcher: too many subsystems at " + e.subsystem + ".");
        VertexId src = source->second, dst = target->second;
        // Edges between two vertices the graph already had exist already.
        if (!created_here(src) && !created_here(dst)) return ok_status();

        std::unordered_set<int64_t>& children = child_keys(src);
        target_.add_edge(src, dst, subsystem);
        // The reference's ordered child index is keyed by (weight, target
        // uniq_id): a second child with the same uniq_id cannot be entered
        // (the edge itself stays).
        if (!children.insert(target_.uniq_id(dst)).second)
            return make_error(Errc::kExists, "error inserting an edge to outedge metadata map: " + target_.name(src) +
                                                 " -> " + target_.name(dst) + "; ");
        return ok_status();
    }

    // The uniq_ids keyed in `src`'s ordered child index with the initial
    // weight: on first use, those of the out-edges it had before this load.
    std::unordered_set<int64_t>& child_keys(VertexId src) {
        auto [it, inserted] = child_keys_.try_emplace(src);
        if (inserted && !created_here(src)) {
            const ResourceGraph& graph = target_.graph();
            for (EdgeId e : graph.out(src))
                if (graph.weight(e) == UINT64_MAX) it->second.insert(graph.uniq_id(graph.target(e)));
        }
        return it->second;
    }

    Target& target_;
    VertexId first_new_;
    std::unordered_map<VertexId, std::unordered_set<int64_t>> child_keys_;
};

}  // namespace rq
