// Timing: text() against printf's own %a, and parse_timing reading back
// exactly what text() writes and refusing every other spelling.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "state/timing.h"

namespace rq::state {
namespace {

double random_double(std::mt19937_64& rng) {
    switch (rng() % 9) {
    case 0: return 0.0;
    case 1: return -1.5;
    case 2: return std::numeric_limits<double>::infinity();
    case 3: return -0.0;
    case 4: return 4.9e-324 * static_cast<double>(rng() % 1000);  // subnormal
    case 5: {  // any bits: nan, huge, tiny
        uint64_t bits = rng();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    default: return std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 80));
    }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(Timing, TextIsPrintfsHexFloats) {
    Timing t{0.1875, 1.0, 0.0, 7, {{3, std::ldexp(1.125, -19)}, {-4, -std::numeric_limits<double>::max()}}};
    EXPECT_EQ(t.text(), "0x1.8p-3 0x1p+0 0x0p+0 7 3:0x1.2p-19 -4:-0x1.fffffffffffffp+1023");
}

TEST(Timing, RandomNumbersReadBackBitForBit) {
    std::mt19937_64 rng(29);
    for (int round = 0; round < 20000; ++round) {
        Timing t{random_double(rng), random_double(rng), random_double(rng),
                 static_cast<int64_t>(rng()) >> (rng() % 64), {}};
        for (size_t k = rng() % 4; k > 0; --k)
            t.overheads.emplace_back(static_cast<int64_t>(rng()) >> (rng() % 64), random_double(rng));
        // The text is what the session wrote before Timing existed.
        char buf[200];
        std::snprintf(buf, sizeof buf, "%a %a %a %" PRId64, t.min, t.max, t.total, t.timed);
        std::string printed = buf;
        for (auto& [id, overhead] : t.overheads) {
            std::snprintf(buf, sizeof buf, " %" PRId64 ":%a", id, overhead);
            printed += buf;
        }
        ASSERT_EQ(t.text(), printed);
        auto back = parse_timing(printed);
        ASSERT_TRUE(back) << printed << ": " << back.message();
        ASSERT_EQ(back->text(), printed);
        ASSERT_TRUE(same_bits(back->min, t.min) || (std::isnan(back->min) && std::isnan(t.min))) << printed;
        ASSERT_EQ(back->timed, t.timed);
        ASSERT_EQ(back->overheads.size(), t.overheads.size());
        for (size_t i = 0; i < t.overheads.size(); ++i) ASSERT_EQ(back->overheads[i].first, t.overheads[i].first);
    }
}

TEST(Timing, ExtremesReadBack) {
    for (const std::string text : {
             "-0x0p+0 0x1p-1022 0x1p+1023 -9223372036854775808 9223372036854775807:0x1p+0",
             "0x0.0000000000001p-1022 0x1p+0 0x1p+0 1",  // subnormal, as glibc prints it
             "inf -inf nan 0",
         }) {
        auto t = parse_timing(text);
        ASSERT_TRUE(t) << text << ": " << t.message();
        EXPECT_EQ(t->text(), text);
    }
}

TEST(Timing, OtherSpellingsAreRefusedWithTheText) {
    for (const std::string& text : {
             std::string("0x1.00000000000001p+0 0x1p+0 0x1p+0 1"),  // 14 hex digits
             std::string("0x1.80p+0 0x1p+0 0x1p+0 1"),  // trailing zero
             std::string("0x1p+00 0x1p+0 0x1p+0 1"), std::string("0x1p-0 0x1p+0 0x1p+0 1"),
             std::string("0x1P+0 0x1p+0 0x1p+0 1"), std::string("0x1.Ap+0 0x1p+0 0x1p+0 1"),
             std::string("0x2p+0 0x1p+0 0x1p+0 1"), std::string("0x1p+1024 0x1p+0 0x1p+0 1"),
             std::string("1.5 0x1p+0 0x1p+0 1"), std::string("0x1p+0 0x1p+0 0x1p+0 01"),
             std::string("0x1p+0 0x1p+0 0x1p+0 -0"), std::string("0x1p+0 0x1p+0 0x1p+0 +1"),
             std::string("0x1p+0 0x1p+0 0x1p+0 9223372036854775808"), std::string("0x1p+0 0x1p+0 0x1p+0 1 "),
             std::string("0x1p+0 0x1p+0 0x1p+0 1 2:"), std::string("0x1p+0 0x1p+0 0x1p+0 1 2:0x1p+0 "),
             std::string("0x1p+0 0x1p+0 0x1p+0 1 2"), std::string("0x1p+0  0x1p+0 0x1p+0 1"),
             std::string(" 0x1p+0 0x1p+0 0x1p+0 1"), std::string("0x1p+0 0x1p+0 0x1p+0"), std::string(""),
             std::string("0x"), std::string("0x1.p+0 0x1p+0 0x1p+0 1"), std::string("t"),
             std::string("0x1p+0\0 0x1p+0 0x1p+0 1", 23), std::string("0x1p+0 0x1p+0 0x1p+0 1\0", 23),
         }) {
        auto t = parse_timing(text);
        ASSERT_FALSE(t) << "accepted \"" << text << "\"";
        EXPECT_NE(t.message().find("timing \"" + text + "\": "), std::string::npos) << t.message();
    }
}

}  // namespace
}  // namespace rq::state
