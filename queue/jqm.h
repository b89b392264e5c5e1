// JQM's resource managers and queues (seed 003, docs/queue.md "JQM"): a quantity
// manager (a count each job consumes, 1 by default), a discrete manager
// (named items, 0 taken by default; the job's environment gets
// JQM_RM_DISCRETE_<KEY>_ITEMS), and highlander (at most one running
// instance per job definition name). Each named queue has its managers.
//
// The quantity and discrete managers are pools of a resource graph of
// their own (queue/jqm_pools.h: one per queue, cluster0 -> the queue's
// node -> a sum pool per quantity manager, a pool of named items per
// discrete manager), and the pool matcher (pools/pool_matcher.h) decides
// whether a job's needs fit now, are busy, or can never fit. Highlander is
// a rule on the running instances per name. A job starts when its managers
// and the graph matcher both agree.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "utilities/result.h"

namespace rq::queue {

// A manager's answer (seed 003): "go for it", "not enough resource, but
// not empty yet", "I'm empty". They are the pool matcher's "fits now" and
// "busy" (empty: not even one unit is free now); the matcher's third
// answer, "unsatisfiable", rejects the job at submit.
enum class RmAnswer { kGo, kNotEnough, kEmpty };

// A manager's configuration; its state lives in the queue's JqmPools.
struct ResourceManager {
    enum Kind { kQuantity, kDiscrete, kHighlander } kind = kQuantity;
    std::string key;
    int64_t quantity = 10;                 // quantity: capacity
    std::vector<std::string> items;        // discrete: the item names
    int64_t default_consumption = 1;       // quantity 1, discrete 0

    int64_t capacity() const { return kind == kDiscrete ? static_cast<int64_t>(items.size()) : quantity; }
    // The environment variable name for a discrete manager.
    std::string env_name() const;
};

class JqmPools;

struct JqmQueue {
    std::string name;
    std::vector<ResourceManager> managers;
    // Its own policy and parameters (queue/queue_set.h); "" and -1 take
    // the session's --queue-policy, --queue-depth, --reservation-depth.
    std::string policy;
    int64_t queue_depth = -1;
    int64_t reservation_depth = -1;
    // The managers' pools, built on first use (queue/jqm_pools.h). A
    // configuration serves one simulator: copies share these pools.
    mutable std::shared_ptr<JqmPools> pools;
};

struct JqmConfig {
    int64_t poll_interval = 1;
    std::vector<JqmQueue> queues;  // the first is the default queue
    const JqmQueue* find(const std::string& name) const;
};

// Adds `m` to `q` after the checks every source of managers shares (-Q,
// the REPL's queue-manager): a non-negative quantity and consumption, a
// key not yet used in the queue. Errors name the key; nothing changes.
Status add_manager(JqmQueue& q, ResourceManager m);

// -Q FILE:
//   poll_interval: 1               # seconds, optional
//   queues:
//     - name: default
//       policy: easy                 # optional, with queue_depth, reservation_depth
//       managers:
//         - {type: quantity, key: thread, quantity: 3}
//         - {type: discrete, key: gpu, items: [gpu0, gpu1], consumption: 0}
//         - {type: highlander, key: hl}
// Errors name the file (`path`, used only in messages: the caller reads
// `text` through the session's read_input) and the entry.
Result<JqmConfig> parse_jqm_config(const std::string& path, const std::string& text);

// A default configuration: one queue "default" with a quantity manager
// "thread" of 10 (JQM's defaults).
JqmConfig default_jqm_config();

}  // namespace rq::queue
