// Building a session: the graph from the load file's text, then the
// schedule store, policy, traverser and writer. Shared by resource-query's
// start-up (cli/repl.cc) and reapi_cli_initialize (reapi/).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "session/session.h"
#include "utilities/result.h"

namespace rq {

// Loads session.graph from `source_text` as options say (options are
// copied into the session). What the reader leaves out is appended to
// `warnings`; `progress` is the GRUG generator's callback (may be empty).
// The error message is the start-up message to print.
Status load_session_graph(Session& session, const Options& options, const std::string& source_text,
                          const std::function<void(size_t, size_t)>& progress, std::vector<std::string>* warnings);

// The rest of the session over a loaded graph: store, policy, traverser
// (with session.options' subsystems, filters and traverser), writer.
Status finish_session(Session& session);

// Empties `session` of everything load_session_graph and finish_session
// build and its commands add (graph, schedule, jobs, counters, queue),
// in the order the parts refer to each other; its options, hooks, -t
// stream and state/ data stay. A session rebuilt from its state file
// starts so (docs/state.md, Durability).
void clear_session_content(Session& session);

}  // namespace rq
