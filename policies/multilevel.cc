#include "policies/multilevel.h"

#include <cstdlib>
#include <sstream>

#include "policies/per_level.h"

namespace rq {

Result<MultilevelConfig> parse_custom_policy(const std::string& spec) {
    MultilevelConfig config;
    bool high = false, low = false;
    // Split on single spaces. The reference stops at the first bad token
    // and silently keeps what came before it; we refuse the string and
    // name the token instead.
    auto bad = [&](const std::string& token, const std::string& why) {
        return make_error(Errc::kInvalid, "-P \"" + spec + "\": " + why + " \"" + token + "\"" +
                                              " (key=value settings: policy=high|low, node_centric=true|false, "
                                              "node_exclusive=true|false, stop_on_1_matches=true|false)");
    };
    size_t start = 0;
    while (start <= spec.size()) {
        size_t end = spec.find(' ', start);
        if (end == std::string::npos) end = spec.size();
        std::string token = spec.substr(start, end - start);
        start = end + 1;
        auto eq = token.find('=');
        if (token.empty()) return bad(token, "empty setting (two spaces in a row, or a leading/trailing space)");
        if (eq == std::string::npos) return bad(token, "not key=value:");
        std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        if (key == "policy") {
            if (value == "high") high = true;
            else if (value == "low") low = true;
            else return bad(token, "policy must be high or low, not");
            continue;
        }
        bool flag;
        if (value == "true") flag = true;
        else if (value == "false") flag = false;
        else if (key == "node_centric" || key == "node_exclusive" || key == "stop_on_1_matches")
            return bad(token, "value must be true or false in");
        else return bad(token, "unknown key in");
        if (key == "node_centric") config.node_centric = flag;
        else if (key == "node_exclusive") config.node_exclusive = flag;
        else if (key == "stop_on_1_matches") config.stop_on_first = flag;
        else return bad(token, "unknown key in");
    }
    if (!high && !low) return make_error(Errc::kInvalid, "-P \"" + spec + "\": no policy=high or policy=low");
    config.high = high;
    return config;
}

MultilevelPolicy::MultilevelPolicy(const MultilevelConfig& config)
    : before_(config.high ? score_greater : score_less), node_centric_(config.node_centric) {
    node_exclusive = config.node_exclusive;
    stop_on_first = config.stop_on_first;
    order_.high = config.high;
    order_.node_centric = config.node_centric;
}

bool MultilevelPolicy::discover(const PolicyContext& ctx, VertexId u) {
    if (!node_centric_ || ctx.graph.type(u) != types::kNode) return true;
    int64_t id = ctx.graph.id(u);
    if (id < -1) return false;
    node_factor_ = (id + 2) * 10000 + std::llabs(ctx.graph.uniq_id(u) % 10000 - 1);
    multilevel_ += node_factor_;
    return true;
}

bool MultilevelPolicy::finish_vtx(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                                  ScoreSet& scores) {
    bool met = choose_children(ctx, u, resources, scores, before_);
    if (node_centric_ && ctx.graph.type(u) == types::kNode) multilevel_ -= node_factor_;
    scores.score = met ? 1 + multilevel_ + ctx.graph.id(u) + 1 : 0;
    return met;
}

// A leaf asked for with nothing below: choose_children() has no child
// type to choose, so finish_vtx() accepts it with its id-based score; only
// a node's discover() and finish_vtx() move the node factor.
bool MultilevelPolicy::leaf_score(const PolicyContext& ctx, VertexId u, int64_t& score) const {
    if (node_centric_ && ctx.graph.type(u) == types::kNode) return false;
    score = 1 + multilevel_ + ctx.graph.id(u) + 1;
    return true;
}

void MultilevelPolicy::finish_slot(const PolicyContext& ctx, ScoreSet& scores) {
    choose_all_types(ctx, scores, before_);
}

bool MultilevelPolicy::finish_graph(const PolicyContext& ctx, const std::vector<JobResource>& resources,
                                    ScoreSet& scores) {
    bool met = choose_top_level(ctx, resources, scores, before_);
    scores.score = met ? 1 : 0;
    multilevel_ = 0;
    return met;
}

}  // namespace rq
