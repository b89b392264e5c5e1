// The simulated queue: pending jobs in priority order, a clock that jumps
// from event to event, and one scheduling pass per instant on the
// traverser's planner (docs/queue.md "One scheduling pass per instant").
//
// At each instant: release every job that ends then, enqueue every job
// submitted then (in submission order), then run one pass. A pass cancels
// every reservation and walks the queue in order with allocate (or
// allocate_orelse_reserve while the policy's reservation depth allows).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "queue/events.h"
#include "queue/jqm.h"
#include "queue/job.h"
#include "queue/policy.h"
#include "queue/queue_set.h"
#include "pools/pool_matcher.h"
#include "traversers/dfu.h"

namespace rq::queue {

inline constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// Jobs arriving from a trace: the next submit time (kNever when done) and
// a call that enqueues every job submitted at that time.
struct Arrivals {
    std::function<int64_t()> next_time;
    std::function<Status(int64_t)> enqueue_due;
};

class Simulator {
public:
    // `next_id` is shared with the REPL's `match` so that job ids never
    // collide in the planners.
    Simulator(DfuTraverser& traverser, QueuePolicy policy, EventLog& log, int64_t& next_id);

    // Every finished job is handed here once, then forgotten (memory stays
    // flat in the number of finished jobs).
    void on_finish(std::function<void(const QueueJob&)> f) { on_finish_ = std::move(f); }
    // Every job that starts is handed here with the vertices its match
    // emitted (a pool job's too, though it keeps none in `held`); and
    // every instant once its releases, arrivals and pass are done (the
    // same instant may come twice in a row). A replay's time series and
    // node list (docs/queue.md "Replay time series") watch these.
    void on_start(std::function<void(const QueueJob&, const std::vector<VertexId>&)> f) { on_start_ = std::move(f); }
    void on_instant(std::function<void(int64_t)> f) { on_instant_ = std::move(f); }

    int64_t now() const { return now_; }
    // JQM queues and managers (policies jqm and jqm-skip); the default is
    // default_jqm_config().
    void set_jqm(JqmConfig config) { jqm_ = std::move(config); }
    const JqmConfig& jqm() const { return jqm_; }
    const QueuePolicy& policy() const { return policy_; }

    // --- Several queues, each with its own policy (queue/queue_set.cc) ---
    // Installs the queues and their policies (resolve_queue_policies);
    // the first queue's policy becomes policy().
    void set_queues(JqmConfig config, std::vector<QueuePolicy> policies);
    // queue-add and queue-manager: checked like -Q; nothing changes on error.
    Status add_queue(JqmQueue q, const PolicyDefaults& defaults);
    Status add_queue_manager(const std::string& queue, ResourceManager m);
    // The policy of the queue named `name` (policy() if undeclared).
    const QueuePolicy& policy_of(const std::string& name) const;
    // --- end of several queues ---
    // Nothing but this simulator matches or cancels on the traverser (a
    // replay, a test). Then a pass may reuse the previous pass's outcome
    // for its leading blocked and reserved jobs when that outcome cannot
    // have changed (see pass()); in the REPL, where `match` and `cancel`
    // interleave, every pass recomputes everything. The traverser's leaf
    // holds and deferred checkers are on while it is owned
    // (traversers/dfu_leaf_holds.cc, dfu_deferred_x.cc): only the
    // selection, the update and the cancel read them.
    void set_owns_traverser(bool on) {
        owns_traverser_ = on;
        reusable_ = false;
        traverser_.set_replay_shortcuts(on);
    }
    ~Simulator();
    uint64_t reused_tries() const { return reused_tries_; }
    // Reservations a pass kept instead of re-making (docs/queue.md "Kept reservations").
    uint64_t kept_reservations() const { return kept_reservations_; }
    // Oracle mode (--replay-exhaustive): release jobs with the traverser's
    // full cancel walk instead of only the vertices they hold.
    void set_walk_cancel(bool on) { walk_cancel_ = on; }

    // REPL submit: checks the job can ever run on this graph, then queues
    // it at now(). Nothing changes on error. The pass of this instant runs
    // at settle() (when time is next observed or moved).
    Result<int64_t> submit(QueueJob job);
    // Trace submit: queues at now() without the satisfiability probe (a
    // job that can never run is rejected when a pass first reserves it).
    int64_t enqueue(QueueJob job);

    Status set_priority(int64_t id, int priority);
    Status dequeue(int64_t id);

    // Runs this instant's pass if something changed since the last one.
    void settle();
    // Processes every instant up to now() + seconds (then the clock reads
    // exactly that).
    Status advance(int64_t seconds);
    // Processes instants until nothing is pending, running or arriving.
    // Returns how many jobs are still pending (they can never start).
    Result<size_t> run(Arrivals* arrivals = nullptr);

