#include "utilities/intro_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

namespace rq {
namespace {

struct Item {
    int key;
    int tag;  // identity, to observe the order of equal keys
};

std::vector<int> tags(const std::vector<Item>& v) {
    std::vector<int> out;
    for (auto& i : v) out.push_back(i.tag);
    return out;
}

std::vector<Item> random_items(std::mt19937& rng, int n, int key_range) {
    std::vector<Item> v;
    std::uniform_int_distribution<int> key(0, key_range - 1);
    for (int i = 0; i < n; ++i) v.push_back({key(rng), i});
    return v;
}

TEST(IntroSort, SortsByKey) {
    std::mt19937 rng(7);
    for (int n : {0, 1, 2, 5, 16, 17, 100, 1000}) {
        auto v = random_items(rng, n, 50);
        intro_sort(v.begin(), v.end(), [](const Item& a, const Item& b) { return a.key > b.key; });
        EXPECT_TRUE(std::is_sorted(v.begin(), v.end(), [](const Item& a, const Item& b) { return a.key > b.key; }));
    }
}

TEST(IntroSort, UpToSixteenElementsIsStable) {
    std::vector<Item> v;
    for (int i = 0; i < 16; ++i) v.push_back({i % 3, i});
    intro_sort(v.begin(), v.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
    EXPECT_EQ(tags(v), (std::vector<int>{0, 3, 6, 9, 12, 15, 1, 4, 7, 10, 13, 2, 5, 8, 11, 14}));
}

TEST(IntroSort, TieOrderBeyondSixteenIsNotStable) {
    // 17 equal keys: the median-of-three swap and one Hoare partition step
    // reorder them (libstdc++ gives exactly this order; the policies'
    // choices among equal scores depend on it).
    std::vector<Item> v;
    for (int i = 0; i < 17; ++i) v.push_back({1, i});
    intro_sort(v.begin(), v.end(), [](const Item& a, const Item& b) { return a.key > b.key; });
    EXPECT_EQ(tags(v), (std::vector<int>{8, 16, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1}));
}

#if defined(__GLIBCXX__)
// With libstdc++, std::sort is the very algorithm we reproduce: the tie
// order must agree on every input, long lists with many ties included.
TEST(IntroSort, MatchesLibstdcxxTieOrder) {
    std::mt19937 rng(12345);
    auto greater = [](const Item& a, const Item& b) { return a.key > b.key; };
    auto less = [](const Item& a, const Item& b) { return a.key < b.key; };
    for (int round = 0; round < 400; ++round) {
        int n = 1 + static_cast<int>(rng() % 300);
        int range = 1 + static_cast<int>(rng() % 8);
        auto v = random_items(rng, n, range);
        auto ours = v, theirs = v;
        if (round % 2) {
            intro_sort(ours.begin(), ours.end(), greater);
            std::sort(theirs.begin(), theirs.end(), greater);
        } else {
            intro_sort(ours.begin(), ours.end(), less);
            std::sort(theirs.begin(), theirs.end(), less);
        }
        ASSERT_EQ(tags(ours), tags(theirs)) << "round " << round << " n " << n;
    }
}

TEST(IntroSort, MatchesLibstdcxxWhenHeapSortKicksIn) {
    // A comparator that makes every partition maximally unbalanced drives
    // the depth budget to zero; compare against std::sort on adversarial
    // "organ pipe" inputs with ties.
    std::vector<Item> v;
    int n = 2000;
    for (int i = 0; i < n; ++i) v.push_back({i < n / 2 ? i : n - i, i});
    auto ours = v, theirs = v;
    auto less = [](const Item& a, const Item& b) { return a.key < b.key; };
    intro_sort(ours.begin(), ours.end(), less);
    std::sort(theirs.begin(), theirs.end(), less);
    EXPECT_EQ(tags(ours), tags(theirs));
}
#endif

TEST(IntroSort, HeapSortPathSortsCorrectly) {
    std::vector<Item> v;
    for (int i = 0; i < 64; ++i) v.push_back({(i * 37) % 11, i});
    auto less = [](const Item& a, const Item& b) { return a.key < b.key; };
    intro_sort_detail::heap_sort(v.begin(), v.end(), less);
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end(), less));
}

// sort_distinct_runs against intro_sort on random inputs made of a few
// descending runs: with distinct keys it must give intro_sort's order; an
// input with a repeated key, or more runs than allowed, must be refused.
TEST(SortDistinctRuns, AgreesWithIntroSortOrRefuses) {
    std::mt19937 rng(20261129);
    std::vector<uint32_t> scratch;
    int merged = 0, refused_ties = 0, refused_runs = 0;
    for (int round = 0; round < 3000; ++round) {
        int runs = 1 + static_cast<int>(rng() % 6);
        bool tie = rng() % 4 == 0;
        std::vector<int64_t> key;
        // Distinct keys dealt into `runs` runs, each sorted descending.
        int n = 1 + static_cast<int>(rng() % 200);
        std::vector<int64_t> pool(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) pool[static_cast<size_t>(i)] = i * 3;
        std::shuffle(pool.begin(), pool.end(), rng);
        if (tie && n > 1) pool[1] = pool[0];
        size_t at = 0;
        for (int r = 0; r < runs && at < pool.size(); ++r) {
            size_t len = r == runs - 1 ? pool.size() - at : std::min(pool.size() - at, size_t(1 + rng() % 60));
            std::sort(pool.begin() + static_cast<std::ptrdiff_t>(at),
                      pool.begin() + static_cast<std::ptrdiff_t>(at + len), std::greater<int64_t>());
            at += len;
        }
        key = pool;
        auto greater = [&](uint32_t a, uint32_t b) { return key[a] > key[b]; };
        std::vector<uint32_t> ours(key.size()), theirs(key.size());
        for (uint32_t i = 0; i < key.size(); ++i) ours[i] = theirs[i] = i;
        intro_sort(theirs.begin(), theirs.end(), greater);
        size_t actual_runs = 1;
        for (size_t i = 1; i < key.size(); ++i) actual_runs += key[i - 1] > key[i] ? 0 : 1;
        bool has_tie = std::adjacent_find(theirs.begin(), theirs.end(), [&](uint32_t a, uint32_t b) {
                           return key[a] == key[b];
                       }) != theirs.end();
        bool ok = sort_distinct_runs(ours, scratch, 4, greater);
        if (actual_runs > 4) {
            EXPECT_FALSE(ok) << "round " << round;
            ++refused_runs;
        } else if (has_tie && actual_runs > 1) {
            EXPECT_FALSE(ok) << "round " << round;
            ++refused_ties;
        } else {
            ASSERT_TRUE(ok) << "round " << round;
            ASSERT_EQ(ours, theirs) << "round " << round;
            ++merged;
        }
    }
    // Every case was exercised.
    EXPECT_GT(merged, 500);
    EXPECT_GT(refused_ties, 50);
    EXPECT_GT(refused_runs, 50);
}

}  // namespace
}  // namespace rq
