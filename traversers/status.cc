#include "traversers/status.h"

#include <unordered_set>
#include <vector>

namespace rq {

void mark_status(ResourceGraph& graph, SubsystemId dominant, std::string_view path, bool up) {
    for (VertexId v : graph.at_path(path)) {
        if (graph.is_up(v) == up) continue;
        graph.set_up(v, up);
        // v and all its dominant descendants, each once (a set sized by
        // the subtree, not the graph: set_rank_status marks rank by rank).
        std::unordered_set<VertexId> seen;
        std::vector<VertexId> stack{v};
        while (!stack.empty()) {
            VertexId u = stack.back();
            stack.pop_back();
            if (!seen.insert(u).second) continue;
            if (graph.type(u) == types::kNode) graph.nodes_up += up ? graph.size(u) : -graph.size(u);
            for (EdgeId e : graph.out(u))
                if (graph.subsystem(e) == dominant) stack.push_back(graph.target(e));
        }
    }
}

}  // namespace rq
