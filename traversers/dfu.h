// The DFU traverser (spec/traversal.md): depth-first on the dominant
// subsystem, up-walk on auxiliary ones. One object per session, bound to a
// graph, its schedule records, a match policy and the matcher's subsystems.
//
//   run()     a whole match request (§3): checks, scheduling in time,
//             selection (dfu_select.cc) and the update/emit walk
//             (dfu_update.cc)
//   cancel()  release a job (dfu_cancel.cc)
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "policies/match_policy.h"
#include "policies/scoring.h"
#include "resource/graph.h"
#include "resource/jobspec.h"
#include "resource/match_writer.h"
#include "resource/schedule.h"
#include "traversers/early_stop.h"
#include "traversers/flexible.h"
#include "traversers/pruning.h"
#include "traversers/select_order.h"

namespace rq {

// The end of the graph's time window: 100 years (planner.md §1).
inline constexpr int64_t kGraphEnd = 3153600000;

enum class MatchOp {
    kAllocate,
    kAllocateWithSatisfiability,
    kAllocateOrElseReserve,
    kSatisfiability,
    kWithoutAllocating,
    kWithoutAllocatingFuture,
};

// Parses a `match` sub-command name; false if unknown.
bool parse_match_op(const std::string& name, MatchOp& op);

// How the current selection will be recorded (traversal.md §3).
enum class AllocKind { kAlloc, kNoAlloc, kOrElse, kSat };

struct MatchResult {
    Errc code = Errc::kOk;  // kOk, or why it failed (EBUSY/ENODEV/EINVAL...)
    int64_t at = 0;         // scheduled time
    int64_t duration = 0;   // recorded duration (after graph-end truncation)
    bool ok() const { return code == Errc::kOk; }
};

struct TraverserConfig {
    std::vector<SubsystemId> subsystems;  // dominant first
    std::string prune_filters = "ALL:core,ALL:node";
    bool flexible = false;                // -T flexible
    // Debug/oracle: walk and score every candidate, as the reference does,
    // instead of the ordered walk that stops once the choice is decided.
    bool exhaustive_select = false;
};

class DfuTraverser {
public:
    // Installs the pruning filters. Errors: the reference's start-up
    // messages ("can't set pruning filters", "can't initialize traverser").
    static Result<std::unique_ptr<DfuTraverser>> create(ResourceGraph& graph, ScheduleStore& store,
                                                        MatchPolicy& policy, const TraverserConfig& config);

    // A match request end to end (traversal.md §3). The writer receives
    // the emitted vertices on success.
    MatchResult run(Jobspec& jobspec, MatchOp op, JobId jobid, MatchWriter& writer);

    // Releases every span of `jobid` (traversal.md §11).
    Status cancel(JobId jobid);
    // The same release when the caller knows every vertex the job's match
    // emitted (its tagged vertices, e.g. from the writer): touches only
    // those, not their untagged siblings. Same final state as cancel();
    // the visit counters then count the vertices released.
    Status cancel_held(JobId jobid, const std::vector<VertexId>& held);

    // The simulated clock of queue/: run() allocates at `now` and reserves
    // at the earliest time after it, instead of at time 0. 0 (the default)
    // is the reference's behaviour; nothing else reads it.
    void set_now(int64_t now) { now_ = now; }
    int64_t now() const { return now_; }
    // Optional, for a caller that knows every span in the planners (the
    // queue simulator in a replay): the end time of each live span. The
    // reservation search then moves from a failed time t straight to the
    // next end after t: until something is released, the window only
    // gains spans, so a selection that failed at t fails there too.
    // nullptr (the default): try every scheduled point after t.
    void set_span_ends(const std::multiset<int64_t>* ends) { span_ends_ = ends; }
    // Optional, for a caller that reads only a match's result code and
    // clears the message (the queue simulator): a selection that surely
    // fails is not walked (surely_short(), dfu_run.cc). Off (the default):
    // every selection is walked, so its messages are the reference's.
    void set_skip_short_walks(bool on) { skip_short_walks_ = on; }

