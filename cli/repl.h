// The resource-query session: load the graph, then read commands.
#pragma once

#include <string>

#include "cli/options.h"
#include "cli/session.h"
#include "state/session_state.h"
#include "utilities/result.h"

namespace rq {

// Runs a whole session and returns the process exit status.
int run_session(const Options& options);

// Builds `session` from `options`: loads the graph from `source_text` (the
// -L file's contents; unused for local hwloc detection), then the policy,
// traverser and writer. The error message is the start-up message to print.
Status init_session(Session& session, const Options& options, const std::string& source_text);

// The -e start-up lines: load time and the graph's counts.
void print_graph_stats(const ResourceGraph& graph, double load_seconds);

// What state/ asks of this front end to resume or start a saved session:
// init_session, print_graph_stats, and run_command_line to replay journal
// lines.
state::FrontEnd repl_front_end();

}  // namespace rq
