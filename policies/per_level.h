// The per-level choice every policy makes in finish_vtx: for the jobspec
// resource matching the visited vertex, choose the best k of each child type
// (policies.md §4).
#pragma once

#include "policies/match_policy.h"

namespace rq {

// Returns false ("unmet") as soon as a child type has no qualified units.
bool choose_children(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                     ScoreSet& scores, const EGroupLess& before);

// Choose-all with `before` for every type of the dominant subsystem.
void choose_all_types(const PolicyContext& ctx, ScoreSet& scores, const EGroupLess& before);

// finish_graph's choice of the top-level resources with `before`; false if
// one of them has no qualified units.
bool choose_top_level(const PolicyContext& ctx, const std::vector<JobResource>& resources, ScoreSet& scores,
                      const EGroupLess& before);

}  // namespace rq
