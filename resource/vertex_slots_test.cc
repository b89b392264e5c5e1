// VertexSlots against a std::map model: records are created, replaced and
// dropped at random; every live record keeps its address and contents, and
// every record built is destroyed exactly once.
#include "resource/vertex_slots.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <string>

namespace rq {
namespace {

int g_live = 0;

struct Record {
    explicit Record(int64_t v) : value(v), text(std::to_string(v)) { ++g_live; }
    Record(const Record&) = delete;
    ~Record() { --g_live; }
    int64_t value;
    std::string text;  // owns heap memory when long: leaks would show in ASan
};

TEST(VertexSlots, MatchesMapModelAndKeepsAddresses) {
    std::mt19937_64 rng(21);
    {
        VertexSlots<Record> slots;
        std::map<size_t, std::pair<int64_t, const Record*>> model;
        for (int op = 0; op < 60000; ++op) {
            size_t v = rng() % 3000;
            if (rng() % 2 == 0) {
                int64_t value = static_cast<int64_t>(rng() % 1000000000000ULL) * 1000000;
                Record& r = slots.emplace(v, value);
                model[v] = {value, &r};
            } else {
                slots.reset(v);
                model.erase(v);
            }
            ASSERT_EQ(g_live, static_cast<int>(model.size()));
            size_t probe = rng() % 3100;
            const Record* got = slots.get(probe);
            auto it = model.find(probe);
            ASSERT_EQ(got != nullptr, it != model.end());
            if (got) {
                EXPECT_EQ(got, it->second.second);
                EXPECT_EQ(got->value, it->second.first);
                EXPECT_EQ(got->text, std::to_string(it->second.first));
            }
        }
        EXPECT_GE(slots.size(), 2999u);
        VertexSlots<Record> moved = std::move(slots);
        for (auto& [v, want] : model) ASSERT_EQ(moved.get(v), want.second);
        EXPECT_EQ(slots.get(0), nullptr);
    }
    EXPECT_EQ(g_live, 0);
}

// Records big enough that the pool outgrows its heap chunks (2 MiB) and
// cuts chunks from huge-page blocks: records there keep their addresses
// and contents, and each is destroyed once, like the others.
struct BigRecord {
    explicit BigRecord(int64_t v) : value(v) {
        std::fill(std::begin(pad), std::end(pad), static_cast<char>(v));
        ++g_live;
    }
    BigRecord(const BigRecord&) = delete;
    ~BigRecord() { --g_live; }
    int64_t value;
    char pad[2040];
};

TEST(VertexSlots, RecordsInHugePageBlocksKeepAddressesAndContents) {
    std::mt19937_64 rng(22);
    {
        VertexSlots<BigRecord> slots;
        std::map<size_t, const BigRecord*> model;
        // 3,000 records of 2 KiB: 12 chunks of 512 KiB, 4 on the heap.
        for (size_t v = 0; v < 3000; ++v) model[v] = &slots.emplace(v, static_cast<int64_t>(v));
        for (int op = 0; op < 20000; ++op) {
            size_t v = rng() % 3000;
            if (rng() % 2 == 0) {
                model[v] = &slots.emplace(v, static_cast<int64_t>(v));
            } else {
                slots.reset(v);
                model.erase(v);
            }
        }
        ASSERT_EQ(g_live, static_cast<int>(model.size()));
        for (auto& [v, want] : model) {
            const BigRecord* got = slots.get(v);
            ASSERT_EQ(got, want);
            ASSERT_EQ(got->value, static_cast<int64_t>(v));
            ASSERT_EQ(got->pad[0], static_cast<char>(v));
            ASSERT_EQ(got->pad[sizeof got->pad - 1], static_cast<char>(v));
            ASSERT_EQ(reinterpret_cast<uintptr_t>(got) % alignof(BigRecord), 0u);
        }
    }
    EXPECT_EQ(g_live, 0);
}

}  // namespace
}  // namespace rq
