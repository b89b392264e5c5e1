#include "policies/scoring.h"

#include <algorithm>

#include "policies/match_policy.h"
#include "utilities/intro_sort.h"
#include "utilities/saturating.h"

namespace rq {

const TypeEvals* ScoreSet::remembered(SubsystemId s, TypeId t) const {
    if (last_sub_ >= subsystems_.size()) return nullptr;
    const SubsystemEvals& sub = subsystems_[last_sub_];
    if (sub.subsystem != s || last_type_ >= sub.types.size() || sub.types[last_type_].type != t) return nullptr;
    return &sub.types[last_type_];
}

TypeEvals& ScoreSet::slot(SubsystemId s, TypeId t) {
    if (const TypeEvals* known = remembered(s, t)) return const_cast<TypeEvals&>(*known);
    auto sub = std::find_if(subsystems_.begin(), subsystems_.end(),
                            [s](const SubsystemEvals& x) { return x.subsystem == s; });
    if (sub == subsystems_.end()) {
        subsystems_.push_back({s, {}});
        sub = subsystems_.end() - 1;
    }
    auto& types = sub->types;
    auto it = std::lower_bound(types.begin(), types.end(), t,
                               [](const TypeEvals& e, TypeId id) { return e.type < id; });
    if (it == types.end() || it->type != t) {
        it = types.insert(it, TypeEvals{});
        it->type = t;
    }
    last_sub_ = static_cast<uint32_t>(sub - subsystems_.begin());
    last_type_ = static_cast<uint32_t>(it - types.begin());
    return *it;
}

TypeEvals* ScoreSet::find(SubsystemId s, TypeId t) {
    return const_cast<TypeEvals*>(static_cast<const ScoreSet*>(this)->find(s, t));
}

const TypeEvals* ScoreSet::find(SubsystemId s, TypeId t) const {
    if (const TypeEvals* known = remembered(s, t)) return known;
    for (size_t i = 0; i < subsystems_.size(); ++i) {
        const SubsystemEvals& sub = subsystems_[i];
        if (sub.subsystem != s) continue;
        auto it = std::lower_bound(sub.types.begin(), sub.types.end(), t,
                                   [](const TypeEvals& e, TypeId id) { return e.type < id; });
        if (it == sub.types.end() || it->type != t) return nullptr;
        last_sub_ = static_cast<uint32_t>(i);
        last_type_ = static_cast<uint32_t>(it - sub.types.begin());
        return &*it;
    }
    return nullptr;
}

namespace {

// Candidate arrays of score sets gone, emptied, capacity kept, for the next
// set's first add(): one array a visited vertex was a fifth of a busy
// replay's allocations (docs/replay-performance.md "Third round"). Bounded in
// number and in the size of what it keeps.
// A vertex's children come by the dozen (cores of a socket): a set's first
// array holds 8 rather than growing 1, 2, 4, 8 (EGroups copy, not move, on
// growth); the spare list keeps arrays of that size up to kSpareCapacity.
constexpr size_t kFirstGroups = 8;
constexpr size_t kSpareArrays = 64;
constexpr size_t kSpareCapacity = 64;
thread_local std::vector<std::vector<EGroup>> t_spare;

// An array with no storage yet takes a spare one; whether it has storage
// now.
bool reuse_spare(std::vector<EGroup>& groups) {
    if (groups.capacity() == 0 && !t_spare.empty()) {
        groups = std::move(t_spare.back());
        t_spare.pop_back();
    }
    return groups.capacity() != 0;
}

}  // namespace

ScoreSet::~ScoreSet() {
    for (auto& sub : subsystems_) {
        for (auto& evals : sub.types) {
            size_t cap = evals.groups.capacity();
            if (cap < kFirstGroups || cap > kSpareCapacity || t_spare.size() >= kSpareArrays) continue;
            evals.groups.clear();
            t_spare.push_back(std::move(evals.groups));
        }
    }
}

void ScoreSet::add(SubsystemId s, TypeId t, EGroup group) {
    TypeEvals& evals = slot(s, t);
    if (group.qualified()) evals.qualified = saturating_add(evals.qualified, group.count);
    evals.total = saturating_add(evals.total, group.count);
    if (!reuse_spare(evals.groups)) evals.groups.reserve(kFirstGroups);
    evals.groups.push_back(std::move(group));
}

TypeEvals& ScoreSet::slot_for(SubsystemId s, TypeId t, const std::vector<EGroup>& groups) {
    TypeEvals& evals = slot(s, t);
    for (const EGroup& g : groups) {
        if (g.qualified()) evals.qualified = saturating_add(evals.qualified, g.count);
        evals.total = saturating_add(evals.total, g.count);
    }
    reuse_spare(evals.groups);
    evals.groups.reserve(evals.groups.size() + groups.size());
    return evals;
}

void ScoreSet::add_all(SubsystemId s, TypeId t, std::vector<EGroup>& groups) {
    if (groups.empty()) return;
    TypeEvals& evals = slot_for(s, t, groups);
    for (auto& g : groups) evals.groups.push_back(std::move(g));
    groups.clear();
}

void ScoreSet::add_copies(SubsystemId s, TypeId t, const std::vector<EGroup>& groups) {
    if (groups.empty()) return;
    TypeEvals& evals = slot_for(s, t, groups);
    evals.groups.insert(evals.groups.end(), groups.begin(), groups.end());
}

void ScoreSet::merge_into(ScoreSet& parent) {
    for (auto& sub : subsystems_) {
        for (auto& evals : sub.types) {
            if (evals.groups.empty()) continue;
            TypeEvals& to = parent.slot(sub.subsystem, evals.type);
            to.qualified = saturating_add(to.qualified, evals.qualified);
            to.total = saturating_add(to.total, evals.total);
            // Into an empty list with less room: take the whole array (the
            // root hands its thousands of candidates to the walk's outer
            // set this way, instead of moving each once more).
            if (to.groups.empty() && to.groups.capacity() <= evals.groups.capacity()) {
                to.groups.swap(evals.groups);  // leaves this list the empty one
                continue;
            }
            // Grow by doubling at least: a node's candidates arrive one
            // merge at a time, thousands of them on a large match.
            size_t need = to.groups.size() + evals.groups.size();
            if (to.groups.capacity() < need) to.groups.reserve(std::max(need, 2 * to.groups.capacity()));
            for (auto& g : evals.groups) to.groups.push_back(std::move(g));
            evals.groups.clear();
        }
    }
}

int64_t ScoreSet::qualified_count(SubsystemId s, TypeId t) const {
    const TypeEvals* e = find(s, t);
    return e ? e->qualified : 0;
}

int64_t ScoreSet::total_count(SubsystemId s, TypeId t) const {
    const TypeEvals* e = find(s, t);
    return e ? e->total : 0;
}

namespace {
thread_local uint64_t t_ties = 0;
}  // namespace

uint64_t ScoreSet::ties() { return t_ties; }

bool ScoreSet::choose_best_k(SubsystemId s, TypeId t, int64_t k, const EGroupLess& before) {
    TypeEvals* e = find(s, t);
    if (e == nullptr || k == 0 || k > e->qualified) return false;
    // Sort positions rather than the egroups themselves: the same
    // comparisons in the same order give the same permutation, with
    // 4-byte moves instead of whole candidates.
    // Scratch kept per thread: a walk chooses at every vertex it visits.
    thread_local std::vector<uint32_t> order;
    thread_local std::vector<int64_t> score;
    thread_local std::vector<uint32_t> merge_scratch;
    order.resize(e->groups.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    // The multilevel policies compare bare scores: compare them from one
    // dense array, without two indirect calls per comparison (a tenth of
    // a busy replay pass sorted candidates, docs/replay-performance.md
    // "First round"). Same
    // comparisons, so the same permutation.
    using Compare = bool (*)(const EGroup&, const EGroup&);
    const Compare* plain = before.target<Compare>();
    if (plain != nullptr && (*plain == score_greater || *plain == score_less)) {
        score.resize(e->groups.size());
        for (size_t i = 0; i < score.size(); ++i) score[i] = e->groups[i].score;
        auto sort_by = [&](auto cmp) {
            // A short list (a node's cores) that is already in order: the
            // introsort of at most kThreshold elements is its insertion
            // sort, which moves nothing when no element goes before the
            // one ahead of it, ties included.
            if (order.size() <= size_t(intro_sort_detail::kThreshold)) {
                bool in_order = true;
                for (uint32_t i = 1; i < order.size() && in_order; ++i) in_order = !cmp(i, i - 1);
                if (in_order) return;
            }
            // Large candidate lists arrive as a few ordered runs (utilities/intro_sort.h).
            if (order.size() > 32 && sort_distinct_runs(order, merge_scratch, 4, cmp)) return;
            for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
            intro_sort(order.begin(), order.end(), cmp);
        };
        if (*plain == score_greater)
            sort_by([&](uint32_t a, uint32_t b) { return score[a] > score[b]; });
        else
            sort_by([&](uint32_t a, uint32_t b) { return score[a] < score[b]; });
        for (size_t i = 1; i < order.size(); ++i)
            if (score[order[i - 1]] == score[order[i]]) ++t_ties;
    } else {
        intro_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return before(e->groups[a], e->groups[b]); });
        for (size_t i = 1; i < order.size(); ++i)
            if (!before(e->groups[order[i - 1]], e->groups[order[i]]) &&
                !before(e->groups[order[i]], e->groups[order[i - 1]]))
                ++t_ties;
    }
    // The sorted candidates go into a per-thread buffer that then trades
    // places with the set's own (kept for the next choice, moved-from).
    thread_local std::vector<EGroup> sorted;  // empty between choices
    bool moved = false;
    for (uint32_t i = 0; i < order.size() && !moved; ++i) moved = order[i] != i;
    if (moved) {
        sorted.reserve(order.size());
        for (uint32_t i : order) sorted.push_back(std::move(e->groups[i]));
        e->groups.swap(sorted);
        sorted.clear();
    }
    int64_t covered = 0;
    size_t i = 0;
    while (i < e->groups.size() && covered < k) covered = saturating_add(covered, e->groups[i++].count);
    e->best_k = k;
    e->best_i = i;
    choice_made_ = true;
    return true;
}

bool ScoreSet::choose_all(SubsystemId s, TypeId t, const EGroupLess& before) {
    return choose_best_k(s, t, qualified_count(s, t), before);
}

void ScoreSet::clear() {
    subsystems_.clear();
    choice_made_ = false;
    avail = 0;
    score = 0;
}

}  // namespace rq
