// One JQM queue's resource managers as pools of a resource graph, so that
// the pool matcher decides (docs/queue.md "JQM's managers
// are pools").
//
//   cluster0 -> node <queue> -> rm.<key>          sum pool of `quantity` units
//                            -> rm.<key>/<item>   one vertex per discrete item
//
// A job's needs are one pool request (consumption units of each quantity
// and discrete manager; 0 is no need), matched at the simulated time over
// the job's requested time and recorded in this graph's own schedule store
// until the job ends. The matcher's answers are the managers' (see RmAnswer
// in queue/jqm.h). Highlander is not a pool: it is a rule on the names of
// the running jobs, kept here beside the pools.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pools/pool_matcher.h"
#include "queue/jqm.h"
#include "queue/job.h"
#include "resource/graph.h"
#include "resource/schedule.h"
#include "traversers/pruning.h"

namespace rq::queue {

// The consumption of `m` by `job`: the job's override, else the manager's
// default.
int64_t consumption(const ResourceManager& m, const QueueJob& job);

class JqmPools {
public:
    // Builds the queue's manager graph. Errors name the queue and the
    // manager (an item listed twice, an empty item name).
    static Result<std::shared_ptr<JqmPools>> build(const JqmQueue& queue);
    ~JqmPools();

    // kUnsatisfiable naming the first manager that can never give what
    // the job asks (the matcher's satisfiability on idle pools).
    Status check(const QueueJob& job);
    // One manager's answer for the job at `now` (highlander: not enough
    // while an instance of the job's name runs).
    RmAnswer ask(const ResourceManager& m, const QueueJob& job, int64_t now);
    // Whether the manager has at least one free unit at `now`.
    bool has_room(const ResourceManager& m, int64_t now);
    // Every manager's need at once: the allocation when it fits at `now`.
    Result<pools::Allocation> fit(const QueueJob& job, int64_t now);
    // Records the allocation for the job over its requested time; returns
    // the discrete items taken, per manager key.
    Result<std::map<std::string, std::vector<std::string>>> take(const pools::Allocation& a, const QueueJob& job,
                                                                 int64_t now);
    // Gives back what take() recorded for the job (nothing if none).
    void release(const QueueJob& job);

private:
    JqmPools() = default;
    pools::Request request(const QueueJob& job) const;
    static std::string pool_name(const ResourceManager& m) { return "rm." + m.key; }
    Result<pools::Allocation> find_one(const ResourceManager& m, int64_t n, pools::PoolOp op, int64_t now,
                                       int64_t duration);

    std::vector<ResourceManager> managers_;
    bool highlander_ = false;
    ResourceGraph graph_;
    ScheduleStore store_;
    PruneSpec spec_;
    std::unique_ptr<pools::PoolMatcher> matcher_;
    std::map<int64_t, pools::Allocation> held_;  // job id -> what it holds
    std::multiset<std::string> running_;         // highlander: names running
};

// The queue's pools, built on first use. Errors as JqmPools::build.
Result<JqmPools*> pools_of(const JqmQueue& queue);

}  // namespace rq::queue
