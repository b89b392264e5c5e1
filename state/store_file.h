// The state file: one SQLite database holding a session (schema below).
//
// Schema (version 4; PRAGMA application_id = 0x52515354 "RQST",
// PRAGMA user_version = 4; older versions are refused, naming both):
//
//   meta(key TEXT PRIMARY KEY, value TEXT)
//       schema, session (a random id fixed by the first whole save),
//       journal_length, blob_count, next_jobid, match_time (the match
//       statistics), nodes_up, rows_exact (1: the rows below hold the
//       whole state), and every option that shapes later output:
//       load_format, load_file, load_allowlist, load_local_machine,
//       pool_resources, match_subsystems, subsystems, match_policy,
//       traverser, match_format, prune_filters, and the simulated queue's
//       queue_policy, queue_depth, reservation_depth, queues_file (-Q); and
//       five checksums (64-bit FNV-1a, hex): source_digest, options_digest
//       (the option keys above), blob_digest and journal_digest (chained
//       row by row, so that `save FILE changes` extends them), rows_digest
//       (the sum of every row's digest column, see state/rows.h);
//       queue_digest (the same for the queue rows, state/queue_rows.h).
//       Resuming recomputes them all.
//   source(id INTEGER PRIMARY KEY CHECK (id = 0), content BLOB)
//       the bytes of the resource description the session started from
//       (GRUG, JGF, R or hwloc XML; empty for local hwloc detection).
//   blob(id INTEGER PRIMARY KEY, content BLOB)
//       every distinct input file a command read (jobspec, R, JGF).
//   journal(seq INTEGER PRIMARY KEY, line TEXT, timing TEXT)
//       every state-changing command in order, with its measured times.
//   journal_input(seq INTEGER, ord INTEGER, path TEXT, blob INTEGER,
//                 PRIMARY KEY (seq, ord))
//       the files command `seq` read (blob -1: it could not read it).
//   job, vertex, subtree, vertex_job, span, multispan
//       the rows (state/rows.h): the job table, and per vertex its status,
//       properties, weights and schedule records.
//   graph_type, graph_subsystem, graph_kind, graph_count, graph_vertex,
//   graph_edge, graph_index
//       the graph itself (state/graph_rows.h): every vertex with every
//       attribute, every edge, the subsystems and roots, the paths and the
//       by-path index.
//   queue_state, queue_job, queue_source
//       the simulated queue (state/queue_rows.h): clock, counters, the last
//       pass's reservations and the queues' configuration; every pending,
//       reserved and running job; the text each job was submitted with.
//
// Resuming builds the graph from the graph rows and restores the other
// rows onto it when rows_exact is 1 (the source blob is then history);
// else it re-parses the source and replays the journal
// (state/session_state.cc). Commands that keep their effects in rows:
// see is_row_command (state/rows.h); any other, and a JQM queue, clears
// rows_exact.
#pragma once

#include <string>

#include "session/session.h"
#include "state/journal.h"
#include "state/queue_rows.h"
#include "state/rows.h"
#include "state/sqlite_db.h"
#include "utilities/result.h"

namespace rq::state {

inline constexpr int64_t kApplicationId = 0x52515354;  // "RQST"
inline constexpr int64_t kSchemaVersion = 4;

// Where a file stands relative to the journal: how many entries and blobs
// it holds.
struct Mark {
    std::string session;
    size_t entries = 0;
    size_t blobs = 0;
    // Running checksums of the blobs and journal entries up to here (see
    // Digest in store_file.cc): an incremental save extends them.
    uint64_t blob_digest = 0;
    uint64_t journal_digest = 0;
    // The queue rows the file holds (state/queue_rows.h); null: not read yet.
    std::shared_ptr<QueueKnown> queue = nullptr;
};

// What a state file holds, read back.
struct Snapshot {
    Options options;
    std::string source;
    Journal journal;
    Mark mark;
    // The rows (state/rows.h): whether they hold the whole state, their
    // checksum, and the session counters kept in meta.
    bool rows_exact = false;
    // meta journal_complete: the journal holds every command since the
    // session began (absent in older files: it did).
    bool journal_complete = true;
    uint64_t rows_digest = 0;
    int64_t next_jobid = 1;
    int64_t nodes_up = 0;
    // The -F jgf_shorthand / rv1_shorthand writer has left something out
    // (meta writer_left_out): its later documents say so.
    bool writer_left_out = false;
    Timing match_time;
};

// Opens `path` for reading a session: refuses a missing, foreign or corrupt
// file with one error naming it (a copy made without its -wal file: one
// that says so). `immutable`: read only, no lock, no -wal/-shm created.
Status open_existing(Database& db, const std::string& path, bool immutable = false);
// Whether the open database already holds a session (non-empty, ours).
Result<bool> holds_session(Database& db);

// Writes everything (one transaction) and returns the new mark; the
// vertex rows only when `rows_exact` (they hold the whole state).
Result<Mark> write_whole(Database& db, const Session& s, const std::string& source, const Journal& journal,
                         const std::string& session_id, bool rows_exact, bool journal_complete = true);

// Why a session whose rows cannot hold it and whose journal is not whole
// cannot be saved.
inline constexpr const char* kJournalMissing =
    "this session's state is no longer in rows (a JQM queue, or a remove of held resources), and its journal "
    "misses the commands run before its first save (a session without --state records none until then; start it "
    "with --state FILE, or --queue-policy jqm / -Q, to save it)";
// Appends the entries and blobs after `mark` and rewrites the rows of the
// `dirty` vertices and the touched jobs (one transaction). Refused if the
// file's own mark is not `mark` (not saved whole by this session, or
// changed since). Once `rows_exact` is false the vertex rows are dropped.
Result<Mark> write_changes(Database& db, const Session& s, const Journal& journal, const Mark& mark,
                           bool rows_exact, const Dirty& dirty);

Result<Snapshot> read_snapshot(Database& db);

// `text` with each control character written as \xHH: damaged rows are
// quoted in errors, which must stay one line and safe on a terminal.
std::string printable(const std::string& text);

}  // namespace rq::state
