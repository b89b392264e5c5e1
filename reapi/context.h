// The reapi_cli context: one Session (session/) behind a mutex, the
// context's messages, and the history clone() replays. Internal to reapi/.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "session/session.h"
#include "utilities/result.h"

namespace rq::reapi {

// One state-changing call, as clone() replays it.
struct Call {
    enum Kind { kMatch, kMatchWithId, kUpdate, kAddSubgraph, kRemoveSubgraph, kCancel, kPartialCancel,
                kSetStatus, kSetRankStatus, kMatchAll };
    Kind kind = kMatch;
    int op = 0;
    uint64_t jobid = 0;
    bool flag = false;
    int status = 0;
    std::shared_ptr<const std::string> text;
    std::vector<std::shared_ptr<const std::string>> texts;  // kMatchAll
};

}  // namespace rq::reapi

struct reapi_cli_ctx {
    std::mutex mutex;  // serializes every call on the context
    bool legacy = false;  // REAPI_CLI_LEGACY_MATCH: failed matches return 0, R ""
    std::unique_ptr<rq::Session> session;  // null until initialize
    std::string err_msg;     // accumulated since the last clear
    std::string last_error;  // the last failed call's message
    int last_errno = 0;

    // stat: graph load time, match times (match and update).
    double load_seconds = 0;
    double min_match = 0, max_match = 0, total_match = 0;
    int64_t timed = 0;

    // What clone() needs: the initialize arguments and the history.
    std::string rgraph, options;
    std::vector<rq::reapi::Call> history;
    std::shared_ptr<const std::string> last_text;  // shares repeated jobspecs
    bool replaying = false;
};
