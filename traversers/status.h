// set-status: marking resources up or down (spec/traversal.md §15).
#pragma once

#include <string_view>

#include "resource/graph.h"

namespace rq {

// Sets the status of every vertex at `path` whose status differs, and
// adjusts graph.nodes_up by the size of every node in the marked vertices'
// dominant subtrees. Descendants keep their own status: the status pruning
// of the traverser cuts the whole down subtree off.
void mark_status(ResourceGraph& graph, SubsystemId dominant, std::string_view path, bool up);

}  // namespace rq
