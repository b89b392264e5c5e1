// The resource-query session: load the graph, then read commands.
#pragma once

#include "cli/options.h"
#include "cli/session.h"

namespace rq {

// Runs a whole session and returns the process exit status.
int run_session(const Options& options);

// Loads the graph of session.options and builds the matcher, the writer
// and the -t file; 0, or the exit status after printing the start-up error.
int start_session(Session& session);

}  // namespace rq
