// The resource-query session: load the graph, then read commands.
#pragma once

#include "cli/options.h"

namespace rq {

// Runs a whole session and returns the process exit status.
int run_session(const Options& options);

}  // namespace rq
