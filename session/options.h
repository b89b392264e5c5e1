// The options a session is built with (spec/cli.md §1, §2): what the
// command line (cli/options.h) or reapi_cli_initialize's JSON
// (reapi/init_options.h) resolve to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "utilities/result.h"

namespace rq {

struct Options {
    std::string load_file = "conf/default";
    std::string load_format = "grug";
    std::string load_allowlist;  // hwloc only
    std::string match_subsystems = "CA";
    std::vector<std::string> subsystems = {"containment"};  // resolved -S, dominant first
    std::string match_policy = "first";
    std::string traverser = "simple";
    std::string match_format = "simple";
    std::string prune_filters = "ALL:core,ALL:node";
    std::string test_output;     // -t
    std::string state_file;      // --state: journal every command there
    std::string graph_format = "dot";
    std::string graph_output;    // -o BASE
    bool elapse_time = false;
    bool disable_prompt = false;
    bool show_help = false;
    bool show_version = false;   // --version
    // Additions of our own (long options only, so the reference's short
    // option string stays as it is): docs/matching.md "Scripting and the REPL".
    bool no_history = false;     // --no-history: don't read or write ~/.resource_query_history
    bool fail_fast = false;      // --fail-fast: a script stops, exit 1, at the first failed command
    bool json = false;           // --json: every output line is one JSON value
    // -f hwloc without -L: detect the machine resource-query runs on.
    bool load_local_machine = false;
    // --resource NAME=DEF (HyperQueue pools; pools/), in order.
    std::vector<std::string> pool_resources;
    // The simulated queue (queue/, docs/queue.md).
    std::string queue_policy = "fcfs";  // --queue-policy
    int64_t queue_depth = 32;           // --queue-depth (0 = all)
    int64_t reservation_depth = 0;      // --reservation-depth (hybrid)
    std::string events_json;            // --events-json FILE
    std::string queues_file;            // -Q queues.yaml (JQM queues and resource managers)
    std::string replay;                 // --replay TRACE (.swf or YAML job list)
    bool replay_shift = false;          // --replay-shift: first submit at 0
    bool replay_nodes = false;          // --replay-nodes: SWF processors are whole nodes
    std::string replay_csv;             // --replay-csv FILE (default: output stream)
    bool replay_exhaustive = false;     // --replay-exhaustive: no pass reuse (the oracle)
    std::string replay_request;         // --replay-request TEMPLATE (pool machines)
    bool replay_partition_queues = false;  // --replay-queues partition (SWF field 16)
    bool replay_completed_only = false; // --replay-status completed
    std::string replay_summary;         // --replay-summary FILE.json
    std::string replay_series;          // --replay-series FILE.csv
    int64_t replay_slowdown_bound = 10; // --replay-slowdown-bound SECONDS
    int64_t replay_top_users = 10;      // --replay-top-users N
    // The long names of the options written on the command line ("match-policy",
    // "load-file", ...), whatever their value: a resume refuses a setting
    // that was given, not only one that differs from its default
    // (docs/state.md "Settings given with a resume").
    std::vector<std::string> given;
    bool was_given(const std::string& long_name) const {
        for (const std::string& g : given)
            if (g == long_name) return true;
        return false;
    }
};

// Resolves a -S selector (e.g. "C+PA", or in lowercase) to subsystem
// names, dominant first.
Result<std::vector<std::string>> resolve_subsystems(const std::string& selector);

}  // namespace rq
