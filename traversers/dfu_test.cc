#include "traversers/dfu.h"

#include <gtest/gtest.h>

#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::Matcher;
using testing::cores;
using testing::machine_recipe;
using testing::node_cores;

TEST(Dfu, AllocatesAndPrintsPostOrder) {
    Matcher m(machine_recipe(1, 2, 2, 4), "high");
    std::string out = m.match(node_cores(1));
    EXPECT_EQ(out,
              "      ---------------core7[1:x]\n"
              "      ------------socket1[1:x]\n"
              "      ---------node1[1:s]\n"
              "      ------rack0[1:s]\n"
              "      ---c0[1:s]\n");
}

TEST(Dfu, FillsThenFails) {
    Matcher m(machine_recipe(1, 1, 1, 4), "low");
    for (int i = 0; i < 4; ++i) EXPECT_FALSE(m.match(cores(1)).empty()) << i;
    MatchResult r;
    EXPECT_EQ(m.match(cores(1), MatchOp::kAllocate, &r), "");
    EXPECT_EQ(r.code, Errc::kBusy);
}

TEST(Dfu, ReservesAtTheEarliestEnd) {
    Matcher m(machine_recipe(1, 1, 1, 2), "low");
    m.match(cores(2, 100));
    MatchResult r;
    std::string out = m.match(cores(1, 50), MatchOp::kAllocateOrElseReserve, &r);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.at, 100);
    m.match(cores(1, 300), MatchOp::kAllocateOrElseReserve, &r);
    EXPECT_EQ(r.at, 100);  // the other core is free at 100 too
    m.match(cores(2, 10), MatchOp::kAllocateOrElseReserve, &r);
    EXPECT_EQ(r.at, 400);  // both cores free once the 300 s job ends
}

TEST(Dfu, UnsatisfiableVersusBusy) {
    Matcher m(machine_recipe(1, 1, 1, 2), "low");
    MatchResult r;
    m.match(cores(3), MatchOp::kAllocateWithSatisfiability, &r);
    EXPECT_EQ(r.code, Errc::kUnsatisfiable);
    m.match(cores(2));
    m.match(cores(1), MatchOp::kAllocateWithSatisfiability, &r);
    EXPECT_EQ(r.code, Errc::kBusy);
    m.match(cores(3), MatchOp::kSatisfiability, &r);
    EXPECT_EQ(r.code, Errc::kUnsatisfiable);
    m.match(cores(2), MatchOp::kSatisfiability, &r);
    EXPECT_TRUE(r.ok());
}

TEST(Dfu, InvalidDurationIsEinval) {
    Matcher m(machine_recipe(1, 1, 1, 2), "low");
    MatchResult r;
    m.match(cores(1, -5), MatchOp::kAllocate, &r);
    EXPECT_EQ(r.code, Errc::kInvalid);
}

TEST(Dfu, ZeroDurationMeansTheWholeWindow) {
    Matcher m(machine_recipe(1, 1, 1, 1), "low");
    MatchResult r;
    m.match(cores(1, 0), MatchOp::kAllocate, &r);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.duration, kGraphEnd);
}

// A failed match (busy, unsatisfiable, invalid, without allocating) leaves
// every planner exactly as it was.
TEST(Dfu, FailedMatchLeavesThePlannersUntouched) {
    Matcher m(machine_recipe(1, 2, 1, 2), "first");
    m.match(node_cores(2));
    m.match(cores(1, 500));
    const std::string before = m.store.describe();
    MatchResult r;
    m.match(node_cores(2), MatchOp::kAllocate, &r);  // busy: one core left
    EXPECT_EQ(r.code, Errc::kBusy);
    EXPECT_EQ(m.store.describe(), before);
    m.match(node_cores(3), MatchOp::kAllocateWithSatisfiability, &r);  // never fits
    EXPECT_EQ(r.code, Errc::kUnsatisfiable);
    EXPECT_EQ(m.store.describe(), before);
    m.match(cores(1, -1), MatchOp::kAllocateOrElseReserve, &r);  // invalid duration
    EXPECT_EQ(r.code, Errc::kInvalid);
    EXPECT_EQ(m.store.describe(), before);
    m.match(cores(1), MatchOp::kWithoutAllocating, &r);  // succeeds, records nothing
    EXPECT_TRUE(r.ok());
    m.match(cores(2), MatchOp::kWithoutAllocatingFuture, &r);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.at, 500);
    m.match(cores(2), MatchOp::kSatisfiability, &r);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(m.store.describe(), before);
}

TEST(Dfu, CancelRestoresTheInitialState) {
    Matcher m(machine_recipe(2, 2, 2, 2), "high");
    const std::string pristine = m.store.describe();
    std::vector<JobId> jobs;
    for (int i = 0; i < 5; ++i) {
        MatchResult r;
        m.match(i % 2 ? cores(2) : node_cores(2, 100 + i), MatchOp::kAllocateOrElseReserve, &r);
        ASSERT_TRUE(r.ok());
        jobs.push_back(m.next - 1);
    }
    EXPECT_NE(m.store.describe(), pristine);
    for (JobId j : jobs) EXPECT_TRUE(m.traverser->cancel(j).ok());
    // Planners are back to their totals with no spans; the records that
    // were created stay but hold nothing.
    m.expect_nothing_held();
    EXPECT_EQ(m.traverser->cancel(jobs[0]).ok(), true);  // nothing left: the scan finds nothing
}

TEST(Dfu, NodeExclusivePolicyTakesWholeNodes) {
    Matcher m(machine_recipe(1, 2, 1, 3), "hinodex");
    std::string out = m.match(node_cores(1));
    auto names = Matcher::exclusive_names(out);
        // (with one socket per node, core ids restart at 0 on every node)
    EXPECT_EQ(names, (std::vector<std::string>{"core0", "core1", "core2", "socket0", "node1"}));
}

TEST(Dfu, PruningSkipsFullSubtrees) {
    // With the default core pruning, a full node is cut off before its
    // cores are visited: fewer pre-order visits on the second match (of
    // the exhaustive walk, which visits every node).
    Matcher m(machine_recipe(1, 2, 1, 4), "high", "ALL:core,ALL:node", true);
    m.match(node_cores(4));
    uint64_t first = m.traverser->preorder();
    m.match(node_cores(4));
    uint64_t second = m.traverser->preorder();
    EXPECT_LT(second, first);
}

}  // namespace
}  // namespace rq