    // Kept reservations (queue/, docs/queue.md "Kept reservations"): with
    // tracking on, run() lists every vertex whose child order (its
    // out-edges' weights) the selection read, and notes the graph's order
    // clock when it began. A later run of the same request sees the same
    // orders while none of those vertices' stamps passed that clock.
    void track_order_reads(bool on) { track_orders_ = on; }
    std::vector<VertexId> take_order_reads() { return std::move(order_reads_); }
    uint64_t run_order_clock() const { return run_order_clock_; }
    // With tracking on, the last selection walk's steps through ordered
    // children (the `first` policies' early-stopping walk, spec/traversal.md
    // §4.4): for each child it visited, its parent, its edge and whether
    // the visit found anything, in walk order; and the parents whose walk
    // stopped early. `complete` when every vertex the walk visited below
    // the root was reached through such a step (no other walk ran), so the
    // steps' targets are every vertex the walk read. A keep proof compares
    // a changed child order against them (queue/kept_reservations.cc).
    struct OrderStep {
        VertexId parent;
        EdgeId edge;
        bool ok;
        int64_t added;  // what it added to its parent's one tally (EarlyStop)
    };
    // A parent whose walk counted one requested type, and its shares
    // before the first child.
    struct OrderTally {
        VertexId parent;
        EarlyStop::Shares shares;
    };
    struct OrderWalk {
        using Steps = std::vector<OrderStep>;
        Steps steps;
        std::vector<VertexId> stopped;
        std::vector<OrderTally> tallies;
        // Vertices whose visited children have no subtree plan (so their
        // order never changes), stepped into but whose steps were only
        // counted (a free node's replayed slots, dfu_free_slots.cc).
        std::vector<VertexId> fixed;
        size_t folded_steps = 0;
        bool tied = false;  // a choice of the walk sorted equal candidates
        bool complete = false;
    };
    OrderWalk take_order_walk();
    // The edge weights a match's update walk sets on the edges it took
    // (the `first` policies, spec/traversal.md §10), set again at now():
    // what re-making that match at now() would leave.
    void reweight_at_now(const std::vector<EdgeId>& edges);

    // Leaf holds (dfu_leaf_holds.cc, docs/matching.md "Leaf holds"): while
    // on, a job taking leaves of a vertex is recorded once at that vertex.
    // For a caller that only matches and cancels (a replay); turning them
    // off writes every hold out as per-leaf records.
    void set_leaf_holds(bool on);
    // Deferred exclusivity checkers (dfu_deferred_x.cc, docs/matching.md
    // "Deferred checkers"): while on, a match writes no checker span; a
    // request that could read one, and turning them off, writes out every
    // span deferred so far. For the same callers as leaf holds.
    void set_deferred_checkers(bool on);
    bool checkers_deferred() const { return x_deferred_; }
    // Leaf holds and deferred checkers together, as a replay (a caller
    // that alone matches and cancels) turns them on and off.
    void set_replay_shortcuts(bool on) {
        set_leaf_holds(on);
        set_deferred_checkers(on);
    }

    // `update`: applies an allocation given as R (reader "jgf",
    // "jgf_shorthand" or "rv1exec") for [at, at+duration) and emits it
    // (traversal.md §12). A failure leaves its reason in message().
    MatchResult apply(const std::string& reader, std::string_view text, JobId jobid, int64_t at,
                      int64_t duration, MatchWriter& writer);

    // `partial-cancel`: releases the part of `jobid` given as R (reader
    // "jgf" or "rv1exec"); true when nothing of the job is left
    // (traversal.md §13). Nothing changes when it fails.
    Result<bool> partial_cancel(JobId jobid, const std::string& reader, std::string_view text);

    // `attach`: grows the graph with a JGF subgraph; `remove`: shrinks it
    // by path or by ranks (traversal.md §17). Pruning filters are
    // re-installed afterwards.
    Status attach(std::string_view jgf_text);
    Status remove_path(const std::string& path);
    Status remove_ranks(const std::vector<int64_t>& ranks);

    // Re-runs the pruning-filter installation after the graph changed.
    Status reinstall_pruning();

