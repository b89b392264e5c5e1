#include "resource/jgf_check.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rq {

namespace {

// The loader's decisions (jgf_reader.cc, JgfLoader) on the graph plus an
// overlay: vertices the document would create get the ids the graph would
// give them (num_vertices() onwards), new names the ids their interner
// would give them. Each step below mirrors one step of the loader, in the
// same order, with the same error.
class AttachCheck {
public:
    explicit AttachCheck(const ResourceGraph& graph)
        : graph_(graph), first_new_(static_cast<VertexId>(graph.num_vertices())) {}

    Status run(const JgfDocument& doc) {
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

private:
    struct NewVertex {
        int64_t rank;
        int64_t uniq_id;
        std::string name;
    };

    // Interner::intern / intern_always without adding: the id `name` has
    // or would get, kNoId where the interner would refuse it.
    static uint16_t intern(const Interner& real, std::unordered_map<std::string, uint16_t>& added,
                           const std::string& name, bool always) {
        uint16_t id = real.find(name);
        if (id != kNoId) return id;
        auto it = added.find(name);
        if (it != added.end()) return it->second;
        size_t next = real.size() + added.size();
        if ((real.frozen() && !always) || next >= kNoId) return kNoId;
        added.emplace(name, static_cast<uint16_t>(next));
        return static_cast<uint16_t>(next);
    }

    bool created_here(VertexId v) const { return v >= first_new_; }
    const NewVertex& created(VertexId v) const { return created_[v - first_new_]; }
    int64_t rank(VertexId v) const { return created_here(v) ? created(v).rank : graph_.rank(v); }
    int64_t uniq_id(VertexId v) const { return created_here(v) ? created(v).uniq_id : graph_.uniq_id(v); }
    std::string name(VertexId v) const { return created_here(v) ? created(v).name : std::string(graph_.name(v)); }
    bool has_root(SubsystemId s) const {
        return new_roots_.count(s) != 0 || (s < graph_.subsystems().size() && graph_.has_root(s));
    }

    // find_vertex_at_path: the graph's registrations come before ours.
    VertexId at_path(const std::string& path, int64_t wanted_rank) const {
        VertexId found = find_vertex_at_path(graph_, path, wanted_rank);
        if (found != kNoVertex) return found;
        auto ours = paths_.find(path);
        if (ours == paths_.end()) return kNoVertex;
        for (VertexId u : ours->second)
            if (rank(u) == wanted_rank) return u;
        return kNoVertex;
    }

    // find_existing_vertex: paths in subsystem interning order.
    VertexId find_existing(const JgfVertex& v, const std::vector<SubsystemId>& subsystems) const {
        std::vector<size_t> order(v.paths.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return subsystems[a] < subsystems[b]; });
        for (size_t i : order) {
            VertexId u = at_path(v.paths[i].second, v.rank);
            if (u != kNoVertex) return u;
        }
        return kNoVertex;
    }

    Status add_vertex(const JgfVertex& v) {
        if (intern(graph_.types(), new_types_, v.type, true) == kNoId)
            return make_error(Errc::kRange, "fill_fetcher: too many resource types at " + v.type + ".");
        std::vector<SubsystemId> subsystems;
        for (auto& [subsystem, path] : v.paths) {
            SubsystemId s = intern(graph_.subsystems(), new_subsystems_, subsystem, false);
            if (s == kNoId) return make_error(Errc::kRange, "fill_fetcher: too many subsystems at " + subsystem + ".");
            subsystems.push_back(s);
        }

        VertexId existing = find_existing(v, subsystems);
        if (existing != kNoVertex) {
            if (!vertex_of_.emplace(v.jgf_id, existing).second)
                return make_error(Errc::kExists, "update_vmap: can't insert into vmap for " + v.jgf_id + ".");
            return ok_status();
        }
        if (vertex_of_.count(v.jgf_id) != 0)
            return make_error(Errc::kExists, "add_vtx: found duplicate JGF node id for " + v.jgf_id + ".");
        if (v.size < 0)
            return make_error(Errc::kInvalid, "create_vtx: invalid size " + std::to_string(v.size) + " for " +
                                                  v.jgf_id + ".");

        auto u = static_cast<VertexId>(first_new_ + created_.size());
        created_.push_back({v.rank, v.uniq_id < 0 ? static_cast<int64_t>(u) : v.uniq_id, v.name});
        for (size_t i = 0; i < v.paths.size(); ++i)
            if (is_root_path(v.paths[i].second) && has_root(subsystems[i]))
                return make_error(Errc::kExists, "add_graph_metadata: failed to add root metadata for " +
                                                     v.paths[i].first + " subsystem. Possible duplicate root.");
        for (size_t i = 0; i < v.paths.size(); ++i) {
            if (is_root_path(v.paths[i].second)) new_roots_.insert(subsystems[i]);
            paths_[v.paths[i].second].push_back(u);
        }
        vertex_of_.emplace(v.jgf_id, u);
        return ok_status();
    }

    Status add_edge(const JgfEdge& e) {
        auto source = vertex_of_.find(e.source);
        auto target = vertex_of_.find(e.target);
        if (source == vertex_of_.end() || target == vertex_of_.end())
            return make_error(Errc::kNotFound,
                              "unpack_edge: source and/or target vertex not found" + e.source + " -> " + e.target + ".");
        if (intern(graph_.subsystems(), new_subsystems_, e.subsystem, false) == kNoId)
            return make_error(Errc::kRange, "fill_fetcher: too many subsystems at " + e.subsystem + ".");
        VertexId src = source->second, dst = target->second;
        if (!created_here(src) && !created_here(dst)) return ok_status();
        if (!child_keys(src).insert(uniq_id(dst)).second)
            return make_error(Errc::kExists, "error inserting an edge to outedge metadata map: " + name(src) + " -> " +
                                                 name(dst) + "; ");
        return ok_status();
    }

    // The loader's child_keys: seeded from the graph's out-edges.
    std::unordered_set<int64_t>& child_keys(VertexId src) {
        auto [it, inserted] = child_keys_.try_emplace(src);
        if (inserted && !created_here(src))
            for (EdgeId e : graph_.out(src))
                if (graph_.weight(e) == UINT64_MAX) it->second.insert(graph_.uniq_id(graph_.target(e)));
        return it->second;
    }

    const ResourceGraph& graph_;
    VertexId first_new_;
    std::vector<NewVertex> created_;
    std::unordered_map<std::string, uint16_t> new_types_;
    std::unordered_map<std::string, uint16_t> new_subsystems_;
    std::unordered_set<SubsystemId> new_roots_;
    std::unordered_map<std::string, std::vector<VertexId>> paths_;
    std::unordered_map<std::string, VertexId> vertex_of_;
    std::unordered_map<VertexId, std::unordered_set<int64_t>> child_keys_;
};

}  // namespace

Status check_jgf_attach(const JgfDocument& doc, const ResourceGraph& graph) { return AttachCheck(graph).run(doc); }

}  // namespace rq
