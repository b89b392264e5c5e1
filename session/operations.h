// The operations on a session, shared by resource-query's commands (cli/)
// and the reapi_cli library (reapi/): match, cancel, update, partial
// cancel, attach, remove, find, set-status. Each changes the session and
// returns what happened, with the R text and the reference's message lines;
// printing is the caller's business.
#pragma once

#include <cstdint>
#include <string>

#include "session/session.h"
#include "utilities/result.h"

namespace rq {

// The writer's text in R, through the session's reused stream (its locale
// fixed), or the writer's error (the writer is then reset).
Status flush_to(Session& s, MatchWriter& writer, std::string& R);

// The id a counter-based match takes: the counter, moved past live jobs.
// `update` may have set the counter back below ids still in use; a new
// match must never share an id with a live job (one cancel would then
// release both). Amortised: the counter only moves forward here.
// Feeds `stat`'s match-time figures (spec/cli.md §5.13: the reference
// feeds them from `update` only; pool requests feed them too, so that
// `stat` after only requests prints their times, not 1.79769e+308).
void record_match_time(Session& s, double seconds);

int64_t next_match_jobid(Session& s);
// The counter after job id `id` was taken. Saturates: an `update` may name
// the largest id, and the counter must not overflow past it.
inline int64_t jobid_after(int64_t id) { return id < INT64_MAX ? id + 1 : INT64_MAX; }

struct MatchOutcome {
    Errc code = Errc::kOk;       // kOk or why the match failed
    bool jobspec_error = false;  // the jobspec did not parse (`error` says why)
    Error error;
    bool attempted = false;      // the traverser tried; R is the writer's text
    bool consumes_id = false;    // an attempted allocating op: the id is used up
    MatchResult result;
    std::string R;
    std::string message;         // the stderr line of a failure ("" if none)
    double seconds = 0;          // parse + match + write
};

// Parses `jobspec_text` (through the session's cache) and matches it as
// `jobid`; a successful allocating op records the job (with `path`). The
// counter is the caller's: it advances it when consumes_id.
MatchOutcome match_jobspec(Session& s, MatchOp op, const std::string& jobspec_text, int64_t jobid,
                           const std::string& path);

// Full cancel of a live job. kNotFound: "cancel: ERROR: nonexistent job N".
Status cancel_job(Session& s, int64_t jobid);

// Why the jobspec text matches nothing now (docs/matching.md "Writing a
// jobspec"): the first level no vertex can hold, or "" when every
// level alone finds enough. Computed only when asked.
std::string explain_no_match(Session& s, const std::string& jobspec_text);

struct UpdateOutcome {
    bool ok = false;
    bool applied = false;       // the traverser ran (R holds the writer's text)
    std::string R;
    std::vector<std::string> messages;  // stderr lines, in order
    Errc code = Errc::kOk;
    double seconds = 0;
};

// `update`: records an allocation (at == 0) or reservation made elsewhere
// from R read with `reader`; the job counter then follows jobid.
UpdateOutcome update_job(Session& s, const std::string& reader, const std::string& text, int64_t jobid, int64_t at,
                         int64_t duration, const std::string& path);

struct PartialCancelOutcome {
    Status status;
    bool ran = false;          // the traverser ran (else the job was refused)
    bool full_removal = false;
    std::string stdout_text;  // the traverser's message and the reason (failure)
};

// `partial-cancel`: releases the part of a live allocation given as R.
PartialCancelOutcome partial_cancel_job(Session& s, int64_t jobid, const std::string& reader,
                                        const std::string& text);

// `attach`: grows the graph from JGF text; `remove PATH true`.
Status attach_subgraph(Session& s, const std::string& jgf_text);
Status remove_subgraph(Session& s, const std::string& path);

// `find`: the text `writer` writes for the resources matching `criteria`.
// A bad expression is the returned error; the writer's (nothing to
// write, say) is `written`.
Status find_matching(Session& s, const std::string& criteria, MatchWriter& writer, std::string& R,
                     Status& written);

// `set-status`: kNotFound if no vertex has that path.
Status set_path_status(Session& s, const std::string& path, bool up);

}  // namespace rq
