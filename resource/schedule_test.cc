// ScheduleStore::release_tagged: every record a job holds at a vertex
// goes (spec/traversal.md §11), another job's records stay, a vertex
// without the job's tag is left alone, and a table that names a span its
// planner does not know is reported. And a held leaf's availability
// follows every change of its parent's holds (ScheduleStore::avail).
#include "resource/schedule.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace rq {
namespace {

// A vertex of size 4 with a subtree plan of one type (4 units), where job
// `job` holds an own span of `amount` units from `at`, a checker span, a
// tag and a subtree span; `reserved` files the own span as a reservation.
void hold(ScheduleStore& store, VertexId v, JobId job, Time at, int64_t amount, bool reserved) {
    VertexSchedule& record = store.get(v, 4);
    SpanId own = *record.plan.add_span(at, 10, amount);
    (reserved ? record.reservations : record.allocations)[job] = own;
    record.add_x_span(job, at, 10);
    record.tags.insert(job);
    SubtreePlan* plan = store.subtree(v, 0);
    if (plan == nullptr) plan = &store.set_subtree(v, 0, MultiPlanner({1}, {4}));
    plan->job2span[job] = *plan->plan.add_span(at, 10, {amount});
}

TEST(ScheduleStore, ReleaseTaggedRemovesEveryRecordOfThatJobOnly) {
    for (bool reserved : {false, true}) {
        ScheduleStore store;
        store.resize(3);
        hold(store, 1, 7, 0, 1, false);
        hold(store, 1, 8, 5, 2, reserved);

        bool ok = true;
        EXPECT_TRUE(store.release_tagged(1, 8, ok));
        EXPECT_TRUE(ok);
        const VertexSchedule* record = store.find(1);
        ASSERT_NE(record, nullptr);
        EXPECT_EQ(record->tags.count(8), 0u);
        EXPECT_FALSE(record->holds_own_span(8));
        EXPECT_EQ(record->x_spans().count(8), 0u);
        EXPECT_EQ(record->plan.span_count(), 1u);
        EXPECT_EQ(record->x_checker().span_count(), 1u);
        EXPECT_EQ(store.subtree(1, 0)->job2span.count(8), 0u);
        EXPECT_EQ(store.subtree(1, 0)->plan.planner(0).span_count(), 1u);
        // Job 7 keeps everything: 3 of 4 units free where it runs.
        EXPECT_EQ(record->tags.count(7), 1u);
        EXPECT_TRUE(record->holds_own_span(7));
        EXPECT_EQ(store.avail(1, 4, 0, 10), 3);
        EXPECT_EQ(store.avail(1, 4, 10, 5), 4);

        // Releasing again, or a job that never held anything, or a vertex
        // without records: not tagged, nothing removed, no fault.
        EXPECT_FALSE(store.release_tagged(1, 8, ok));
        EXPECT_FALSE(store.release_tagged(1, 99, ok));
        EXPECT_FALSE(store.release_tagged(2, 7, ok));
        EXPECT_TRUE(ok);
        EXPECT_EQ(record->plan.span_count(), 1u);
    }
}

TEST(ScheduleStore, ReleaseTaggedReportsASpanItsPlannerDoesNotKnowAndRemovesTheRest) {
    ScheduleStore store;
    store.resize(2);
    hold(store, 0, 7, 0, 1, false);
    VertexSchedule& record = *store.find(0);
    record.allocations[7] = 42;  // no such span in the planner
    bool ok = true;
    EXPECT_TRUE(store.release_tagged(0, 7, ok));
    EXPECT_FALSE(ok);
    EXPECT_EQ(record.tags.count(7), 0u);
    EXPECT_FALSE(record.holds_own_span(7));
    EXPECT_EQ(store.subtree(0, 0)->job2span.count(7), 0u);
    EXPECT_EQ(store.subtree(0, 0)->plan.planner(0).span_count(), 0u);
}

TEST(ScheduleStore, ReleaseTaggedLeavesAVertexWithoutTheJobsTagAlone) {
    ScheduleStore store;
    store.resize(1);
    hold(store, 0, 7, 0, 1, false);
    store.find(0)->tags.erase(7);
    bool ok = true;
    EXPECT_FALSE(store.release_tagged(0, 7, ok));
    EXPECT_TRUE(store.find(0)->holds_own_span(7));
    EXPECT_EQ(store.subtree(0, 0)->job2span.count(7), 1u);
}

}  // namespace
}  // namespace rq

namespace rq {
namespace {

// A held leaf's availability (ScheduleStore::avail reads its parent's
// holds, docs/matching.md "Leaf holds", through a one-entry cache of the
// last parent and window asked) against a plain scan of the holds, over
// random holds added, removed and cleared between asks of the same
// window: a cached answer must never outlive a change of the holds.
TEST(ScheduleStore, HeldLeafAvailabilityFollowsEveryChangeOfItsParentsHolds) {
    constexpr VertexId kParents = 2, kLeaves = 6;  // vertices 0-1 parents, 2-13 leaves
    ScheduleStore store;
    store.resize(kParents + kParents * kLeaves);
    std::vector<HoldSlot> slots(kParents + kParents * kLeaves);
    for (VertexId p = 0; p < kParents; ++p)
        for (uint32_t b = 0; b < kLeaves; ++b) slots[kParents + p * kLeaves + b] = {p, b};
    store.set_hold_slots(slots);
    std::mt19937 rng(7);
    // The model: per parent, job -> hold.
    std::vector<std::map<JobId, LeafHold>> model(kParents);
    auto expected = [&](VertexId leaf, Time at, Time d) {
        const HoldSlot s = slots[leaf];
        for (auto& [job, h] : model[s.parent])
            if ((h.leaves >> s.bit & 1u) != 0 && h.overlaps(at, d)) return 0;
        return 1;
    };
    const Time windows[][2] = {{0, 10}, {5, 5}, {20, 30}, {100, 1}};
    for (int step = 0; step < 4000; ++step) {
        VertexId p = static_cast<VertexId>(rng() % kParents);
        VertexSchedule& parent = store.get(p, 1);
        switch (rng() % 8) {
        case 0:
        case 1:
        case 2: {  // a hold (or a job's hold replaced)
            JobId job = static_cast<JobId>(rng() % 6);
            LeafHold h{static_cast<Time>(rng() % 60), static_cast<Time>(1 + rng() % 30), 1 + rng() % 63, false};
            parent.add_leaf_hold(job, h);
            model[p][job] = h;
            break;
        }
        case 3:
        case 4: {
            JobId job = static_cast<JobId>(rng() % 6);
            parent.remove_leaf_hold(job);
            model[p].erase(job);
            break;
        }
        case 5:
            if (rng() % 4 == 0) parent.clear_leaf_holds(), model[p].clear();
            break;
        default:
            break;
        }
        // The same window asked again after the change, leaf by leaf.
        const auto& w = windows[rng() % 4];
        for (VertexId leaf = kParents; leaf < slots.size(); ++leaf) {
            ASSERT_EQ(store.avail(leaf, 1, w[0], w[1]), expected(leaf, w[0], w[1]))
                << "step " << step << " leaf " << leaf << " window " << w[0] << "+" << w[1];
        }
    }
}

}  // namespace
}  // namespace rq
