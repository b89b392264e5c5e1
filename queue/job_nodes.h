// The nodes of a replay's running jobs (docs/queue.md "Replay time
// series"): how many nodes hold part of a running job (the series'
// busy_nodes), and each job's nodes as an RFC 22 hostlist for the per-job
// CSV's `nodes` column. A node is a vertex of type `node`: a machine's
// node, or a pool machine's worker (pools/pool_graph.h). Memory follows
// the running jobs, never the finished ones.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "resource/graph.h"

namespace rq::queue {

class JobNodes {
public:
    explicit JobNodes(const ResourceGraph& graph) : graph_(graph) {}

    // Job `id` started holding `vertices` (what its match emitted, in any
    // order, nodes among them).
    void start(int64_t id, const std::vector<VertexId>& vertices);
    // Job `id` ended: its nodes, in the machine's order, as a hostlist
    // ("node[0-3,7]"; empty when it held no node or never started); they
    // no longer count as busy for it.
    std::string finish(int64_t id);
    // Nodes holding part of at least one running job.
    int64_t busy() const { return busy_; }

private:
    const ResourceGraph& graph_;
    std::vector<uint32_t> jobs_on_;  // per vertex: running jobs holding it (nodes only)
    std::unordered_map<int64_t, std::vector<VertexId>> nodes_of_;  // running jobs
    int64_t busy_ = 0;
    std::vector<std::string> names_;  // finish()'s scratch
};

}  // namespace rq::queue
