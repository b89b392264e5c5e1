// JobMap, JobSet and IdTable against std::map / std::set under random
// operations that cross the flat/tree and inline/heap boundaries.
#include "resource/job_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "resource/id_table.h"

namespace rq {
namespace {

template <class Table, class Model>
void expect_same_map(const Table& t, const Model& m) {
    ASSERT_EQ(t.size(), m.size());
    std::vector<std::pair<int64_t, int64_t>> got;
    for (auto& [k, v] : t) got.emplace_back(k, v);
    EXPECT_EQ(got, (std::vector<std::pair<int64_t, int64_t>>(m.begin(), m.end())));
}

TEST(JobMap, MatchesStdMapUnderRandomOperations) {
    std::mt19937_64 rng(13);
    for (int round = 0; round < 40; ++round) {
        JobMap<int64_t> t;
        std::map<int64_t, int64_t> m;
        // small tables, big ones, and ones big enough to split chunks
        const int64_t keys = round % 3 == 0 ? 8 : round % 3 == 1 ? 200 : 3000;
        for (int op = 0; op < 4000; ++op) {
            int64_t k = static_cast<int64_t>(rng() % keys);
            switch (rng() % 4) {
            case 0:
            case 1:
                t[k] = op;
                m[k] = op;
                break;
            case 2: EXPECT_EQ(t.erase(k), m.erase(k)); break;
            default: {
                auto it = t.find(k);
                if (it != t.end()) t.erase(it);
                m.erase(k);
            }
            }
            ASSERT_EQ(t.count(k), m.count(k));
            if (m.count(k)) {
                EXPECT_EQ(t.at(k), m.at(k));
            }
            if (op % 97 == 0) {
                expect_same_map(t, m);
                JobMap<int64_t> copy = t;  // deep copy in either mode
                expect_same_map(copy, m);
                JobMap<int64_t> moved = std::move(copy);
                expect_same_map(moved, m);
            }
        }
        expect_same_map(t, m);
    }
}

TEST(JobSet, MatchesStdSetUnderRandomOperations) {
    std::mt19937_64 rng(7);
    JobSet t;
    std::set<int64_t> m;
    for (int op = 0; op < 20000; ++op) {
        int64_t k = static_cast<int64_t>(rng() % (op < 10000 ? 1000 : 3));
        if (rng() % 2)
            EXPECT_EQ(t.insert(k), m.insert(k).second);
        else
            EXPECT_EQ(t.erase(k), m.erase(k));
        ASSERT_EQ(t.size(), m.size());
    }
    EXPECT_EQ(std::vector<int64_t>(t.begin(), t.end()), std::vector<int64_t>(m.begin(), m.end()));
}

TEST(JobMap, FourJobsLiveInlineAndSmallTablesAreSmall) {
    static_assert(JobMap<int64_t>::kInline == 4, "the sizes below are for four inline entries");
    EXPECT_LE(sizeof(JobMap<int64_t>), 72u);
    EXPECT_LE(sizeof(JobSet), 40u);
    JobMap<int64_t> t;
    for (int64_t k : {5, 3, 9, 1}) t[k] = k + 4;
    EXPECT_EQ(t.size(), 4u);
    EXPECT_EQ(t.begin()->first, 1);
    EXPECT_EQ(t.at(5), 9);
    t[8] = 1;  // the fifth: to the heap, which it keeps until empty
    EXPECT_EQ(t.erase(3), 1u);
    EXPECT_EQ(t.at(5), 9);
    EXPECT_EQ(t.at(8), 1);
    EXPECT_EQ(t.size(), 4u);
    t[3] = 7;  // the fifth entry again, and down to none
    EXPECT_EQ(t.size(), 5u);
    std::vector<int64_t> keys;
    for (const auto& [k, v] : t) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<int64_t>{1, 3, 5, 8, 9}));
    for (int64_t k : {8, 3, 5, 1, 9}) EXPECT_EQ(t.erase(k), 1u);
    EXPECT_TRUE(t.empty());
    EXPECT_EQ(t.begin(), t.end());
    t[4] = 2;  // inline again
    EXPECT_EQ(t.at(4), 2);
    EXPECT_EQ(t.size(), 1u);
}

TEST(IdTable, MatchesStdMapWithIncreasingIds) {
    std::mt19937_64 rng(3);
    IdTable<int64_t> t;
    std::map<int64_t, int64_t> m;
    int64_t next = 0;
    for (int op = 0; op < 50000; ++op) {
        if (rng() % 3 != 0 || m.empty()) {
            t.add(next, next * 10);
            m[next] = next * 10;
            ++next;
        } else {
            // erase a random live id, or an absent one
            int64_t k = static_cast<int64_t>(rng() % (next + 2));
            EXPECT_EQ(t.erase(k), m.erase(k) == 1);
        }
        int64_t probe = static_cast<int64_t>(rng() % (next + 2));
        const int64_t* found = t.find(probe);
        ASSERT_EQ(found != nullptr, m.count(probe) == 1);
        if (found) {
            EXPECT_EQ(*found, m[probe]);
        }
        ASSERT_EQ(t.size(), m.size());
    }
    std::vector<std::pair<int64_t, int64_t>> got;
    t.for_each([&](int64_t id, int64_t v) { got.emplace_back(id, v); });
    EXPECT_EQ(got, (std::vector<std::pair<int64_t, int64_t>>(m.begin(), m.end())));
    EXPECT_EQ(t.find(-1), nullptr);
}

}  // namespace
}  // namespace rq
