// The flexible traverser (spec/traversal.md §14): xor-slot expansion,
// priming minima, or-slot planning, and the DfuTraverser hooks that use
// them (classify_flexible, dom_or_slot, select_xor_variants).
#include "traversers/flexible.h"
#include "utilities/saturating.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "traversers/dfu.h"

namespace rq::flexible {

bool is_slot_type(TypeId t) { return t == types::kSlot || t == types::kXorSlot; }

// ---- xor-slot expansion -----------------------------------------------------

namespace {

// Variant counts saturate here: anything above kMaxVariants fails anyway.
constexpr uint64_t kCountCap = kMaxVariants + 1;

uint64_t saturating_add(uint64_t a, uint64_t b) { return std::min(a + b, kCountCap); }

uint64_t saturating_mul(uint64_t a, uint64_t b) {
    if (a == 0 || b == 0) return 0;
    return a > kCountCap / b ? kCountCap : std::min(a * b, kCountCap);
}

// A copy of `r` without its children (they are rebuilt per variant) and
// without priming results. Keep in step with JobResource's fields.
JobResource copy_without_children(const JobResource& r) {
    JobResource copy;
    copy.type = r.type;
    copy.type_name = r.type_name;
    copy.count = r.count;
    copy.unit = r.unit;
    copy.label = r.label;
    copy.id = r.id;
    copy.exclusive = r.exclusive;
    return copy;
}

}  // namespace

bool XorVariants::has_xor_slot(const std::vector<JobResource>& resources) {
    for (const JobResource& r : resources)
        if (r.type == types::kXorSlot || has_xor_slot(r.with)) return true;
    return false;
}

Result<XorVariants> XorVariants::expand(const std::vector<JobResource>& resources) {
    XorVariants variants(resources);
    if (variants.size() > kMaxVariants)
        return make_error(Errc::kInvalid,
                          "xor slots expand to more than " + std::to_string(kMaxVariants) + " alternatives");
    return variants;
}

uint64_t XorVariants::count(const std::vector<JobResource>& list) const {
    if (auto known = counts_.find(&list); known != counts_.end()) return known->second;
    uint64_t product = 1;       // cross product of the plain siblings
    uint64_t alternatives = 0;  // sum over the xor siblings
    bool any_xor = false;
    for (const JobResource& r : list) {
        uint64_t n = count(r.with);
        if (r.type == types::kXorSlot) {
            any_xor = true;
            alternatives = saturating_add(alternatives, n);
        } else {
            product = saturating_mul(product, n);
        }
    }
    uint64_t total = any_xor ? saturating_mul(product, alternatives) : product;
    counts_.emplace(&list, total);
    return total;
}

std::vector<JobResource> XorVariants::variant(uint64_t index) const {
    std::vector<JobResource> out;
    build(*resources_, index, out);
    return out;
}

void XorVariants::build(const std::vector<JobResource>& list, uint64_t index, std::vector<JobResource>& out) const {
    // The list's components in order: each plain sibling, and the group of
    // xor siblings at the place of the first one. `index` is a mixed-radix
    // number over them, the first component most significant.
    struct Component {
        const JobResource* plain = nullptr;  // nullptr: the xor group
        uint64_t radix = 1;
    };
    std::vector<Component> components;
    bool group_added = false;
    for (const JobResource& r : list) {
        if (r.type != types::kXorSlot) {
            components.push_back({&r, count(r.with)});
        } else if (!group_added) {
            components.push_back({nullptr, 0});
            group_added = true;
        }
    }
    for (Component& c : components) {
        if (c.plain != nullptr) continue;
        for (const JobResource& r : list)
            if (r.type == types::kXorSlot) c.radix += count(r.with);
    }
    std::vector<uint64_t> digits(components.size());
    for (size_t k = components.size(); k-- > 0;) {
        digits[k] = index % components[k].radix;
        index /= components[k].radix;
    }

    for (size_t k = 0; k < components.size(); ++k) {
        uint64_t digit = digits[k];
        if (const JobResource* r = components[k].plain) {
            out.push_back(copy_without_children(*r));
            build(r->with, digit, out.back().with);
            continue;
        }
        // The xor group: find the alternative the digit falls in.
        for (const JobResource& r : list) {
            if (r.type != types::kXorSlot) continue;
            uint64_t n = count(r.with);
            if (digit >= n) {
                digit -= n;
                continue;
            }
            JobResource slot = copy_without_children(r);
            slot.type = types::kSlot;
            slot.type_name = "slot";
            build(r.with, digit, slot.with);
            out.push_back(std::move(slot));
            break;
        }
    }
}

// ---- priming ----------------------------------------------------------------

void AlternativeMinimum::add(int64_t count, const TypeCounts& aggregate) {
    TypeCounts scaled;
    aggregate.for_each([&](TypeId t, int64_t n) { scaled.add(t, saturating_mul(count, n)); });
    alternatives_.push_back(std::move(scaled));
}

void AlternativeMinimum::add_to(const PruneSpec& spec, TypeCounts& out) const {
    if (alternatives_.empty()) return;
    TypeCounts mentioned;  // every type any alternative mentions, in interning order
    for (const TypeCounts& alternative : alternatives_)
        alternative.for_each([&](TypeId t, int64_t) { mentioned.add(t, 0); });
    mentioned.for_each([&](TypeId t, int64_t) {
        int64_t least = INT64_MAX;
        for (const TypeCounts& alternative : alternatives_) least = std::min(least, alternative.get(t));
        add_if_tracked(spec, out, t, least);
    });
}

// ---- or-slots ---------------------------------------------------------------

std::vector<JobResource> slot_member_union(const std::vector<JobResource>& siblings) {
    std::vector<JobResource> members;
    for (const JobResource& slot : siblings) {
        if (slot.type != types::kSlot) continue;
        for (const JobResource& m : slot.with) {
            auto same = std::find_if(members.begin(), members.end(),
                                     [&](const JobResource& x) { return x.type == m.type; });
            if (same == members.end())
                members.push_back(m);
            else if (m.count.min > same->count.min)
                *same = m;
        }
    }
    return members;
}

namespace {

// The search behind plan_slots, on dense per-type vectors. best(level, left)
// = the most slots the kinds level.. can pack from `left`, trying for each
// level the largest count first and keeping only strictly better totals,
// so that ties go to plans taking more of the earlier kinds. Memoised on
// (level, left); iterative, since there may be many kinds.
class SlotPlanner {
public:
    explicit SlotPlanner(std::vector<std::vector<int64_t>> needs) : needs_(std::move(needs)) {
        // least_need_[level][t]: the smallest need of type t among kinds
        // level.. (0 if one of them does without it).
        least_need_.resize(needs_.size());
        for (size_t level = needs_.size(); level-- > 0;) {
            least_need_[level] = needs_[level];
            if (level + 1 < needs_.size())
                for (size_t t = 0; t < needs_[level].size(); ++t)
                    least_need_[level][t] = std::min(least_need_[level][t], least_need_[level + 1][t]);
        }
    }

