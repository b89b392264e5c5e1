// The command-line options of resource-query as one table (ninja-style):
// getopt_long's option list, its short-option string and the --help text
// are all made from it, so an option cannot be parsed and left
// undocumented (or the other way round) by accident.
#pragma once

#include <getopt.h>

#include <string>
#include <vector>

namespace rq {

// What getopt_long returns per option: the short letter when there is one,
// else a code above any char.
enum OptionCode : int {
    kOptResource = 256,
    kOptVersion,
    kOptNoHistory,
    kOptFailFast,
    kOptJson,
    kOptState,
    kOptQueuePolicy,
    kOptQueueDepth,
    kOptReservationDepth,
    kOptEventsJson,
    kOptReplay,
    kOptReplayShift,
    kOptReplayNodes,
    kOptReplayCsv,
    kOptReplayExhaustive,
    kOptReplayRequest,
    kOptReplayQueues,
    kOptReplayStatus,
    kOptReplaySummary,
    kOptReplaySlowdownBound,
    kOptReplayTopUsers,
    kOptReplaySeries,
};

enum class OptionSection { kMain, kQueue };

struct OptionSpec {
    const char* name;   // the long name
    int code;           // the short letter, or an OptionCode
    bool has_arg;
    const char* value;  // --help's placeholder after '=', e.g. "filepath"
    // The --help paragraph, lines separated by '\n' (every option has one).
    const char* help;
    OptionSection section;
};

const std::vector<OptionSpec>& option_table();

// getopt_long's arguments, from the table.
const struct option* getopt_long_options();
const char* getopt_short_options();

// The --help text, from the table.
std::string usage_from_table();

}  // namespace rq
