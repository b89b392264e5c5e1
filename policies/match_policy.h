// MatchPolicy: the callbacks the DFU traverser makes while visiting the
// graph (spec/policies.md). A policy scores vertices and chooses among the
// candidate children at each level; the traverser does the walking.
//
// Adding a policy: one new file with a MatchPolicy subclass, plus one line
// in the registry (policies/registry.cc).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policies/id_order.h"
#include "policies/scoring.h"
#include "resource/graph.h"
#include "resource/jobspec.h"
#include "utilities/result.h"

namespace rq {

// What a policy needs to see of the traversal.
struct PolicyContext {
    const ResourceGraph& graph;
    SubsystemId dominant;
};

class MatchPolicy {
public:
    virtual ~MatchPolicy() = default;

    // Pre-order visit of a dominant vertex (after pruning). false: the
    // vertex fails.
    virtual bool discover(const PolicyContext&, VertexId) { return true; }
    // Post-order: check the children counts of the jobspec resources
    // matching u, choose among the candidates, set scores.score. false:
    // the vertex does not match.
    virtual bool finish_vtx(const PolicyContext&, VertexId u, const std::vector<JobResource>& resources,
                            ScoreSet& scores) = 0;
    // Sort every type's candidates inside a slot.
    virtual void finish_slot(const PolicyContext&, ScoreSet& scores) = 0;
    // Choose the top-level resources once the whole graph is walked.
    virtual bool finish_graph(const PolicyContext&, const std::vector<JobResource>& resources,
                              ScoreSet& scores) = 0;

    // The score finish_vtx() would give leaf `u` visited for a resource of
    // its type with nothing below it, when discover() and finish_vtx() of
    // such a visit change no policy state and accept it: the traverser then
    // skips the two calls and the leaf's empty score set (a walk visits one
    // leaf per core it could take). false: the policy cannot say, make the
    // calls.
    virtual bool leaf_score(const PolicyContext&, VertexId, int64_t&) const { return false; }

    // For a policy whose candidates rank by id-based score alone (and that
    // does not stop early): that order, so the traverser can walk the
    // candidates best first and stop (traversers/select_order.h). nullptr
    // otherwise.
    virtual const IdOrder* id_order() const { return nullptr; }

    // Policy switches read by the traverser.
    bool node_exclusive = false;    // every selected node is taken whole
    bool stop_on_first = false;     // early-stopping ordered child walk (§4.4)
};

// Creates the policy named by -P: a named policy or a custom
// "key=value ..." string (policies.md §2.1). Error message: the
// reference's "can't create matcher" text is added by the caller.
Result<std::unique_ptr<MatchPolicy>> make_policy(const std::string& spec);

// calc_count (policies.md §1): how many units of `r` to take when `q`
// qualified units are available. 32-bit unsigned arithmetic, as the
// reference.
uint32_t calc_count(const JobResource& r, uint32_t q);
inline uint32_t effective_max(const JobResource& r) { return calc_count(r, UINT32_MAX); }

// The comparators of policies.md §2.
bool score_greater(const EGroup& a, const EGroup& b);
bool score_less(const EGroup& a, const EGroup& b);

}  // namespace rq
