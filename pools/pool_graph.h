// Pools -> resource graph: cluster0 -> one `node` per worker -> its pools.
//
//   indexed pool  one vertex per index, type = pool name, name = the index
//   grouped pool  a `group` vertex per group between the node and its items
//   sum pool      one vertex of type and name = pool name, size = the amount
//   slots         canary/CTest instances: one vertex of size = slots
//
// Paths are /cluster0/WORKER/POOL/ID (grouped: /cluster0/WORKER/POOL/groupG/ID),
// so `gpus/nvidia` stays one readable segment pair and every path is unique.
#pragma once

#include "pools/pool_def.h"
#include "resource/graph.h"

namespace rq::pools {

inline constexpr const char* kGroupType = "group";

// Vertices one copy of `w` adds: its node, group levels and items.
double worker_vertices(const Worker& w);

// Adds the machine to an empty graph. Errors: a worker without a name, too
// many vertices (more than 2^31).
Status build_pool_graph(const Machine& machine, ResourceGraph& graph);

// Pruning filters that make every worker (`node`) track its pool types in
// aggregate (",node:cpus,node:mem,..."), so that a request skips a full
// worker in O(log) instead of looking at its items.
std::string pool_prune_filters(const ResourceGraph& graph);

}  // namespace rq::pools
