// The match times a journal entry carries: the session's match statistics
// after the command and the overhead of each job it touched, so that a
// replay restores them exactly. Kept as numbers; text() is the journal's
// timing column and the meta table's match_time ("%a %a %a N", then
// " ID:%a" per job; hex floats are exact).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "utilities/result.h"

namespace rq::state {

struct Timing {
    double min = 0, max = 0, total = 0;
    int64_t timed = 0;                                  // matches timed so far
    std::vector<std::pair<int64_t, double>> overheads;  // (job id, seconds)

    std::string text() const;
};

// Reads text() back. Refuses any other spelling (extra spaces, "0x1.80p+0",
// a missing field): what reads back prints back to the same bytes, so the
// journal's checksum (state/store_file.cc) holds for what was read.
Result<Timing> parse_timing(const std::string& text);

}  // namespace rq::state
