// The text writers (spec/output.md §1.1, §1.2): one line per vertex,
// "<prefix><name>[<needs>:<x|s>]" in emission order, or with
// exclusive/shared in reverse order (pretty_simple).
#pragma once

#include <string>
#include <vector>

#include "resource/match_writer.h"

namespace rq {

class SimpleWriter : public MatchWriter {
public:
    explicit SimpleWriter(bool pretty) : pretty_(pretty) {}
    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    void edge(const ResourceGraph&, EdgeId, bool) override {}
    Status flush(std::ostream& out) override;
    void reset() override { text_.clear(), starts_.clear(); }

private:
    bool pretty_;
    // Every line in one buffer (a whole node under *nodex emits ~80 per
    // match); starts_ are the line offsets, for the reversed pretty order.
    std::string text_;
    std::vector<size_t> starts_;
};

}  // namespace rq
