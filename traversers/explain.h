// Why a jobspec finds no match: the first level of its resource tree that
// no candidate can hold, what the best candidate has, and where the
// resources are instead (docs/matching.md "Writing a jobspec"). Computed only when
// asked (`match OP FILE --explain`), never on the match path.
//
//   slot[1]->gpu[4]: no socket holds 4 free gpus (the best holds 2); a node
//   holds 4 under 2 sockets: ask node->slot[1]->gpu[4]
//
// A count check level by level, not a second matcher: each level needs
// `count` free units (times the enclosing slot's count) under one vertex of
// the level above; exclusivity, constraints and the policy are not
// modelled, so a jobspec may pass every level and still not match.
#pragma once

#include <string>

#include "resource/graph.h"
#include "resource/jobspec.h"
#include "resource/schedule.h"

namespace rq {

// One line without a trailing newline; "" when every level finds enough
// free units (the request fails only as a whole).
std::string explain_no_match(const ResourceGraph& graph, const ScheduleStore& store, SubsystemId dominant,
                             const Jobspec& jobspec);

}  // namespace rq
