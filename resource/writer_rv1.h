// The RV1 writers (spec/output.md §1.6): Flux's resource set "R" version 1,
//
//     {"version": 1,
//      "execution": {"R_lite": [...], "nodelist": ["node[0-3]"],
//                    "properties": {...}, "starttime": S, "expiration": E},
//      "scheduling": <JGF document>,
//      "attributes": {"system": {"scheduler": {"queue": "<q>"}}}}
//
// on one line. `rv1_nosched` leaves out "scheduling", `rv1_shorthand` uses
// the jgf_shorthand document there; "properties" and "attributes" appear
// only when there is something to put in them.
//
// With nothing for R_lite these writers print nothing and forget what they
// collected (the reference keeps it, so the JGF part of rv1 carried over
// into the next job's R).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "resource/writer_jgf.h"
#include "resource/writer_rlite.h"

namespace rq {

class Rv1Writer : public MatchWriter {
public:
    enum class Scheduling { kJgf, kNone, kJgfShorthand };  // rv1, rv1_nosched, rv1_shorthand

    explicit Rv1Writer(Scheduling scheduling);

    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    void edge(const ResourceGraph& graph, EdgeId e, bool parent_exclusive) override;
    void time(int64_t start, int64_t end) override;
    // Only "queue" is part of RV1; other attributes are ignored.
    void attribute(const std::string& key, const std::string& value) override;
    // Prints the document and a newline, then resets; prints nothing when
    // R_lite is empty (and resets too). Errors of the JGF part
    // (kNotFound) are passed on.
    Status flush(std::ostream& out) override;
    void reset() override;
    bool left_out() const override { return jgf_ && jgf_->left_out(); }
    void set_left_out(bool left_out) override {
        if (jgf_) jgf_->set_left_out(left_out);
    }

private:
    RliteWriter rlite_;
    std::unique_ptr<JgfWriter> jgf_;  // null for rv1_nosched
    int64_t starttime_ = 0;
    int64_t expiration_ = 0;
    std::optional<std::string> queue_;
};

}  // namespace rq
