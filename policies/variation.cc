#include "policies/variation.h"

#include <cctype>

#include "policies/per_level.h"

namespace rq {

int64_t perf_class(const ResourceGraph& graph, VertexId v) {
    constexpr int64_t kWorst = 9999;
    const PropertyMap* props = graph.properties(v);
    if (props == nullptr) return kWorst;
    auto it = props->find("perf_class");
    if (it == props->end()) return kWorst;
    const std::string& text = it->second;
    size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return kWorst;
    int64_t value = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        value = value * 10 + (text[i] - '0');
        if (value > kWorst) return kWorst;
    }
    if (negative) value = -value;
    return value < 0 || value > kWorst ? kWorst : value;
}

bool VariationPolicy::finish_vtx(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                                 ScoreSet& scores) {
    bool met = choose_children(ctx, u, resources, scores, score_less);
    scores.score = met ? 1 + perf_class(ctx.graph, u) : 0;
    return met;
}

void VariationPolicy::finish_slot(const PolicyContext& ctx, ScoreSet& scores) {
    choose_all_types(ctx, scores, score_greater);
}

bool VariationPolicy::finish_graph(const PolicyContext& ctx, const std::vector<JobResource>& resources,
                                   ScoreSet& scores) {
    bool met = choose_top_level(ctx, resources, scores, score_less);
    scores.score = met ? 1 : 0;
    return met;
}

}  // namespace rq
