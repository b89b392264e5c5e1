// A job in the simulated queue: what was asked (jobspec, estimate, run
// time, priority) and what happened (reservation, start, end).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pools/request.h"
#include "resource/graph.h"
#include "resource/jobspec.h"
#include "traversers/dfu.h"

namespace rq::queue {

enum class QueueJobState { kPending, kReserved, kRunning };

struct QueueJob {
    int64_t id = 0;
    std::string name;             // job definition name (--name)
    std::string queue = "default";
    int priority = 5;             // 1..10, higher first
    int64_t submit = 0;           // simulated submit time
    uint64_t seq = 0;             // submission order
    int64_t estimate = 0;         // requested time: reservations and backfill use it
    int64_t runtime = 0;          // real run time; killed at `estimate` if longer
    int64_t size = 0;             // cores (SWF size, or the cores the job was given)
    // Shared by jobs of one shape; the simulator sets its duration to
    // `estimate` before every match.
    std::shared_ptr<Jobspec> jobspec;
    // A pool request (pools/request.h) instead: matched by the pool
    // matcher. `jobspec` is then an empty jobspec of the job's own.
    std::shared_ptr<const pools::Request> pool;
    // What was submitted: the jobspec's text, or "request ITEMS" (REPL
    // submits only; state/queue_rows.cc saves it to rebuild the job).
    std::shared_ptr<const std::string> source;
    // Minimum units of each type the jobspec asks for in total (set at
    // enqueue): a pass skips the match when the root's aggregate planner
    // already shows too few free now.
    std::vector<std::pair<TypeId, int64_t>> totals;

    // JQM: consumption per manager key (overrides the manager's default),
    // and what the job holds while running.
    std::map<std::string, int64_t> rm;
    std::map<std::string, int64_t> rm_taken;
    std::map<std::string, std::vector<std::string>> rm_items;

    QueueJobState state = QueueJobState::kPending;
    int64_t reserved_at = -1;     // planned start of the current reservation
    // The vertices the current start or reservation emitted (its tagged
    // vertices): the cancel touches only these.
    std::vector<VertexId> held;
    int64_t span_end = -1;        // end of the held span (at + duration), -1 if none
    // What lets the next pass keep this job's reservation instead of
    // re-making it (docs/queue.md "Kept reservations", queue/kept_reservations.cc).
    struct KeepProof {
        bool valid = false;               // made by a single-queue pass with tracking on
        std::vector<VertexId> order_reads;  // vertices whose child order its match read
        uint64_t order_clock = 0;         // the graph's order clock when it read them
        std::vector<EdgeId> edges;        // the edges its update walk took
        int64_t touched_until = 0;        // latest end of a span released or started since
        // Vertex-level proof (slot >= 0): its walk's steps, grouped by
        // parent (stable: walk order within a parent), marked in the
        // simulator's per-vertex read bits under `slot`; `touched` once a
        // span released or started since overlaps its window on a vertex
        // it read.
        int slot = -1;
        TypeId type = 0;  // its one requested type the root's aggregate tracks
        bool touched = false;
        DfuTraverser::OrderWalk walk;  // steps kept only under parents whose order can change
        std::vector<VertexId> reads;   // every vertex the walk visited
        std::vector<VertexId> fixed;   // parents whose steps were dropped (sorted)
    } keep;
    int64_t start = -1;
    int64_t end = -1;
    std::string reason;           // why it is not running (for `queue`)
    uint64_t considered_in = 0;   // the pass that last looked at it (reason is from then)

    bool killed() const { return runtime > estimate; }
};

}  // namespace rq::queue
