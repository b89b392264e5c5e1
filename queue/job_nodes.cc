#include "queue/job_nodes.h"

#include <algorithm>

#include "resource/interner.h"
#include "utilities/hostlist.h"

namespace rq::queue {

void JobNodes::start(int64_t id, const std::vector<VertexId>& vertices) {
    std::vector<VertexId> nodes;
    for (VertexId v : vertices)
        if (graph_.type(v) == types::kNode) nodes.push_back(v);
    if (nodes.empty()) return;
    // Vertex order is the machine's order (node0, node1, ...): the
    // hostlist comes out compact.
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (jobs_on_.size() <= nodes.back()) jobs_on_.resize(size_t{nodes.back()} + 1, 0);
    for (VertexId v : nodes)
        if (jobs_on_[v]++ == 0) ++busy_;
    nodes_of_[id] = std::move(nodes);
}

std::string JobNodes::finish(int64_t id) {
    auto it = nodes_of_.find(id);
    if (it == nodes_of_.end()) return {};
    std::vector<std::string>& names = names_;  // reused: no allocation per job
    names.clear();
    for (VertexId v : it->second) {
        if (--jobs_on_[v] == 0) --busy_;
        names.emplace_back(graph_.name(v));
    }
    nodes_of_.erase(it);
    return encode_hostlist(names);
}

}  // namespace rq::queue
