// The graph's side of the state file's graph rows (state/graph_rows.h):
// structural checks that let a row leave a column out, the by-path index
// read whole, and dead edge ids restored.
#include "resource/graph.h"

namespace rq {

bool ResourceGraph::path_is_below(VertexId v, SubsystemId s, VertexId parent) const {
    uint32_t p = first_path_[v];
    if (p == kNoPath || paths_[p].next != kNoPath) return false;
    const PathEntry& e = paths_[p];
    if (e.subsystem != s || !e.derived || e.leaf != name_[v]) return false;
    return e.prefix == (parent == kNoVertex ? kNoPath : find_entry(parent, s));
}

void ResourceGraph::for_each_path_key(
    const std::function<void(const std::vector<VertexId>&, SubsystemId, std::string_view)>& fn) const {
    std::string text;
    by_path_.for_each_key(path_texts(), [&](uint32_t ref, const std::vector<VertexId>& vertices) {
        text.clear();
        SubsystemId own = kNoId;
        if (vertices.size() == 1) {
            VertexId v = vertices[0];
            if (first_path_[v] != kNoPath && first_path_[v] == ref) {
                own = paths_[ref].subsystem;  // the usual case: no text to build
            } else {
                append_path(ref, text);
                for (uint32_t q = first_path_[v]; q != kNoPath && own == kNoId; q = paths_[q].next)
                    if (path_equals(q, text)) own = paths_[q].subsystem;
            }
        }
        if (own != kNoId) return fn(vertices, own, std::string_view());
        if (text.empty()) append_path(ref, text);
        fn(vertices, kNoId, text);
    });
}

EdgeId ResourceGraph::add_dead_edge() {
    auto e = static_cast<EdgeId>(edge_src_.size());
    edge_src_.push_back(0);
    edge_dst_.push_back(0);
    edge_sub_.push_back(kNoId);
    marks_.emplace_back();
    out_next_.push_back(kNoEdge);
    in_next_.push_back(kNoEdge);
    out_pos_.push_back(0);
    return e;
}

}  // namespace rq
