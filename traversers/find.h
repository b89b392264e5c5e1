// `find`: the resources matching a criteria expression
// (spec/cli.md §5.6, traversal.md §16, output.md §3).
//
//   FindExpression  the parsed criteria: a small tree of key=value
//                   predicates combined by `and` / `or`, evaluated strictly
//                   left to right with equal precedence
//   find_resources  the walk over the dominant subsystem that hands every
//                   matching vertex (and the ancestors leading to it) to a
//                   writer, in post-order
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "resource/graph.h"
#include "resource/match_writer.h"
#include "resource/planner.h"
#include "resource/schedule.h"
#include "utilities/hostlist.h"
#include "utilities/result.h"

namespace rq {

// What a vertex "inherits" during the walk: a predicate such as
// status=down holds for a vertex when the vertex *or an ancestor* is down,
// so every descendant of a matching vertex matches too.
struct FindFlags {
    bool down = false;       // u or an ancestor is down
    bool allocated = false;  // u or an ancestor has an allocation (allocations non-empty)
    bool reserved = false;   // u or an ancestor has a reservation
};

// One `key=value` term.
struct FindPredicate {
    enum class Key {
        kStatus,         // flag: true for "down"
        kSchedNow,       // flag: true for "allocated"
        kSchedFuture,    // flag: true for "reserved"
        kAgfilter,       // always true; flag: true for "true"/"t" (switches agfilter output on)
        kNames,          // hostlist (lower-cased) membership of the vertex name
        kProperty,       // the vertex has a property named `property`
        kFreeAt,         // (ours) none of the vertex's units is planned at time `at`
        kJobidAlloc,     // allocations contain `jobid`
        kJobidReserved,  // reservations contain `jobid`
        kJobidTag,       // tags contain `jobid`
        kJobidSpan,      // the dominant subtree plan's job2span contains `jobid`
    };
    Key key = Key::kStatus;
    bool flag = false;
    std::string property;  // lower-cased, as the reference does
    Hostlist names;
    uint64_t jobid = 0;
    int64_t at = 0;  // kFreeAt

    bool is_jobid() const { return key >= Key::kJobidAlloc; }
};

enum class FindOp { kAnd, kOr };

// A node of the expression tree: a predicate, or a parenthesised group of
// terms. `op` tells how the term combines with everything to its left in
// its group (ignored for a group's first term).
struct FindTerm {
    FindOp op = FindOp::kAnd;
    std::optional<FindPredicate> predicate;  // set for a leaf
    std::vector<FindTerm> group;             // the sub-expression otherwise
};

// What a predicate is evaluated against.
struct FindTarget {
    const ResourceGraph& graph;
    const ScheduleStore& store;
    VertexId vertex;
    FindFlags flags;  // inherited flags, already including the vertex's own
};

class FindExpression {
public:
    // Parentheses nested deeper than this are rejected (it bounds the
    // recursion of parsing and evaluation, whatever the input).
    static constexpr int kMaxNesting = 64;

    // Parses criteria text. The error message says what is wrong (for
    // tests); the CLI prints the reference's "invalid criteria" text
    // instead (find_resources()).
    static Result<FindExpression> parse(std::string_view text);

    bool evaluate(const FindTarget& target) const;

    // agfilter=true / agfilter=t somewhere in the expression (the last
    // agfilter term decides).
    bool agfilter() const { return agfilter_; }
    // The job of the last jobid-* term, if any: with agfilter, the "used"
    // amounts are that job's spans.
    std::optional<uint64_t> jobid() const { return jobid_; }

    const std::vector<FindTerm>& terms() const { return terms_; }

private:
    std::vector<FindTerm> terms_;  // the top-level group
    bool agfilter_ = false;
    std::optional<uint64_t> jobid_;
};

// Parses a Flux job id: decimal, hex (`0x4d2`), dothex
// (`0000.0000.0000.04d2`), kvs (`job.0000.0000.0000.04d2`) or F58
// (`ƒ` or `f` followed by base-58 digits). Mnemonic and emoji encodings are
// not supported. nullopt if the text is none of these.
std::optional<uint64_t> parse_flux_jobid(std::string_view text);

// Where find runs.
struct FindContext {
    const ResourceGraph& graph;
    ScheduleStore& store;       // find clears stale ephemeral labels (store.note_labels)
    SubsystemId dominant;       // the walked subsystem; its subtree plans are slot 0
    Time now = 0;               // wall-clock seconds, for agfilter "used" amounts
};

// The whole `find` of traversal.md §16: parses `criteria`, walks the
// dominant tree from its root and emits the matches to `writer`, then
// writer.time(0, 0). Errors carry the reference's texts (without the final
// newline):
//   "findfind: invalid criteria: <criteria>."
//   "dom_find_dfv: span missing in job2span  for vertex: <name>"
// On error the writer may hold partial emissions; the caller resets it.
Status find_resources(const FindContext& context, std::string_view criteria, MatchWriter& writer);

// The walk alone, for an already parsed expression.
Status find_walk(const FindContext& context, const FindExpression& expression, MatchWriter& writer);

}  // namespace rq
