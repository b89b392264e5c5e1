#include "cli/option_table.h"

namespace rq {

namespace {

using S = OptionSection;

// In --help order.
const std::vector<OptionSpec> kTable = {
    {"help", 'h', false, nullptr, "Display this usage information", S::kMain},
    {"load-file", 'L', true, "filepath",
     "Input file from which to load the resource graph data store\n"
     "(default=conf/default: in the current directory, else beside\n"
     "the program, else in the installed share/resource-query)",
     S::kMain},
    {"load-format", 'f', true, "<grug|hwloc|jgf|jgf_shorthand|rv1exec|rv1exec_force|graphml|db|hq|canary|ctest|local>",
     "Format of the load file (default=grug). graphml: a graph\n"
     "written by -g graphml. db: a session saved by save or\n"
     "--state, resumed. hq: HyperQueue workers\n"
     "(YAML); canary: a canary resource_pool (JSON or YAML); ctest: a\n"
     "CTest resource specification (JSON); local: this machine as\n"
     "HyperQueue detects it (no file)",
     S::kMain},
    {"resource", kOptResource, true, "NAME=DEF",
     "A HyperQueue resource pool of a one-worker machine (repeatable):\n"
     "[a, \"b c\"], [[a, b], [c, d]], range(S-E), NxM or sum(N)",
     S::kMain},
    {"load-allowlist", 'W', true, "<resource1[,resource2[,resource3...]]>",
     "Allowlist of resource types to be loaded (hwloc only; cluster\n"
     "is always added)",
     S::kMain},
    {"match-subsystems", 'S', true,
     "<CA|IBA|IBBA|PA|PFS1BA|VA|C+IBA|C+IBBA|C+PA|C+PFS1BA|IB+IBBA|C+P+IBA|V+PFS1BA|ALL>",
     "Set the predefined matcher to use. Available matchers are:\n"
     "    CA: Containment Aware\n"
     "    IBA: InfiniBand connection-Aware\n"
     "    IBBA: InfiniBand Bandwidth-Aware\n"
     "    PA: Power-Aware\n"
     "    PFS1BA: Parallel File System 1 Bandwidth-aware\n"
     "    VA: Virtual Hierarchy-Aware\n"
     "    C+IBA: Containment and InfiniBand connection-Aware\n"
     "    C+IBBA: Containment and InfiniBand Bandwidth-Aware\n"
     "    C+PA: Containment- and Power-Aware\n"
     "    C+PFS1BA: Containment and PFS1 Bandwidth-Aware\n"
     "    IB+IBBA: InfiniBand connection and Bandwidth-Aware\n"
     "    C+P+IBA: Containment-, Power- and InfiniBand connection-Aware\n"
     "    V+PFS1BA: Virtual Hierarchy and PFS1 Bandwidth-Aware\n"
     "    ALL: Aware of everything\n"
     "(default=CA)",
     S::kMain},
    {"match-policy", 'P', true, "<first|firstnodex|high|low|hinode|lonode|hinodex|lonodex|locality|variation|CUSTOM>",
     "Set the resource match selection policy (default=first).\n"
     "CUSTOM is a space-separated list of key=value pairs:\n"
     "policy=high|low node_centric=true|false\n"
     "node_exclusive=true|false stop_on_1_matches=true|false",
     S::kMain},
    {"traverser-policy", 'T', true, "<simple|flexible>", "Set the traverser policy (default=simple)", S::kMain},
    {"match-format", 'F', true,
     "<simple|pretty_simple|jgf|jgf_shorthand|rlite|rv1|rv1_nosched|rv1_shorthand|env|env_export>",
     "Specify the emit format of the matched resource set\n"
     "(default=simple). env: the environment variables HyperQueue,\n"
     "canary and CTest set, one quoted NAME='value' per line;\n"
     "env_export: `export` lines for eval (shell-safe names only)",
     S::kMain},
    {"prune-filters", 'p', true, "<HL-resource1:LL-resource1[,HL-resource2:LL-resource2...]...]>",
     "Install a planner-based filter at each High-Level (HL) resource\n"
     "vertex which tracks the state of the Low-Level (LL) resources\n"
     "in aggregate, residing under its subtree. If a jobspec requests\n"
     "1 node with 4 cores, and the visiting compute-node vertex has\n"
     "only a total of 2 available cores in aggregate at its\n"
     "subtree, this filter allows the traverser to prune a further\n"
     "descent to accelerate the search.\n"
     "Use the ALL keyword for HL-resource if you want LL-resource to be\n"
     "tracked at all of the HL-resource vertices. Examples:\n"
     "    rack:node,node:core\n"
     "    ALL:core,cluster:node,rack:node\n"
     "(default=ALL:core,ALL:node)",
     S::kMain},
    {"graph-format", 'g', true, "<dot|graphml|jgf>",
     "Format of the graph file written by --graph-output (default=dot)", S::kMain},
    {"graph-output", 'o', true, "<basename>",
     "Write the loaded resource graph to <basename>.dot,\n"
     "<basename>.graphml or <basename>.json (-g); the last two load\n"
     "back with -f graphml / -f jgf (the reference accepts this\n"
     "option but writes nothing)",
     S::kMain},
    {"test-output", 't', true, "<filename>",
     "Write the match output and INFO blocks to <filename> instead\n"
     "of standard output",
     S::kMain},
    {"reserve-vtx-vec", 'r', true, "<size>",
     "Size hint for the vertex storage (accepted for compatibility;\n"
     "0 to 2000000)",
     S::kMain},
    {"elapse-time", 'e', false, nullptr, "Print timing and visit-count information", S::kMain},
    {"disable-prompt", 'd', false, nullptr, "Don't print the prompt", S::kMain},
    {"version", kOptVersion, false, nullptr, "Print the version and exit", S::kMain},
    {"no-history", kOptNoHistory, false, nullptr,
     "Neither read nor write the REPL history file\n"
     "($HOME/.resource_query_history; only interactive sessions\n"
     "use it)",
     S::kMain},
    {"fail-fast", kOptFailFast, false, nullptr,
     "When commands come from a pipe or a file: stop at the first\n"
     "command that fails (malformed, unreadable file, rejected, no\n"
     "match) and exit with status 1. Without it the exit status is\n"
     "0 whatever the commands did.",
     S::kMain},
    {"json", kOptJson, false, nullptr,
     "Print every output line as one JSON value: result blocks as\n"
     "objects, JSON match output as objects, text output as\n"
     "strings, errors as {\"error\": ...}, so the output can be piped\n"
     "to jq",
     S::kMain},
    {"state", kOptState, true, "<filename>",
     "Keep the session in the SQLite file <filename>: resume it if it\n"
     "holds a session, else start from -L and create it; every\n"
     "state-changing command is committed there before its output\n"
     "is printed",
     S::kMain},
    {"queue-policy", kOptQueuePolicy, true, "<fcfs|easy|conservative|hybrid|jqm|jqm-skip>",
     "Policy of the queue's scheduling passes (default=fcfs)", S::kQueue},
    {"queues", 'Q', true, "<queues.yaml>", "JQM queues, their resource managers and poll interval", S::kQueue},
    {"queue-depth", kOptQueueDepth, true, "<N>", "Pending jobs one pass considers; 0 = all (default=32)", S::kQueue},
    {"reservation-depth", kOptReservationDepth, true, "<N>", "Blocked jobs that get a reservation under hybrid",
     S::kQueue},
    {"events-json", kOptEventsJson, true, "<filename>", "Also write every queue event as one JSON object per line",
     S::kQueue},
    {"replay", kOptReplay, true, "<trace.swf|jobs.yaml>",
     "Run a whole workload (Standard Workload Format, or a YAML job\n"
     "list) instead of reading commands; print per-job CSV and a\n"
     "summary",
     S::kQueue},
    {"replay-shift", kOptReplayShift, false, nullptr, "Shift the trace's times so that its first submit is at 0",
     S::kQueue},
    {"replay-nodes", kOptReplayNodes, false, nullptr, "Read SWF processor counts as whole nodes instead of cores",
     S::kQueue},
    {"replay-csv", kOptReplayCsv, true, "<filename>", "Write the per-job CSV there instead of the output stream",
     S::kQueue},
    {"replay-exhaustive", kOptReplayExhaustive, false, nullptr,
     "Recompute every pass from scratch (no reuse of the previous\n"
     "pass's outcomes): same results, slower; a check of the reuse",
     S::kQueue},
    {"replay-request", kOptReplayRequest, true, "<template>",
     "On a pool machine, the request of a sized job, {size} and {mem}\n"
     "replaced by the trace's processors and memory (default=cpus={size})",
     S::kQueue},
    {"replay-queues", kOptReplayQueues, true, "<queue|partition>",
     "The SWF field that names a job's queue: 15 queue (default) or\n"
     "16 partition",
     S::kQueue},
    {"replay-status", kOptReplayStatus, true, "<all|completed>",
     "Replay every SWF job (default=all), or only completed ones (status 1)", S::kQueue},
    {"replay-summary", kOptReplaySummary, true, "<filename>",
     "Also write the summary, per queue and per user, as one JSON object", S::kQueue},
    {"replay-slowdown-bound", kOptReplaySlowdownBound, true, "<seconds>",
     "The bound of the bounded slowdown (default=10)", S::kQueue},
    {"replay-top-users", kOptReplayTopUsers, true, "<N>",
     "Users listed in --replay-summary, by core-seconds (default=10)", S::kQueue},
    {"replay-series", kOptReplaySeries, true, "<filename>",
     "Also write the time series: one CSV row per simulated instant\n"
     "at which running, pending or busy counts changed",
     S::kQueue},
};

const char kIntro[] = R"(usage: resource-query [OPTIONS...]

Reads a resource graph (a GRUG recipe, JGF, rv1exec R or hwloc XML), then
reads commands from standard input: match a jobspec (RFC 14) against the
graph with a selection policy, allocate or reserve it in time, cancel,
find and inspect resources. Type "help" at the prompt for the commands.
)";

const char* heading(OptionSection section) {
    return section == OptionSection::kMain ? "OPTIONS:"
                                           : "SIMULATED QUEUE (commands submit, queue, advance, run; see resource-query(1)):";
}

bool is_letter(int code) { return code < kOptResource; }

// "    -L, --load-file=filepath", then the paragraph indented.
void append_entry(std::string& out, const OptionSpec& o) {
    out += "    ";
    if (is_letter(o.code)) out += std::string("-") + static_cast<char>(o.code) + ", ";
    out += std::string("--") + o.name;
    if (o.value != nullptr) out += std::string("=") + o.value;
    out += '\n';
    const std::string help = o.help;
    for (size_t at = 0; at <= help.size();) {
        size_t end = help.find('\n', at);
        if (end == std::string::npos) end = help.size();
        out += "            " + help.substr(at, end - at) + '\n';
        at = end + 1;
    }
}

}  // namespace

const std::vector<OptionSpec>& option_table() { return kTable; }

const struct option* getopt_long_options() {
    static const std::vector<struct option> options = [] {
        std::vector<struct option> out;
        for (const OptionSpec& o : kTable)
            out.push_back({o.name, o.has_arg ? required_argument : no_argument, nullptr, o.code});
        out.push_back({nullptr, 0, nullptr, 0});
        return out;
    }();
    return options.data();
}

const char* getopt_short_options() {
    static const std::string letters = [] {
        std::string out;
        for (const OptionSpec& o : kTable)
            if (is_letter(o.code)) out += std::string(1, static_cast<char>(o.code)) + (o.has_arg ? ":" : "");
        return out;
    }();
    return letters.c_str();
}

std::string usage_from_table() {
    std::string out = kIntro;
    for (OptionSection section : {OptionSection::kMain, OptionSection::kQueue}) {
        out += std::string("\n") + heading(section) + '\n';
        bool first = true;
        for (const OptionSpec& o : kTable) {
            if (o.section != section) continue;
            if (!first) out += '\n';
            first = false;
            append_entry(out, o);
        }
    }
    return out;
}

}  // namespace rq
