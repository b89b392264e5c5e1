// Unit tests for Planner (spec/planner.md §1-2, §5 single-pool search).
#include "resource/planner.h"

#include <gtest/gtest.h>

#include <vector>

namespace rq {
namespace {

constexpr Time kHour = 3600;

std::vector<Time> pts(std::initializer_list<Time> list) { return list; }

// ---- empty planner ----------------------------------------------------------

TEST(Planner, EmptyPlannerIsSmallAndFullyAvailable) {
    Planner p(8);
    // Counters plus two inline spans (a planner of at most two spans
    // allocates nothing), their count, and the pointer to the state.
    EXPECT_LE(sizeof(Planner), 12 * sizeof(void*));
    EXPECT_EQ(p.total(), 8);
    EXPECT_EQ(p.span_count(), 0u);
    EXPECT_EQ(p.point_count(), 1u);
    EXPECT_EQ(p.points(), pts({0}));
    EXPECT_EQ(p.avail_at(0), 8);
    EXPECT_EQ(p.avail_at(123456), 8);
    ASSERT_TRUE(p.avail_during(0, kPlannerEnd).ok());
    EXPECT_EQ(*p.avail_during(0, kPlannerEnd), 8);
    EXPECT_TRUE(p.fits(0, 10, 8));
    EXPECT_FALSE(p.fits(0, 10, 9));
    EXPECT_EQ(p.span(1), nullptr);
}

TEST(Planner, DefaultTotalIsZero) {
    Planner p;
    EXPECT_EQ(p.total(), 0);
    EXPECT_TRUE(p.fits(0, 1, 0));
    EXPECT_FALSE(p.fits(0, 1, 1));
}

// ---- add_span ---------------------------------------------------------------

TEST(Planner, AddSpanAssignsSequentialIdsAndPoints) {
    Planner p(10);
    auto a = p.add_span(0, kHour, 3);
    auto b = p.add_span(kHour, kHour, 4);
    auto c = p.add_span(100, 50, 2);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(*a, 1);
    EXPECT_EQ(*b, 2);
    EXPECT_EQ(*c, 3);
    EXPECT_EQ(p.span_count(), 3u);
    EXPECT_EQ(p.points(), pts({0, 100, 150, kHour, 2 * kHour}));
    EXPECT_EQ(p.point_count(), 5u);
    const Span* s = p.span(2);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->id, 2);
    EXPECT_EQ(s->start, kHour);
    EXPECT_EQ(s->end, 2 * kHour);
    EXPECT_EQ(s->amount, 4);
}

TEST(Planner, IntervalsAreEndExclusive) {
    Planner p(4);
    ASSERT_TRUE(p.add_span(0, kHour, 4).ok());
    EXPECT_EQ(p.avail_at(kHour - 1), 0);
    EXPECT_EQ(p.avail_at(kHour), 4);
    EXPECT_FALSE(p.fits(kHour - 1, 1, 1));
    EXPECT_TRUE(p.fits(kHour, 1, 4));
    // A span starting exactly where the other ends does not overlap it.
    auto next = p.add_span(kHour, kHour, 4);
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(p.points(), pts({0, kHour, 2 * kHour}));
    EXPECT_EQ(*p.avail_during(0, 2 * kHour), 0);
    EXPECT_EQ(*p.avail_during(2 * kHour, 1), 4);
    // A window ending exactly where a span starts does not see it.
    Planner q(4);
    ASSERT_TRUE(q.add_span(kHour, 10, 3).ok());
    EXPECT_EQ(*q.avail_during(0, kHour), 4);
    EXPECT_EQ(*q.avail_during(0, kHour + 1), 1);
}

TEST(Planner, AvailDuringIsMinimumOverWindow) {
    Planner p(10);
    ASSERT_TRUE(p.add_span(10, 10, 3).ok());  // [10,20) 3
    ASSERT_TRUE(p.add_span(15, 10, 5).ok());  // [15,25) 5
    ASSERT_TRUE(p.add_span(30, 5, 9).ok());   // [30,35) 9
    EXPECT_EQ(*p.avail_during(0, 10), 10);
    EXPECT_EQ(*p.avail_during(0, 11), 7);
    EXPECT_EQ(*p.avail_during(12, 2), 7);
    EXPECT_EQ(*p.avail_during(12, 4), 2);
    EXPECT_EQ(*p.avail_during(20, 5), 5);
    EXPECT_EQ(*p.avail_during(25, 5), 10);
    EXPECT_EQ(*p.avail_during(21, 10), 1);
    EXPECT_EQ(*p.avail_during(32, 1), 1);  // starts inside a segment
    EXPECT_EQ(*p.avail_during(35, 1000), 10);
    EXPECT_EQ(p.avail_at(17), 2);
    EXPECT_EQ(p.avail_at(-5), 10);
}

TEST(Planner, AddSpanThatDoesNotFitFailsWithoutChangingAnything) {
    Planner p(4);
    ASSERT_TRUE(p.add_span(10, 10, 3).ok());
    auto busy = p.add_span(0, 11, 2);
    ASSERT_FALSE(busy.ok());
    EXPECT_EQ(busy.code(), Errc::kBusy);
    EXPECT_FALSE(busy.message().empty());
    EXPECT_EQ(p.span_count(), 1u);
    EXPECT_EQ(p.points(), pts({0, 10, 20}));
    // The next successful add still gets id 2.
    auto ok = p.add_span(0, 10, 2);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(*ok, 2);
}

TEST(Planner, AmountBeyondTotalOrNegative) {
    Planner p(4);
    EXPECT_FALSE(p.fits(0, 1, 5));
    EXPECT_FALSE(p.fits(0, 1, -1));
    auto too_big = p.add_span(0, 1, 5);
    EXPECT_EQ(too_big.code(), Errc::kRange);
    auto negative = p.add_span(0, 1, -1);
    EXPECT_EQ(negative.code(), Errc::kInvalid);
    EXPECT_EQ(p.earliest(0, 1, 5).code(), Errc::kRange);
    EXPECT_EQ(p.earliest(0, 1, -1).code(), Errc::kInvalid);
    EXPECT_EQ(p.span_count(), 0u);
}

TEST(Planner, ZeroAmountAlwaysFitsAndStillCreatesPoints) {
    Planner p(2);
    ASSERT_TRUE(p.add_span(0, 100, 2).ok());
    EXPECT_TRUE(p.fits(0, 100, 0));
    EXPECT_FALSE(p.fits(0, 100, 1));
    auto zero = p.add_span(50, 10, 0);
    ASSERT_TRUE(zero.ok());
    EXPECT_EQ(*zero, 2);
    EXPECT_EQ(p.points(), pts({0, 50, 60, 100}));
    EXPECT_EQ(p.avail_at(55), 0);
    // Even an empty-total planner accepts zero-amount spans.
    Planner empty(0);
    ASSERT_TRUE(empty.add_span(5, 5, 0).ok());
    EXPECT_EQ(empty.points(), pts({0, 5, 10}));
    ASSERT_TRUE(p.remove_span(*zero).ok());
    EXPECT_EQ(p.points(), pts({0, 100}));
}

TEST(Planner, InvalidWindows) {
    Planner p(4);
    EXPECT_EQ(p.avail_during(-1, 10).code(), Errc::kInvalid);
    EXPECT_EQ(p.avail_during(0, 0).code(), Errc::kInvalid);
    EXPECT_EQ(p.avail_during(0, -3).code(), Errc::kInvalid);
    EXPECT_FALSE(p.fits(-1, 10, 0));
    EXPECT_FALSE(p.fits(0, 0, 0));
    EXPECT_EQ(p.add_span(-1, 10, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.add_span(0, 0, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.earliest(0, 0, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.span_count(), 0u);
}

TEST(Planner, WindowEndAndOverflow) {
    Planner p(4);
    // A span may end exactly at the window end.
    auto last = p.add_span(kPlannerEnd - 10, 10, 3);
    ASSERT_TRUE(last.ok());
    EXPECT_EQ(p.points(), pts({0, kPlannerEnd - 10, kPlannerEnd}));
    EXPECT_EQ(p.avail_at(kPlannerEnd - 1), 1);
    EXPECT_EQ(p.avail_at(kPlannerEnd), 4);  // outside the window
    EXPECT_EQ(*p.avail_during(kPlannerEnd - 1, 1), 1);
    EXPECT_EQ(*p.avail_during(0, kPlannerEnd), 1);
    // One past the end (and sums that would overflow) are rejected.
    EXPECT_EQ(p.add_span(kPlannerEnd - 10, 11, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.add_span(1, kPlannerEnd, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.add_span(kPlannerEnd, 1, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.avail_during(kPlannerEnd, 1).code(), Errc::kInvalid);
    EXPECT_EQ(p.avail_during(kPlannerEnd - 1, kPlannerEnd).code(), Errc::kInvalid);
    EXPECT_FALSE(p.fits(kPlannerEnd - 1, kPlannerEnd - 1, 0));
    EXPECT_FALSE(p.fits(2, kPlannerEnd - 1, 0));
    EXPECT_TRUE(p.fits(1, kPlannerEnd - 1 - 10, 4));
    // The whole window is a valid request.
    EXPECT_TRUE(p.fits(0, kPlannerEnd, 1));
    EXPECT_FALSE(p.fits(0, kPlannerEnd, 2));
    // earliest never returns a point whose window would pass the end.
    EXPECT_EQ(p.earliest(1, 10, 4).code(), Errc::kNotFound);
}

TEST(Planner, EarliestNearWindowEnd) {
    Planner p(4);
    ASSERT_TRUE(p.add_span(kPlannerEnd - 10, 10, 3).ok());
    // Candidates: 0, end-10, end. From 1 with 2 units: end-10 is busy and
    // `end` leaves no room for any duration.
    EXPECT_EQ(p.earliest(1, 10, 2).code(), Errc::kNotFound);
    // One unit fits at end-10 for exactly 10 seconds, not 11.
    ASSERT_TRUE(p.earliest(1, 10, 1).ok());
    EXPECT_EQ(*p.earliest(1, 10, 1), kPlannerEnd - 10);
    EXPECT_EQ(p.earliest(1, 11, 1).code(), Errc::kNotFound);
    // From 0 the whole window up to the busy part is free.
    EXPECT_EQ(*p.earliest(0, kPlannerEnd - 10, 4), 0);
    EXPECT_EQ(*p.earliest(0, kPlannerEnd, 1), 0);
    EXPECT_EQ(p.earliest(0, kPlannerEnd, 2).code(), Errc::kNotFound);
    EXPECT_EQ(p.earliest(kPlannerEnd, 1, 0).code(), Errc::kNotFound);
}

// ---- remove / reduce --------------------------------------------------------

TEST(Planner, RemoveSpanAndReferenceCountedPoints) {
    Planner p(10);
    auto a = p.add_span(0, 100, 2);   // points 0, 100
    auto b = p.add_span(100, 50, 3);  // 100 shared, 150
    auto c = p.add_span(50, 50, 1);   // 50, 100 shared again
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(p.points(), pts({0, 50, 100, 150}));
    ASSERT_TRUE(p.remove_span(*a).ok());
    EXPECT_EQ(p.points(), pts({0, 50, 100, 150}));  // 100 still referenced
    EXPECT_EQ(p.avail_at(10), 10);
    ASSERT_TRUE(p.remove_span(*b).ok());
    EXPECT_EQ(p.points(), pts({0, 50, 100}));
    ASSERT_TRUE(p.remove_span(*c).ok());
    EXPECT_EQ(p.points(), pts({0}));
    EXPECT_EQ(p.span_count(), 0u);
    EXPECT_EQ(p.avail_at(75), 10);
    // Ids keep counting after the planner became empty again.
    auto d = p.add_span(0, 1, 1);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(*d, 4);
}

TEST(Planner, SpanStartingAtZeroKeepsBasePoint) {
    Planner p(1);
    auto a = p.add_span(0, 5, 1);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(p.points(), pts({0, 5}));
    ASSERT_TRUE(p.remove_span(*a).ok());
    EXPECT_EQ(p.points(), pts({0}));
}

TEST(Planner, RemoveUnknownIds) {
    Planner p(3);
    Status none = p.remove_span(1);
    EXPECT_EQ(none.code(), Errc::kNotFound);
    EXPECT_EQ(none.message(), "planner: unknown span id 1");
    auto a = p.add_span(0, 5, 1);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(p.remove_span(*a + 1).code(), Errc::kNotFound);
    ASSERT_TRUE(p.remove_span(*a).ok());
    EXPECT_EQ(p.remove_span(*a).code(), Errc::kNotFound);
    EXPECT_EQ(p.reduce_span(*a, 1).code(), Errc::kNotFound);
}

TEST(Planner, ReduceSpan) {
    Planner p(10);
    auto a = p.add_span(10, 10, 6);
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(p.reduce_span(*a, 0).ok());  // no-op
    EXPECT_EQ(p.span(*a)->amount, 6);
    ASSERT_TRUE(p.reduce_span(*a, 2).ok());
    EXPECT_EQ(p.span(*a)->amount, 4);
    EXPECT_EQ(p.avail_at(15), 6);
    EXPECT_EQ(p.points(), pts({0, 10, 20}));
    EXPECT_EQ(p.reduce_span(*a, 5).code(), Errc::kRange);
    EXPECT_EQ(p.reduce_span(*a, -1).code(), Errc::kInvalid);
    EXPECT_EQ(p.span(*a)->amount, 4);
    ASSERT_TRUE(p.reduce_span(*a, 4).ok());  // reduce to zero removes
    EXPECT_EQ(p.span(*a), nullptr);
    EXPECT_EQ(p.points(), pts({0}));
    EXPECT_EQ(p.avail_at(15), 10);
}

TEST(Planner, ReduceZeroAmountSpanByZeroRemovesIt) {
    Planner p(1);
    auto a = p.add_span(3, 4, 0);
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(p.reduce_span(*a, 0).ok());
    EXPECT_EQ(p.span(*a), nullptr);
    EXPECT_EQ(p.points(), pts({0}));
}

// ---- totals -----------------------------------------------------------------

TEST(Planner, SetTotalWithoutSpans) {
    Planner p(10);
    p.set_total(4);
    EXPECT_EQ(p.total(), 4);
    EXPECT_EQ(p.avail_at(5), 4);
    EXPECT_TRUE(p.fits(0, 100, 4));
    EXPECT_FALSE(p.fits(0, 100, 5));
}

// Under live spans a total change follows the reference's point model:
// each point's free amount moves by the difference, clamped at 0...
TEST(Planner, SetTotalUnderSpansClampsAtZero) {
    Planner p(10);
    ASSERT_TRUE(p.add_span(0, 10, 6).ok());  // points 0 (4 free), 10 (10 free)
    p.set_total(4);                          // 4-6 -> clamped to 0; 10-6 = 4
    EXPECT_EQ(p.total(), 4);
    EXPECT_EQ(p.span_count(), 1u);
    EXPECT_EQ(p.avail_at(5), 0);
    EXPECT_EQ(*p.avail_during(0, 20), 0);
    EXPECT_FALSE(p.fits(5, 1, 1));
    EXPECT_TRUE(p.fits(5, 1, 0));
    EXPECT_TRUE(p.fits(10, 5, 4));
    p.set_total(20);  // +16: the clamp is not undone (0 -> 16, not 14)
    EXPECT_EQ(p.avail_at(5), 16);
    EXPECT_TRUE(p.fits(0, 10, 16));
    EXPECT_FALSE(p.fits(0, 10, 17));
    // Spans keep working on the point model, and the planner returns to
    // its normal model once the last span goes.
    auto id = p.add_span(12, 3, 20);
    ASSERT_TRUE(id.ok());
    EXPECT_EQ(p.avail_at(13), 0);
    ASSERT_TRUE(p.remove_span(*id).ok());
    EXPECT_EQ(p.avail_at(13), 20);
    EXPECT_EQ(p.points(), (std::vector<Time>{0, 10}));
    ASSERT_TRUE(p.remove_span(1).ok());
    EXPECT_EQ(p.points(), (std::vector<Time>{0}));
    EXPECT_EQ(p.avail_at(5), 20);
}

// ... and the earliest-time search still sees, at points no span change
// touched since, the free amount they had before the change.
TEST(Planner, SetTotalLeavesTheSearchKeysOfUntouchedPoints) {
    Planner p(36);
    ASSERT_TRUE(p.add_span(3600, 3600, 36).ok());  // point 3600: 0 free
    p.set_total(72);                              // now 36 free there, key still 0
    EXPECT_EQ(p.avail_at(3600), 36);
    EXPECT_TRUE(p.fits(3600, 3600, 36));
    EXPECT_EQ(*p.earliest(1, 3600, 36), 7200);  // 3600 is not a candidate
    ASSERT_TRUE(p.add_span(0, 4000, 1).ok());     // touches 3600: re-keyed to 35
    EXPECT_EQ(*p.earliest(1, 3600, 35), 3600);
    EXPECT_EQ(*p.earliest(1, 3600, 36), 4000);
}

// ---- earliest ---------------------------------------------------------------

TEST(Planner, EarliestOnEmptyPlanner) {
    Planner p(5);
    EXPECT_EQ(*p.earliest(0, 100, 5), 0);
    EXPECT_EQ(*p.earliest(-7, 100, 5), 0);
    EXPECT_EQ(p.earliest(1, 100, 5).code(), Errc::kNotFound);
}

TEST(Planner, EarliestFollowsJobEnds) {
    // Four one-unit jobs fill the pool for an hour; the next batch can only
    // start when they end (spec/planner.md §5 example).
    Planner p(4);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(p.add_span(0, kHour, 1).ok());
    EXPECT_EQ(*p.earliest(1, kHour, 1), kHour);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(p.add_span(kHour, kHour, 1).ok());
    EXPECT_EQ(*p.earliest(1, kHour, 1), 2 * kHour);
    EXPECT_EQ(*p.earliest(1, 1, 4), 2 * kHour);
    // From 0 the first candidate is 0, which is busy.
    EXPECT_EQ(*p.earliest(0, 1, 1), 2 * kHour);
}

TEST(Planner, EarliestSkipsGapsThatAreTooShort) {
    Planner p(2);
    ASSERT_TRUE(p.add_span(0, 10, 2).ok());   // busy [0,10)
    ASSERT_TRUE(p.add_span(15, 5, 2).ok());   // gap [10,15), busy [15,20)
    ASSERT_TRUE(p.add_span(30, 10, 1).ok());  // half busy [30,40)
    ASSERT_TRUE(p.add_span(42, 1, 2).ok());   // busy [42,43)
    EXPECT_EQ(*p.earliest(0, 5, 2), 10);
    EXPECT_EQ(*p.earliest(0, 6, 2), 20);   // [10,15) too short
    EXPECT_EQ(*p.earliest(0, 11, 2), 43);  // [20,30) too short
    EXPECT_EQ(*p.earliest(0, 11, 1), 20);  // one unit runs through [30,40)
    EXPECT_EQ(*p.earliest(0, 23, 1), 43);  // but not through [42,43)
    EXPECT_EQ(*p.earliest(11, 1, 2), 20);  // 11 is no point; 15 is busy
    EXPECT_EQ(*p.earliest(40, 2, 2), 40);
    EXPECT_EQ(*p.earliest(41, 1, 1), 43);  // 42 has no unit free
    EXPECT_EQ(p.earliest(44, 1, 1).code(), Errc::kNotFound);
}

TEST(Planner, EarliestCanStartInsideAPartlyUsedSegment) {
    Planner p(3);
    ASSERT_TRUE(p.add_span(0, 100, 1).ok());
    ASSERT_TRUE(p.add_span(50, 10, 2).ok());
    // Point 0 has 2 free for [0,50) but only 0 in [50,60).
    EXPECT_EQ(*p.earliest(0, 50, 2), 0);
    EXPECT_EQ(*p.earliest(0, 51, 2), 60);
    EXPECT_EQ(*p.earliest(0, 51, 0), 0);
}

// ---- copies -----------------------------------------------------------------

TEST(Planner, CopiesAreIndependent) {
    Planner original(5);
    ASSERT_TRUE(original.add_span(0, 10, 5).ok());
    Planner copy = original;
    ASSERT_TRUE(copy.remove_span(1).ok());
    EXPECT_EQ(original.span_count(), 1u);
    EXPECT_EQ(original.avail_at(1), 0);
    EXPECT_EQ(copy.avail_at(1), 5);
    auto next = copy.add_span(0, 1, 1);
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, 2);  // the id counter was copied too

    Planner assigned(1);
    assigned = original;
    EXPECT_EQ(assigned.total(), 5);
    EXPECT_EQ(assigned.points(), pts({0, 10}));
    Planner& self = assigned;
    assigned = self;  // self-assignment keeps the state
    EXPECT_EQ(assigned.points(), pts({0, 10}));

    Planner moved = std::move(assigned);
    EXPECT_EQ(moved.points(), pts({0, 10}));
    EXPECT_EQ(moved.avail_at(3), 0);

    Planner empty(2);
    Planner empty_copy = empty;
    EXPECT_EQ(empty_copy.points(), pts({0}));
    EXPECT_EQ(empty_copy.total(), 2);
}

// The multi-planner's path: after fits() held, add_checked_span() leaves
// the planner exactly as add_span() does (ids, points, availability).
TEST(Planner, CheckedSpansMatchCheckedAdds) {
    Planner checked(4), plain(4);
    const Time spans[][3] = {{0, 10, 1}, {5, 10, 0}, {2, 3, 3}, {20, 5, 4}, {0, 100, 0}};
    for (const auto& s : spans) {
        ASSERT_TRUE(plain.fits(s[0], s[1], s[2]));
        auto id = plain.add_span(s[0], s[1], s[2]);
        ASSERT_TRUE(id.ok());
        EXPECT_EQ(checked.add_checked_span(s[0], s[1], s[2]), *id);
    }
    EXPECT_EQ(checked.points(), plain.points());
    EXPECT_EQ(checked.span_count(), plain.span_count());
    for (Time t : {0, 2, 4, 7, 12, 22, 50}) EXPECT_EQ(checked.avail_at(t), plain.avail_at(t)) << "at " << t;
    ASSERT_TRUE(checked.remove_span(3).ok());
    ASSERT_TRUE(plain.remove_span(3).ok());
    EXPECT_EQ(checked.avail_at(3), plain.avail_at(3));
}

}  // namespace
}  // namespace rq
