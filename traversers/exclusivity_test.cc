// The exclusivity checker (dfu_update.cc, own_span_stands_for_exclusivity):
// a leaf of size 1 held exclusively keeps only its own span, every other
// vertex a job touches keeps its checker span, and what the checker
// decides (traversal.md §5: an exclusive request refused on a vertex
// another job touches; find's free-at test) is unchanged.
#include <gtest/gtest.h>

#include "traversers/find.h"
#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::cores;
using testing::machine_recipe;
using testing::Matcher;
using testing::node_cores;

bool is_leaf(const Matcher& m, VertexId v) { return m.graph.out(v).empty(); }

TEST(Exclusivity, AnExclusivelyHeldCoreKeepsOnlyItsOwnSpan) {
    Matcher m(machine_recipe(1, 2, 1, 2), "low");
    MatchResult r;
    m.match(cores(1), MatchOp::kAllocate, &r);
    ASSERT_TRUE(r.ok());
    int held_cores = 0, touched_inner = 0;
    for (VertexId v = 0; v < m.graph.num_vertices(); ++v) {
        const VertexSchedule* record = m.store.find(v);
        if (record == nullptr || record->tags.count(1) == 0) continue;
        if (is_leaf(m, v)) {
            ++held_cores;
            EXPECT_EQ(record->allocations.count(1), 1u);
            EXPECT_EQ(record->x_spans().count(1), 0u) << m.graph.name(v);
            EXPECT_EQ(record->x_checker().span_count(), 0u) << m.graph.name(v);
        } else {
            ++touched_inner;
            EXPECT_EQ(record->x_spans().count(1), 1u) << m.graph.name(v);  // socket, node, rack, cluster
        }
    }
    EXPECT_EQ(held_cores, 1);
    EXPECT_EQ(touched_inner, 4);
}

// One node with one socket of two cores; job 1 holds one core over
// [0, 100).
class OneCoreHeld : public ::testing::Test {
protected:
    void SetUp() override {
        m.match(cores(1, 100), MatchOp::kAllocate, &r);
        ASSERT_TRUE(r.ok());
    }
    Matcher m{machine_recipe(1, 1, 1, 2), "low"};
    MatchResult r;
};

TEST_F(OneCoreHeld, FindFreeAtStillSeesIt) {
    auto during = FindExpression::parse("free-at=50");
    auto after = FindExpression::parse("free-at=100");
    ASSERT_TRUE(during.ok() && after.ok());
    int held = 0;
    for (VertexId v = 0; v < m.graph.num_vertices(); ++v) {
        if (!is_leaf(m, v)) continue;
        const VertexSchedule* record = m.store.find(v);
        bool taken = record != nullptr && record->allocations.count(1) != 0;
        held += taken ? 1 : 0;
        FindTarget target{m.graph, m.store, v, {}};
        EXPECT_EQ(during->evaluate(target), !taken) << m.graph.name(v);
        EXPECT_TRUE(after->evaluate(target)) << m.graph.name(v);
    }
    EXPECT_EQ(held, 1);
}

TEST_F(OneCoreHeld, IsRefusedNowAndReservedAfterItsEnd) {
    // A job asking for the whole node exclusively (node_cores(2): node,
    // socket and both cores) cannot start now, and is reserved at 100.
    m.match(node_cores(2), MatchOp::kAllocate, &r);
    EXPECT_EQ(r.code, Errc::kBusy);
    m.match(node_cores(2), MatchOp::kAllocateOrElseReserve, &r);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.at, 100);
    // The free core alone is still free now, the held one is not.
    m.match(cores(1, 50), MatchOp::kAllocate, &r);
    ASSERT_TRUE(r.ok());
    m.match(cores(1, 50), MatchOp::kAllocate, &r);
    EXPECT_EQ(r.code, Errc::kBusy);
}

TEST(Exclusivity, CancelLeavesNoSpanBehind) {
    Matcher m(machine_recipe(1, 2, 2, 2), "first");
    MatchResult r;
    for (int i = 0; i < 4; ++i) {
        m.match(i % 2 ? cores(2, 50) : node_cores(2, 80), MatchOp::kAllocateOrElseReserve, &r);
        ASSERT_TRUE(r.ok());
    }
    for (JobId j = 1; j <= 4; ++j) ASSERT_TRUE(m.traverser->cancel(j).ok());
    m.expect_nothing_held();
    // And the whole machine is free again: four 2-core slots, one per socket.
    for (int i = 0; i < 4; ++i) {
        m.match(cores(2), MatchOp::kAllocate, &r);
        EXPECT_TRUE(r.ok()) << i;
    }
}

}  // namespace
}  // namespace rq
