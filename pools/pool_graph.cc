#include "pools/pool_graph.h"

#include <limits>

namespace rq::pools {

namespace {

class Builder {
public:
    explicit Builder(ResourceGraph& graph) : graph_(graph) {}

    VertexId add(VertexId parent, TypeId type, std::string_view basename, const std::string& name, int64_t id,
                 int64_t rank, int64_t size, std::string_view segment) {
        if (parent == kNoVertex)
            path_.clear();
        else
            path_ = graph_.path(parent, kContainment);
        path_ += '/';
        path_ += segment;
        VertexSpec spec;
        spec.type = type;
        spec.basename = basename;
        spec.name = name;
        spec.id = id;
        spec.rank = rank;
        spec.size = size;
        VertexId v = graph_.add_vertex(spec);
        graph_.set_path(v, kContainment, path_);
        graph_.index_path(v, path_);
        if (parent != kNoVertex) graph_.add_edge(parent, v, kContainment);
        return v;
    }

    void add_items(VertexId parent, TypeId type, const Pool& pool, const std::vector<PoolItem>& items,
                   int64_t rank, const std::string& prefix) {
        for (const PoolItem& item : items) {
            int64_t id = -1;
            if (!parse_amount(item.id, id)) id = -1;
            add(parent, type, pool.name, item.id, id, rank, item.slots, prefix + item.id);
        }
    }

    void add_worker(const std::string& name, int64_t rank, const Worker& w, VertexId root) {
        VertexId node = add(root, types::kNode, w.name, name, rank, rank, 1, name);
        for (const Pool& pool : w.pools) {
            TypeId type = graph_.types().intern_always(pool.name);
            if (pool.sum) {
                add(node, type, pool.name, pool.name, 0, rank, pool.size, pool.name);
                continue;
            }
            if (!pool.grouped) {
                for (auto& group : pool.groups) add_items(node, type, pool, group, rank, pool.name + "/");
                continue;
            }
            for (size_t g = 0; g < pool.groups.size(); ++g) {
                std::string gname = "group" + std::to_string(g);
                VertexId group = add(node, group_type_, "group", pool.name + "-" + gname, int64_t(g), rank, 1,
                                     pool.name + "/" + gname);
                add_items(group, type, pool, pool.groups[g], rank, "");
            }
        }
    }

    TypeId group_type_ = kNoId;

private:
    ResourceGraph& graph_;
    std::string path_;
};

}  // namespace

double worker_vertices(const Worker& w) {
    size_t per = 1;
    for (const Pool& p : w.pools) {
        per += p.grouped ? p.groups.size() : 0;
        for (auto& g : p.groups) per += g.size();
    }
    return double(per);
}

Status build_pool_graph(const Machine& machine, ResourceGraph& graph) {
    size_t vertices = 1;
    for (const Worker& w : machine.workers) {
        if (w.name.empty()) return make_error(Errc::kInvalid, "a worker has no name");
        if (w.count < 0 || w.count > (int64_t(1) << 24))
            return make_error(Errc::kInvalid, "worker " + w.name + ": count must be between 0 and 2^24");
        vertices += size_t(worker_vertices(w)) * size_t(w.count);
        if (vertices > size_t(std::numeric_limits<int32_t>::max()))
            return make_error(Errc::kInvalid, "the pools make more than 2^31 vertices");
    }
    // Types in a fixed order whatever the workers: the group level, then
    // pools by first appearance.
    Builder builder(graph);
    builder.group_type_ = graph.types().intern_always(kGroupType);
    for (const Worker& w : machine.workers)
        for (const Pool& p : w.pools) graph.types().intern_always(p.name);
    graph.reserve(vertices, vertices);
    VertexId root = builder.add(kNoVertex, types::kCluster, "cluster", "cluster0", 0, -1, 1, "cluster0");
    graph.set_root(kContainment, root);
    int64_t rank = 0;
    for (const Worker& w : machine.workers) {
        for (int64_t i = 0; i < w.count; ++i) {
            std::string name = w.numbered || w.count != 1 ? w.name + std::to_string(i) : w.name;
            builder.add_worker(name, rank++, w, root);
        }
    }
    return ok_status();
}

std::string pool_prune_filters(const ResourceGraph& graph) {
    std::string out;
    for (TypeId t = 0; t < graph.types().size(); ++t) {
        const std::string& name = graph.types().name(t);
        if (t == types::kCluster || t == types::kNode || name == kGroupType || graph.by_type(t).empty()) continue;
        out += ",node:" + name;
    }
    return out;
}

}  // namespace rq::pools
