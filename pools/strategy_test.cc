// Strategies against a brute-force optimum on random free states.
#include "pools/strategy.h"

#include <gtest/gtest.h>

#include <random>

namespace rq::pools {
namespace {

// Fewest groups whose free units reach `amount`, by trying every subset.
int brute_fewest(int64_t amount, const std::vector<int64_t>& free) {
    int best = -1;
    for (unsigned mask = 1; mask < (1u << free.size()); ++mask) {
        int64_t sum = 0;
        int n = 0;
        for (size_t g = 0; g < free.size(); ++g)
            if (mask & (1u << g)) sum += free[g], ++n;
        if (sum >= amount && (best < 0 || n < best)) best = n;
    }
    return best;
}

// HyperQueue's objective for the groups of a compact or tight request
// (crates/tako/src/internal/worker/resources/groups.rs:19-60, maximize
// sum(-1024 - free/32)), in 32nds as a cost to minimize: the least over
// every subset whose free units reach `amount`, or -1.
int64_t brute_hq_cost(int64_t amount, const std::vector<int64_t>& free) {
    int64_t best = -1;
    for (unsigned mask = 1; mask < (1u << free.size()); ++mask) {
        int64_t sum = 0, cost = 0;
        for (size_t g = 0; g < free.size(); ++g)
            if (mask & (1u << g)) sum += free[g], cost += 32768 + free[g];
        if (sum >= amount && (best < 0 || cost < best)) best = cost;
    }
    return best;
}

int64_t hq_cost_of_used(const std::vector<int64_t>& take, const std::vector<int64_t>& free) {
    int64_t cost = 0;
    for (size_t g = 0; g < take.size(); ++g)
        if (take[g] > 0) cost += 32768 + free[g];
    return cost;
}

int used_groups(const std::vector<int64_t>& take) {
    int n = 0;
    for (int64_t t : take) n += t > 0;
    return n;
}

void expect_valid(const std::vector<int64_t>& take, int64_t amount, const std::vector<int64_t>& free) {
    int64_t sum = 0;
    for (size_t g = 0; g < take.size(); ++g) {
        EXPECT_GE(take[g], 0);
        EXPECT_LE(take[g], free[g]);
        sum += take[g];
    }
    EXPECT_EQ(sum, amount);
}

struct RandomState {
    std::vector<int64_t> free, capacity;
    int64_t amount;
};

RandomState random_state(std::mt19937& rng) {
    RandomState s;
    size_t groups = 1 + rng() % 7;
    int64_t size = 1 + rng() % 8;
    for (size_t g = 0; g < groups; ++g) {
        s.capacity.push_back(size);
        s.free.push_back(int64_t(rng() % (size + 1)));
    }
    s.amount = 1 + int64_t(rng() % (groups * size));
    return s;
}

// ... and the groups of least cost under HyperQueue's objective.
TEST(Strategy, CompactAndTightUseTheFewestGroups) {
    std::mt19937 rng(7);
    for (int i = 0; i < 3000; ++i) {
        RandomState s = random_state(rng);
        int best = brute_fewest(s.amount, s.free);
        int64_t cost = brute_hq_cost(s.amount, s.free);
        for (Strategy st : {Strategy::kCompact, Strategy::kTight}) {
            auto take = choose_groups(st, s.amount, s.free, s.capacity);
            ASSERT_EQ(take.has_value(), best > 0) << strategy_name(st);
            if (!take) continue;
            expect_valid(*take, s.amount, s.free);
            EXPECT_EQ(used_groups(*take), best) << strategy_name(st);
            EXPECT_EQ(hq_cost_of_used(*take, s.free), cost) << strategy_name(st);
        }
    }
}

TEST(Strategy, TightPrefersTheFullestGroupThatFits) {
    std::mt19937 rng(11);
    for (int i = 0; i < 3000; ++i) {
        RandomState s = random_state(rng);
        if (brute_fewest(s.amount, s.free) != 1) continue;
        int64_t least = INT64_MAX;
        for (int64_t f : s.free)
            if (f >= s.amount) least = std::min(least, f);
        auto take = choose_groups(Strategy::kTight, s.amount, s.free, s.capacity);
        ASSERT_TRUE(take);
        for (size_t g = 0; g < take->size(); ++g)
            if ((*take)[g] > 0) {
                EXPECT_EQ(s.free[g], least);
            }
    }
}

// allocator.rs:145-166: a forced request runs only when its best groups
// now are as good as on the idle worker (objective less 0.1).
TEST(Strategy, StrictFormsWaitUnlessAsGoodAsOnAnIdleWorker) {
    std::mt19937 rng(13);
    for (int i = 0; i < 3000; ++i) {
        RandomState s = random_state(rng);
        int64_t now = brute_hq_cost(s.amount, s.free);
        int64_t idle = brute_hq_cost(s.amount, s.capacity);
        for (Strategy st : {Strategy::kCompactStrict, Strategy::kTightStrict}) {
            auto take = choose_groups(st, s.amount, s.free, s.capacity);
            ASSERT_EQ(take.has_value(), now > 0 && now <= idle + 3) << strategy_name(st);
            if (!take) continue;
            expect_valid(*take, s.amount, s.free);
            EXPECT_EQ(used_groups(*take), brute_fewest(s.amount, s.capacity));
        }
    }
}

// pool.rs:180-231 (round robin) for compact, pool.rs:234-303 for tight.
TEST(Strategy, HyperQueueSplitsOfAFreeFourByFour) {
    std::vector<int64_t> four = {4, 4, 4, 4};
    EXPECT_EQ(*choose_groups(Strategy::kCompact, 6, four, four), (std::vector<int64_t>{3, 3, 0, 0}));
    EXPECT_EQ(*choose_groups(Strategy::kCompact, 7, {4, 4, 4}, {4, 4, 4}), (std::vector<int64_t>{4, 3, 0}));
    EXPECT_EQ(*choose_groups(Strategy::kCompact, 9, four, four), (std::vector<int64_t>{3, 3, 3, 0}));
    EXPECT_EQ(*choose_groups(Strategy::kTight, 6, four, four), (std::vector<int64_t>{2, 4, 0, 0}));
    EXPECT_EQ(*choose_groups(Strategy::kCompactStrict, 6, four, four), (std::vector<int64_t>{3, 3, 0, 0}));
    // best fit: the least free group that holds it, then the least free pair
    EXPECT_EQ(*choose_groups(Strategy::kCompact, 2, {4, 2, 3, 4}, four), (std::vector<int64_t>{0, 2, 0, 0}));
    EXPECT_EQ(*choose_groups(Strategy::kCompact, 5, {4, 2, 3, 4}, four), (std::vector<int64_t>{0, 2, 3, 0}));
    // scatter: round robin from the first group, empty groups skipped
    EXPECT_EQ(*choose_groups(Strategy::kScatter, 3, four, four), (std::vector<int64_t>{1, 1, 1, 0}));
    EXPECT_EQ(*choose_groups(Strategy::kScatter, 6, {1, 0, 4, 4}, four), (std::vector<int64_t>{1, 0, 3, 2}));
}

TEST(Strategy, ScatterUsesTheMostGroupsAndSpreadsEvenly) {
    std::mt19937 rng(17);
    for (int i = 0; i < 3000; ++i) {
        RandomState s = random_state(rng);
        int64_t total = 0;
        int nonempty = 0;
        for (int64_t f : s.free) total += f, nonempty += f > 0;
        auto take = choose_groups(Strategy::kScatter, s.amount, s.free, s.capacity);
        ASSERT_EQ(take.has_value(), total >= s.amount);
        if (!take) continue;
        expect_valid(*take, s.amount, s.free);
        EXPECT_EQ(used_groups(*take), std::min<int64_t>(s.amount, nonempty));
        // Even: a group below the largest share gave everything it had.
        int64_t top = *std::max_element(take->begin(), take->end());
        for (size_t g = 0; g < take->size(); ++g)
            if ((*take)[g] < top - 1) {
                EXPECT_EQ((*take)[g], s.free[g]);
            }
    }
}

TEST(Strategy, SeedExamples) {
    // 4 groups of 8, 8 cpus scatter: 2 per group.
    auto take = choose_groups(Strategy::kScatter, 8, {8, 8, 8, 8}, {8, 8, 8, 8});
    ASSERT_TRUE(take);
    EXPECT_EQ(*take, (std::vector<int64_t>{2, 2, 2, 2}));
    // compact! 4 on groups of 4: one group, or wait.
    take = choose_groups(Strategy::kCompactStrict, 4, {4, 4}, {4, 4});
    ASSERT_TRUE(take);
    EXPECT_EQ(used_groups(*take), 1);
    EXPECT_FALSE(choose_groups(Strategy::kCompactStrict, 4, {3, 3}, {4, 4}));
    EXPECT_TRUE(choose_groups(Strategy::kCompact, 4, {3, 3}, {4, 4}));
    // compact! 8 on groups of 4: two groups.
    take = choose_groups(Strategy::kCompactStrict, 8, {4, 4, 4}, {4, 4, 4});
    ASSERT_TRUE(take);
    EXPECT_EQ(used_groups(*take), 2);
}

TEST(Strategy, AmountsBeyond32Bits) {
    const int64_t big = INT64_MAX;
    auto take = choose_groups(Strategy::kCompact, big, {big}, {big});
    ASSERT_TRUE(take);
    EXPECT_EQ((*take)[0], big);
    take = choose_groups(Strategy::kScatter, int64_t(1) << 33, {int64_t(1) << 32, int64_t(1) << 32}, {0, 0});
    ASSERT_TRUE(take);
    EXPECT_EQ(*take, (std::vector<int64_t>{int64_t(1) << 32, int64_t(1) << 32}));
    EXPECT_FALSE(choose_groups(Strategy::kTight, big, {big - 1}, {big}));
}

}  // namespace
}  // namespace rq::pools
