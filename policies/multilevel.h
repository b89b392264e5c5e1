// The multilevel-id policies: first, high, low, hinode, lonode, hinodex,
// lonodex, firstnodex and custom strings (spec/policies.md §2, §4).
//
// Every vertex scores id + 2; with the node factor on, vertices below a
// node also carry f(node) = (id + 2) * 10000 + |uniq_id mod 10000 - 1|, so
// choices between nodes dominate choices inside them.
#pragma once

#include "policies/match_policy.h"

namespace rq {

struct MultilevelConfig {
    bool high = true;  // greater (high ids first) or less
    bool node_centric = false;
    bool node_exclusive = false;
    bool stop_on_first = false;
};

// Parses a custom policy string; fails when neither policy=high nor
// policy=low was given before the first bad token.
Result<MultilevelConfig> parse_custom_policy(const std::string& spec);

class MultilevelPolicy : public MatchPolicy {
public:
    explicit MultilevelPolicy(const MultilevelConfig& config);

    bool discover(const PolicyContext& ctx, VertexId u) override;
    bool finish_vtx(const PolicyContext& ctx, VertexId u, const std::vector<JobResource>& resources,
                    ScoreSet& scores) override;
    void finish_slot(const PolicyContext& ctx, ScoreSet& scores) override;
    bool leaf_score(const PolicyContext& ctx, VertexId u, int64_t& score) const override;
    bool finish_graph(const PolicyContext& ctx, const std::vector<JobResource>& resources,
                      ScoreSet& scores) override;
    const IdOrder* id_order() const override { return stop_on_first ? nullptr : &order_; }

private:
    IdOrder order_;
    EGroupLess before_;
    bool node_centric_;
    int64_t multilevel_ = 0;    // sum of the factors of the nodes being visited
    int64_t node_factor_ = 0;   // the last node's factor
};

}  // namespace rq
