// The simulated queue's rows in the state file (schema 4): the clock and
// the queues' configuration (queue_state), every pending, reserved and
// running job (queue_job) and what each job was submitted with
// (queue_source: the jobspec's text or "request ITEMS", written once per
// job). With them a session that used submit, set-priority, dequeue,
// queue, time, advance, run, queue-add, queue-manager or request resumes
// from rows (meta rows_exact stays 1). JQM's policies (jqm, jqm-skip) keep
// their managers' state in graphs of their own, which these rows do not
// hold: a session with a JQM queue resumes from the journal.
//
// Each row has a digest column; meta queue_digest is their sum mod 2^64.
// An incremental save rewrites the queue_state row and the queue_job rows
// whose contents changed since that file's last save (found by comparing
// each job's row digest with the one the file holds; the file's digests
// are read once per session and then kept with the save mark), and only
// when a queue command ran since. Writes are O(changed jobs); the
// comparison is O(queued jobs) in memory, about what one pass costs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "session/session.h"
#include "state/journal.h"
#include "state/rows.h"
#include "state/sqlite_db.h"
#include "utilities/result.h"

namespace rq::state {

extern const char* const kQueueSchema;

// What a file holds of the queue: each job row's digest, and the sum of
// every queue row's digest (meta queue_digest).
struct QueueKnown {
    std::unordered_map<int64_t, uint64_t> jobs;
    uint64_t sum = 0;
};

// A save's changes to QueueKnown, applied once the save committed.
struct QueueDelta {
    std::shared_ptr<QueueKnown> known;  // the file's, or a new one
    std::vector<std::pair<int64_t, uint64_t>> put;
    std::vector<int64_t> removed;
    uint64_t sum = 0;
    bool any = false;
    void apply() const;
};

// Commands whose effects the queue rows keep (submit ... queue-manager,
// request, hwdetect).
bool is_queue_row_command(const std::string& word);

// Whether the rows can hold this session's queue: none yet, or one whose
// policy is not JQM's.
bool queue_rows_hold(const Session& s);

// Writes every queue row (after the caller cleared them with
// clear_queue_rows); `delta` replaces the mark's knowledge.
Status write_all_queue_rows(Database& db, const Session& s, QueueDelta& delta);
// Rewrites what changed if a queue command is among the journal's entries
// from `from` on; `known` is the file's (null: read from the file).
Status write_queue_changes(Database& db, const Session& s, const Journal& journal, size_t from,
                           const std::shared_ptr<QueueKnown>& known, QueueDelta& delta);
Status clear_queue_rows(Database& db);

// Rebuilds the simulator from the rows onto a session just restored from
// its vertex rows; refuses damaged rows with one error naming the file
// and the row.
Status restore_queue_rows(Database& db, Session& s);

// Calls `touched` with every job whose records change while the session's
// simulator runs (installed once the simulator exists).
// The queue_state row's `config` column back to the queues (false: damaged).
bool decode_queue_config(const std::string& text, queue::JqmConfig& c);

void watch_queue_holds(Session& s, std::function<void(const queue::QueueJob&)> touched);

}  // namespace rq::state
