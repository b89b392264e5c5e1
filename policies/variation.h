// variation (spec/policies.md §6): prefer vertices of a low performance
// class (the `perf_class` property), to keep jobs on uniform hardware.
#pragma once

#include "policies/match_policy.h"

namespace rq {

class VariationPolicy : public MatchPolicy {
public:
    bool finish_vtx(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                    ScoreSet& scores) override;
    void finish_slot(const PolicyContext& ctx, ScoreSet& scores) override;
    bool finish_graph(const PolicyContext& ctx, const std::vector<JobResource>& resources,
                      ScoreSet& scores) override;
};

// The vertex's perf_class property as a leading decimal integer; 9999 when
// missing, non-numeric or outside 0..9999.
int64_t perf_class(const ResourceGraph& graph, VertexId v);

}  // namespace rq
