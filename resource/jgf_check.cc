#include "resource/jgf_check.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "resource/jgf_load.h"

namespace rq {

namespace {

// JgfLoad's target for a dry run: the graph plus an overlay. Vertices the
// document would create get the ids the graph would give them
// (num_vertices() onwards), new names the ids their interner would give.
class OverlayTarget {
public:
    explicit OverlayTarget(const ResourceGraph& graph)
        : graph_(graph), first_new_(static_cast<VertexId>(graph.num_vertices())) {}

    const ResourceGraph& graph() const { return graph_; }
    TypeId intern_type(const std::string& name) { return intern(graph_.types(), new_types_, name, true); }
    SubsystemId intern_subsystem(const std::string& name) {
        return intern(graph_.subsystems(), new_subsystems_, name, false);
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
    void reuse(VertexId) {}
    VertexId create(const JgfVertex& v, TypeId, const std::vector<SubsystemId>&) {
        auto u = static_cast<VertexId>(first_new_ + created_.size());
        created_.push_back({v.rank, v.uniq_id < 0 ? static_cast<int64_t>(u) : v.uniq_id, v.name});
        return u;
    }
    bool has_root(SubsystemId s) const {
        return new_roots_.count(s) != 0 || (s < graph_.subsystems().size() && graph_.has_root(s));
    }
    void set_root(SubsystemId s, VertexId) { new_roots_.insert(s); }
    void index_path(VertexId u, const std::string& path) { paths_[path].push_back(u); }
    void add_edge(VertexId, VertexId, SubsystemId) {}
    int64_t uniq_id(VertexId v) const { return created_here(v) ? created(v).uniq_id : graph_.uniq_id(v); }
    std::string name(VertexId v) const { return created_here(v) ? created(v).name : std::string(graph_.name(v)); }

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

    const ResourceGraph& graph_;
    VertexId first_new_;
    std::vector<NewVertex> created_;
    std::unordered_map<std::string, uint16_t> new_types_;
    std::unordered_map<std::string, uint16_t> new_subsystems_;
    std::unordered_set<SubsystemId> new_roots_;
    std::unordered_map<std::string, std::vector<VertexId>> paths_;
};

}  // namespace

Status check_jgf_attach(const JgfDocument& doc, const ResourceGraph& graph) {
    OverlayTarget target(graph);
    return JgfLoad<OverlayTarget>(target).load(doc);
}

}  // namespace rq
