// The session's side of the allocation picture (docs/formats.md "A picture
// of the allocations"): it turns the schedule records into the allocation
// map the DOT writer draws (resource/allocation_dot.h) and writes it, for
// the `dump` command and for BASE.final.dot at the end of a session.
#pragma once

#include <string>

#include "resource/allocation_dot.h"
#include "session/session.h"

namespace rq {

// Every vertex a job holds now (an allocation span) or later (a
// reservation span), with those jobs. The vertices a match only passed
// through (a shared node above exclusive cores) are not held.
AllocationMap allocation_map(const Session& session);

// Writes the picture of the session's allocations to `path` and returns
// the number of vertices drawn; `warning` receives large_picture_warning's
// text ("" for most graphs).
Result<size_t> dump_allocations(const Session& session, const std::string& path, const AllocationDotOptions& options,
                        std::string& warning);

// BASE.final.dot: where `-g dot -o BASE` puts the picture at the end.
std::string final_picture_path(const std::string& base);

}  // namespace rq
