#include "policies/per_level.h"
#include "utilities/saturating.h"

namespace rq {

bool choose_children(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                     ScoreSet& scores, const EGroupLess& before) {
    TypeId type = ctx.graph.type(u);
    for (const JobResource& r : resources) {
        if (r.type != type) continue;
        for (const JobResource& child : r.with) {
            auto q = clamp_to_u32(scores.qualified_count(ctx.dominant, child.type));
            uint32_t k = calc_count(child, q);
            if (k == 0) return false;
            scores.choose_best_k(ctx.dominant, child.type, k, before);
        }
    }
    return true;
}

void choose_all_types(const PolicyContext& ctx, ScoreSet& scores, const EGroupLess& before) {
    for (auto& sub : scores.subsystems()) {
        if (sub.subsystem != ctx.dominant) continue;
        for (auto& evals : sub.types) scores.choose_all(ctx.dominant, evals.type, before);
    }
}

bool choose_top_level(const PolicyContext& ctx, const std::vector<JobResource>& resources, ScoreSet& scores,
                      const EGroupLess& before) {
    for (const JobResource& r : resources) {
        auto q = clamp_to_u32(scores.qualified_count(ctx.dominant, r.type));
        uint32_t k = calc_count(r, q);
        if (k == 0) return false;
        scores.choose_best_k(ctx.dominant, r.type, k, before);
    }
    return true;
}

}  // namespace rq