    // Visit counters of the last walk (for -e and `cancel N stats`).
    uint64_t preorder() const { return preorder_; }
    uint64_t postorder() const { return postorder_; }
    // How many times a free node's recorded slots stood for its walk
    // (dfu_free_slots.cc; tests).
    uint64_t free_slot_replays() const { return free_slot_replays_; }
    // How many selections the ordered walk decided (tests, benchmarks).
    uint64_t ordered_selections() const { return ordered_selections_; }
    // How many leaf visits took the shortcut of dfu_leaf_visit.cc (none
    // with exhaustive_select, the reference's walk).
    uint64_t leaf_visits() const { return leaf_visits_; }
    // Selections not walked because surely_short() proved they fail.
    uint64_t short_selections() const { return short_selections_; }

    // Messages the last run accumulated (printed after a failed match).
    const std::string& message() const { return message_; }
    void clear_message() { message_.clear(); }

    SubsystemId dominant() const { return subsystems_.front(); }
    const std::vector<SubsystemId>& subsystems() const { return subsystems_; }
    const PruneSpec& prune_spec() const { return specs_.front(); }
    ResourceGraph& graph() { return graph_; }
    ScheduleStore& store() { return store_; }
    MatchPolicy& policy() { return policy_; }

private:
    DfuTraverser(ResourceGraph& graph, ScheduleStore& store, MatchPolicy& policy, const TraverserConfig& config);

    // ---- colours: per subsystem slot, reset by bumping an epoch ----------
    enum Colour : uint32_t { kWhite = 0, kGrey = 1, kBlack = 2 };
    void reset_colours();
    Colour colour(size_t slot, VertexId v) const {
        uint32_t mark = colours_[slot][v];
        return (mark >> 2) == epoch_ ? static_cast<Colour>(mark & 3) : kWhite;
    }
    void set_colour(size_t slot, VertexId v, Colour c) { colours_[slot][v] = (epoch_ << 2) | c; }

    // ---- a match request (dfu_run.cc) -------------------------------------
    void prime_jobspec(std::vector<JobResource>& resources, TypeCounts& totals);
    Errc feasible(const Jobspec& jobspec, MatchOp op) const;
    Errc schedule(Jobspec& jobspec, MatchOp op, int64_t& at);
    Errc probe_far_future(Jobspec& jobspec);
    // A selection at `at` surely fails: the root's children hold too few
    // free units over the window (see set_skip_short_walks()).
    bool surely_short(int64_t at) const;
    int64_t free_units_bound(VertexId v, TypeId t, int64_t at, int levels, int64_t cap) const;
    std::optional<int64_t> children_free_bound(VertexId v, TypeId t, int64_t at, int levels, int64_t cap) const;
    // How far below the root surely_short() looks: racks, nodes, sockets.
    static constexpr int kShortLevels = 3;
    // select_jobspec() unless surely_short() says it fails.
    Errc select_unless_short(Jobspec& jobspec, int64_t at);
    // One selection attempt for the whole request at `at`: select() on the
    // jobspec's resources, or select_xor_variants() with -T flexible.
    Errc select_jobspec(Jobspec& jobspec, int64_t at);
    int64_t totals_lookup(TypeId t) const {
        for (auto& [type, n] : totals_)
            if (type == t) return n;
        return 0;
    }
    bool is_exclusive_type(TypeId t) const { return t < excl_types_.size() && excl_types_[t]; }

