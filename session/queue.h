// The simulated queue of a session (docs/queue.md):
// made by the first queue command from the command-line settings, the jobs
// it takes (a jobspec file or a pool request), --replay and the end of a
// run. Every front end goes through here rather than to queue/; printing is
// the caller's business (as in session/operations.h).
#pragma once

#include <csignal>
#include <cstdint>
#include <ostream>
#include <string>

#include "queue/simulator.h"
#include "session/session.h"
#include "utilities/result.h"

namespace rq {

// The session's queue, made on first use with --queue-policy, -Q and
// --events-json. The error names the option at fault.
Result<queue::Simulator*> session_queue(Session& s);

// What a queue added later (queue-add) takes from the command line.
queue::PolicyDefaults queue_policy_defaults(const Session& s);

// A queue job's shape, its estimate and its source: from the jobspec file
// `path` (its duration is the estimate), or from the pool request `items`
// (`duration`, else an hour). A request that can never fit is refused here.
Status shape_jobspec_job(Session& s, const std::string& path, queue::QueueJob& job);
Status shape_pool_job(Session& s, const std::string& items, int64_t duration, queue::QueueJob& job);

// A submit the queue refuses (it can never run there) is a `reject` event
// without a job id (docs/queue.md, "Events"), so that a script reading
// --events-json sees it. `why` names `what` was submitted first (the
// shape's errors) or not. Nothing without a queue.
void log_queue_reject(Session& s, const queue::QueueJob& job, const std::string& what, const std::string& why);

// --replay: the trace through a queue of its own, its report on the
// session's out stream and its warnings on `err`; a signal number set in
// `*stop` ends it early (its summary so far printed). The error names the
// option at fault.
Status replay_trace(Session& s, std::ostream& err, const volatile std::sig_atomic_t* stop = nullptr);

// Settles the simulated queue at end of input (its last pass runs), then
// flushes its event log; an error if its --events-json file could not be
// written.
Status finish_queue(Session& s);

// Start-up checks of the queue's settings (--events-json writable,
// --queue-policy, -Q readable and valid), so that a bad one is refused
// before the first command (docs/queue.md).
Status check_queue_options(const Session& s);

}  // namespace rq
