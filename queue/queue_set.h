// Several named queues on one machine, each with its own policy and
// parameters (docs/queue.md "Several
// queues").
//
// A queue's policy comes from its -Q entry (`policy`, `queue_depth`,
// `reservation_depth`) or the REPL's queue-add; what it leaves out is the
// session's --queue-policy, --queue-depth, --reservation-depth.
//
// When at least two queues are declared and one of them names its own
// policy or parameters, every pass is a multi-queue pass
// (Simulator::multi_pass): all reservations are cancelled, then the
// queues walk their own pending jobs one after another in declaration
// order, each with its own policy. Otherwise the session keeps the single
// pass over every pending job (the queue name is a label), byte for byte.
#pragma once

#include <string>
#include <vector>

#include "queue/jqm.h"
#include "queue/policy.h"
#include "utilities/result.h"

namespace YAML {
class Node;
}

namespace rq::queue {

// The session's defaults for what a queue leaves out.
struct PolicyDefaults {
    std::string policy = "fcfs";
    int64_t queue_depth = 32;
    int64_t reservation_depth = 0;
};

// Reads `policy`, `queue_depth`, `reservation_depth` of a -Q queue entry
// into `q` and checks them (see check_queue_fields).
Status parse_queue_policy_fields(const YAML::Node& entry, JqmQueue& q);

// The checks -Q and queue-add share: a known policy name (or none), a
// queue depth >= 0 (or unset), a reservation depth >= 1 (or unset).
Status check_queue_fields(const JqmQueue& q);

// The queue's policy with the defaults filled in. Errors name the queue.
Result<QueuePolicy> resolve_queue_policy(const JqmQueue& q, const PolicyDefaults& defaults);

// Every queue's policy, in declaration order, after checking that JQM's
// policies (polls and tours) are not mixed with the planner's (passes
// with reservations) in one session.
Result<std::vector<QueuePolicy>> resolve_queue_policies(const JqmConfig& config, const PolicyDefaults& defaults);

// Whether the queues run multi-queue passes (see above).
bool runs_multi_queue_passes(const JqmConfig& config);

}  // namespace rq::queue
