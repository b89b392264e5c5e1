#include "cli/command_table.h"
#include "utilities/file.h"

#include "cli/json_output.h"
#include "session/allocation_picture.h"
#include "state/session_state.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>

namespace rq {

namespace {

// Each command's abbreviation is session/command_words.h's: one list of
// the words for the REPL and state/ (command_table_test.cc checks that the
// two lists name the same commands in the same order).
std::vector<Command> with_abbreviations(std::vector<Command> table) {
    for (Command& c : table) {
        const CommandWord* word = find_command_word(c.name);
        c.abbreviation = word != nullptr ? word->abbreviation : "";
    }
    return table;
}

}  // namespace

const std::vector<Command>& command_table() {
    static const std::vector<Command> table = with_abbreviations({
        {"match",
         "Match a jobspec (subcmd: allocate | allocate_with_satisfiability | "
         "allocate_orelse_reserve | satisfiability | without_allocating | "
         "without_allocating_future): resource-query> match allocate jobspec.yaml",
         cmd_match},
        {"multi-match",
         "Match several jobspecs in turn, stopping at the first failure: "
         "resource-query> multi-match allocate jobspec1.yaml jobspec2.yaml",
         cmd_multi_match},
        {"update",
         "Apply an existing allocation given as R (subcmd: allocate | reserve; reader: jgf | "
         "jgf_shorthand | rv1exec): resource-query> update allocate jgf R.json 5 0 3600",
         cmd_update},
        {"attach", "Grow the graph with a JGF subgraph: resource-query> attach subgraph.json",
         cmd_attach},
        {"remove",
         "Shrink the graph by path (true) or by an idset of ranks (false): "
         "resource-query> remove /cluster0/node1 true",
         cmd_remove},
        {"find",
         "Find resources matching an expression: resource-query> find status=down and "
         "sched-now=allocated",
         cmd_find},
        {"cancel", "Cancel an allocation or reservation: resource-query> cancel 1 [stats]",
         cmd_cancel},
        {"partial-cancel",
         "Release part of a job's resources (reader: jgf | rv1exec): "
         "resource-query> partial-cancel 1 rv1exec R.json [stats]",
         cmd_partial_cancel},
        {"set-property",
         "Set a property on a resource: resource-query> set-property /cluster0/node0 class=fast",
         cmd_set_property},
        {"get-property", "Print the properties of a resource: resource-query> get-property /cluster0/node0",
         cmd_get_property},
        {"set-status",
         "Mark a resource (and its subtree) up or down: resource-query> set-status /cluster0/node0 down",
         cmd_set_status},
        {"get-status", "Print whether a resource is up or down: resource-query> get-status /cluster0/node0",
         cmd_get_status},
        {"request",
         "Request amounts from resource pools (HyperQueue NAME=AMOUNT [\"AMOUNT STRATEGY\"] | all, "
         "canary NAME=N,NAME=N, CTest RESOURCE_GROUPS; subcmd: allocate | allocate_orelse_reserve | "
         "satisfiability; options -F FORMAT, --env NAME=TEMPLATE, --duration SECONDS): "
         "resource-query> request allocate cpus=\"8 scatter\" gpus/nvidia=1",
         cmd_request},
        {"hwdetect", "Print the resource pools detected on this machine (HyperQueue syntax): "
         "resource-query> hwdetect",
         cmd_hwdetect},
        {"list", "List all jobs: resource-query> list", cmd_list},
        {"info", "Print the state of one job: resource-query> info 1", cmd_info},
        {"stat", "Print overall matching statistics: resource-query> stat", cmd_stat},
        {"save",
         "Save the session to an SQLite file, whole or only what changed since the last save "
         "there; resume it with -f db -L FILE: resource-query> save state.db [changes]",
         cmd_save},
        {"dump",
         "Draw the graph with each job's vertices coloured and labelled by job id, as Graphviz DOT "
         "(held: only the jobs' vertices and their ancestors): resource-query> dump jobs.dot [held]",
         cmd_dump},
        {"allocated",
         "Print what a job (or any job) holds, in the -F format, or its counts by type: "
         "resource-query> allocated [JOBID] [--summary]",
         cmd_allocated},
        {"available",
         "Print what no job holds now (or at time T), in the -F format, or its counts by type: "
         "resource-query> available [--at T] [--summary]",
         cmd_available},
        {"submit",
         "Queue a jobspec or a pool request at the simulated time: resource-query> submit [--queue Q] "
         "[--priority 1-10] [--name DEF] [--runtime S] [--rm KEY=N] jobspec.yaml | [--duration S] request cpus=4",
         cmd_submit},
        {"set-priority", "Change a pending job's priority: resource-query> set-priority 3 8", cmd_set_priority},
        {"dequeue", "Remove a pending job from the queue: resource-query> dequeue 3", cmd_dequeue},
        {"queue", "Print the pending jobs in order, with state and reason: resource-query> queue", cmd_queue},
        {"time", "Print the simulated time: resource-query> time", cmd_time},
        {"advance", "Move the simulated clock: resource-query> advance 60", cmd_advance},
        {"run", "Run until nothing is pending or running: resource-query> run", cmd_run},
        {"queue-add",
         "Declare a queue with its own policy: resource-query> queue-add batch [--policy easy] "
         "[--queue-depth 32] [--reservation-depth 2]",
         cmd_queue_add},
        {"queue-manager",
         "Give a queue a JQM resource manager: resource-query> queue-manager batch quantity thread 3 | "
         "discrete gpu gpu0 gpu1 | highlander hl",
         cmd_queue_manager},
        {"cat", "Print a jobspec file: resource-query> cat jobspec.yaml", cmd_cat},
        {"help", "Print this help (or one command's): resource-query> help [command]", cmd_help},
        {"quit", "Exit the session: resource-query> quit", cmd_quit},
    });
    return table;
}

const Command* find_command(const std::string& word) {
    const CommandWord* command = find_command_word(word);
    if (command == nullptr) return nullptr;
    for (auto& c : command_table())
        if (std::strcmp(c.name, command->name) == 0) return &c;
    return nullptr;
}

namespace {

// A command ran out of memory part-way (the input files themselves are
// bounded, utilities/file.h): what it changed cannot be trusted, so the
// session ends with one line instead of an abort (docs/formats.md
// "Limits on input files").
[[noreturn]] void out_of_memory(const std::string& command) {
    std::cout.flush();
    std::cerr << "ERROR: " << command << ": out of memory; the session ends (what the command changed is not kept)"
              << std::endl;
    std::fflush(nullptr);
    std::_Exit(1);
}

}  // namespace

Next run_command_line(Session& session, const std::string& line) {
    std::istringstream in(line);
    Args args;
    for (std::string token; in >> token;) args.push_back(token);
    if (args.empty()) return Next::kContinue;
    std::optional<JsonCapture> json;
    if (session.options.json) json.emplace(session.json_streams());
    const Command* command = find_command(args[0]);
    if (command == nullptr) {
        if (args[0][0] == '#') return Next::kContinue;
        if (session.interactive || session.options.fail_fast)
            std::cerr << "unknown command '" << args[0] << "'; type help" << std::endl;
        return Next::kFailed;
    }
    Next next = Next::kContinue;
    try {
        if (session.around_command) {
            // (--state) the wrapper tells only whether to quit: keep the
            // handler's own answer for --fail-fast.
            const int64_t unsaved = state::unsaved_commands(session);
            bool quit = session.around_command(args, [&] {
                next = command->run(session, args);
                if (next == Next::kFailed) state::note_failed_command(session);
                return next == Next::kQuit;
            });
            if (quit) next = Next::kQuit;
            if (state::unsaved_commands(session) != unsaved) next = Next::kFailed;  // undone: its commit failed
        } else {
            next = command->run(session, args);
        }
    } catch (const std::bad_alloc&) {
        out_of_memory(args[0]);
    } catch (const CanceledJobsReadError& e) {  // docs/state.md, Memory
        std::cerr << args[0] << ": ERROR: " << e.what() << std::endl;
        next = Next::kFailed;
    }
    // One flush per command, not per line: whoever reads our output
    // through a pipe sees each answer whole (stderr is tied to stdout, so
    // error lines keep their place).
    session.out().flush();
    std::cout.flush();
    return next;
}

Next malformed() {
    std::cerr << "ERROR: malformed command" << std::endl;
    return Next::kFailed;
}

void print_cant_open(const std::string& path, const std::string& why) {
    std::cerr << "ERROR: can't open " << path << "\n";
    if (why != std::strerror(ENOENT) && why != std::strerror(EISDIR)) std::cerr << "  " << path << ": " << why << "\n";
    std::cerr.flush();
}

Next cmd_cat(Session&, const Args& args) {
    if (args.size() != 2) return malformed();
    std::string text, why;
    if (!read_file(args[1], text, &why, FileKind::kJobspec)) {
        // A directory opens but cannot be read: say so, never "success".
        std::cerr << "ERROR: can't open " << args[1] << "\n  " << args[1] << ": " << why << std::endl;
        return Next::kFailed;
    }
    std::cout << text;
    if (!text.empty() && text.back() != '\n') std::cout << "\n";
    std::cout << "INFO: Jobspec in " << args[1] << std::endl;
    return Next::kContinue;
}

Next cmd_help(Session&, const Args& args) {
    bool any = false;
    for (auto& c : command_table()) {
        if (args.size() > 1 && args[1] != c.name && args[1] != c.abbreviation) continue;
        std::cout << "INFO: " << c.name << " (" << c.abbreviation << ") -- " << c.help << "\n";
        if (args.size() > 1) std::cout << command_details(c.name);
        any = true;
    }
    if (!any) std::cout << "ERROR: unknown command: " << args[1] << "\n";
    std::cout.flush();
    return any ? Next::kContinue : Next::kFailed;
}

Next cmd_quit(Session&, const Args&) { return Next::kQuit; }

// The allocation picture (docs/formats.md "A picture of the allocations").
Next cmd_dump(Session& s, const Args& args) {
    bool held = args.size() == 3 && args[2] == "held";
    if (args.size() != 2 && !held) return malformed();
    AllocationDotOptions options;
    options.held_only = held;
    std::string warning;
    Result<size_t> drawn = dump_allocations(s, args[1], options, warning);
    if (!drawn) {
        std::cerr << "ERROR: dump: " << drawn.error().message << std::endl;
        return Next::kFailed;
    }
    if (!warning.empty()) std::cerr << "WARNING: dump: " << warning << std::endl;
    s.out() << "INFO: drew " << *drawn << " vertices in " << args[1] << "\n";
    return Next::kContinue;
}

}  // namespace rq
