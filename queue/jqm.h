// JQM's resource managers and queues (seed 003, issue 10): a quantity
// manager (a count each job consumes, 1 by default), a discrete manager
// (named items, 0 taken by default; the job's environment gets
// JQM_RM_DISCRETE_<KEY>_ITEMS), and highlander (at most one running
// instance per job definition name). Each named queue has its managers.
//
// They are kept here as counters beside the graph match (a job starts only
// when its managers and the matcher both agree); expressing them as pools
// of the resource graph waits for the pools work.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "utilities/result.h"

namespace rq::queue {

enum class RmAnswer { kGo, kNotEnough, kEmpty };

struct ResourceManager {
    enum Kind { kQuantity, kDiscrete, kHighlander } kind = kQuantity;
    std::string key;
    int64_t quantity = 10;                 // quantity: capacity
    std::vector<std::string> items;        // discrete: the item names
    int64_t default_consumption = 1;       // quantity 1, discrete 0

    // state
    int64_t used = 0;
    std::vector<bool> taken;               // discrete, per item
    std::multiset<std::string> running;    // highlander: names running

    int64_t capacity() const { return kind == kDiscrete ? static_cast<int64_t>(items.size()) : quantity; }
    int64_t free() const { return capacity() - used; }
    // What the manager would answer for a job (consumption n, name).
    RmAnswer ask(int64_t n, const std::string& name) const;
    // Takes the job's share; returns the discrete items taken.
    std::vector<std::string> take(int64_t n, const std::string& name);
    void give_back(int64_t n, const std::string& name, const std::vector<std::string>& items);
    // Whether the manager still has room for some job.
    bool has_room() const;
    // The environment variable name for a discrete manager.
    std::string env_name() const;
};

struct JqmQueue {
    std::string name;
    std::vector<ResourceManager> managers;
};

struct JqmConfig {
    int64_t poll_interval = 1;
    std::vector<JqmQueue> queues;  // the first is the default queue
    const JqmQueue* find(const std::string& name) const;
};

// -Q FILE:
//   poll_interval: 1               # seconds, optional
//   queues:
//     - name: default
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
