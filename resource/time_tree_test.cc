// Unit and randomized tests for TimeTree, the B+-tree under Planner. The
// randomized test uses tiny node capacities so that a few hundred points
// already make trees five or more levels deep, exercising splits, merges,
// redistribution and root growth/collapse, and checks every structural
// invariant after every operation.
#include "resource/time_tree.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace rq {
namespace {

using Time = TimeTree::Time;
using Points = std::vector<Time>;

TEST(TimeTree, NewTreeHoldsOnlyTheBasePoint) {
    TimeTree tree;
    EXPECT_EQ(tree.size(), 1u);
    EXPECT_EQ(tree.points(), Points{0});
    EXPECT_EQ(tree.usage_at(0), 0);
    EXPECT_EQ(tree.usage_at(1000), 0);
    EXPECT_EQ(tree.max_usage(0, 10), 0);
    EXPECT_EQ(tree.first_point_at_or_after(-5), 0);
    EXPECT_EQ(tree.first_point_at_or_after(0), 0);
    EXPECT_EQ(tree.first_point_at_or_after(1), std::nullopt);
    EXPECT_EQ(tree.first_point_above(-1, -1), 0);
    EXPECT_EQ(tree.first_point_above(-1, 0), std::nullopt);
    EXPECT_TRUE(tree.check_invariants());
}

TEST(TimeTree, ReferencesAndUsage) {
    TimeTree tree;
    tree.add_reference(10, 3);   // a span of 3 over [10, 20)
    tree.add_reference(20, -3);
    tree.add_reference(15, 2);   // a span of 2 over [15, 20)
    tree.add_reference(20, -2);  // 20 now has two references
    EXPECT_EQ(tree.points(), (Points{0, 10, 15, 20}));
    EXPECT_EQ(tree.usage_at(9), 0);
    EXPECT_EQ(tree.usage_at(10), 3);
    EXPECT_EQ(tree.usage_at(17), 5);
    EXPECT_EQ(tree.usage_at(20), 0);
    EXPECT_EQ(tree.max_usage(0, 10), 0);
    EXPECT_EQ(tree.max_usage(0, 11), 3);
    EXPECT_EQ(tree.max_usage(12, 16), 5);
    EXPECT_EQ(tree.first_point_above(0, 3), 15);
    EXPECT_EQ(tree.first_point_at_most(10, 0), 20);
    EXPECT_EQ(tree.first_point_at_or_after(11), 15);

    EXPECT_TRUE(tree.remove_reference(20, 3));
    EXPECT_EQ(tree.points(), (Points{0, 10, 15, 20}));  // one reference left
    EXPECT_TRUE(tree.remove_reference(10, -3));
    EXPECT_EQ(tree.points(), (Points{0, 15, 20}));
    EXPECT_TRUE(tree.change_usage(15, -1));
    EXPECT_EQ(tree.usage_at(16), 1);
    EXPECT_FALSE(tree.remove_reference(11, 0));
    EXPECT_FALSE(tree.change_usage(11, 1));
    EXPECT_TRUE(tree.check_invariants());
}

TEST(TimeTree, ExtremeTimes) {
    TimeTree tree(4, 4);
    const Time end = INT64_MAX;
    for (Time t = 1; t <= 40; ++t) tree.add_reference(end - t, 1);
    tree.add_reference(end, -40);
    EXPECT_TRUE(tree.check_invariants());
    EXPECT_GE(tree.height(), 2);
    EXPECT_EQ(tree.usage_at(end - 1), 40);
    EXPECT_EQ(tree.usage_at(end), 0);
    EXPECT_EQ(tree.max_usage(0, end), 40);
    EXPECT_EQ(tree.max_usage(end - 1, end), 40);
    EXPECT_EQ(tree.first_point_at_most(end - 1, 0), end);
    EXPECT_EQ(tree.first_point_at_or_after(end), end);
}

// ---- randomized, against std::map ----------------------------------------------

struct Model {
    struct Entry {
        int64_t change = 0;
        uint32_t references = 0;
    };
    std::map<Time, Entry> points{{0, Entry{0, 1}}};

