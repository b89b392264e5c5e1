// The visit of a leaf asked for as a resource with nothing below it (a
// core of `slot[N]{core[1]}`): the walk's commonest visit, once per core
// it could take (docs/replay-performance.md "Eighth round").
//
// dom_dfv() (spec/traversal.md §4.1) classifies such a leaf as the
// resource it matches, prunes it, calls the policy's discover() and
// finish_vtx() on an empty score set and resolves that set into the
// parent's, which moves nothing. When the policy can give the leaf's score
// without the calls (MatchPolicy::leaf_score), the same visit is the prune,
// the colour and the counts, and the parent receives the same avail and
// score. The exhaustive walk (exhaustive_select) keeps the calls: it is the
// oracle traversers/select_differential_test.cc compares this one with.
#include "traversers/dfu.h"

namespace rq {

bool DfuTraverser::visit_leaf(VertexId u, const std::vector<JobResource>& resources, bool& excl, ScoreSet& parent,
                              bool& matched) {
    if (exhaustive_select_ || flexible_ || resources.size() != 1) return false;
    const JobResource& r = resources.front();
    if (r.type != graph_.type(u) || !r.with.empty() || !r.label.empty()) return false;
    int64_t score = 0;
    if (!policy_.leaf_score(PolicyContext{graph_, dominant()}, u, score)) return false;

    ++leaf_visits_;
    bool x_in = excl || r.exclusive == Tristate::kTrue;
    excl = x_in;
    ++preorder_;
    ++dfv_calls_;
    int64_t a = -1;  // set by prune(), and not 0 when it lets u through
    matched = false;
    if (prune(u, resources, x_in, &a)) return true;
    set_colour(0, u, kBlack);
    parent.avail = a;
    parent.score = score;
    ++postorder_;
    matched = true;
    return true;
}

}  // namespace rq
