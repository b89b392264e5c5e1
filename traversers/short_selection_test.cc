// Selections that surely fail are not walked (DfuTraverser::surely_short,
// dfu_run.cc): when the free units below the root's children, each least
// over the window, add up to less than the request, the answer is the
// walk's (busy) without the walk. Checked against the same history with
// the skip off: same answers, same reservation, and the skip counted.
#include <gtest/gtest.h>

#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::cores;
using testing::machine_recipe;
using testing::Matcher;

// Two nodes of two cores (one rack). After the set-up node0 is free over
// [0, 10) and reserved over [10, 20) (job 3); node1 is held over [0, 10)
// (job 2). Two cores are free at every instant of [0, 15), but no core is
// free over all of it: the root's aggregate fits, the nodes' do not.
class FreeCoresChangeHands : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        m.traverser->set_skip_short_walks(GetParam());
        MatchResult r;
        m.match(cores(2, 10), MatchOp::kAllocate, &r);  // job 1: node0 over [0, 10)
        ASSERT_TRUE(r.ok());
        m.match(cores(2, 10), MatchOp::kAllocate, &r);  // job 2: node1 over [0, 10)
        ASSERT_TRUE(r.ok());
        m.match(cores(2, 10), MatchOp::kAllocateOrElseReserve, &r);  // job 3
        ASSERT_TRUE(r.ok());
        ASSERT_EQ(r.at, 10);
        ASSERT_TRUE(m.traverser->cancel(1).ok());
    }
    Matcher m{machine_recipe(1, 2, 1, 2), "low"};
};

TEST_P(FreeCoresChangeHands, AnswersAsTheWalkWould) {
    MatchResult now;
    EXPECT_EQ(m.match(cores(2, 15), MatchOp::kAllocate, &now), "");
    EXPECT_EQ(now.code, Errc::kBusy);
    MatchResult later;
    std::string text = m.match(cores(2, 15), MatchOp::kAllocateOrElseReserve, &later);
    ASSERT_TRUE(later.ok());
    EXPECT_EQ(later.at, 10);  // node1, free from 10 on
    EXPECT_NE(text.find("node1"), std::string::npos) << text;
    EXPECT_EQ(text.find("node0"), std::string::npos) << text;
    // A window one core-free node covers is walked, and fits.
    MatchResult fits;
    m.match(cores(2, 10), MatchOp::kAllocate, &fits);
    EXPECT_TRUE(fits.ok());
    EXPECT_EQ(fits.at, 0);
    if (GetParam())
        EXPECT_GE(m.traverser->short_selections(), 2u);  // the allocate, and the reserve's try at 0
    else
        EXPECT_EQ(m.traverser->short_selections(), 0u);
}

INSTANTIATE_TEST_SUITE_P(SkipOffAndOn, FreeCoresChangeHands, ::testing::Bool());

// The bound looks through the rack to the nodes (kShortLevels): a window
// in which a node keeps two cores free is walked; one in which none does
// is not.
TEST(ShortSelection, OnlyWindowsNoNodeCanHoldAreSkipped) {
    Matcher m(machine_recipe(1, 4, 1, 2), "low");
    m.traverser->set_skip_short_walks(true);
    MatchResult r;
    for (int i = 0; i < 4; ++i) {
        m.match(cores(2, 10), MatchOp::kAllocate, &r);
        ASSERT_TRUE(r.ok());
    }
    EXPECT_EQ(m.traverser->short_selections(), 0u);
    m.match(cores(2, 10), MatchOp::kAllocate, &r);
    EXPECT_EQ(r.code, Errc::kBusy);
    EXPECT_EQ(m.traverser->short_selections(), 1u);
}

}  // namespace
}  // namespace rq
