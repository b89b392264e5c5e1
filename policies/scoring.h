// The scoring API (spec/traversal.md §4-§7, policies.md §3): what a vertex
// visit hands to its parent. For every subsystem and resource type it keeps
// the ordered list of candidate "evaluated edge groups" (a child or a slot
// with a score, an available count and the edges that would be selected),
// and which of them the policy chose.
//
// It is the policies' own language (MatchPolicy's callbacks take and choose
// ScoreSets), so it lives here: the traverser fills it and includes it from
// policies/, and policies/ includes nothing of the traverser
// (docs/design.md "Layering rules").
#pragma once

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <functional>
#include <vector>

#include "resource/graph.h"

namespace rq {

// One edge an egroup would select, with the amount to mark on it.
struct EdgeEntry {
    int64_t count = 0;
    int64_t needs = 0;
    bool exclusive = false;
    EdgeId edge = kNoEdge;  // kNoEdge for the root egroup
};

struct EGroup {
    int64_t score = 0;
    int64_t count = 0;
    bool exclusive = false;
    bool root = false;
    // Almost every egroup selects one edge (a slot selects several): keep
    // that one inline rather than allocate per candidate.
    boost::container::small_vector<EdgeEntry, 1> edges;

    EGroup() = default;
    // Copies and moves by hand: small_vector's own copy and move of its
    // inline element is a call to memmove, and a walk copies or moves
    // every candidate into its parent's list (3-4% of a busy replay,
    // docs/replay-performance.md "Eleventh round"); one edge, by far the
    // common case, is copied as a plain struct instead.
    EGroup(const EGroup& o) : score(o.score), count(o.count), exclusive(o.exclusive), root(o.root) {
        copy_edges(o);
    }
    EGroup& operator=(const EGroup& o) {
        score = o.score, count = o.count, exclusive = o.exclusive, root = o.root;
        if (this != &o) {
            edges.clear();
            copy_edges(o);
        }
        return *this;
    }
    // small_vector's move does not promise noexcept, so a growing
    // std::vector<EGroup> copied every egroup (one copy per candidate per
    // doubling: a fifth of a busy replay pass, docs/replay-performance.md).
    // Moving EdgeEntry (trivial) or stealing the heap
    // buffer cannot throw.
    EGroup(EGroup&& o) noexcept : score(o.score), count(o.count), exclusive(o.exclusive), root(o.root) {
        move_edges(o);
    }
    EGroup& operator=(EGroup&& o) noexcept {
        score = o.score, count = o.count, exclusive = o.exclusive, root = o.root;
        if (this != &o) {
            edges.clear();
            move_edges(o);
        }
        return *this;
    }

    bool qualified() const { return score > 0; }

    // The egroup of one child a visit scored: its score, all it has
    // available, selected through the one edge to it.
    static EGroup of_child(int64_t score, int64_t avail, bool exclusive, EdgeId e) {
        EGroup group;
        group.score = score;
        group.count = avail;
        group.exclusive = exclusive;
        group.edges.push_back({avail, avail, exclusive, e});
        return group;
    }

private:
    // Into empty `edges`.
    void copy_edges(const EGroup& o) {
        if (o.edges.size() == 1)
            edges.push_back(o.edges.front());
        else
            edges = o.edges;
    }
    void move_edges(EGroup& o) noexcept {
        if (o.edges.size() == 1) {
            edges.push_back(o.edges.front());
            o.edges.clear();
        } else {
            edges = std::move(o.edges);
        }
    }
};

// "a is ordered before b" on egroups (policies.md §2: greater/less/...).
using EGroupLess = std::function<bool(const EGroup&, const EGroup&)>;

// The candidates of one type in one subsystem.
struct TypeEvals {
    TypeId type = 0;
    std::vector<EGroup> groups;  // insertion order until a choice sorts them
    int64_t qualified = 0;       // sum of counts of qualified egroups
    int64_t total = 0;           // sum of counts of all egroups
    int64_t best_k = 0;          // units chosen (0: no choice)
    size_t best_i = 0;           // egroups taken from the front
};

class ScoreSet {
public:
    ScoreSet() = default;
    ScoreSet(const ScoreSet&) = default;
    ScoreSet& operator=(const ScoreSet&) = default;
    ScoreSet(ScoreSet&&) = default;
    ScoreSet& operator=(ScoreSet&&) = default;
    // Hands its candidate arrays to a per-thread spare list that add()
    // takes from: a walk makes and drops a score set per vertex it visits.
    ~ScoreSet();

    // Results a visited child hands to its parent (spec §4.1 step 13).
    int64_t avail = 0;
    int64_t score = 0;

    void add(SubsystemId s, TypeId t, EGroup group);
    // add() of each of `groups` in order (moved from; left empty): one
    // lookup of (s, t) for the SIZE slots a slot request packs.
    void add_all(SubsystemId s, TypeId t, std::vector<EGroup>& groups);
    // add_all() of copies of `groups` (a recorded packing,
    // traversers/dfu_free_slots.cc).
    void add_copies(SubsystemId s, TypeId t, const std::vector<EGroup>& groups);
    // How many choices on this thread sorted two candidates that compare
    // equal (their order then depends on the order they were found in). A
    // keep proof that lets a walk find its candidates in another order
    // needs none (queue/kept_reservations.cc).
    static uint64_t ties();
    // Appends all egroups into `parent` (per subsystem and type).
    void merge_into(ScoreSet& parent);

    int64_t qualified_count(SubsystemId s, TypeId t) const;
    int64_t total_count(SubsystemId s, TypeId t) const;
    bool has_type(SubsystemId s, TypeId t) const { return find(s, t) != nullptr; }

    // Sorts the candidates of (s, t) with `before` (the libstdc++ introsort,
    // policies.md §7) and takes whole candidates from the front until `k`
    // units are covered. No choice when k is 0 or beyond the qualified
    // count. Marks this set as "a choice was made here".
    bool choose_best_k(SubsystemId s, TypeId t, int64_t k, const EGroupLess& before);
    // choose_best_k with k = the qualified count.
    bool choose_all(SubsystemId s, TypeId t, const EGroupLess& before);
    bool choice_made() const { return choice_made_; }

    TypeEvals* find(SubsystemId s, TypeId t);
    const TypeEvals* find(SubsystemId s, TypeId t) const;

    // Iteration: subsystems in insertion order, types in interning order.
    // Inline: a walk makes a score set per vertex it visits, with one
    // subsystem and a type or two, and those were three allocations each.
    struct SubsystemEvals {
        SubsystemId subsystem;
        boost::container::small_vector<TypeEvals, 2> types;  // sorted by type id
    };
    using Subsystems = boost::container::small_vector<SubsystemEvals, 1>;
    Subsystems& subsystems() { return subsystems_; }
    const Subsystems& subsystems() const { return subsystems_; }

    void clear();

private:
    TypeEvals& slot(SubsystemId s, TypeId t);
    // slot(s, t) with `groups` counted in and room reserved for them.
    TypeEvals& slot_for(SubsystemId s, TypeId t, const std::vector<EGroup>& groups);
    // The (s, t) entry the last lookup landed on, or null.
    const TypeEvals* remembered(SubsystemId s, TypeId t) const;

    // Where the last lookup of slot()/find() landed: a walk adds and
    // counts the candidates of one (subsystem, type) child after child.
    // Checked against the ids before use, so never stale.
    mutable uint32_t last_sub_ = 0, last_type_ = 0;

    Subsystems subsystems_;
    bool choice_made_ = false;
};

}  // namespace rq
