// A job's R and times for the job table's rows (state/rows.cc): what the
// file tells a reader about each job without replaying anything.
//
//   r      the rv1 R of what the job holds, without the JGF scheduling
//          key: the bytes `allocated JOBID` prints with -F rv1_nosched
//          (the vertices whose allocations or reservations name the job,
//          with their ancestors, each at its full size; starttime and
//          expiration 0 as find prints them), without the INFO lines; ""
//          once the job is cancelled. rv1_nosched rather than rv1: the
//          scheduling key is a JGF copy of vertices the file's graph
//          already describes, and writing it tripled the cost of an
//          incremental save's job row.
//   start, end  the job's window: its exclusivity-checker span at the
//          dominant root ([scheduled_at, scheduled_at + duration));
//          -1, -1 once cancelled.
//
// Found by the tag walk from the root (what cancel walks: O(the job's
// vertices)), not by find's walk of the whole graph; the emission is
// find's (post-order, out-edge order), so the bytes are the same.
#pragma once

#include <cstdint>
#include <string>

#include "session/session.h"

namespace rq::state {

struct JobR {
    std::string r;
    int64_t start = -1;
    int64_t end = -1;
};

JobR job_r(const Session& s, int64_t job);

}  // namespace rq::state