    Result<std::vector<int64_t>> plan(const std::vector<int64_t>& available) {
        const size_t kinds = needs_.size();
        std::vector<int64_t> counts(kinds, 0);
        if (kinds == 0) return counts;
        if (kinds > 1) RQ_TRY(search(available));
        std::vector<int64_t> left = available;
        for (size_t level = 0; level < kinds; ++level) {
            counts[level] = level + 1 == kinds ? fit(level, left) : memo_.at(key(level, left)).count;
            take(level, counts[level], left);
        }
        return counts;
    }

private:
    struct Best {
        int64_t total = -1;  // slots packed by this level and the following ones
        int64_t count = 0;   // of which of this level's kind
    };
    // best(level, left) being computed: the counts of this level's kind are
    // tried from `count` down to 0.
    struct Frame {
        size_t level;
        std::vector<int64_t> left;
        int64_t count;
        Best best;

        // `rest` = what the following kinds pack after taking `count`.
        void tried(int64_t rest) {
            if (count + rest > best.total) best = {count + rest, count};
            --count;
        }
    };

    // How many slots of kind `level` fit in `left`.
    int64_t fit(size_t level, const std::vector<int64_t>& left) const {
        int64_t n = INT64_MAX;
        for (size_t t = 0; t < left.size(); ++t)
            if (needs_[level][t] > 0) n = std::min(n, left[t] / needs_[level][t]);
        return n;
    }
    void take(size_t level, int64_t count, std::vector<int64_t>& left) const {
        for (size_t t = 0; t < left.size(); ++t) left[t] -= count * needs_[level][t];
    }
    // An upper bound of best(level, left): no kind can exceed what it packs
    // on its own, and a type every kind needs caps the total.
    int64_t bound(size_t level, const std::vector<int64_t>& left) const {
        int64_t sum = 0;
        for (size_t k = level; k < needs_.size(); ++k) sum = std::min(sum + fit(k, left), INT64_MAX / 2);
        for (size_t t = 0; t < left.size(); ++t)
            if (least_need_[level][t] > 0) sum = std::min(sum, left[t] / least_need_[level][t]);
        return sum;
    }
    std::vector<int64_t> key(size_t level, const std::vector<int64_t>& left) const {
        std::vector<int64_t> k = left;
        k.push_back(static_cast<int64_t>(level));
        return k;
    }

