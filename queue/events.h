// Queue events (docs/queue.md "Events"): one line per event on the output stream
// and, with --events-json FILE, one JSON object per line.
//
// Line format (documented in docs/queue.md):
//   EVENT <time> <event> job=<id> queue=<queue> [name=<name>] [key=value]...
// with, per event:
//   submit   priority=<p> estimate=<s> runtime=<s>
//   start    resources=<node[0-3]:core[0-7],...> (per node, RFC 22 hostlists)
//   reserve  at=<planned start> resources=<as start>
//   end      status=completed|killed (killed: the run time exceeded the
//            requested time and the job was stopped at the requested time)
//   reject   reason="<why>" (a pass's reject keeps the job's id; a submit
//            refused at once has none: job=- here, no "job" in JSON)
#pragma once

#include <cstdint>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "resource/match_writer.h"

namespace rq::queue {

struct Event {
    int64_t time = 0;
    std::string event;  // submit, start, reserve, end, reject
    int64_t job = 0;  // 0: none (a refused submit)
    std::string queue;
    std::string name;
    std::vector<std::pair<std::string, std::string>> fields;  // in print order
    const std::vector<std::string>* resources = nullptr;      // start, reserve
};

class EventLog {
public:
    // `lines` may be null (no line output, e.g. during --replay).
    explicit EventLog(std::ostream* lines) : lines_(lines) {}
    // Opens (truncates) the JSON-lines file; the error names the file.
    Status open_json(const std::string& path);
    void emit(const Event& e);
    void flush();
    // Flushes the JSON-lines file and says whether every write to it
    // succeeded (a full disk); the error names the file.
    Status check_json_written();
    // Whether events go anywhere (a replay without --events-json: no).
    bool active() const { return lines_ != nullptr || json_.is_open(); }

private:
    std::ostream* lines_;
    std::ofstream json_;
    std::string json_path_;
};

// A MatchWriter that keeps only the names of the leaf vertices of a match,
// each qualified by its node ("node3:core5"), in emission order; names()
// hands them out compacted ("node3:core[4-7]").
class ResourceCollector : public MatchWriter {
public:
    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    // The `first` policies re-weight every edge the update walk takes just
    // before handing it here: a shadow of the weights tells whether this
    // match changed any (the child order of later matches).
    void edge(const ResourceGraph& graph, EdgeId e, bool) override;
    bool reads_leaf_edges() const override { return false; }
    Status flush(std::ostream&) override { return ok_status(); }
    void reset() override;
    // Finishes the collected list and returns it (valid until reset()),
    // compacted per node as RFC 22 hostlists: "node[0-99]:core[0-7]".
    const std::vector<std::string>& names();
    // Leaves of type core among them.
    int64_t cores() const { return cores_; }
    // Every vertex emitted since reset(), names or not: the vertices the
    // match tagged with the job, which is all a cancel has to touch
    // (DfuTraverser::cancel_held). Moves the list out.
    std::vector<VertexId> take_held() { return std::move(held_); }
    const std::vector<VertexId>& held() const { return held_; }
    // The edges the update walk took (and re-weighted), in its order; not
    // those into leaves, which no update re-weights.
    std::vector<EdgeId> take_held_edges() { return std::move(held_edges_); }
    // Off: only count cores (no names are built; a replay without events).
    void keep_names(bool on) { keep_names_ = on; }
    // Whether an edge weight differed from the shadow since reset() (an
    // edge never seen before counts as changed).
    bool weights_changed() const { return weights_changed_; }

private:
    void compact_names();
    std::vector<std::string> names_;    // one per leaf, "node3:core5"
    std::vector<std::string> compact_;  // names(): names_ compacted
    std::vector<VertexId> held_;
    std::vector<EdgeId> held_edges_;
    size_t unqualified_ = 0;  // names_[unqualified_..] wait for their node
    int last_level_ = 0;
    int64_t cores_ = 0;
    bool keep_names_ = true;
    bool weights_changed_ = false;
    std::vector<uint64_t> shadow_;  // per edge: the weight last seen
    std::vector<bool> seen_;
};

}  // namespace rq::queue
