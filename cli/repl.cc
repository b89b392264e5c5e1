#include "cli/repl.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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
#include "session/build.h"
#include "session/queue.h"
#include "state/session_state.h"

namespace rq {

namespace {

// Start-up failures after option parsing (spec/cli.md §1).
int fail_startup(const std::string& message) {
    std::cerr << ": Runtime error: " << message << std::endl;
    return 1;
}

// The same for a Status, with its detail (ours) on the next line.
int fail_startup(const Status& failed) {
    fail_startup(failed.message());
    if (!failed.error().detail.empty()) std::cerr << "  " << failed.error().detail << std::endl;
    return 1;
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
    std::string source_text;
    // No file to read first: pools without one, and -f db (state/ opens
    // the state file itself, refusing what is not a regular file).
    bool no_source_file = options.load_format == "local" || options.load_format == "resource" ||
                       options.load_format == "db";
    if (!options.load_local_machine && !no_source_file && !read_file(options.load_file, source_text) &&
        options.state_file.empty())
        return fail_startup("resource_query_t: ERROR: can't read " + options.load_file + "\n");
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
        if (!exported) return fail_startup("resource_query_t: ERROR: " + exported.message() + "\n");
    }
    if (!options.test_output.empty()) {
        session.test_output.open(options.test_output, std::ios::trunc);
        if (!session.test_output)
            return fail_startup("resource_query_t: ERROR: can't open " + options.test_output + "\n");
    }

    json.reset();
    if (!options.replay.empty()) return run_replay(session);
    int status = run_commands(session);
    finish_queue(session);
    // Closes the files `save` and --state keep open: each folds its write-ahead
    // log back in, so FILE alone holds the session again.
    session.state.reset();
    session.out().flush();
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
