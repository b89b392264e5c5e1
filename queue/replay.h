// --replay: a whole workload through the simulated queue, then the per-job
// CSV and the summary (docs/queue.md).
#pragma once

#include <ostream>
#include <string>

#include "queue/policy.h"
#include "queue/trace.h"
#include "traversers/dfu.h"

namespace rq::queue {

struct ReplayConfig {
    std::string trace;
    bool shift = false;        // first submit at 0
    bool whole_nodes = false;  // SWF sizes are nodes
    std::string csv;           // per-job CSV file; empty = `out`
    std::string events_json;   // optional JSON-lines event log
    QueuePolicy policy;
    bool exhaustive = false;   // recompute every pass from scratch (no reuse): the oracle
    InputReader read;          // jobspec files and YAML lists (the session's read_input)
};

// Prints the CSV (unless written to a file) and the SUMMARY lines to
// `out`, skipped-line counts to `err`.
Status replay(DfuTraverser& traverser, const ReplayConfig& config, std::ostream& out, std::ostream& err);

}  // namespace rq::queue
