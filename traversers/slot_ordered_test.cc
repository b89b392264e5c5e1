// The *nodex shortcuts of the ordered selection: a slot's members walked
// best id first (dfu_slot_ordered.cc) and a failed match refused from the
// subtree plans (level_refused(), failure_is_exact(); dfu_select_fast.cc).
// Each against the exhaustive walk (the oracle): same outputs, codes,
// messages and records, with far fewer visits. The random differential
// test (select_differential_test.cc) covers the general requests.
#include <gtest/gtest.h>

#include <string>

#include "traversers/test_fixture.h"

namespace rq::testing {
namespace {

// node[1] -> socket[1] -> slot[1] -> core[n]: the El Capitan benchmark's
// request shape (../shared/bench/core-in-socket.yaml).
std::string core_in_socket(int n) {
    return jobspec_yaml("  - type: node\n    count: 1\n    with:\n      - type: socket\n        count: 1\n"
                        "        with:\n          - type: slot\n            count: 1\n            label: s\n"
                        "            with:\n              - type: core\n                count: " +
                        std::to_string(n) + "\n");
}

TEST(SlotOrdered, ScoresTheBestMembersNotTheWholeSocket) {
    // 2 racks x 3 nodes x 2 sockets x 22 cores; with the node taken whole
    // (hinodex, lonodex) or not (high, low, hinode, lonode).
    std::string recipe = machine_recipe(2, 3, 2, 22);
    for (const char* policy : {"hinodex", "lonodex", "high", "low", "hinode", "lonode"}) {
        for (int n : {1, 3}) {
            Matcher fast(recipe, policy);
            Matcher oracle(recipe, policy, "ALL:core,ALL:node", true);
            for (int i = 0; i < 8; ++i) {
                MatchResult a, b;
                std::string js = core_in_socket(n);
                ASSERT_EQ(fast.match(js, MatchOp::kAllocate, &a), oracle.match(js, MatchOp::kAllocate, &b))
                    << policy << " core[" << n << "] job " << i;
                ASSERT_EQ(a.code, b.code) << policy << " job " << i;
                if (!a.ok()) continue;
                // Two sockets of one node, a few cores each, not 44 cores.
                EXPECT_LT(fast.traverser->preorder(), 30u) << policy << " core[" << n << "] job " << i;
            }
            EXPECT_EQ(fast.store.describe(), oracle.store.describe()) << policy;
            EXPECT_GT(fast.traverser->ordered_selections(), 0u) << policy;
        }
    }
}

TEST(SlotOrdered, EqualIdsFallBackToTheExhaustiveWalk) {
    // Cores numbered per socket; a slot across two sockets' cores (packed
    // at the node) is not this shortcut's, but a node whose two sockets
    // hold equal core ids must still give the oracle's choice.
    std::string recipe = machine_recipe(1, 2, 2, 4);
    for (const char* policy : {"hinodex", "lonodex", "high", "low"}) {
        Matcher fast(recipe, policy);
        Matcher oracle(recipe, policy, "ALL:core,ALL:node", true);
        for (int i = 0; i < 10; ++i) {
            std::string js = i % 2 ? core_in_socket(2) : node_cores(3);
            ASSERT_EQ(fast.match(js), oracle.match(js)) << policy << " job " << i;
            ASSERT_EQ(fast.traverser->message(), oracle.traverser->message()) << policy;
        }
        EXPECT_EQ(fast.store.describe(), oracle.store.describe()) << policy;
    }
}

TEST(NodexRefusal, AFullMachineRefusesWithoutVisitingEveryNode) {
    // 1 rack x 32 nodes: once every node is taken, a match fails from the
    // subtree plans (root and rack), not after a visit per node.
    std::string recipe = machine_recipe(1, 32, 2, 4);
    for (const char* policy : {"hinodex", "lonodex", "firstnodex"}) {
        Matcher fast(recipe, policy);
        Matcher oracle(recipe, policy, "ALL:core,ALL:node", true);
        std::string js = core_in_socket(1);
        for (int i = 0; i < 40; ++i) {
            MatchResult a, b;
            ASSERT_EQ(fast.match(js, MatchOp::kAllocate, &a), oracle.match(js, MatchOp::kAllocate, &b))
                << policy << " job " << i;
            ASSERT_EQ(a.code, b.code) << policy << " job " << i;
            ASSERT_EQ(fast.traverser->message(), oracle.traverser->message()) << policy;
            EXPECT_EQ(a.ok(), i < 32) << policy << " job " << i;
            if (i >= 32) {
                EXPECT_LE(fast.traverser->preorder(), 2u) << policy << " job " << i;
                EXPECT_GE(oracle.traverser->preorder(), 32u) << policy << " job " << i;
            }
        }
        // Reserving instead: the far-future probe and the earliest-time
        // search take the same refusals and find the same times.
        for (int i = 0; i < 4; ++i) {
            MatchResult a, b;
            ASSERT_EQ(fast.match(js, MatchOp::kAllocateOrElseReserve, &a),
                      oracle.match(js, MatchOp::kAllocateOrElseReserve, &b))
                << policy;
            ASSERT_EQ(a.code, b.code) << policy;
            ASSERT_EQ(a.at, b.at) << policy;
        }
        EXPECT_EQ(fast.store.describe(), oracle.store.describe()) << policy;
    }
}

}  // namespace
}  // namespace rq::testing
