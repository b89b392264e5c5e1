// The REPL's command table: name, one-line help, handler (spec/cli.md §5),
// and the abbreviation session/command_words.h gives the name. Each
// handler lives in a cmd_*.cc file by theme.
#pragma once

#include <string>
#include <vector>

#include "cli/session.h"
#include "session/command_words.h"

namespace rq {

// What a handler tells the REPL: go on, go on after a failure (reported;
// --fail-fast stops there), or end the session.
enum class Next { kContinue, kFailed, kQuit };

struct Command {
    const char* name;
    const char* help;
    Next (*run)(Session&, const Args&);
    const char* abbreviation = "";  // filled in from command_words()
};

// In the order `help` lists them.
const std::vector<Command>& command_table();

// Looks a command up by full name or abbreviation (find_command_word);
// nullptr if unknown.
const Command* find_command(const std::string& word);

// Splits a line on whitespace and runs it. Unknown first words (and `#`
// comments) are ignored silently, as in the reference, except that an
// interactive session (session.interactive) says so on stderr; an unknown
// word other than a `#` comment counts as a failed command (--fail-fast).
Next run_command_line(Session& session, const std::string& line);

// The long help of `help CMD` (every argument); "" if none.
const char* command_details(const std::string& name);  // command_help.cc

// Handlers, grouped by file.
Next cmd_match(Session&, const Args&);           // cmd_match.cc
Next cmd_multi_match(Session&, const Args&);     // cmd_match.cc
Next cmd_update(Session&, const Args&);          // cmd_dynamic.cc
Next cmd_attach(Session&, const Args&);          // cmd_dynamic.cc
Next cmd_remove(Session&, const Args&);          // cmd_dynamic.cc
Next cmd_partial_cancel(Session&, const Args&);  // cmd_dynamic.cc
Next cmd_find(Session&, const Args&);            // cmd_find.cc
Next cmd_cancel(Session&, const Args&);          // cmd_jobs.cc
Next cmd_list(Session&, const Args&);            // cmd_jobs.cc
Next cmd_info(Session&, const Args&);            // cmd_jobs.cc
Next cmd_stat(Session&, const Args&);            // cmd_jobs.cc
Next cmd_set_property(Session&, const Args&);    // cmd_resource.cc
Next cmd_get_property(Session&, const Args&);    // cmd_resource.cc
Next cmd_set_status(Session&, const Args&);      // cmd_resource.cc
Next cmd_get_status(Session&, const Args&);      // cmd_resource.cc
Next cmd_request(Session&, const Args&);         // cmd_pools.cc
Next cmd_hwdetect(Session&, const Args&);        // cmd_pools.cc
Next cmd_submit(Session&, const Args&);          // cmd_queue.cc
Next cmd_set_priority(Session&, const Args&);    // cmd_queue.cc
Next cmd_dequeue(Session&, const Args&);         // cmd_queue.cc
Next cmd_queue(Session&, const Args&);           // cmd_queue.cc
Next cmd_time(Session&, const Args&);            // cmd_queue.cc
Next cmd_advance(Session&, const Args&);         // cmd_queue.cc
Next cmd_run(Session&, const Args&);             // cmd_queue.cc
Next cmd_queue_add(Session&, const Args&);       // cmd_queue.cc
Next cmd_queue_manager(Session&, const Args&);   // cmd_queue.cc
Next cmd_cat(Session&, const Args&);             // command_table.cc
Next cmd_help(Session&, const Args&);            // command_table.cc
Next cmd_quit(Session&, const Args&);            // command_table.cc
Next cmd_save(Session&, const Args&);            // cmd_save.cc
Next cmd_dump(Session&, const Args&);            // command_table.cc
Next cmd_allocated(Session&, const Args&);       // cmd_queries.cc
Next cmd_available(Session&, const Args&);       // cmd_queries.cc

// --replay TRACE: runs the workload and returns the exit status.
int run_replay(Session&);                // cmd_queue.cc
// Start-up check of -Q, --queue-policy and --events-json, so that a bad
// one is refused before any command runs (cmd_queue.cc).
Status check_queue_options(const Session&);

// "ERROR: malformed command" on stderr (spec/cli.md §5).
Next malformed();
// "ERROR: can't open PATH" on stderr (spec/cli.md), then, indented, `why`
// when the refusal is ours (a device, a size limit, a silent pipe:
// docs/formats.md "Limits on input files"); a missing file or a directory
// keeps the reference's single line.
void print_cant_open(const std::string& path, const std::string& why);

}  // namespace rq
