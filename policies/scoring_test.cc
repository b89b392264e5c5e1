#include "policies/scoring.h"

#include <gtest/gtest.h>

#include "policies/match_policy.h"
#include "utilities/intro_sort.h"

#include <random>

namespace rq {
namespace {

EGroup group(int64_t score, int64_t count, EdgeId edge) {
    EGroup g;
    g.score = score;
    g.count = count;
    g.edges.push_back({count, count, false, edge});
    return g;
}

std::vector<EdgeId> order(const ScoreSet& s, TypeId t) {
    std::vector<EdgeId> out;
    for (auto& g : s.find(kContainment, t)->groups) out.push_back(g.edges[0].edge);
    return out;
}

TEST(Scoring, CountsQualifiedAndTotal) {
    ScoreSet s;
    s.add(kContainment, types::kCore, group(5, 1, 1));
    s.add(kContainment, types::kCore, group(0, 1, 2));  // unqualified: score 0
    s.add(kContainment, types::kCore, group(3, 2, 3));
    EXPECT_EQ(s.qualified_count(kContainment, types::kCore), 3);
    EXPECT_EQ(s.total_count(kContainment, types::kCore), 4);
    EXPECT_EQ(s.qualified_count(kContainment, types::kGpu), 0);
    EXPECT_FALSE(s.choice_made());
}

TEST(Scoring, ChooseBestKTakesWholeCandidatesFromTheFront) {
    ScoreSet s;
    s.add(kContainment, types::kCore, group(1, 1, 10));
    s.add(kContainment, types::kCore, group(7, 2, 11));
    s.add(kContainment, types::kCore, group(4, 1, 12));
    ASSERT_TRUE(s.choose_best_k(kContainment, types::kCore, 3, score_greater));
    EXPECT_EQ(order(s, types::kCore), (std::vector<EdgeId>{11, 12, 10}));
    const TypeEvals* e = s.find(kContainment, types::kCore);
    EXPECT_EQ(e->best_k, 3);
    EXPECT_EQ(e->best_i, 2u);  // 2 + 1 units cover k = 3
    EXPECT_TRUE(s.choice_made());
}

TEST(Scoring, NoChoiceForZeroOrTooMany) {
    ScoreSet s;
    s.add(kContainment, types::kCore, group(1, 1, 1));
    EXPECT_FALSE(s.choose_best_k(kContainment, types::kCore, 0, score_greater));
    EXPECT_FALSE(s.choose_best_k(kContainment, types::kCore, 2, score_greater));
    EXPECT_FALSE(s.choose_best_k(kContainment, types::kGpu, 1, score_greater));
    EXPECT_FALSE(s.choice_made());
}

TEST(Scoring, ChooseAllSortsWithTheComparator) {
    ScoreSet s;
    for (EdgeId e = 0; e < 5; ++e) s.add(kContainment, types::kCore, group(10 - e % 3, 1, e));
    ASSERT_TRUE(s.choose_all(kContainment, types::kCore, score_less));
    // scores 10, 9, 8, 10, 9 sorted ascending; ties keep their order (a
    // list this short is insertion-sorted, which is stable)
    EXPECT_EQ(order(s, types::kCore), (std::vector<EdgeId>{2, 1, 4, 0, 3}));
    EXPECT_EQ(s.find(kContainment, types::kCore)->best_i, 5u);
}

TEST(Scoring, TieOrderOnLongListsFollowsIntrosort) {
    // 20 equal scores: the reference's order comes from GCC's introsort
    // (policies.md §7), not insertion order.
    ScoreSet s;
    for (EdgeId e = 0; e < 20; ++e) s.add(kContainment, types::kNode, group(3, 1, e));
    ASSERT_TRUE(s.choose_best_k(kContainment, types::kNode, 2, score_greater));
    std::vector<EdgeId> got = order(s, types::kNode);
    std::vector<EdgeId> insertion(20);
    for (EdgeId e = 0; e < 20; ++e) insertion[e] = e;
    EXPECT_NE(got, insertion);
    EXPECT_EQ(got.front(), 10u);  // the median of three lands first
}

TEST(Scoring, MergeAppendsPerTypeInOrder) {
    ScoreSet child, parent;
    parent.add(kContainment, types::kCore, group(1, 1, 1));
    child.add(kContainment, types::kCore, group(2, 1, 2));
    child.add(kContainment, types::kSocket, group(3, 1, 3));
    child.merge_into(parent);
    EXPECT_EQ(order(parent, types::kCore), (std::vector<EdgeId>{1, 2}));
    EXPECT_EQ(parent.qualified_count(kContainment, types::kSocket), 1);
    // types are kept in interning order whatever the insertion order
    const auto& types = parent.subsystems().front().types;
    ASSERT_EQ(types.size(), 2u);
    EXPECT_EQ(types[0].type, types::kCore);
    EXPECT_EQ(types[1].type, types::kSocket);
}

// choose_best_k against the reference order (policies.md §7: GCC's
// introsort of the candidates as found) on short and long lists, already
// in order or not, with many ties: the choice skips the sort of a short
// list already in order, and must land on the same order.
TEST(Scoring, ChoiceOrderIsIntrosortsOnRandomLists) {
    std::mt19937 rng(7);
    for (int round = 0; round < 3000; ++round) {
        size_t n = 1 + rng() % 40;
        int distinct = 1 + static_cast<int>(rng() % 6);
        std::vector<int64_t> scores(n);
        for (auto& v : scores) v = 1 + static_cast<int64_t>(rng() % distinct);
        bool greater = rng() % 2 == 0;
        if (rng() % 2 == 0) std::sort(scores.begin(), scores.end(), [&](int64_t a, int64_t b) { return greater ? a > b : a < b; });
        ScoreSet s;
        for (size_t i = 0; i < n; ++i) s.add(kContainment, types::kCore, group(scores[i], 1, static_cast<EdgeId>(i)));
        bool plain = rng() % 3 != 0;  // else a comparator the fast paths cannot see through
        EGroupLess before = plain ? EGroupLess(greater ? score_greater : score_less)
                                  : EGroupLess([greater](const EGroup& a, const EGroup& b) {
                                        return greater ? a.score > b.score : a.score < b.score;
                                    });
        ASSERT_TRUE(s.choose_all(kContainment, types::kCore, before));
        std::vector<EdgeId> want(n);
        for (size_t i = 0; i < n; ++i) want[i] = static_cast<EdgeId>(i);
        intro_sort(want.begin(), want.end(), [&](EdgeId a, EdgeId b) {
            return greater ? scores[a] > scores[b] : scores[a] < scores[b];
        });
        ASSERT_EQ(order(s, types::kCore), want) << "round " << round;
    }
}

// add_all() is add() of each candidate in turn; lookups alternate between
// types (the remembered last lookup must not answer for another type).
TEST(Scoring, AddAllIsAddInTurnAndLookupsAlternateTypes) {
    ScoreSet one, all;
    for (EdgeId e = 0; e < 5; ++e) one.add(kContainment, types::kSlot, group(int64_t(e) % 2, 2, e));
    std::vector<EGroup> groups = one.find(kContainment, types::kSlot)->groups;  // the same, copied
    all.add_all(kContainment, types::kSlot, groups);
    EXPECT_TRUE(groups.empty());
    EXPECT_EQ(order(all, types::kSlot), order(one, types::kSlot));
    EXPECT_EQ(all.qualified_count(kContainment, types::kSlot), 4);
    EXPECT_EQ(all.total_count(kContainment, types::kSlot), 10);
    all.add(kContainment, types::kCore, group(1, 1, 9));
    EXPECT_EQ(all.total_count(kContainment, types::kSlot), 10);
    EXPECT_EQ(all.total_count(kContainment, types::kCore), 1);
    all.add(kContainment, types::kNode, group(1, 3, 8));  // inserted ahead of the remembered type
    EXPECT_EQ(all.total_count(kContainment, types::kCore), 1);
    EXPECT_EQ(all.total_count(kContainment, types::kNode), 3);
    EXPECT_EQ(all.total_count(kContainment, types::kSlot), 10);
    EXPECT_EQ(all.find(kContainment, types::kGpu), nullptr);
    EXPECT_EQ(all.total_count(kContainment, types::kCore), 1);
}

// EGroup's hand-written copies and moves (one edge copied as a plain
// struct) keep every field and every edge, for none, one and several
// edges, and a group moved from keeps no edge.
TEST(Scoring, EGroupCopiesAndMovesKeepEveryEdge) {
    auto group = [](int edges) {
        EGroup g;
        g.score = 7 + edges;
        g.count = 3;
        g.exclusive = edges % 2 == 1;
        g.root = edges == 0;
        for (int i = 0; i < edges; ++i) g.edges.push_back({i + 1, i + 2, i % 2 == 0, static_cast<EdgeId>(10 + i)});
        return g;
    };
    auto same = [](const EGroup& a, const EGroup& b) {
        if (a.score != b.score || a.count != b.count || a.exclusive != b.exclusive || a.root != b.root) return false;
        if (a.edges.size() != b.edges.size()) return false;
        for (size_t i = 0; i < a.edges.size(); ++i)
            if (a.edges[i].count != b.edges[i].count || a.edges[i].needs != b.edges[i].needs ||
                a.edges[i].exclusive != b.edges[i].exclusive || a.edges[i].edge != b.edges[i].edge)
                return false;
        return true;
    };
    for (int n : {0, 1, 3}) {
        const EGroup original = group(n);
        EGroup copied(original);
        EXPECT_TRUE(same(copied, original)) << n;
        EGroup source(original);
        EGroup moved(std::move(source));
        EXPECT_TRUE(same(moved, original)) << n;
        EXPECT_TRUE(source.edges.empty()) << n;
        for (int m : {0, 1, 3}) {  // assignments over groups of every size
            EGroup assigned = group(m);
            assigned = original;
            EXPECT_TRUE(same(assigned, original)) << n << " over " << m;
            EGroup from(original), into = group(m);
            into = std::move(from);
            EXPECT_TRUE(same(into, original)) << n << " over " << m;
        }
        EGroup self(original);
        const EGroup& alias = self;
        self = alias;
        EXPECT_TRUE(same(self, original)) << n;
    }
}

}  // namespace
}  // namespace rq