    // ---- selection (dfu_select.cc) ----------------------------------------
    enum class Kind { kSlot, kResource, kPristineNone, kNone };
    struct Classified {
        Kind kind = Kind::kNone;
        const std::vector<JobResource>* next = nullptr;
        uint32_t nslots = 0;
        bool pristine = false;
        bool below = false;  // kSlot: members deeper than u's children (dfu_slot_below.cc)
        bool owned = false;  // kSlot: the slot is in the `with` of the resource u matched
    };
    Errc select(std::vector<JobResource>& resources, int64_t at);
    bool dom_dfv(VertexId u, const std::vector<JobResource>& resources, bool pristine, bool& excl,
                 ScoreSet& parent);
    // dom_dfv() of a leaf asked for as a resource with nothing below
    // (dfu_leaf_visit.cc): false when that shortcut does not apply,
    // otherwise dom_dfv()'s answer in `matched`.
    bool visit_leaf(VertexId u, const std::vector<JobResource>& resources, bool& excl, ScoreSet& parent,
                    bool& matched);
    Classified classify(VertexId u, const std::vector<JobResource>& resources, bool pristine);
    static Classified& resource_or_none(Classified& c, const JobResource* match,
                                        const std::vector<JobResource>& resources, bool pristine);
    bool has_child_of_type(VertexId u, TypeId t);
    // The types of u's children, each with whether a dominant child of
    // that type has children; computed once per vertex (classify() asks
    // at every node a slot is packed at, and a node has dozens of
    // children). Dropped when the graph changes.
    struct ChildType {
        TypeId type;
        bool dominant_inner;
    };
    using ChildTypes = boost::container::small_vector<ChildType, 4>;
    const ChildTypes& child_types(VertexId u);
    std::unordered_map<VertexId, ChildTypes> child_types_;
    // `avail_out`, when given, receives avail(u) once prune() read it (it
    // stays the same for the rest of the selection: nothing changes the
    // planners until the update walk).
    bool prune(VertexId u, const std::vector<JobResource>& resources, bool x_in, int64_t* avail_out = nullptr);
    bool explore_down(VertexId u, SubsystemId s, const std::vector<JobResource>& list, bool pristine, bool x,
                      ScoreSet& scores, uint32_t multiplier);
    bool explore_aux(VertexId u, SubsystemId s, size_t slot, const std::vector<JobResource>& list,
                     ScoreSet& scores);
    // The early-stop child order of a vertex whose out-edges still have
    // their default weights, without the graph's ordered index (see
    // dfu_select.cc); false when it does not apply.
    struct FreshOrder {
        static constexpr size_t kMax = 64;
        std::array<EdgeId, kMax> edges;
        size_t size = 0;
        bool ascending = false;  // uniq_ids ascend along the out-edges
    };
    bool fresh_child_order(VertexId u, FreshOrder& order);
    bool aux_visit(VertexId v, SubsystemId s, size_t slot, const std::vector<JobResource>& list);
    void dom_slot(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots, ScoreSet& scores,
                  bool below = false, bool owned = false);
    // ---- free-node slots, recorded and replayed (dfu_free_slots.cc) --------
    struct FreeSlots {
        TypeId type = kNoId;
        uint64_t order_stamp = 0;
        int64_t first_score = 0;
        uint64_t preorder = 0, postorder = 0, dfv_calls = 0, leaf_visits = 0;
        std::vector<OrderStep> steps;
        std::vector<EGroup> slots;
    };
    struct FreeSlotsCapture {
        uint64_t preorder = 0, postorder = 0, dfv_calls = 0, leaf_visits = 0, ties = 0;
        size_t steps = 0, stopped = 0, tallies = 0, fixed = 0, folded_steps = 0;
        bool record_steps = false;
    };
    static constexpr uint32_t kNoRecord = UINT32_MAX;
    bool free_slots_apply(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots) const;
    bool first_leaf_score(VertexId u, int64_t& score) const;
    FreeSlots* free_slots_record(VertexId u, bool create);
    bool free_slots_replay(VertexId u, const std::vector<JobResource>& shape, ScoreSet& scores);
    FreeSlotsCapture free_slots_begin();
    void free_slots_end(VertexId u, const std::vector<JobResource>& shape, const FreeSlotsCapture& c,
                        const std::vector<EGroup>* slots);
    // ---- a slot's members walked best id first (dfu_slot_ordered.cc) -------
    // false: not applicable, explore_down() scores every member.
    bool ordered_slot(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots, ScoreSet& scores);
    // u's dominant children of `type`, best id first, into `out`; false
    // when one of them has a size other than 1.
    using SlotMembers = boost::container::small_vector<EdgeId, 64>;
    bool slot_member_order(VertexId u, TypeId type, SlotMembers& out);
    // ---- a slot whose members sit below u's children (dfu_slot_below.cc) --
    void explore_below(VertexId u, const std::vector<JobResource>& shape, ScoreSet& scores, uint32_t multiplier);
    void collect_members(VertexId u, const std::vector<JobResource>& shape, std::vector<EdgeId>& out);
    bool passage_closed(VertexId v, const std::vector<JobResource>& shape);
    // Whether a child of u that is not a member of the slot has children.
    bool may_hold_members(VertexId u, const std::vector<JobResource>& shape);
    void resolve(VertexId u, ScoreSet& scores, ScoreSet& parent);
    void mark_paths_down_from(VertexId u, ScoreSet& scores);
    // Marks `e` selected in the current round (and remembers it for the
    // update walk).
    void mark_edge(EdgeId e, int64_t needs, bool exclusive);
    // The update walk's index of the selected edges (sort_selected()):
    // a vertex whose selected out-edges sit among its first few is
    // scanned (scans_selected()); only the others' edges are sorted, and
    // selected_children() gives those in out-edge order.
    std::pair<const EdgeId*, const EdgeId*> selected_children(VertexId u) const;
    void sort_selected();
    bool scans_selected(VertexId u) const;
    uint32_t selected_count(VertexId u) const;
    void enforce(SubsystemId s, ScoreSet& scores, bool unconstrained);
    bool resolve_graph(VertexId root, const std::vector<JobResource>& resources, ScoreSet& outer,
                       int64_t& root_needs);
    int64_t avail(VertexId v) const;