    // --- Saving and restoring (queue/simulator_state.cc, state/queue_rows.cc) ---
    // The simulator's own counters beyond its jobs.
    struct Clock {
        int64_t now = 0;
        uint64_t next_seq = 0, passes = 0;
        bool pass_due = false;
        int64_t poll_at = kNever;
        std::vector<int64_t> reserved;  // reserved in the last pass, in order
    };
    Clock clock() const;
    // Pending, reserved and running jobs (any order).
    const std::unordered_map<int64_t, QueueJob>& jobs() const { return jobs_; }
    // Puts a saved state onto a simulator just made (set_queues done, no
    // job yet); the pending set and the ends are rebuilt from the jobs.
    // Errors say which job does not fit.
    Status restore(const Clock& clock, std::vector<QueueJob> jobs);
    // Called after a job takes its records and before it gives them back
    // (state/ keeps the vertices that changed).
    void on_hold_change(std::function<void(const QueueJob&)> f) { on_hold_change_ = std::move(f); }
    // --- end of saving and restoring ---

    // Pending jobs in queue order.
    std::vector<const QueueJob*> pending() const;
    size_t pending_count() const { return pending_.size(); }
    // Jobs holding a reservation after the last pass (pending too).
    size_t reserved_count() const { return reserved_.size(); }
    size_t running() const { return ends_.size(); }
    uint64_t passes() const { return passes_; }

private:
    struct Key {
        int neg_priority;
        int64_t submit;
        uint64_t seq;
        int64_t id;
        bool operator<(const Key& o) const {
            if (neg_priority != o.neg_priority) return neg_priority < o.neg_priority;
            if (submit != o.submit) return submit < o.submit;
            return seq < o.seq;
        }
    };
    static Key key_of(const QueueJob& j) { return {-j.priority, j.submit, j.seq, j.id}; }
    struct EndKey {
        int64_t end;
        uint64_t seq;
        int64_t id;
        bool operator>(const EndKey& o) const { return end != o.end ? end > o.end : seq > o.seq; }
    };

    // The job's minimum totals by type (QueueJob::totals), from its jobspec.
    static void add_job_totals(QueueJob& job);
    Status process_until(int64_t limit, Arrivals* arrivals);
    void release_ends(int64_t t);
    void pass();
    enum class Outcome { kStarted, kReserved, kBlocked, kRejected };
    // One pending job's turn in the pass.
    Outcome try_job(QueueJob& job, int64_t& reservations, const QueuePolicy& policy);
    void start(QueueJob& job);
    // Pass steps both passes share (simulator.cc): cancel the previous
    // pass's reservations (the jobs pend again, their ids returned); move
    // past a job's outcome in the pending set (false: the pass stops here);
    // forget the planned start of jobs of `previously` left unreserved.
    std::vector<int64_t> cancel_reservations();
    // A reserved job back to pending: its spans released, its keep proof dropped.
    void unreserve(QueueJob& job);
    bool step_past(Outcome outcome, std::set<Key>::iterator& it, const QueuePolicy& policy);
    void forget_unreserved(const std::vector<int64_t>& previously);
    // Kept reservations (queue/kept_reservations.cc, docs/queue.md "Kept
    // reservations"): a pass that would cancel and re-make the previous
    // pass's reservations keeps each one it can prove would come out the
    // same, in queue order, until the first it cannot.
    bool keeping() const;
    // Sets the previous pass's reservations aside without cancelling them
    // (their root aggregate spans lifted); returns their ids, walk order.
    std::vector<int64_t> hold_reservations();
    // Whether the walk's next job is the next held reservation and would
    // be re-made exactly as it is; keep_reservation() then takes it.
    bool keep_holds(const QueueJob& job);
    Outcome keep_reservation(QueueJob& job, int64_t& reservations);
    // Cancels the held reservations not kept (a job must be tried, or the
    // walk ended): from here on the pass recomputes.
    void drop_held();
    // Records what keep_holds() will need about the reservation `job` just
    // made (only when `keep`: else it is never kept).
    void note_keep_proof(QueueJob& job, bool keep);
    // A span released early or started at now() by `job` (its vertices in
    // job.held, its span ending at span_end): every reservation made
    // before it notes the change (on a vertex it read, in its window).
    void note_change(const QueueJob& job, int64_t span_end);
    // Vertex-level keep proofs (kept_reservations.cc): up to 32 live
    // proofs, each a bit in the per-vertex masks of the vertices its walk
    // read and of those its reservation holds.
    void take_proof_slot(QueueJob& job);
    void keep_changeable_steps(QueueJob::KeepProof& proof);
    void drop_proof_slot(QueueJob& job);
    // Whether the walk at u's changed child order would visit what `job`'s
    // walk visited, in the same order, and nothing more.
    bool same_walk_order(const QueueJob& job, VertexId u, uint32_t held_bits);
    bool surely_empty(VertexId v, const QueueJob& job) const;
    bool held_overlap(VertexId v, uint32_t held_bits, const QueueJob& job) const;
    std::vector<const DfuTraverser::OrderStep*> step_at_edge_;  // same_walk_order's scratch, all null between calls
    std::vector<uint32_t> read_mask_, hold_mask_;
    std::vector<uint8_t> parent_mark_;  // keep_changeable_steps' scratch, all 0 between calls
    uint32_t slots_used_ = 0;
    std::array<int64_t, 32> slot_job_{};  // the job whose proof holds each slot
    void lift_root_span(QueueJob& job, std::vector<int64_t>& amounts);
    void put_back_root_span(QueueJob& job, const std::vector<int64_t>& amounts);
    std::vector<int64_t> held_;                    // held reservations, walk order
    std::vector<std::vector<int64_t>> held_amounts_;  // their lifted root spans
    size_t held_next_ = 0;                         // the first not yet kept or dropped
    uint64_t kept_reservations_ = 0;
    // Several queues (queue/queue_set.cc): one pass, the queues in
    // declaration order, each with its own policy over its own jobs.
    void multi_pass();
    bool multi_queue_ = false;
    std::vector<QueuePolicy> queue_policies_;  // parallel to jqm_.queues when set_queues ran
    // Records what a successful match gave the job (its vertices, its
    // span's end); release() gives it back.
    void hold(QueueJob& job, const MatchResult& r);
    void release(QueueJob& job);
    // JQM (jqm_pass.cc): submit checks, one poll, releases.
    Status jqm_check(const QueueJob& job) const;
    void jqm_pass();
    // Managers' answer for `job` in a poll where `full` managers are
    // already marked full; kGo only if every manager says go.
    RmAnswer jqm_ask(const JqmQueue& q, const QueueJob& job, const std::set<std::string>& full) const;
    void jqm_take(JqmQueue& q, QueueJob& job);
    void jqm_release(QueueJob& job);
    bool at_poll_instant() const { return now_ % jqm_.poll_interval == 0; }
    // True when the match at now() cannot succeed: the root's aggregate
    // planner lacks the job's totals, or a job of the same jobspec with no
    // longer an estimate already failed in this pass and nothing changed
    // since. Both are exact (necessary conditions), so they only save
    // traversals.
    bool surely_busy(const QueueJob& job);
    // The job's match at now() into collector_ (queue/pool_jobs.cc): its
    // jobspec on the traverser, or its pool request on the pool matcher.
    MatchResult match(QueueJob& job, MatchOp op);
    std::unique_ptr<pools::PoolMatcher> pool_matcher_;  // built for the first pool request
    Event event(const QueueJob& job, const char* name) const;

