// The flexible traverser's own logic (spec/traversal.md §14, `-T flexible`),
// kept apart from the simple traverser it modifies:
//
//   * xor slots: a resource list with `xor_slot` siblings stands for several
//     alternative lists ("variants"); XorVariants counts and builds them;
//   * or-slots: several `slot` siblings at one level; dom_slot explores the
//     union of their member types once (slot_member_union) and plan_slots()
//     decides how many slots of which kind to pack from the counts found;
//   * priming: slot alternatives pass the *minimum* of their aggregates to
//     the parent (AlternativeMinimum).
//
// The DfuTraverser members that use these (classify_flexible,
// dom_or_slot, select_xor_variants) are defined in flexible.cc too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "resource/jobspec.h"
#include "traversers/pruning.h"
#include "utilities/result.h"

namespace rq::flexible {

// True for `slot` and `xor_slot`: the resource types that are alternatives
// of each other when priming.
bool is_slot_type(TypeId t);

// ---- xor-slot expansion -----------------------------------------------------

// An expansion with more variants than this fails (§14).
inline constexpr uint64_t kMaxVariants = 1000;

// The variants of a resource list with xor slots. In a list, the `xor_slot`
// siblings are alternatives of each other (exactly one is kept, as a plain
// `slot`), their own lists may hold further alternatives (which multiply
// out), and the other siblings combine as a cross product. A variant keeps
// the siblings in document order, the chosen xor alternative in the place of
// the first xor sibling; variants are numbered with the first sibling
// varying slowest.
//
// Example: [xor A, xor B] with A.with = [xor a1, xor a2] gives 3 variants:
// [slot A[slot a1]], [slot A[slot a2]], [slot B].
//
// Variants are built on demand (a jobspec may have 2^16 resources and 1000
// variants: building them all at once could exhaust memory).
class XorVariants {
public:
    // Counts the variants of (a copy of) `resources`. Fails (kInvalid) when
    // there are more than kMaxVariants.
    static Result<XorVariants> expand(const std::vector<JobResource>& resources);

    // Whether the list has any xor slot, at any depth.
    static bool has_xor_slot(const std::vector<JobResource>& resources);

    uint64_t size() const { return count(*resources_); }
    // Variant `index` (0 <= index < size()): a copy of the list with the
    // chosen alternatives; aggregates are left empty for priming.
    std::vector<JobResource> variant(uint64_t index) const;

private:
    explicit XorVariants(const std::vector<JobResource>& resources)
        : resources_(std::make_unique<const std::vector<JobResource>>(resources)) {}

    // Number of variants of `list`, saturated at kMaxVariants + 1 (memoised
    // per list: decoding a variant asks for the counts of every sub-list).
    uint64_t count(const std::vector<JobResource>& list) const;
    void build(const std::vector<JobResource>& list, uint64_t index, std::vector<JobResource>& out) const;

    // Owned and never moved, so that the list addresses keying `counts_`
    // stay valid when the object moves.
    std::unique_ptr<const std::vector<JobResource>> resources_;
    mutable std::map<const std::vector<JobResource>*, uint64_t> counts_;
};

// ---- priming ----------------------------------------------------------------

// Collects what each slot alternative of one resource list needs beneath it
// (its count times its aggregate) and passes the per-type minimum on: a
// parent only needs enough for the cheapest alternative. A type that one
// alternative does not mention counts as 0 for it.
class AlternativeMinimum {
public:
    // One alternative: `count` units of a resource whose aggregate (per one
    // unit) is `aggregate`.
    void add(int64_t count, const TypeCounts& aggregate);
    bool empty() const { return alternatives_.empty(); }
    // Adds the minimum of every type any alternative mentions to `out`
    // (tracked types only).
    void add_to(const PruneSpec& spec, TypeCounts& out) const;

private:
    std::vector<TypeCounts> alternatives_;
};

// ---- or-slots ---------------------------------------------------------------

// The member list explored once for all the `slot` entries of `siblings`:
// every member type once, in order of first appearance; for a type present
// in several slots, the entry with the largest `count.min` (the first of
// equal ones) stands in its place.
std::vector<JobResource> slot_member_union(const std::vector<JobResource>& siblings);

// What one slot kind takes per slot: (type, units) pairs, in member order.
// A kind without members, or with a member whose count resolved to 0,
// cannot be packed at all.
struct SlotShape {
    std::vector<std::pair<TypeId, int64_t>> needs;
};

// The work limit of plan_slots (states explored).
inline constexpr uint64_t kMaxPlanSteps = uint64_t{1} << 20;

// How many slots of each kind to pack from `available` units per type:
// the plan that packs the most slots in total; among equally large plans
// the one that takes the most of the first kind, then of the second, ...
// (the outcome of a search that tries the kinds in order and keeps only
// strictly better results). Fails (kRange) when the search would explore
// more than kMaxPlanSteps states.
Result<std::vector<int64_t>> plan_slots(const std::vector<SlotShape>& shapes,
                                        const std::vector<std::pair<TypeId, int64_t>>& available);

}  // namespace rq::flexible