    // ---- ordered selection (dfu_select_fast.cc) ----------------------------
    // One walk of select(); `exact` (when given) tells whether the ordered
    // walk's choice is provably the exhaustive walk's.
    Errc select_once(std::vector<JobResource>& resources, int64_t at, bool* exact);
    // The ordered child index usable for `resources`, or nullptr when the
    // request or the policy needs the exhaustive walk.
    const IdOrderIndex* ordered_index(const std::vector<JobResource>& resources);
    // Whether v's subtree cannot hold any resource of the pristine `list`
    // (its subtree plan lacks what each of them needs).
    bool cannot_hold(VertexId v, const std::vector<JobResource>& list);
    // Whether no child with this bound can change the choice any more.
    bool beyond_threshold(int64_t bound);
    bool surely_rejected(VertexId v, const std::vector<JobResource>& list);
    // Whether no child of the prefix-omitted vertex u can yield a candidate
    // (u's subtree plan lacks what the single resource needs).
    bool level_refused(VertexId u, const std::vector<JobResource>& list);
    void record_candidate(int64_t score, int64_t count);
    bool choice_is_exact(const ScoreSet& outer) const;
    // Whether the ordered walk's failure is the exhaustive walk's.
    bool failure_is_exact() const;
    const std::vector<TypeId>& tracked_below(TypeId t);

    // ---- -T flexible (flexible.cc, spec/traversal.md §14) ------------------
    Errc select_xor_variants(int64_t at);
    // classify() with or-slots: several slot siblings allowed.
    Classified classify_flexible(VertexId u, const std::vector<JobResource>& resources, bool pristine);
    // dom_slot() for a list of or-slots (`siblings` may hold other entries).
    void dom_or_slot(VertexId u, const std::vector<JobResource>& siblings, uint32_t nslots, ScoreSet& scores);

    // ---- partial cancel and shrinking (dfu_partial.cc, dfu_elastic.cc) -----
    // The dominant in-edges from v up to the root, nearest first (each the
    // first in-edge, spec/traversal.md §13 step 2). It stops at the root
    // and before a vertex already passed: with an edge in both directions
    // the root's first in-edge points down again (docs/differences.md).
    std::vector<EdgeId> edges_to_root(VertexId v) const;
    Status release_vertex(VertexId u, JobId jobid, std::map<TypeId, int64_t>& released);
    void release_own(VertexId u, VertexSchedule* record, JobId jobid, std::map<TypeId, int64_t>& released);
    // Reduces the job's spans on each vertex of `up` by the amounts given.
    Status shrink_up(JobId jobid, const std::map<VertexId, std::map<TypeId, int64_t>>& up);
    template <class Visit>  // dfu_partial.cc
    void job_below(VertexId u, JobId jobid, std::unordered_set<VertexId>& seen, Visit&& visit) const;
    // What release_vertex(u) would give back, without releasing; `done`
    // holds the vertices earlier calls counted (release_vertex() erases
    // their tags and spans, so a later one finds nothing there).
    void would_release(VertexId u, JobId jobid, std::unordered_set<VertexId>& done,
                       std::map<TypeId, int64_t>& released) const;
    // Whether shrink_up() can take `up` off the job's subtree spans.
    Status check_shrink(JobId jobid, const std::map<VertexId, std::map<TypeId, int64_t>>& up) const;
    Status shrink_ancestors(JobId jobid, const std::map<int64_t, VertexId>& rank_root,
                            const std::map<int64_t, std::map<TypeId, int64_t>>& released);
    // Detaches every root and its dominant descendants from the graph.
    void detach_subtrees(const std::vector<VertexId>& roots);

