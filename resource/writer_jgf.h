// The JSON Graph Format writers (spec/output.md §1.3, §1.4): the emitted
// vertices and edges as one line
//
//     {"graph": {"nodes": [V...], "edges": [E...]}}
//
// `jgf_shorthand` leaves out everything below an exclusive vertex (the
// top of each exclusive subtree stands for the whole subtree) and, once it
// has left something out, tags every later document of the session with
// `"writer": "fluxion:jgf_shorthand"`.
//
// The rv1 writers embed the same document as their "scheduling" key, so
// the text is also available through document().
#pragma once

#include <string>
#include <vector>

#include "resource/match_writer.h"

namespace rq {

class JgfWriter : public MatchWriter {
public:
    explicit JgfWriter(bool shorthand) : shorthand_(shorthand) {}

    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    void edge(const ResourceGraph& graph, EdgeId e, bool parent_exclusive) override;
    // Prints the document and a newline (nothing when nothing was
    // emitted), then resets. kNotFound when only vertices or only edges
    // were emitted; the collected data is then kept (the CLI resets).
    Status flush(std::ostream& out) override;
    void reset() override;
    bool left_out() const override { return suppressed_; }
    void set_left_out(bool left_out) override { suppressed_ = shorthand_ && left_out; }

    // The document text without a newline: "" when nothing was emitted,
    // kNotFound when only vertices or only edges were.
    Result<std::string> document() const;

private:
    bool shorthand_;
    // jgf_shorthand: something was left out at some point of the session.
    // Deliberately survives reset() (output.md §1.4).
    bool suppressed_ = false;
    // Each vertex and edge object is turned into text when emitted: the
    // vertex's labels may change before the flush, and text is cheaper to
    // keep than JSON trees for large allocations.
    std::vector<std::string> nodes_;
    std::vector<std::string> edges_;
};

}  // namespace rq
