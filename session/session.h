// Session: everything one resource-query run (or one reapi_cli context)
// holds between commands. The operations on it are in session/operations.h.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "session/options.h"
#include "policies/match_policy.h"
#include "pools/pool_matcher.h"
#include "queue/simulator.h"
#include "resource/graph.h"
#include "resource/jobspec.h"
#include "resource/match_writer.h"
#include "resource/schedule.h"
#include "session/job_table.h"
#include "traversers/dfu.h"
#include "utilities/file.h"

namespace rq {

struct Session {
    Options options;
    std::unique_ptr<ResourceGraph> graph;
    std::unique_ptr<ScheduleStore> store;
    std::unique_ptr<MatchPolicy> policy;
    std::unique_ptr<DfuTraverser> traverser;
    std::unique_ptr<MatchWriter> writer;
    std::unique_ptr<pools::PoolMatcher> pool_matcher;  // `request`, made on first use

    // "out" of spec/cli.md §3: the -t file if given, else stdout.
    std::ofstream test_output;
    std::ostream& out() { return test_output.is_open() ? test_output : std::cout; }
    // What --json converts: stderr first, then every output stream.
    std::vector<std::ostream*> json_streams() {
        std::vector<std::ostream*> streams = {&std::cerr, &std::cout};
        if (test_output.is_open()) streams.push_back(&test_output);
        return streams;
    }

    // Commands come from a terminal: say what an unknown command is.
    bool interactive = false;

    // The job table and the counter of spec/cli.md §5.1.
    int64_t next_jobid = 1;
    JobTable jobs;
    std::shared_ptr<const std::string> last_jobspec_path;
    std::shared_ptr<const std::string> share_path(const std::string& path) {
        if (!last_jobspec_path || *last_jobspec_path != path)
            last_jobspec_path = std::make_shared<const std::string>(path);
        return last_jobspec_path;
    }
    bool is_live(int64_t id) const {
        const JobRecord* job = jobs.live(id);  // a stored job is canceled
        return job != nullptr && job->state != JobState::kCanceled;
    }

    // Parsed jobspecs by file content: scripts match the same file many
    // times, and YAML parsing costs more than the match itself. Bounded.
    std::map<std::string, Jobspec> jobspec_cache;
    std::string read_buffer;  // reused for every jobspec read
    // What the writer prints, before it becomes a match's R (session/
    // operations.cc): reused, its locale fixed once.
    std::ostringstream writer_text;

    // Match-time statistics fed by `update` (spec/cli.md §5.13 stat).
    double min_match_time = 1.79769e+308;
    double max_match_time = 0;
    double total_match_time = 0;
    int64_t timed_matches = 0;

    // ---- hooks for state/ (save, resume, --state journal) --------------
    // Every input file a command reads (jobspec, R, JGF) goes through
    // read_input, so that state/ can record it and replay it later without
    // the file. Null: read the file. Reads are bounded by `kind`
    // (utilities/file.h); `why`, if given, receives the reason of a failure.
    using InputReader = std::function<bool(const std::string& path, std::string& text, FileKind kind, std::string* why)>;
    InputReader input_reader;
    bool read_input(const std::string& path, std::string& text, FileKind kind = FileKind::kJobspec,
                    std::string* why = nullptr) {
        return input_reader ? input_reader(path, text, kind, why) : read_file(path, text, why, kind);
    }
    // Wraps each recognised command line; `run` runs it and returns true
    // to quit. Null: commands just run.
    std::function<bool(const std::vector<std::string>& args, const std::function<bool()>& run)> around_command;
    // state/'s own data (journal, save targets, the --state database).
    std::shared_ptr<void> state;

    // The simulated queue (session/queue.h), created by its first command.
    std::unique_ptr<queue::EventLog> queue_log;
    std::unique_ptr<queue::Simulator> queue;
};

}  // namespace rq
