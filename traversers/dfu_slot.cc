// A slot's packing (spec/traversal.md §6): the members found below the
// vertex where the slot is matched are sorted by the policy and packed
// into as many whole slots as they fill. A free node's slots may come
// from a record instead of the walk (dfu_free_slots.cc).
#include "traversers/dfu.h"
#include "utilities/saturating.h"

namespace rq {

void DfuTraverser::dom_slot(VertexId u, const std::vector<JobResource>& shape, uint32_t nslots, ScoreSet& scores,
                            bool below, bool owned) {
    SubsystemId dom = dominant();
    // A free node's slots, as recorded (dfu_free_slots.cc).
    const bool recordable = !below && !owned && free_slots_apply(u, shape, nslots);
    if (recordable && free_slots_replay(u, shape, scores)) return;
    FreeSlotsCapture capture;
    if (recordable) capture = free_slots_begin();
    ScoreSet slot_scores;
    if (below)
        explore_below(u, shape, slot_scores, nslots);
    else if (!owned || !ordered_slot(u, shape, nslots, slot_scores))
        explore_down(u, dom, shape, false, true, slot_scores, nslots);
    PolicyContext ctx{graph_, dom};
    policy_.finish_slot(ctx, slot_scores);

    // How many whole slots the sorted candidates can pack. Each member's
    // count and candidates are read once: a slot request of SIZE cores
    // packs SIZE slots here.
    std::vector<int64_t>& needs = slot_needs_;
    std::vector<const TypeEvals*>& member_evals = slot_evals_;
    needs.clear();
    member_evals.clear();
    int64_t k = shape.empty() ? 0 : INT64_MAX;
    for (const JobResource& member : shape) {
        int64_t need = calc_count(member, clamp_to_u32(slot_scores.qualified_count(dom, member.type)));
        const TypeEvals* evals = slot_scores.find(dom, member.type);
        needs.push_back(need);
        member_evals.push_back(evals);
        int64_t fits = 0;
        if (need != 0 && evals != nullptr) {
            int64_t sum = 0;
            for (const EGroup& h : evals->groups) {
                sum = saturating_add(sum, h.count);
                if (sum >= need) ++fits, sum = 0;
            }
        }
        k = std::min(k, fits);
    }

    std::vector<EGroup>& slots = slot_scratch_;  // kept between calls (one per visited node); emptied here
    slots.clear();
    std::vector<size_t>& cursor = slot_cursor_;
    cursor.assign(shape.size(), 0);
    for (int64_t i = 0; i < k; ++i) {
        EGroup g;
        g.score = 1;
        g.count = 1;
        g.exclusive = true;
        for (size_t m = 0; m < shape.size(); ++m) {
            const TypeEvals* evals = member_evals[m];
            for (int64_t got = 0; got < needs[m];) {
                if (evals == nullptr || cursor[m] >= evals->groups.size()) {
                    message_ += "dom_slot: not enough slots.\n";
                    if (recordable) free_slots_end(u, shape, capture, nullptr);
                    return;
                }
                const EGroup& h = evals->groups[cursor[m]++];
                for (const EdgeEntry& edge : h.edges) g.edges.push_back({h.count, h.count, true, edge.edge});
                g.score += h.score;
                got += h.count;
            }
        }
        slots.push_back(std::move(g));
    }
    if (recordable) free_slots_end(u, shape, capture, &slots);
    scores.add_all(dom, types::kSlot, slots);
}

}  // namespace rq
