// PoolMatcher: serves pool requests (pools/request.h) on any resource graph
// with the session's schedule records, so that `request` and `match` jobs
// share one state and `cancel`, `find`, `info` and every writer work on
// both.
//
// A worker is a `node` vertex (the root when there is none). A pool of a
// worker is the set of its containment descendants of one type: the
// request's name, else a Flux alias (cpus -> core, gpus -> gpu, mem ->
// memory). The group of an item is its parent when that is not the worker
// (a GRUG socket, a HyperQueue group), so a GRUG node with sockets and
// cores is a worker with grouped cpus. An item's free units are its own
// planner's over the job's window; a group or worker that a job holds
// exclusively (its own planner is not whole) offers nothing.
//
// A job is recorded the way the traverser's update walk records one (a span
// per item, tags, exclusivity-checker and subtree-plan spans on every
// ancestor), so DfuTraverser::cancel releases it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pools/request.h"
#include "resource/graph.h"
#include "resource/match_writer.h"
#include "resource/schedule.h"
#include "traversers/pruning.h"

namespace rq::pools {

struct ItemTake {
    VertexId item = kNoVertex;
    int64_t amount = 0;
};

struct PoolTake {
    std::string name;  // as requested
    TypeId type = kNoId;
    bool all = false;
    Strategy strategy = Strategy::kCompact;  // as requested (HQ_RESOURCE_REQUEST_*)
    std::vector<ItemTake> items;
    int64_t total() const {
        int64_t n = 0;
        for (auto& i : items) n += i.amount;
        return n;
    }
};

struct Allocation {
    VertexId worker = kNoVertex;
    int64_t at = 0;
    std::vector<PoolTake> pools;                    // HyperQueue / canary
    std::vector<std::vector<ItemTake>> ctest_groups;  // CTest, per group
};

enum class PoolOp { kAllocate, kAllocateOrElseReserve, kSatisfiability };

class PoolMatcher {
public:
    PoolMatcher(ResourceGraph& graph, ScheduleStore& store, const PruneSpec& spec);
    ~PoolMatcher();

    // Finds where the request fits: at `now` (kAllocate), at `now` or the
    // earliest later time (kAllocateOrElseReserve), or on idle workers
    // (kSatisfiability). `now` is the REPL's time 0 unless a simulated
    // clock (queue/) asks at another time. Errors: kInvalid (unknown pool),
    // kUnsatisfiable (no worker could ever hold it), kBusy (not now / not
    // before the end).
    Result<Allocation> find(const Request& request, PoolOp op, int64_t duration, int64_t now = 0);

    // Records the allocation for `jobid` over [at, at+duration): an
    // allocation when it starts at `now`, else a reservation.
    Status record(const Allocation& a, JobId jobid, int64_t duration, int64_t now = 0);

    // Undoes record() for `jobid`: touches only the allocation's items and
    // their ancestors (for graphs without a traverser to cancel on, such
    // as JQM's resource managers in queue/jqm_pools.h).
    Status release(const Allocation& a, JobId jobid);

    // Emits the allocation to `writer` in post-order, as the update walk.
    void emit(const Allocation& a, MatchWriter& writer, int64_t duration) const;

    // Type of a request name on this graph (with the aliases), or kNoId.
    TypeId resolve(const std::string& name) const;

    // Workers of the graph, in order.
    const std::vector<VertexId>& workers();

private:
    struct WorkerView;
    const WorkerView& view(size_t worker);
    void refresh();
    std::optional<Allocation> fit(size_t worker, const Request& request, int64_t at, int64_t duration,
                                  bool idle);
    bool fit_ctest(const WorkerView& v, const Request& request, int64_t at, int64_t duration, bool idle,
                   Allocation& a);
    bool may_fit(VertexId worker, const Request& request, int64_t at, int64_t duration) const;
    int64_t free_units(VertexId v, int64_t at, int64_t duration, bool idle) const;
    bool whole(VertexId v, int64_t at, int64_t duration, bool idle) const;
    std::vector<int64_t> candidate_times(size_t worker, const Request& request) ;

    ResourceGraph& graph_;
    ScheduleStore& store_;
    const PruneSpec& spec_;
    std::vector<VertexId> workers_;
    std::vector<std::unique_ptr<WorkerView>> views_;
    size_t seen_vertices_ = 0, seen_edges_ = 0;
};

}  // namespace rq::pools
