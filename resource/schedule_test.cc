// ScheduleStore::release_tagged: every record a job holds at a vertex
// goes (spec/traversal.md §11), another job's records stay, a vertex
// without the job's tag is left alone, and a table that names a span its
// planner does not know is reported.
#include "resource/schedule.h"

#include <gtest/gtest.h>

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
