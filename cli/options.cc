#include "cli/options.h"

#include <getopt.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/algorithm/string/case_conv.hpp>
#include <cctype>
#include <cstdlib>

#include "cli/default_recipe.h"
#include "cli/option_table.h"

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

bool one_of(const std::string& v, const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), v) != list.end();
}

bool parse_count(const std::string& s, int64_t& n) {
    if (s.empty() || s.size() > 12 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
        return false;
    n = std::stoll(s);
    return true;
}

Status parse_queue_option(int ch, const std::string& arg, Options& o) {
    switch (ch) {
    case kOptQueuePolicy: o.queue_policy = arg; return ok_status();
    case kOptQueueDepth:
        if (!parse_count(arg, o.queue_depth))
            return make_error(Errc::kInvalid, "[ERROR] --queue-depth needs a count (0 = all): " + arg);
        return ok_status();
    case kOptReservationDepth:
        if (!parse_count(arg, o.reservation_depth))
            return make_error(Errc::kInvalid, "[ERROR] --reservation-depth needs a count: " + arg);
        return ok_status();
    case kOptEventsJson: o.events_json = arg; return ok_status();
    case 'Q':
        if (!exists(arg)) return make_error(Errc::kInvalid, "[ERROR] file does not exist for --queues: " + arg);
        o.queues_file = arg;
        return ok_status();
    case kOptReplay:
        if (!exists(arg)) return make_error(Errc::kInvalid, "[ERROR] file does not exist for --replay: " + arg);
        o.replay = arg;
        return ok_status();
    case kOptReplayShift: o.replay_shift = true; return ok_status();
    case kOptReplayNodes: o.replay_nodes = true; return ok_status();
    case kOptReplayCsv: o.replay_csv = arg; return ok_status();
    case kOptReplayExhaustive: o.replay_exhaustive = true; return ok_status();
    case kOptReplayRequest:
        if (arg.empty()) return make_error(Errc::kInvalid, "[ERROR] --replay-request needs a request, such as cpus={size}");
        o.replay_request = arg;
        return ok_status();
    case kOptReplayQueues:
        if (arg != "queue" && arg != "partition")
            return make_error(Errc::kInvalid, "[ERROR] --replay-queues must be queue or partition, not '" + arg + "'");
        o.replay_partition_queues = arg == "partition";
        return ok_status();
    case kOptReplayStatus:
        if (arg != "all" && arg != "completed")
            return make_error(Errc::kInvalid, "[ERROR] --replay-status must be all or completed, not '" + arg + "'");
        o.replay_completed_only = arg == "completed";
        return ok_status();
    case kOptReplaySummary: o.replay_summary = arg; return ok_status();
    case kOptReplaySeries: o.replay_series = arg; return ok_status();
    case kOptReplaySlowdownBound:
        if (!parse_count(arg, o.replay_slowdown_bound) || o.replay_slowdown_bound < 1)
            return make_error(Errc::kInvalid, "[ERROR] --replay-slowdown-bound needs a number of seconds >= 1: " + arg);
        return ok_status();
    case kOptReplayTopUsers:
        if (!parse_count(arg, o.replay_top_users))
            return make_error(Errc::kInvalid, "[ERROR] --replay-top-users needs a count: " + arg);
        return ok_status();
    default: return make_error(Errc::kInvalid, "");
    }
}

}  // namespace

// The values -f and -F accept; --help's placeholders name the same
// (option_table_test.cc checks both ways).
const std::vector<std::string>& load_formats() {
    static const std::vector<std::string> formats = {"grug", "hwloc", "jgf", "jgf_shorthand", "graphml", "rv1exec",
                                                     "rv1exec_force", "db",
                                                     // resource pools (pools/)
                                                     "hq", "canary", "ctest", "local"};
    return formats;
}

const std::vector<std::string>& match_formats() {
    static const std::vector<std::string> formats = {"simple", "pretty_simple", "jgf", "jgf_shorthand", "rlite", "rv1",
                                                     "rv1_nosched", "rv1_shorthand",
                                                     // environment variables (pools/env_writer.h)
                                                     "env", "env_export"};
    return formats;
}

// The long name of option `ch` (getopt's answer), or nullptr.
static const char* long_name_of(int ch) {
    for (const struct option* o = getopt_long_options(); o->name != nullptr; ++o)
        if (o->val == ch) return o->name;
    return nullptr;
}

Result<Options> parse_options(int argc, char** argv, std::vector<std::string>& warnings) {
    Options o;
    bool prune_given = false;
    bool load_file_given = false;
    optind = 0;  // 0, not 1: glibc then also forgets where it was in the last argv (tests parse many)
    opterr = 1;  // getopt's own diagnostics for unknown options, as the reference
    int ch;
    while ((ch = getopt_long(argc, argv, getopt_short_options(), getopt_long_options(), nullptr)) != -1) {
        std::string arg = optarg ? optarg : "";
        if (const char* name = long_name_of(ch)) o.given.push_back(name);
        switch (ch) {
        case 'L':
            if (!exists(arg)) return make_error(Errc::kInvalid, "[ERROR] file does not exist for --load-file: " + arg);
            if (is_directory(arg))
                return make_error(Errc::kInvalid, "[ERROR] path passed to --load-file is a directory: " + arg);
            o.load_file = arg;
            load_file_given = true;
            break;
        case 'f':
            if (!one_of(arg, load_formats()))
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
            if (!one_of(arg, match_formats()))
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
        case kOptResource: o.pool_resources.push_back(arg); break;
        case kOptVersion: o.show_version = true; return o;
        case kOptNoHistory: o.no_history = true; break;
        case kOptFailFast: o.fail_fast = true; break;
        case kOptJson: o.json = true; break;
        case kOptState: o.state_file = arg; break;
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
    // -f local detects the machine: a -L beside it would be ignored
    // (docs/state.md, Settings given with a resume).
    if (o.load_format == "local" && load_file_given)
        return make_error(Errc::kInvalid, "[ERROR] --load-format=local detects the machine and reads no --load-file (" +
                                              o.load_file + ")");
    if ((o.load_format == "hq" || o.load_format == "canary" || o.load_format == "ctest") && !load_file_given)
        return make_error(Errc::kInvalid, "[ERROR] --load-format=" + o.load_format + " needs --load-file=FILE");
    if (o.load_format == "local" || o.load_format == "resource") return o;
    if (!load_file_given && !o.load_local_machine) o.load_file = find_default_recipe(o.load_file);
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
    static const std::string text = usage_from_table();
    return text.c_str();
}

}  // namespace rq