    DfuTraverser& traverser_;
    QueuePolicy policy_;
    EventLog& log_;
    int64_t& next_id_;
    std::function<void(const QueueJob&)> on_finish_;
    std::function<void(const QueueJob&)> on_hold_change_;
    std::function<void(const QueueJob&, const std::vector<VertexId>&)> on_start_;
    std::function<void(int64_t)> on_instant_;

    int64_t now_ = 0;
    uint64_t next_seq_ = 0;
    uint64_t passes_ = 0;
    bool pass_due_ = false;
    std::unordered_map<int64_t, QueueJob> jobs_;  // pending and running
    std::set<Key> pending_;
    std::vector<int64_t> reserved_;                // reserved in the last pass
    std::priority_queue<EndKey, std::vector<EndKey>, std::greater<EndKey>> ends_;
    ResourceCollector collector_;
    JqmConfig jqm_ = default_jqm_config();
    int64_t poll_at_ = kNever;  // JQM: the next poll when a change waits for one
    std::unordered_map<const Jobspec*, int64_t> failed_;  // this pass: jobspec -> shortest failed estimate
    std::vector<int64_t> request_;                        // scratch for surely_busy
    // The end of every span the simulator's jobs hold (owns_traverser_
    // only: then these are all the planners' spans), for the traverser's
    // reservation search (DfuTraverser::set_span_ends).
    std::multiset<int64_t> span_ends_;

    // Reuse of the previous pass (owns_traverser_ only): its considered
    // jobs that did not start, in walk order, and whether their outcomes
    // still hold (nothing released, started, dequeued or re-prioritised
    // since; no job submitted ahead of them; the pass changed neither the
    // planner nor an edge weight after its first job that did not start).
    struct Kept {
        int64_t id;
        bool reserved;
    };
    bool reuse_now() const;
    bool owns_traverser_ = false;
    bool walk_cancel_ = false;
    bool reusable_ = false;
    std::vector<Kept> kept_;
    uint64_t reused_tries_ = 0;
};

}  // namespace rq::queue
