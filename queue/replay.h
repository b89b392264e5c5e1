// --replay: a whole workload through the simulated queue, then the per-job
// CSV and the summary (docs/queue.md).
#pragma once

#include <csignal>
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
    std::string summary_json;  // --replay-summary: the summary as one JSON object
    std::string series;        // --replay-series: the time series CSV (queue/replay_series.h)
    // What --replay-summary says the run was: the machine (the -L file,
    // or the pool machine's description) and the match policy (-P).
    std::string machine;
    std::string match_policy;
    bool progress = false;     // a progress line on `err` (a terminal)
    QueuePolicy policy;
    bool exhaustive = false;   // recompute every pass from scratch (no reuse): the oracle
    InputReader read;          // jobspec files and YAML lists (the session's read_input)
    // A pool machine (-f hq|canary|ctest|local, --resource): each sized job
    // becomes the pool request `request_template` with {size} and {mem}
    // replaced (default "cpus={size}"), served by the pool matcher.
    bool pool_machine = false;
    std::string request_template;
    bool completed_only = false;    // --replay-status completed
    bool partition_queues = false;  // --replay-queues partition
    int64_t slowdown_bound = 10;    // --replay-slowdown-bound
    size_t top_users = 10;          // --replay-top-users
    // Set (by a signal handler) to stop the replay: the summary so far is
    // printed, marked partial, and replay() returns an error.
    const volatile std::sig_atomic_t* stop = nullptr;
};

// The default request of a sized job on a pool machine.
inline constexpr const char* kDefaultReplayRequest = "cpus={size}";

// Prints the CSV (unless written to a file) and the SUMMARY lines to
// `out`, skipped-line counts to `err`.
Status replay(DfuTraverser& traverser, const ReplayConfig& config, std::ostream& out, std::ostream& err);

}  // namespace rq::queue