    int64_t usage_at(Time t) const {
        int64_t usage = 0;
        for (const auto& [time, e] : points) {
            if (time > t) break;
            usage += e.change;
        }
        return usage;
    }
    int64_t max_usage(Time from, Time to) const {
        int64_t best = usage_at(from), usage = 0;
        for (const auto& [time, e] : points) {
            usage += e.change;
            if (time > from && time < to) best = std::max(best, usage);
        }
        return best;
    }
    std::optional<Time> first_where(Time after, bool (*ok)(int64_t, int64_t),
                                    int64_t cap) const {
        int64_t usage = 0;
        for (const auto& [time, e] : points) {
            usage += e.change;
            if (time > after && ok(usage, cap)) return time;
        }
        return std::nullopt;
    }
};

void run_random_tree_test(uint32_t leaf_capacity, uint32_t inner_capacity, uint64_t seed) {
    SCOPED_TRACE("capacities " + std::to_string(leaf_capacity) + "/" +
                 std::to_string(inner_capacity) + ", RQ_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed ^ (leaf_capacity * 1000 + inner_capacity));
    auto in = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    TimeTree tree(leaf_capacity, inner_capacity);
    Model model;
    int max_height = 0;
    constexpr int kSteps = 24000;
    for (int step = 0; step < kSteps; ++step) {
        // Alternate growing and shrinking phases so nodes split and merge.
        const bool growing = (step / 3000) % 2 == 0;
        const int kind = static_cast<int>(in(0, 99));
        std::string op;
        auto existing = [&]() {
            auto it = model.points.begin();
            std::advance(it, in(0, static_cast<int64_t>(model.points.size()) - 1));
            return it->first;
        };
        if (kind < (growing ? 45 : 15)) {
            Time t = in(0, 700);
            int64_t change = in(-5, 5);
            op = "add " + std::to_string(t);
            tree.add_reference(t, change);
            auto& e = model.points[t];
            e.change += change;
            e.references += 1;
        } else if (kind < 60) {
            Time t = in(0, 9) == 0 ? in(0, 700) : existing();
            int64_t change = in(-5, 5);
            op = "remove " + std::to_string(t);
            auto it = model.points.find(t);
            const bool pinned =
                t == 0 && it != model.points.end() && it->second.references == 1;
            if (pinned) continue;  // the base point is never released
            ASSERT_EQ(tree.remove_reference(t, change), it != model.points.end()) << op;
            if (it != model.points.end()) {
                it->second.change += change;
                if (--it->second.references == 0) model.points.erase(it);
            }
        } else if (kind < 66) {
            Time t = existing();
            int64_t change = in(-5, 5);
            op = "change " + std::to_string(t);
            ASSERT_TRUE(tree.change_usage(t, change)) << op;
            model.points[t].change += change;
        } else if (kind < 74) {
            Time t = in(-1, 705);
            op = "usage_at " + std::to_string(t);
            ASSERT_EQ(tree.usage_at(t), model.usage_at(t)) << op;
        } else if (kind < 82) {
            Time from = in(0, 700), to = from + in(1, 300);
            op = "max_usage " + std::to_string(from) + " " + std::to_string(to);
            ASSERT_EQ(tree.max_usage(from, to), model.max_usage(from, to)) << op;
        } else if (kind < 86) {
            Time t = in(-1, 705);
            op = "at_or_after " + std::to_string(t);
            ASSERT_EQ(tree.first_point_at_or_after(t),
                      model.first_where(t - 1, [](int64_t, int64_t) { return true; }, 0))
                << op;
        } else {
            Time after = in(-1, 705);
            int64_t cap = in(-15, 15);
            const bool above = kind < 93;
            op = std::string(above ? "above " : "at_most ") + std::to_string(after) +
                 " cap " + std::to_string(cap);
            auto is_above = [](int64_t usage, int64_t limit) { return usage > limit; };
            auto is_at_most = [](int64_t usage, int64_t limit) { return usage <= limit; };
            auto want = above ? model.first_where(after, is_above, cap)
                              : model.first_where(after, is_at_most, cap);
            auto got = above ? tree.first_point_above(after, cap)
                             : tree.first_point_at_most(after, cap);
            ASSERT_EQ(got, want) << op;
        }
        ASSERT_EQ(tree.size(), model.points.size()) << op;
        ASSERT_TRUE(tree.check_invariants()) << "step " << step << ": " << op;
        max_height = std::max(max_height, tree.height());
        if (step % 5000 == 4999) {  // a copy must behave exactly the same
            TimeTree copy = tree;
            ASSERT_TRUE(copy.check_invariants());
            tree = std::move(copy);
        }
    }
    Points want;
    for (const auto& entry : model.points) want.push_back(entry.first);
    EXPECT_EQ(tree.points(), want);
    if (leaf_capacity <= 8) {
        EXPECT_GE(max_height, 3) << "trees never got deep";
    }
}

uint64_t test_seed() {
    const char* env = std::getenv("RQ_SEED");
    return env && *env ? std::strtoull(env, nullptr, 10) : 7;
}

TEST(TimeTreeRandom, TinyNodes) { run_random_tree_test(4, 4, test_seed()); }
TEST(TimeTreeRandom, OddNodes) { run_random_tree_test(5, 7, test_seed()); }
TEST(TimeTreeRandom, SmallNodes) { run_random_tree_test(8, 5, test_seed()); }
TEST(TimeTreeRandom, DefaultNodes) {
    run_random_tree_test(TimeTree::kLeafCapacity, TimeTree::kInnerCapacity, test_seed());
}

}  // namespace
}  // namespace rq
