// Saving and resuming a session (RFC 16 Load/Save): the hooks that journal
// a session's state-changing commands, `save FILE [changes]`, resuming from
// a state file (-f db, or any file with SQLite's header), and --state FILE
// (every state-changing command committed before its output is printed).
#pragma once

#include <functional>
#include <string>

#include "session/options.h"
#include "session/session.h"
#include "utilities/result.h"

namespace rq::state {

// What state/ asks of the front end that reads the commands (cli/repl.h's
// repl_front_end()): it starts sessions and runs command lines, and state/
// never calls up into it.
struct FrontEnd {
    // Builds a session from options and the -L text, as a fresh start does
    // (with its start-up messages). The error is the start-up message.
    std::function<Status(Session&, const Options&, const std::string& text)> init_session;
    // -e after a session started from the saved graph rows (no -L text):
    // the graph's load time and counts, as init_session prints them.
    std::function<void(const ResourceGraph&, double load_seconds)> print_graph_stats;
    // Runs one command line again (replaying the journal); its output is
    // discarded.
    std::function<void(Session&, const std::string& line)> run_line;
};

// Whether start-up goes through start_session: -f db, --state, or a -L file
// whose contents (`text`) begin with SQLite's header.
bool is_state_request(const Options& options, const std::string& text);

// Builds `session` for such a request: resumes the saved session (its
// settings, with what the command line may change applied or refused:
// state/resume_options.h), or, for a new --state file, starts from -L and
// saves it whole; a --state file is locked for the session's life
// (state/state_path.h). `text` is the -L
// file's contents. Also installs the journal hooks.
Status start_session(Session& session, const Options& options, const std::string& text, const FrontEnd& front_end);

// Installs the journal hooks on a session built by init_session from
// `source` (the -L contents), so that `save` works. Idempotent.
void attach_journal(Session& session, const std::string& source);

// Keeps the journal of every command from here on, as --state and a
// JQM queue do: a session without --state records none until its first
// save, so a later `save` of a state no row holds (a remove of held
// resources) is refused. Call before the first command (tests, embedders).
void keep_journal(Session& session);

// Whether `session` was resumed from the state file's rows (rather than
// by replaying its journal).
bool resumed_from_rows(const Session& session);

// The front end's word that the command being run failed (its input
// files are then kept only if it can have used them).
void note_failed_command(Session& session);

// Commands whose --state commit failed (a full disk): each was undone and
// printed no result; the session then ends with a non-zero status (README
// "Saving and resuming a session", Durability).
int64_t unsaved_commands(const Session& session);

// `save FILE` / `save FILE changes`: the whole session or only what changed
// since the last save to FILE; prints one INFO line or one ERROR line.
Status save(Session& session, const std::string& path, bool changes_only);

}  // namespace rq::state