    // ---- update from R (dfu_apply.cc) --------------------------------------
    Status apply_jgf(std::string_view text, bool shorthand);
    Status apply_rv1exec(std::string_view text);
    Status take_whole(VertexId u);     // span of the vertex's full size, recorded
    void drop_taken();                 // releases what take_whole took in this update
    Status take_subtree(VertexId u);   // take_whole of every containment descendant

    // ---- update (dfu_update.cc) -------------------------------------------
    // Records the selected resources for `jobid` and emits them; false if
    // nothing exclusive was selected.
    bool update(JobId jobid, MatchWriter& writer, bool full);
    int64_t upd(VertexId u, int64_t needs, bool x, bool shadow, bool parent_excl, TypeCounts& out);
    // Whether u's own span, when it holds u's one unit, stands for the
    // job's exclusivity-checker span, which is then not written
    // (dfu_update.cc).
    bool own_span_stands_for_exclusivity(VertexId u) const;
    uint64_t leaves_taken(VertexId u, bool mod) const;  // dfu_leaf_holds.cc
    int64_t upd_held_leaves(VertexId u, uint64_t leaves, bool parent_excl, TypeCounts& out);
    void expand_leaf_holds();
    // Whether `jobid` holds u's exclusivity: a checker span, or the own
    // span that stands for it.
    bool has_exclusivity(VertexId u, const VertexSchedule& record, JobId jobid) const;
    void reweight(EdgeId e, int64_t query_time);

    // ---- state --------------------------------------------------------------
    ResourceGraph& graph_;
    ScheduleStore& store_;
    MatchPolicy& policy_;
    std::vector<SubsystemId> subsystems_;
    std::vector<PruneSpec> specs_;   // per subsystem slot
    std::string prune_filters_;
    bool flexible_;

    std::vector<std::vector<uint32_t>> colours_;  // per slot: epoch * 4 + colour
    uint32_t epoch_ = 0;

    uint64_t seq_ = 0;   // selection sequence number (edge marks)
    // Edges marked in the current round: the update walk follows these
    // instead of scanning every child (a flat machine has thousands).
    std::vector<EdgeId> selected_;
    bool selected_sorted_ = false;
    uint64_t preorder_ = 0, postorder_ = 0;
    std::string message_;
    std::unordered_map<VertexId, uint64_t> label_seq_;  // walk that last labelled a vertex
    // Vertices fresh_child_order() turned down: weights are never reset,
    // so it would again (a stale entry only costs the graph's index).
    // One byte per vertex: it is asked at every vertex a `first` walk enters.
    std::vector<uint8_t> not_fresh_;

    // ordered selection
    bool exhaustive_select_ = false;
    uint64_t ordered_selections_ = 0;
    uint64_t leaf_visits_ = 0;
    uint64_t short_selections_ = 0;
    bool ids_positive_ = true;  // every id >= -1 (see select_order.h)
    std::unique_ptr<IdOrderIndex> id_index_;  // built for the last requested type
    std::vector<std::vector<TypeId>> tracked_below_;  // spec types_for(), per type
    std::vector<uint8_t> tracked_below_ready_;
    struct OrderedWalk {
        const IdOrderIndex* index = nullptr;  // null: exhaustive walk
        const JobResource* request = nullptr;
        std::vector<std::pair<int64_t, int64_t>> found;  // (score, count) of T candidates
        int64_t qualified = 0;
        bool dirty = false;
        bool inexact = false;  // a shortcut below could not prove its choice (dfu_slot_ordered.cc)
        bool cut = false;      // a child walk stopped at the threshold (candidates left unseen)
        bool has_threshold = false;
        int64_t threshold = 0;  // score of the last candidate the choice takes
    } walk_;

