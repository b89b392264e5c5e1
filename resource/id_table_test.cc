// KeyedIdTable and IdRows (resource/id_table.h) against std::map under
// random adds, erases (crossing the compaction threshold) and, for IdRows,
// width changes.
#include "resource/id_table.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace rq {
namespace {

struct Item {
    int64_t id = 0;
    int64_t payload = 0;
};

TEST(KeyedIdTable, MatchesStdMapWithIncreasingIds) {
    std::mt19937_64 rng(5);
    KeyedIdTable<Item> t;
    std::map<int64_t, int64_t> m;
    int64_t next = 0;
    for (int op = 0; op < 50000; ++op) {
        if (rng() % 3 != 0 || m.empty()) {
            t.add(Item{next, next * 7});
            m[next] = next * 7;
            ++next;
        } else {
            int64_t k = static_cast<int64_t>(rng() % (next + 2));
            EXPECT_EQ(t.erase(k), m.erase(k) == 1);
        }
        int64_t probe = static_cast<int64_t>(rng() % (next + 2));
        const Item* found = t.find(probe);
        ASSERT_EQ(found != nullptr, m.count(probe) == 1);
        if (found) {
            EXPECT_EQ(found->payload, m[probe]);
        }
        ASSERT_EQ(t.size(), m.size());
        ASSERT_EQ(t.empty(), m.empty());
    }
    std::map<int64_t, int64_t> got;
    int64_t last = -1;
    t.for_each([&](const Item& it) {
        EXPECT_GT(it.id, last);
        last = it.id;
        got[it.id] = it.payload;
    });
    EXPECT_EQ(got, m);
    EXPECT_EQ(t.find(-1), nullptr);
}

TEST(IdRows, MatchesStdMapOfRowsAcrossWidthChanges) {
    std::mt19937_64 rng(9);
    IdRows t(2);
    std::map<int64_t, std::vector<int64_t>> m;
    size_t width = 2;
    int64_t next = 0;
    for (int op = 0; op < 40000; ++op) {
        const uint64_t kind = rng() % 100;
        if (kind < 60 || m.empty()) {
            std::vector<int64_t> row(width);
            for (auto& x : row) x = static_cast<int64_t>(rng() % 1000);
            t.add(next, row.data());
            m[next] = row;
            ++next;
        } else if (kind < 97) {
            int64_t k = static_cast<int64_t>(rng() % (next + 2));
            EXPECT_EQ(t.erase(k), m.erase(k) == 1);
        } else if (kind < 99) {
            // A new width; each column comes from a random old one or is new.
            size_t w = rng() % 4;
            std::vector<int64_t> from(w);
            for (auto& f : from) f = static_cast<int64_t>(rng() % (width + 1)) - 1;
            t.set_width(from, -5);
            for (auto& [id, row] : m) {
                std::vector<int64_t> moved(w, -5);
                for (size_t c = 0; c < w; ++c)
                    if (from[c] >= 0) moved[c] = row[static_cast<size_t>(from[c])];
                row = moved;
            }
            width = w;
        } else if (!m.empty()) {
            // Write through the row pointer.
            auto it = m.begin();
            std::advance(it, static_cast<long>(rng() % m.size()));
            int64_t* row = t.find(it->first);
            ASSERT_NE(row, nullptr);
            for (size_t c = 0; c < width; ++c) row[c] = it->second[c] = static_cast<int64_t>(rng() % 1000);
        }
        ASSERT_EQ(t.width(), width);
        ASSERT_EQ(t.size(), m.size());
        int64_t probe = static_cast<int64_t>(rng() % (next + 2)) - 1;
        const int64_t* found = static_cast<const IdRows&>(t).find(probe);
        ASSERT_EQ(found != nullptr, m.count(probe) == 1) << "id " << probe;
        ASSERT_EQ(t.count(probe), m.count(probe));
        if (found) {
            EXPECT_EQ(std::vector<int64_t>(found, found + width), m[probe]);
        }
    }
}

TEST(IdRows, WidthZeroRowsAreStillFound) {
    IdRows t(0);
    t.add(3, nullptr);
    EXPECT_NE(t.find(3), nullptr);
    EXPECT_EQ(t.find(4), nullptr);
    EXPECT_TRUE(t.erase(3));
    EXPECT_EQ(t.find(3), nullptr);
    EXPECT_TRUE(t.empty());
}

}  // namespace
}  // namespace rq
