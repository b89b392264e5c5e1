#include "cli/options.h"

#include <getopt.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/algorithm/string/case_conv.hpp>
#include <cctype>
#include <cstdlib>

namespace rq {

namespace {

bool is_directory(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

bool only_spaces(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

const std::vector<std::string> kLoadFormats = {"grug",    "hwloc",  "jgf", "jgf_shorthand", "graphml",
                                               "rv1exec", "rv1exec_force", "db",
                                               // resource pools (pools/)
                                               "hq", "canary", "ctest", "local"};
const std::vector<std::string> kMatchFormats = {"simple", "pretty_simple", "jgf", "jgf_shorthand",
                                                "rlite",  "rv1",           "rv1_nosched",
                                                "rv1_shorthand",
                                                // environment variables (pools/env_writer.h)
                                                "env", "env_export"};

// Values of our long-only options (beyond any char getopt returns).
enum LongOnly { kVersion = 256, kNoHistory, kFailFast, kJson };

bool one_of(const std::string& v, const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), v) != list.end();
}

// Long-only options of the simulated queue (queue/).
enum QueueOption { kQueuePolicy = 2000, kQueueDepth, kReservationDepth, kEventsJson, kReplay, kReplayShift,
                   kReplayNodes, kReplayCsv, kReplayExhaustive };

bool parse_count(const std::string& s, int64_t& n) {
    if (s.empty() || s.size() > 12 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
        return false;
    n = std::stoll(s);
    return true;
}

Status parse_queue_option(int ch, const std::string& arg, Options& o) {
    switch (ch) {
    case kQueuePolicy: o.queue_policy = arg; return ok_status();
    case kQueueDepth:
        if (!parse_count(arg, o.queue_depth))
            return make_error(Errc::kInvalid, "[ERROR] --queue-depth needs a count (0 = all): " + arg);
        return ok_status();
    case kReservationDepth:
        if (!parse_count(arg, o.reservation_depth))
            return make_error(Errc::kInvalid, "[ERROR] --reservation-depth needs a count: " + arg);
        return ok_status();
    case kEventsJson: o.events_json = arg; return ok_status();
    case 'Q':
        if (!exists(arg)) return make_error(Errc::kInvalid, "[ERROR] file does not exist for --queues: " + arg);
        o.queues_file = arg;
        return ok_status();
    case kReplay:
        if (!exists(arg)) return make_error(Errc::kInvalid, "[ERROR] file does not exist for --replay: " + arg);
        o.replay = arg;
        return ok_status();
    case kReplayShift: o.replay_shift = true; return ok_status();
    case kReplayNodes: o.replay_nodes = true; return ok_status();
    case kReplayCsv: o.replay_csv = arg; return ok_status();
    case kReplayExhaustive: o.replay_exhaustive = true; return ok_status();
    default: return make_error(Errc::kInvalid, "");
    }
}

}  // namespace

Result<Options> parse_options(int argc, char** argv, std::vector<std::string>& warnings) {
    constexpr int kResourceOption = 1100;
    static const struct option long_options[] = {
        {"load-file", required_argument, nullptr, 'L'},
        {"load-format", required_argument, nullptr, 'f'},
        {"load-allowlist", required_argument, nullptr, 'W'},
        {"match-subsystems", required_argument, nullptr, 'S'},
        {"match-policy", required_argument, nullptr, 'P'},
        {"traverser-policy", required_argument, nullptr, 'T'},
        {"match-format", required_argument, nullptr, 'F'},
        {"graph-format", required_argument, nullptr, 'g'},
        {"graph-output", required_argument, nullptr, 'o'},
        {"prune-filters", required_argument, nullptr, 'p'},
        {"test-output", required_argument, nullptr, 't'},
        {"reserve-vtx-vec", required_argument, nullptr, 'r'},
        {"elapse-time", no_argument, nullptr, 'e'},
        {"disable-prompt", no_argument, nullptr, 'd'},
        {"help", no_argument, nullptr, 'h'},
        {"resource", required_argument, nullptr, kResourceOption},
        {"version", no_argument, nullptr, kVersion},
        {"no-history", no_argument, nullptr, kNoHistory},
        {"fail-fast", no_argument, nullptr, kFailFast},
        {"json", no_argument, nullptr, kJson},
        {"state", required_argument, nullptr, 1000},
        {"queues", required_argument, nullptr, 'Q'},
        {"queue-policy", required_argument, nullptr, kQueuePolicy},
        {"queue-depth", required_argument, nullptr, kQueueDepth},
        {"reservation-depth", required_argument, nullptr, kReservationDepth},
        {"events-json", required_argument, nullptr, kEventsJson},
        {"replay", required_argument, nullptr, kReplay},
        {"replay-shift", no_argument, nullptr, kReplayShift},
        {"replay-nodes", no_argument, nullptr, kReplayNodes},
        {"replay-csv", required_argument, nullptr, kReplayCsv},
        {"replay-exhaustive", no_argument, nullptr, kReplayExhaustive},
        {nullptr, 0, nullptr, 0},
    };
    Options o;
    bool prune_given = false;
    bool load_file_given = false;
    optind = 1;
    opterr = 1;  // getopt's own diagnostics for unknown options, as the reference
    int ch;
    while ((ch = getopt_long(argc, argv, "L:f:W:S:P:T:F:g:o:p:t:r:edhQ:", long_options, nullptr)) != -1) {
        std::string arg = optarg ? optarg : "";
        switch (ch) {
        case 'L':
            if (!exists(arg)) return make_error(Errc::kInvalid, "[ERROR] file does not exist for --load-file: " + arg);
            if (is_directory(arg))
                return make_error(Errc::kInvalid, "[ERROR] path passed to --load-file is a directory: " + arg);
            o.load_file = arg;
            load_file_given = true;
            break;
        case 'f':
            if (!one_of(arg, kLoadFormats))
                return make_error(Errc::kInvalid, "[ERROR] unknown format for --load-format: " + arg);
            o.load_format = arg;
            break;
        case 'W':
            if (!only_spaces(arg)) o.load_allowlist = arg;
            break;
        case 'S': {
            auto subsystems = resolve_subsystems(arg);
            if (!subsystems) return subsystems.error();
            o.match_subsystems = arg;
            o.subsystems = *subsystems;
            break;
        }
        case 'P': o.match_policy = arg; break;
        case 'T':
            if (arg != "simple" && arg != "flexible")
                return make_error(Errc::kInvalid, "[ERROR] unknown traverser policy for --traverser-policy: " + arg);
            o.traverser = arg;
            break;
        case 'F':
            if (!one_of(arg, kMatchFormats))
                return make_error(Errc::kInvalid, "[ERROR] unknown format for --match-format: " + arg);
            o.match_format = arg;
            break;
        case 'g': {
            std::string g = boost::algorithm::to_lower_copy(arg);
            if (g != "dot" && g != "graphml" && g != "jgf")
                return make_error(Errc::kInvalid, "[ERROR] unknown format for --graph-format: " + arg);
            o.graph_format = g;
            break;
        }
        case 'o': o.graph_output = arg; break;
        case 'p':
            if (only_spaces(arg)) break;
            o.prune_filters = prune_given ? o.prune_filters + "," + arg : arg;
            prune_given = true;
            break;
        case 't': o.test_output = arg; break;
        case 'r': {
            int n = std::atoi(arg.c_str());
            if (n < 0 || n > 2000000) warnings.push_back("WARN: out of range specified for --reserve-vtx-vec: " + arg);
            break;
        }
        case 'e': o.elapse_time = true; break;
        case 'd': o.disable_prompt = true; break;
        case 'h': o.show_help = true; return o;
        case kResourceOption: o.pool_resources.push_back(arg); break;
        case kVersion: o.show_version = true; return o;
        case kNoHistory: o.no_history = true; break;
        case kFailFast: o.fail_fast = true; break;
        case kJson: o.json = true; break;
        case 1000: o.state_file = arg; break;
        default: {
            Status queued = parse_queue_option(ch, arg, o);
            if (!queued) return queued.error();
            break;
        }
        }
    }
    if (optind < argc) return make_error(Errc::kInvalid, "");
    o.load_local_machine = o.load_format == "hwloc" && !load_file_given;
    // Resource pools: --resource alone builds a one-worker machine; hq,
    // canary and ctest read -L; local detects the machine.
    if (!o.pool_resources.empty() && o.load_format == "grug" && !load_file_given) o.load_format = "resource";
    bool pools = o.load_format == "resource" || o.load_format == "hq" || o.load_format == "canary" ||
                 o.load_format == "ctest" || o.load_format == "local";
    if (!o.pool_resources.empty() && !pools)
        return make_error(Errc::kInvalid, "[ERROR] --resource works alone or with --load-format=hq|canary|ctest|local, not " +
                                              o.load_format);
    if ((o.load_format == "hq" || o.load_format == "canary" || o.load_format == "ctest") && !load_file_given)
        return make_error(Errc::kInvalid, "[ERROR] --load-format=" + o.load_format + " needs --load-file=FILE");
    if (o.load_format == "local" || o.load_format == "resource") return o;
    if (!o.load_local_machine && o.state_file.empty() && !exists(o.load_file))
        return make_error(Errc::kInvalid, "[ERROR] file does not exist for --load-file: " + o.load_file);
    return o;
}

std::string version_line() {
#ifndef RQ_VERSION
#define RQ_VERSION "unknown"
#endif
    return std::string("resource-query ") + RQ_VERSION +
           " (clean-room reimplementation of Flux resource-query)";
}

const char* usage_text() {
    return R"(usage: resource-query [OPTIONS...]

Reads a resource graph (a GRUG recipe, JGF, rv1exec R or hwloc XML), then
reads commands from standard input: match a jobspec (RFC 14) against the
graph with a selection policy, allocate or reserve it in time, cancel,
find and inspect resources. Type "help" at the prompt for the commands.

OPTIONS:
    -h, --help
            Display this usage information

    -L, --load-file=filepath
            Input file from which to load the resource graph data store
            (default=conf/default)

    -f, --load-format=<grug|hwloc|jgf|jgf_shorthand|rv1exec|rv1exec_force|graphml|hq|canary|ctest|local>
            Format of the load file (default=grug). graphml: a graph
            written by -g graphml. hq: HyperQueue workers
            (YAML); canary: a canary resource_pool (JSON or YAML); ctest: a
            CTest resource specification (JSON); local: this machine as
            HyperQueue detects it (no file)

    --resource=NAME=DEF
            A HyperQueue resource pool of a one-worker machine (repeatable):
            [a, "b c"], [[a, b], [c, d]], range(S-E), NxM or sum(N)

    -W, --load-allowlist=<resource1[,resource2[,resource3...]]>
            Allowlist of resource types to be loaded (hwloc only; cluster
            is always added)

    -S, --match-subsystems=<CA|IBA|IBBA|PA|PFS1BA|VA|C+IBA|C+IBBA|C+PA|C+PFS1BA|IB+IBBA|C+P+IBA|V+PFS1BA|ALL>
            Set the predefined matcher to use. Available matchers are:
                CA: Containment Aware
                IBA: InfiniBand connection-Aware
                IBBA: InfiniBand Bandwidth-Aware
                PA: Power-Aware
                PFS1BA: Parallel File System 1 Bandwidth-aware
                VA: Virtual Hierarchy-Aware
                C+IBA: Containment and InfiniBand connection-Aware
                C+IBBA: Containment and InfiniBand Bandwidth-Aware
                C+PA: Containment- and Power-Aware
                C+PFS1BA: Containment and PFS1 Bandwidth-Aware
                IB+IBBA: InfiniBand connection and Bandwidth-Aware
                C+P+IBA: Containment-, Power- and InfiniBand connection-Aware
                V+PFS1BA: Virtual Hierarchy and PFS1 Bandwidth-Aware
                ALL: Aware of everything
            (default=CA)

    -P, --match-policy=<first|firstnodex|high|low|hinode|lonode|hinodex|lonodex|locality|variation|CUSTOM>
            Set the resource match selection policy (default=first).
            CUSTOM is a space-separated list of key=value pairs:
            policy=high|low node_centric=true|false
            node_exclusive=true|false stop_on_1_matches=true|false

    -T, --traverser-policy=<simple|flexible>
            Set the traverser policy (default=simple)

    -F, --match-format=<simple|pretty_simple|jgf|jgf_shorthand|rlite|rv1|rv1_nosched|rv1_shorthand|env|env_export>
            Specify the emit format of the matched resource set
            (default=simple). env: the environment variables HyperQueue,
            canary and CTest set, one quoted NAME='value' per line;
            env_export: `export` lines for eval (shell-safe names only)

    -p, --prune-filters=<HL-resource1:LL-resource1[,HL-resource2:LL-resource2...]...]>
            Install a planner-based filter at each High-Level (HL) resource
            vertex which tracks the state of the Low-Level (LL) resources
            in aggregate, residing under its subtree. If a jobspec requests
            1 node with 4 cores, and the visiting compute-node vertex has
            only a total of 2 available cores in aggregate at its
            subtree, this filter allows the traverser to prune a further
            descent to accelerate the search.
            Use the ALL keyword for HL-resource if you want LL-resource to be
            tracked at all of the HL-resource vertices. Examples:
                rack:node,node:core
                ALL:core,cluster:node,rack:node
            (default=ALL:core,ALL:node)