    // the request being processed
    std::vector<bool> excl_types_;   // exclusive types (node for *nodex + jobspec marks)
    const Jobspec* jobspec_ = nullptr;
    std::vector<std::pair<TypeId, int64_t>> totals_;  // J: the request's tracked-type totals
    int64_t at_ = 0;
    int64_t now_ = 0;  // set_now()
    const std::multiset<int64_t>* span_ends_ = nullptr;  // set_span_ends()
    bool skip_short_walks_ = false;                       // set_skip_short_walks()
    int64_t duration_ = 0;
    AllocKind kind_ = AllocKind::kAlloc;
    bool x_root_ = false;
    // -T flexible with xor slots: the variants of the request being run.
    std::optional<flexible::XorVariants> xor_variants_;
    JobId jobid_ = 0;
    std::vector<VertexId> taken_;  // vertices take_whole gave a span in this update
    MatchWriter* writer_ = nullptr;
    bool full_update_ = true;
    bool leaf_edges_ = true;  // writer_->reads_leaf_edges(), for the update walk
    bool leaf_holds_ = false;  // set_leaf_holds()
    // set_deferred_checkers(): on; per type, whether a vertex of it may
    // carry checker spans; per job whose spans wait, its window.
    bool x_deferred_ = false;
    std::vector<uint8_t> x_types_;
    std::unordered_map<JobId, std::pair<int64_t, int64_t>> x_windows_;
    bool reads_checkers(const std::vector<JobResource>& resources) const;
    void write_deferred_checkers();
    std::vector<uint32_t> free_slots_at_;  // per vertex: its FreeSlots index, or kNoRecord
    std::vector<FreeSlots> free_slots_;
    uint64_t free_slot_replays_ = 0;
    int level_ = 0;
    int64_t reweight_time_ = 0;
    std::vector<int64_t> amounts_;  // upd(): a subtree span's amounts
    std::vector<std::pair<uint64_t, EdgeId>> sort_scratch_;  // sort_selected()
    std::vector<EGroup> slot_scratch_;                       // dom_slot(): the packed slots
    std::vector<size_t> slot_cursor_;                        // dom_slot(): per member type
    std::vector<int64_t> slot_needs_;                        // dom_slot(): units per slot, per member
    std::vector<const TypeEvals*> slot_evals_;               // dom_slot(): candidates per member
    // Per source vertex, as of sort round `round`: how many of its
    // out-edges are selected and the last one's out-position.
    struct SelectedAt {
        uint64_t round = 0;
        uint32_t count = 0, last = 0;
    };
    std::vector<SelectedAt> selected_at_;
    uint64_t sort_round_ = 0;
    std::vector<EdgeId> wide_selected_;  // the sorted edges of vertices not scanned
    std::vector<int64_t> walk_request_;  // select(): the ordered walk's request key
    VertexId fit_rejected_ = kNoVertex;  // last vertex prune() rejected on its subtree plan
    std::vector<int64_t> request_;       // prune(), cannot_hold(), passage_closed(): amounts asked
    // track_order_reads(): the vertices read, deduplicated by an epoch mark.
    void note_order_read(VertexId u) {
        if (!track_orders_) return;
        if (u >= order_read_mark_.size()) order_read_mark_.resize(static_cast<size_t>(u) + 1, 0);
        if (order_read_mark_[u] == order_read_epoch_) return;
        order_read_mark_[u] = order_read_epoch_;
        order_reads_.push_back(u);
    }
    void begin_order_reads();
    // The selection walk's steps (take_order_walk()): restarted by every
    // select_once(); `dfv_calls_` counts its visits to compare.
    OrderWalk order_walk_;
    uint64_t dfv_calls_ = 0;
    uint64_t walk_ties_ = 0;  // ScoreSet::ties() when the walk began
    bool other_walk_ = false;  // a walk other than the steps ran (slots below, aux)
    bool track_orders_ = false;
    bool record_steps_ = false;  // this walk keeps its steps: tracking on, a walk after now
    std::vector<VertexId> order_reads_;
    std::vector<uint32_t> order_read_mark_;
    uint32_t order_read_epoch_ = 0;
    uint64_t run_order_clock_ = 0;
};

}  // namespace rq