    Status search(const std::vector<int64_t>& available) {
        const size_t last = needs_.size() - 1;  // best(last, left) is simply fit(last, left)
        std::vector<Frame> stack;
        stack.push_back({0, available, fit(0, available), {}});
        uint64_t steps = 0;
        std::optional<int64_t> returned;  // best total of the frame just finished
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (returned) {
                f.tried(*returned);
                returned.reset();
            }
            std::optional<Frame> child;
            while (!child && f.count >= 0) {
                if (++steps > kMaxPlanSteps) return make_error(Errc::kRange, "or-slot plan search too large");
                std::vector<int64_t> left = f.left;
                take(f.level, f.count, left);
                size_t next = f.level + 1;
                if (f.count + bound(next, left) <= f.best.total) {
                    --f.count;  // cannot beat what we have
                } else if (next == last) {
                    f.tried(fit(next, left));
                } else if (auto known = memo_.find(key(next, left)); known != memo_.end()) {
                    f.tried(known->second.total);
                } else {
                    int64_t most = fit(next, left);
                    child = Frame{next, std::move(left), most, {}};
                }
            }
            if (child) {
                stack.push_back(std::move(*child));  // `f` is invalid from here on
                continue;
            }
            memo_[key(f.level, f.left)] = f.best;
            returned = f.best.total;
            stack.pop_back();
        }
        return ok_status();
    }

    std::vector<std::vector<int64_t>> needs_;       // [kind][dense type]
    std::vector<std::vector<int64_t>> least_need_;  // [kind][dense type]
    std::map<std::vector<int64_t>, Best> memo_;
};

}  // namespace

Result<std::vector<int64_t>> plan_slots(const std::vector<SlotShape>& shapes,
                                        const std::vector<std::pair<TypeId, int64_t>>& available) {
    // Dense type indexes over the types the usable kinds need.
    std::vector<TypeId> types;
    auto dense = [&](TypeId t) {
        auto it = std::find(types.begin(), types.end(), t);
        if (it != types.end()) return static_cast<size_t>(it - types.begin());
        types.push_back(t);
        return types.size() - 1;
    };
    for (const SlotShape& s : shapes)
        for (auto& [t, n] : s.needs) dense(t);
    auto needs_of = [&](const SlotShape& s) {
        std::vector<int64_t> row(types.size(), 0);
        for (auto& [t, n] : s.needs) row[dense(t)] += n;
        return row;
    };

    // A kind that needs at least as much of everything as an earlier kind
    // is never part of the preferred plan (the earlier kind could take its
    // place), so only the others are searched.
    std::vector<size_t> searched;
    std::vector<std::vector<int64_t>> needs;
    for (size_t k = 0; k < shapes.size(); ++k) {
        const SlotShape& s = shapes[k];
        bool packable = !s.needs.empty() &&
                        std::all_of(s.needs.begin(), s.needs.end(), [](auto& need) { return need.second > 0; });
        if (!packable) continue;
        std::vector<int64_t> row = needs_of(s);
        bool dominated = std::any_of(needs.begin(), needs.end(), [&](const std::vector<int64_t>& earlier) {
            for (size_t t = 0; t < row.size(); ++t)
                if (earlier[t] > row[t]) return false;
            return true;
        });
        if (dominated) continue;
        searched.push_back(k);
        needs.push_back(std::move(row));
    }

    std::vector<int64_t> left(types.size(), 0);
    for (auto& [t, n] : available) {
        auto it = std::find(types.begin(), types.end(), t);
        if (it != types.end()) left[static_cast<size_t>(it - types.begin())] += std::max<int64_t>(n, 0);
    }
    auto counts = SlotPlanner(std::move(needs)).plan(left);
    if (!counts.ok()) return counts.error();
    std::vector<int64_t> plan(shapes.size(), 0);
    for (size_t i = 0; i < searched.size(); ++i) plan[searched[i]] = (*counts)[i];
    return plan;
}

}  // namespace rq::flexible

// ---- the traverser's flexible hooks -------------------------------------------

