#include "cli/repl.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>

#include "cli/command_table.h"
#include "cli/json_output.h"
#include "cli/line_reader.h"
#include "cli/load_progress.h"
#include "utilities/file.h"
#include "resource/graph_export.h"
#include "session/allocation_picture.h"
#include "session/build.h"
#include "session/queue.h"
#include "state/session_state.h"

namespace rq {

namespace {

// Start-up failures after option parsing: one line, "resource-query: "
// and what is wrong, exit 1 (docs/differences.md "Errors and limits"). The reference's
// ": Runtime error: resource_query_t: ERROR: ...\n" framing (spec/cli.md
// §1) is pinned by no conformance case; its function-name prefixes and
// its GRUG lines that say nothing the detail does not are dropped.
std::string startup_line(std::string message, const std::string& detail) {
    for (const char* prefix : {"resource_query_t: ERROR: ", "initialize_matchers_and_traversers: ERROR: "})
        if (message.rfind(prefix, 0) == 0) message.erase(0, std::strlen(prefix));
    for (const char* noise : {"\nERROR: error generating resources", "error in reading grug string; "})
        if (size_t at = message.find(noise); at != std::string::npos) message.erase(at, std::strlen(noise));
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    for (size_t at; (at = message.find('\n')) != std::string::npos;) message.replace(at, 1, "; ");
    if (detail.empty()) return message;
    return message.empty() ? detail : message + ": " + detail;
}

int fail_startup(const std::string& message, const std::string& detail = "") {
    std::cerr << "resource-query: " << startup_line(message, detail) << std::endl;
    return 1;
}

int fail_startup(const Status& failed) { return fail_startup(failed.message(), failed.error().detail); }

int report_write_error(const std::string& what) {
    std::cerr << "resource-query: " << what << std::endl;
    return 1;
}

// Every answer reached its stream: false, with one line on stderr, when a
// write failed (a full disk, stdout on /dev/full; docs/formats.md
// "Limits on input files").
bool outputs_written(Session& session) {
    session.out().flush();
    std::cout.flush();
    if (session.test_output.is_open() && !session.test_output) {
        report_write_error("error writing " + session.options.test_output);
        return false;
    }
    if (!std::cout) {
        report_write_error("error writing standard output");
        return false;
    }
    return true;
}

// `-g dot -o BASE`: BASE.dot is the graph as loaded (kept byte for byte),
// BASE.final.dot the allocations when the session ends (docs/formats.md
// "A picture of the allocations"). False, with one line, if unwritable.
bool final_picture_written(const Session& session) {
    const Options& options = session.options;
    if (options.graph_output.empty() || options.graph_format != "dot") return true;
    std::string path = final_picture_path(options.graph_output), warning;
    Result<size_t> drawn = dump_allocations(session, path, AllocationDotOptions{}, warning);
    if (!drawn) {
        report_write_error(drawn.error().message);
        return false;
    }
    if (!warning.empty()) std::cerr << "WARNING: " << warning << std::endl;
    return true;
}

}  // namespace

void print_graph_stats(const ResourceGraph& g, double load_seconds) {
    std::cout << "INFO: Graph Load Time: " << load_seconds << "\n"
              << "INFO: Vertex Count: " << g.num_vertices() << "\n"
              << "INFO: Edge Count: " << g.num_edges() << "\n";
    size_t types = 0;
    for (TypeId t = 0; t < g.types().size(); ++t) types += !g.by_type(t).empty();
    std::cout << "INFO: by_type Key-Value Pairs: " << types << "\n"
              << "INFO: by_name Key-Value Pairs: " << g.distinct_names() << "\n"
              << "INFO: by_path Key-Value Pairs: " << g.by_path().key_count() << "\n";
    for (auto& [rank, vertices] : g.by_rank())
        std::cout << "INFO: number of vertices with rank " << rank << ": " << vertices.size() << "\n";
    std::cout.flush();
}

namespace {

// The resource paths one level below the word's parent path, in the
// dominant subsystem (the roots when the word has no parent).
std::vector<std::string> child_paths(const Session& session, const std::string& word) {
    constexpr size_t kMost = 2000;  // a completion list nobody reads is no help
    const ResourceGraph& g = *session.graph;
    SubsystemId dominant = g.subsystems().find(session.options.subsystems.front());
    std::vector<std::string> out;
    size_t slash = word.rfind('/');
    if (slash == std::string::npos || slash == 0) {
        if (g.has_root(dominant)) out.emplace_back(g.path(g.root(dominant), dominant));
        return out;
    }
    for (VertexId parent : g.at_path(word.substr(0, slash)))
        for (EdgeId e : g.out(parent)) {
            if (!g.edge_alive(e) || g.subsystem(e) != dominant) continue;
            std::string path = g.path(g.target(e), dominant);
            if (!path.empty() && out.size() < kMost) out.emplace_back(path);
        }
    return out;
}

CompletionContext completion_context(const Session& session) {
    CompletionContext context;
    for (auto& [id, job] : session.jobs)
        if (job.state != JobState::kCanceled) context.live_jobids.push_back(std::to_string(id));
    context.paths = [&session](const std::string& word) { return child_paths(session, word); };
    return context;
}

// The command loop; returns the exit status (1 when --fail-fast stopped a
// script).
int run_commands(Session& session) {
    const Options& options = session.options;
    LineReaderConfig config;
    config.prompt = !options.disable_prompt;
    config.history = !options.no_history;
    config.prompt_to_stderr = options.json;
    config.context = [&session] { return completion_context(session); };
    LineReader reader(std::move(config));
    session.interactive = reader.interactive();
    size_t line_number = 0;
    for (std::string line; reader.next(line);) {
        ++line_number;
        Next next = run_command_line(session, line);
        if (next == Next::kQuit) break;
        // An answer that could not be written (a full disk): stop; the
        // caller says so and exits non-zero.
        if (!session.out() || !std::cout) break;
        // Not at a terminal: a typo must not end a session and its jobs.
        if (next == Next::kFailed && options.fail_fast && !session.interactive) {
            std::optional<JsonCapture> json;
            if (options.json) json.emplace(session.json_streams());
            std::cerr << "resource-query: --fail-fast: stopped at input line " << line_number << ": " << line
                      << std::endl;
            return 1;
        }
    }
    // A command the --state file could not take was undone: say so in
    // the exit status.
    return state::unsaved_commands(session) > 0 ? 1 : 0;
}

}  // namespace

Status init_session(Session& session, const Options& options, const std::string& source_text) {
    auto start = std::chrono::steady_clock::now();
    LoadProgress progress(options.load_file, isatty(STDERR_FILENO));
    std::vector<std::string> warnings;
    Status loaded = load_session_graph(session, options, source_text, progress.callback(), &warnings);
    progress.finish();
    if (!loaded) return loaded;
    std::string source = options.load_local_machine ? "the local machine" : options.load_file;
    for (const auto& warning : warnings) std::cerr << "WARNING: " << source << ": " << warning << std::endl;
    double load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Status ready = finish_session(session);
    if (!ready) return ready;
    if (options.elapse_time) print_graph_stats(*session.graph, load_seconds);
    return Status();
}

state::FrontEnd repl_front_end() {
    state::FrontEnd front_end;
    front_end.init_session = init_session;
    front_end.print_graph_stats = print_graph_stats;
    front_end.run_line = [](Session& session, const std::string& line) { run_command_line(session, line); };
    return front_end;
}

int run_session(const Options& given) {
    Session session;
    Options options = given;
    // --json: start-up lines and errors as JSON lines too.
    std::optional<JsonCapture> json;
    if (options.json) json.emplace(std::vector<std::ostream*>{&std::cerr, &std::cout});
    std::string source_text, why;
    // No file to read first: pools without one, and -f db (state/ opens
    // the state file itself, refusing what is not a regular file).
    bool no_source_file = options.load_format == "local" || options.load_format == "resource" ||
                       options.load_format == "db";
    if (!options.load_local_machine && !no_source_file && !read_file(options.load_file, source_text, &why) &&
        options.state_file.empty())
        return fail_startup("can't read " + options.load_file + ": " + why);
    // A saved session (-f db, or a file with SQLite's header) or --state.
    if (state::is_state_request(options, source_text)) {
        Status resumed = state::start_session(session, options, source_text, repl_front_end());
        if (!resumed) return fail_startup(resumed);
    } else {
        Status ready = init_session(session, options, source_text);
        if (!ready) return fail_startup(ready);
        state::attach_journal(session, source_text);
    }
    options = session.options;
    if (!options.graph_output.empty()) {
        Status exported = export_graph(*session.graph, options.graph_format, options.graph_output);
        if (!exported) return fail_startup(exported.message());
    }
    if (!options.test_output.empty()) {
        session.test_output.open(options.test_output, std::ios::trunc);
        if (!session.test_output)
            return fail_startup("can't open " + options.test_output + ": " + std::strerror(errno));
    }

    if (Status queue_ready = check_queue_options(session); !queue_ready) return fail_startup(queue_ready);
    json.reset();
    if (!options.replay.empty()) {
        int replayed = run_replay(session);
        return final_picture_written(session) ? replayed : 1;
    }
    int status = run_commands(session);
    Status queue_written = finish_queue(session);
    // Closes the files `save` and --state keep open: each folds its write-ahead
    // log back in, so FILE alone holds the session again.
    session.state.reset();
    if (!queue_written) status = report_write_error(queue_written.message());
    if (!final_picture_written(session)) status = 1;
    if (!outputs_written(session)) status = 1;
#ifndef RQ_FULL_TEARDOWN
    // Freeing a session that holds hundreds of thousands of planners and
    // job records one by one costs more than many whole runs (about 0.8 s
    // of the 5 s 4,096-node benchmark), and the operating system reclaims
    // the memory at once anyway: with every output flushed, leave now.
    // Sanitizer builds keep the full teardown so that leaks are reported.
    session.test_output.close();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(status);
#endif
    return status;
}

}  // namespace rq
