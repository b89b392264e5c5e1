// locality (spec/policies.md §5): per-level choices prefer high ids; the
// top-level choice prefers candidates whose scores form the highest run of
// consecutive integers, so that e.g. nodes with adjacent ids go together.
#pragma once

#include "policies/match_policy.h"

namespace rq {

class LocalityPolicy : public MatchPolicy {
public:
    bool finish_vtx(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                    ScoreSet& scores) override;
    void finish_slot(const PolicyContext& ctx, ScoreSet& scores) override;
    bool finish_graph(const PolicyContext& ctx, const std::vector<JobResource>& resources,
                      ScoreSet& scores) override;
};

}  // namespace rq
