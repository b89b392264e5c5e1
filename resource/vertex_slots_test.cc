// VertexSlots against a std::map model: records are created, replaced and
// dropped at random; every live record keeps its address and contents, and
// every record built is destroyed exactly once.
#include "resource/vertex_slots.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace rq
