#include "policies/locality.h"
#include "utilities/saturating.h"

#include <algorithm>
#include <map>

#include "policies/per_level.h"

namespace rq {

bool LocalityPolicy::finish_vtx(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                                ScoreSet& scores) {
    bool met = choose_children(ctx, u, resources, scores, score_greater);
    scores.score = met ? 1 + ctx.graph.id(u) + 1 : 0;
    return met;
}

void LocalityPolicy::finish_slot(const PolicyContext& ctx, ScoreSet& scores) {
    choose_all_types(ctx, scores, score_greater);
}

bool LocalityPolicy::finish_graph(const PolicyContext& ctx, const std::vector<JobResource>& resources,
                                  ScoreSet& scores) {
    bool met = true;
    for (const JobResource& r : resources) {
        auto q = clamp_to_u32(scores.qualified_count(ctx.dominant, r.type));
        uint32_t k = calc_count(r, q);
        if (k == 0) {
            met = false;
            break;
        }
        // Join the candidates' scores into maximal runs of consecutive
        // integers (an interval set); each score maps to the lower bound of
        // its run, and runs compare by that bound.
        std::map<int64_t, int64_t> run_of;  // score -> lower bound of its run
        if (const TypeEvals* evals = scores.find(ctx.dominant, r.type)) {
            std::vector<int64_t> values;
            for (auto& g : evals->groups) values.push_back(g.score);
            std::sort(values.begin(), values.end());
            values.erase(std::unique(values.begin(), values.end()), values.end());
            int64_t lower = 0;
            for (size_t i = 0; i < values.size(); ++i) {
                if (i == 0 || values[i] != values[i - 1] + 1) lower = values[i];
                run_of[values[i]] = lower;
            }
        }
        auto higher_run_first = [&run_of](const EGroup& a, const EGroup& b) {
            return run_of.at(b.score) < run_of.at(a.score);
        };
        scores.choose_best_k(ctx.dominant, r.type, k, higher_run_first);
    }
    scores.score = met ? 1 : 0;
    return met;
}

}  // namespace rq
