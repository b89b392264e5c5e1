// Queue policies (docs/queue.md "A pass"): how one scheduling pass walks the
// pending jobs on the planner.
#pragma once

#include <cstdint>
#include <string>

#include "utilities/result.h"

namespace rq::queue {

struct QueuePolicy {
    std::string name = "fcfs";
    // How many blocked jobs get a reservation in one pass: 0 for fcfs,
    // 1 for easy, unbounded for conservative, N for hybrid.
    int64_t reservation_depth = 0;
    // fcfs stops at the first job that does not fit now.
    bool stop_at_first_blocked = true;
    // Pending jobs one pass considers; 0 = all (docs/queue.md: `--queue-depth`, default 32).
    int64_t queue_depth = 32;
    // JQM's schedulers (queue/jqm_pass.cc): polls, tours and resource
    // managers instead of reservations.
    bool jqm = false;
    bool jqm_skip = false;  // "not enough, but not empty" skips to the next job
};

// "fcfs", "easy", "conservative", "hybrid", "jqm" or "jqm-skip" (with `reservation_depth`,
// which must then be >= 1). Errors name the bad value.
Result<QueuePolicy> make_queue_policy(const std::string& name, int64_t queue_depth, int64_t reservation_depth);

}  // namespace rq::queue
