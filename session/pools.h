// The resource-pool operations of a session (docs/pools.md):
// `request` matches a pool request against the graph's pools, records it
// as a job and writes it; `hwdetect` describes this machine's pools. Every
// front end goes through here rather than to pools/; printing is the
// caller's business (as in session/operations.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pools/pool_matcher.h"
#include "session/command_words.h"
#include "session/session.h"
#include "utilities/result.h"

namespace rq {

// `request [-F FORMAT] [--as hq|canary|ctest] [--env NAME=TEMPLATE]... [--duration S] SUBCMD ITEMS...`
struct RequestCommand {
    std::string format;  // empty: the session's writer
    std::optional<pools::Dialect> dialect;  // none: the loaded pool format's
    std::vector<std::pair<std::string, std::string>> templates;
    int64_t duration = 3600;
    pools::PoolOp op = pools::PoolOp::kAllocate;
    std::string text;  // the items, as typed
};

// The words of a `request` line (args[0] is the command's name).
Result<RequestCommand> parse_request_command(const Args& args);

struct RequestOutcome {
    Status refused;        // not tried: wrong dominant subsystem, bad items, unknown format
    Status found;          // the match (and, unless satisfiability, its record)
    int64_t jobid = 0;
    int64_t at = 0;        // 0: allocated now, else reserved at
    std::string R;         // the writer's text
    Status written;        // the writer's error (R is then empty)
};

// Runs `command`: a successful allocation or reservation is recorded as
// job `jobid` (the session's counter, which then moves on).
RequestOutcome run_request(Session& s, const RequestCommand& command);

// The dialect of a request that names none: the loaded pool format's
// (docs/pools.md "One tool per request").
pools::Dialect session_dialect(const Session& s);

// The session's pool matcher, made on first use.
pools::PoolMatcher& session_pool_matcher(Session& s);

// A writer by its -F name: the match writers (resource/match_writer.h)
// and the pools' env writers (env, env_export).
Result<std::unique_ptr<MatchWriter>> make_named_writer(const std::string& format);

// `hwdetect`: this machine's pools as `-f local` detects them, a
// "# worker NAME" line per worker then its pools as NAME=DEFINITION lines.
Result<std::string> local_pool_lines();

}  // namespace rq
