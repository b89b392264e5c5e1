#include "traversers/status.h"

#include <vector>

namespace rq {

void mark_status(ResourceGraph& graph, SubsystemId dominant, std::string_view path, bool up) {
    for (VertexId v : graph.at_path(path)) {
        if (graph.is_up(v) == up) continue;
        graph.set_up(v, up);
        // v and all its dominant descendants, each once.
        std::vector<bool> seen(graph.num_vertices(), false);
        std::vector<VertexId> stack{v};
        while (!stack.empty()) {
            VertexId u = stack.back();
            stack.pop_back();
            if (seen[u]) continue;
            seen[u] = true;
            if (graph.type(u) == types::kNode) graph.nodes_up += up ? graph.size(u) : -graph.size(u);
            for (EdgeId e : graph.out(u))
                if (graph.subsystem(e) == dominant) stack.push_back(graph.target(e));
        }
    }
}

}  // namespace rq
