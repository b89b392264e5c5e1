#include "resource/paged_column.h"

#include <map>
#include <random>

#include <gtest/gtest.h>

namespace rq {
namespace {

using Column = PagedColumn<uint64_t, UINT64_MAX>;

TEST(PagedColumn, UnsetEntriesReadTheDefault) {
    Column c;
    EXPECT_EQ(c.get(0), UINT64_MAX);
    EXPECT_EQ(c.get(1u << 20), UINT64_MAX);
    c.set(5, 7);
    EXPECT_EQ(c.get(5), 7u);
    EXPECT_EQ(c.get(4), UINT64_MAX);
    EXPECT_EQ(c.get(Column::kPageSize + 5), UINT64_MAX);
}

TEST(PagedColumn, AWriteFarOutAllocatesOnePage) {
    Column c;
    size_t empty = c.bytes();
    c.set(1300000, 3);
    EXPECT_EQ(c.get(1300000), 3u);
    // One page of entries plus the page table, not 1.3 million entries.
    EXPECT_LT(c.bytes() - empty, Column::kPageSize * sizeof(uint64_t) + 1300000 / Column::kPageSize * 16 + 64);
    c.clear();
    EXPECT_EQ(c.get(1300000), UINT64_MAX);
}

TEST(PagedColumn, MatchesAMapUnderRandomWrites) {
    std::mt19937_64 rng(13);
    Column c;
    std::map<size_t, uint64_t> model;
    for (int step = 0; step < 20000; ++step) {
        size_t i = rng() % 50000;
        if (rng() % 2) {
            uint64_t v = rng() % 100;
            c.set(i, v);
            model[i] = v;
        } else {
            auto it = model.find(i);
            ASSERT_EQ(c.get(i), it == model.end() ? UINT64_MAX : it->second) << "entry " << i;
        }
    }
}

}  // namespace
}  // namespace rq