    -g, --graph-format=<dot|graphml|jgf>
            Format of the graph file written by --graph-output (default=dot)

    -o, --graph-output=<basename>
            Write the loaded resource graph to <basename>.dot,
            <basename>.graphml or <basename>.json (-g); the last two load
            back with -f graphml / -f jgf (the reference accepts this
            option but writes nothing)

    -t, --test-output=<filename>
            Write the match output and INFO blocks to <filename> instead
            of standard output

    -r, --reserve-vtx-vec=<size>
            Size hint for the vertex storage (accepted for compatibility;
            0 to 2000000)

    -e, --elapse-time
            Print timing and visit-count information

    -d, --disable-prompt
            Don't print the prompt

SIMULATED QUEUE (commands submit, queue, advance, run; see README):
    --queue-policy=<fcfs|easy|conservative|hybrid|jqm|jqm-skip>
            Policy of the queue's scheduling passes (default=fcfs)

    -Q, --queues=<queues.yaml>
            JQM queues, their resource managers and poll interval

    --queue-depth=<N>
            Pending jobs one pass considers; 0 = all (default=32)

    --reservation-depth=<N>
            Blocked jobs that get a reservation under hybrid

    --events-json=<filename>
            Also write every queue event as one JSON object per line

    --replay=<trace.swf|jobs.yaml>
            Run a whole workload (Standard Workload Format, or a YAML job
            list) instead of reading commands; print per-job CSV and a
            summary

    --replay-shift
            Shift the trace's times so that its first submit is at 0

    --replay-nodes
            Read SWF processor counts as whole nodes instead of cores

    --replay-csv=<filename>
            Write the per-job CSV there instead of the output stream

    --replay-exhaustive
            Recompute every pass from scratch (no reuse of the previous
            pass's outcomes): same results, slower; a check of the reuse
    --version
            Print the version and exit

    --no-history
            Neither read nor write the REPL history file
            ($HOME/.resource_query_history; only interactive sessions
            use it)

    --fail-fast
            When commands come from a pipe or a file: stop at the first
            command that fails (malformed, unreadable file, rejected, no
            match) and exit with status 1. Without it the exit status is
            0 whatever the commands did.

    --json
            Print every output line as one JSON value: result blocks as
            objects, JSON match output as objects, text output as
            strings, errors as {"error": ...}, so the output can be piped
            to jq
)";
}

}  // namespace rq