namespace rq {

Errc DfuTraverser::select_xor_variants(int64_t at) {
    // Every variant gets a whole select at this time; the first that
    // matches wins. (The caller's time search asks again at each candidate
    // time, so an earlier time with a later variant beats a later time with
    // an earlier one.)
    Errc code = Errc::kBusy;
    for (uint64_t i = 0; i < xor_variants_->size(); ++i) {
        std::vector<JobResource> resources = xor_variants_->variant(i);
        TypeCounts unused;
        prime_jobspec(resources, unused);
        code = select(resources, at);
        if (code == Errc::kOk) break;
    }
    return code;
}

DfuTraverser::Classified DfuTraverser::classify_flexible(VertexId u, const std::vector<JobResource>& resources,
                                                         bool pristine) {
    TypeId type = graph_.type(u);
    const JobResource* match = nullptr;
    const std::vector<JobResource>* slots = nullptr;  // the sibling list holding the slots
    uint32_t nslots = 0;                              // from the last slot
    bool slot_sibling = false;
    Classified c;
    for (const JobResource& r : resources) {
        if (r.type == type) {
            // Or-slots may be siblings, but not two resources of u's type,
            // nor one of u's type after a slot.
            if (match != nullptr || slot_sibling) {
                message_ += "test: siblings in jobspec request same resource type : " + graph_.type_name(u) + ".\n";
                c.kind = Kind::kNone;
                c.next = &resources;
                return c;
            }
            match = &r;
            for (const JobResource& child : r.with) {
                if (child.type != types::kSlot) continue;
                slots = &r.with;
                nslots = effective_max(child);
            }
        } else if (r.type == types::kSlot) {
            slots = &resources;
            nslots = effective_max(r);
            slot_sibling = true;
        }
    }
    if (slots != nullptr) {
        auto shape_here = [&](const JobResource& slot) {
            return slot.type == types::kSlot &&
                   std::all_of(slot.with.begin(), slot.with.end(),
                               [&](const JobResource& m) { return has_child_of_type(u, m.type); });
        };
        if (std::any_of(slots->begin(), slots->end(), shape_here)) {
            c.kind = Kind::kSlot;
            c.next = slots;
            c.nslots = nslots;
            c.pristine = false;
            return c;
        }
    }
    return resource_or_none(c, match, resources, pristine);
}

void DfuTraverser::dom_or_slot(VertexId u, const std::vector<JobResource>& siblings, uint32_t nslots,
                               ScoreSet& scores) {
    SubsystemId dom = dominant();
    ScoreSet slot_scores;
    std::vector<JobResource> members = flexible::slot_member_union(siblings);
    explore_down(u, dom, members, false, true, slot_scores, nslots);
    PolicyContext ctx{graph_, dom};
    policy_.finish_slot(ctx, slot_scores);

    // Units one slot takes of a member, given what was found (§6).
    auto need_of = [&](const JobResource& m) -> int64_t {
        return calc_count(m, clamp_to_u32(slot_scores.qualified_count(dom, m.type)));
    };
    std::vector<const JobResource*> kinds;
    std::vector<flexible::SlotShape> shapes;
    for (const JobResource& slot : siblings) {
        if (slot.type != types::kSlot) continue;
        kinds.push_back(&slot);
        flexible::SlotShape shape;
        for (const JobResource& m : slot.with) shape.needs.emplace_back(m.type, need_of(m));
        shapes.push_back(std::move(shape));
    }
    std::vector<std::pair<TypeId, int64_t>> available;
    for (const JobResource& m : members) available.emplace_back(m.type, slot_scores.qualified_count(dom, m.type));
    auto plan = flexible::plan_slots(shapes, available);
    if (!plan.ok()) {
        message_ += "dom_slot: " + plan.message() + ".\n";
        return;
    }

    // The slot egroups, kind by kind as planned, each member taking the
    // next candidates of its type in sorted order (one cursor per type,
    // shared by all kinds).
    std::vector<EGroup> packed;
    std::unordered_map<TypeId, size_t> cursor;
    for (size_t k = 0; k < kinds.size(); ++k) {
        for (int64_t i = 0; i < (*plan)[k]; ++i) {
            EGroup g;
            g.score = 1;
            g.count = 1;
            g.exclusive = true;
            for (const JobResource& m : kinds[k]->with) {
                const TypeEvals* evals = slot_scores.find(dom, m.type);
                size_t& next = cursor[m.type];
                for (int64_t got = 0, need = need_of(m); got < need;) {
                    if (evals == nullptr || next >= evals->groups.size()) {
                        message_ += "dom_slot: not enough slots.\n";
                        return;
                    }
                    const EGroup& h = evals->groups[next++];
                    for (const EdgeEntry& edge : h.edges) g.edges.push_back({h.count, h.count, true, edge.edge});
                    g.score += h.score;
                    got += h.count;
                }
            }
            packed.push_back(std::move(g));
        }
    }
    for (EGroup& g : packed) scores.add(dom, types::kSlot, std::move(g));
}

}  // namespace rq
