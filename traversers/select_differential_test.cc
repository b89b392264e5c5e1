// Differential test of the ordered selection (dfu_select_fast.cc): random
// recipes, random jobspecs (several levels, counts, min/max, exclusive,
// slots) and every policy, each request run by the ordered walk and by the
// exhaustive walk of the reference (the oracle); outputs, result codes and
// the recorded schedule must be identical. The fast side also takes the
// leaf shortcut (dfu_leaf_visit.cc), the oracle does not.
//
// RQ_SELECT_SEED=<n> changes the seed, RQ_SELECT_CASES=<n> the number of
// (recipe, policy) configurations (default 84, 100 steps each: ~6,300 match requests; the
// ASan job lowers it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "traversers/test_fixture.h"

namespace rq::testing {
namespace {

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
}

const char* const kPolicies[] = {"first", "firstnodex", "high", "low", "hinode", "lonode", "hinodex", "lonodex",
                                 "locality", "variation", "policy=low node_centric=true stop_on_1_matches=true",
                                 "policy=high node_exclusive=true"};

// A random machine: cluster -> rack -> node -> socket -> core (+ gpu),
// some with local id scopes so that equal scores (ties) are common.
std::string random_recipe(std::mt19937_64& rng) {
    auto pick = [&](int lo, int hi) { return int(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    std::string x = machine_recipe(pick(1, 3), pick(1, 5), pick(1, 2), pick(1, 6), pick(0, 2));
    // The fixture recipe numbers nodes per rack and cores per socket; make
    // the scopes global at random (distinct scores everywhere).
    if (pick(0, 1) == 0) {
        for (std::string::size_type at = 0; (at = x.find("<data key=\"id_scope\">1</data>", at)) != std::string::npos;)
            x.replace(at, 29, "<data key=\"id_scope\">0</data>");
    }
    // Sometimes a branch that holds none of the requested types (a
    // storage rack of file systems), which the walk may skip.
    if (pick(0, 1) == 0) {
        std::string branch =
            "<node id=\"storage_rack\"><data key=\"type\">storage_rack</data><data key=\"basename\">sr</data></node>\n"
            "<node id=\"gpfs\"><data key=\"type\">gpfs</data><data key=\"basename\">gpfs</data></node>\n"
            "<edge source=\"cluster\" target=\"storage_rack\"><data key=\"multi_scale\">" +
            std::to_string(pick(1, 3)) +
            "</data></edge>\n<edge source=\"storage_rack\" target=\"gpfs\"><data key=\"multi_scale\">2</data></edge>\n";
        x.insert(x.find("</graph>"), branch);
    }
    return x;
}

// One jobspec resource line block at `indent` spaces.
struct Gen {
    std::mt19937_64& rng;
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

    std::string count() {
        switch (pick(0, 5)) {
        case 0: return "{min: " + std::to_string(pick(1, 2)) + ", max: " + std::to_string(pick(2, 4)) + ", operator: \"+\", operand: 1}";
        case 1: return "{min: " + std::to_string(pick(1, 2)) + "}";
        default: return std::to_string(pick(1, 2));
        }
    }
    std::string resource(const std::string& type, const std::string& with, int indent, bool slot) {
        std::string pad(indent, ' ');
        std::string s = pad + "- type: " + (slot ? "slot" : type) + "\n" + pad + "  count: " + count() + "\n";
        if (slot) s += pad + "  label: s\n";
        if (!slot && pick(0, 6) == 0) s += pad + "  exclusive: " + (pick(0, 2) ? "true" : "false") + "\n";
        if (!with.empty()) s += pad + "  with:\n" + with;
        return s;
    }
    // A chain from a random top level down to core, one slot somewhere
    // (right above a random level), sometimes a gpu beside the cores.
    std::string jobspec() {
        const char* levels[] = {"rack", "node", "socket", "core"};
        int top = pick(0, 6) == 0 ? 0 : pick(1, 3);
        int slot_at = pick(0, 3) == 0 ? top : pick(std::min(top + 1, 3), 3);
        std::vector<std::string> chain;
        for (int level = top; level <= 3; ++level) {
            if (level == slot_at) chain.push_back("slot");
            chain.push_back(levels[level]);
        }
        bool gpu = pick(0, 4) == 0;
        return jobspec_yaml(emit(chain, 0, 2, gpu), pick(1, 4) * 100);
    }
    std::string emit(const std::vector<std::string>& chain, size_t i, int indent, bool gpu) {
        if (i == chain.size()) return "";
        std::string r = resource(chain[i], emit(chain, i + 1, indent + 4, gpu), indent, chain[i] == "slot");
        if (chain[i] == "core" && gpu) r += resource("gpu", "", indent, false);
        return r;
    }
};

TEST(SelectDifferential, OrderedWalkMatchesTheExhaustiveOracle) {
    uint64_t seed = env_number("RQ_SELECT_SEED", 20261124);
    uint64_t cases = env_number("RQ_SELECT_CASES", 84);
    std::mt19937_64 rng(seed);
    Gen gen{rng};
    uint64_t requests = 0, matched = 0, ordered = 0, leaves = 0;
    for (uint64_t c = 0; c < cases; ++c) {
        std::string recipe = random_recipe(rng);
        const char* policy = kPolicies[c % (sizeof kPolicies / sizeof *kPolicies)];
        Matcher fast(recipe, policy, "ALL:core,ALL:node");
        Matcher oracle(recipe, policy, "ALL:core,ALL:node", true);
        std::string last;
        int repeats = 0;
        for (int step = 0; step < 100; ++step) {
            // Runs of one jobspec (a queue of alike jobs filling the
            // machine): the ordered walk then skips the children earlier
            // walks found full (IdOrderIndex::mark_full).
            if (repeats == 0 || last.empty()) last = gen.jobspec(), repeats = gen.pick(0, 2) == 0 ? gen.pick(2, 12) : 1;
            --repeats;
            std::string js = last;
            MatchOp op = gen.pick(0, 3) == 0 ? MatchOp::kAllocateOrElseReserve : MatchOp::kAllocate;
            if (gen.pick(0, 2) == 0 && fast.next > 1) {
                JobId victim = JobId(gen.pick(1, int(fast.next) - 1));
                ASSERT_EQ(fast.traverser->cancel(victim).ok(), oracle.traverser->cancel(victim).ok());
                continue;
            }
            ++requests;
            MatchResult a, b;
            std::string got = fast.match(js, op, &a);
            std::string want = oracle.match(js, op, &b);
            ASSERT_EQ(a.code, b.code) << "seed " << seed << " case " << c << " policy " << policy << "\n" << js;
            ASSERT_EQ(a.at, b.at) << js;
            ASSERT_EQ(got, want) << "seed " << seed << " case " << c << " policy " << policy << "\n" << js;
            ASSERT_EQ(fast.traverser->message(), oracle.traverser->message()) << js;
            fast.traverser->clear_message();
            oracle.traverser->clear_message();
            if (a.ok()) ++matched;
        }
        ASSERT_EQ(fast.store.describe(), oracle.store.describe()) << "seed " << seed << " case " << c;
        ordered += fast.traverser->ordered_selections();
        leaves += fast.traverser->leaf_visits();
        EXPECT_EQ(oracle.traverser->ordered_selections(), 0u);
        EXPECT_EQ(oracle.traverser->leaf_visits(), 0u);
    }
    std::cout << requests << " requests, " << matched << " matched, " << ordered
              << " decided by the ordered walk, " << leaves << " leaves visited by the shortcut\n";
    EXPECT_GT(ordered, matched / 10);  // the ordered walk decided a good share
    EXPECT_GT(leaves, requests);       // the leaf shortcut (dfu_leaf_visit.cc) is compared too
    EXPECT_GE(requests, cases * 60);
    EXPECT_GT(matched, requests / 10);  // the comparison is not only of failures
}

TEST(SelectOrdered, VisitsOneNodeNotTheMachine) {
    // 4 racks x 16 nodes x 2 sockets x 8 cores: the exhaustive walk visits
    // every vertex; the ordered one the best node, its path and a
    // bounded number of pruned candidates, for every ID-based policy.
    std::string recipe = machine_recipe(4, 16, 2, 8);
    for (const char* policy : {"high", "low", "hinode", "lonode", "hinodex", "lonodex"}) {
        Matcher fast(recipe, policy);
        Matcher oracle(recipe, policy, "ALL:core,ALL:node", true);
        for (int i = 0; i < 40; ++i) {
            std::string js = node_cores(1);
            ASSERT_EQ(fast.match(js), oracle.match(js)) << policy << " job " << i;
            EXPECT_LT(fast.traverser->preorder() * 5, oracle.traverser->preorder()) << policy << " job " << i;
        }
        EXPECT_EQ(fast.traverser->ordered_selections(), 40u) << policy;
    }
}

}  // namespace
}  // namespace rq::testing
