// MatchWriter: turns the vertices and edges a match (or a find) emits into
// one of the reference's output formats (spec/output.md §1).
//
// The traverser emits in post-order: each vertex after its emitted
// descendants, each edge after its child's subtree. After the command the
// CLI calls flush(), which prints the collected text and resets the writer
// (the exceptions of output.md are each writer's business).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

struct VertexEmission {
    VertexId vertex = kNoVertex;
    int64_t needs = 0;            // allocated amount (find: the vertex size)
    bool exclusive = false;
    bool parent_exclusive = false;
    int level = 1;                // depth below the root, root = 1
    const std::map<std::string, std::string>* ephemeral = nullptr;  // jobspec labels
    const std::map<std::string, std::string>* agfilter = nullptr;   // find agfilter=true data
};

class MatchWriter {
public:
    virtual ~MatchWriter() = default;
    virtual void vertex(const ResourceGraph& graph, const VertexEmission& v) = 0;
    virtual void edge(const ResourceGraph& graph, EdgeId e, bool parent_exclusive) = 0;
    // False for a writer whose edge() ignores edges into leaves (the
    // queue's collector): the update walk then spares it a call per leaf
    // it holds at the parent (traversers/dfu_leaf_holds.cc).
    virtual bool reads_leaf_edges() const { return true; }
    // The job's time window (find: 0, 0).
    virtual void time(int64_t start, int64_t end) {}
    // A job attribute (the jobspec's queue).
    virtual void attribute(const std::string& key, const std::string& value) {}
    // Prints the collected text to `out` and resets. Errors carry the
    // reference's codes: kNotFound (ENOENT) for JGF with vertices but no
    // edges, kInvalid (EINVAL) for R_lite with nothing to print.
    virtual Status flush(std::ostream& out) = 0;
    // Forgets everything collected.
    virtual void reset() = 0;
    // What a writer carries from one document to the next of a session
    // (jgf_shorthand's "something was left out"), so that a saved session
    // resumes it (state/).
    virtual bool left_out() const { return false; }
    virtual void set_left_out(bool) {}
};

// -F names: simple, pretty_simple, jgf, jgf_shorthand, rlite, rv1,
// rv1_nosched, rv1_shorthand.
Result<std::unique_ptr<MatchWriter>> make_writer(const std::string& format);

// "      ---...": 6 spaces and "---" per level (output.md §1.1).
std::string level_prefix(int level);

}  // namespace rq
