// EntryLog against a plain vector of entries: random entries (empty and
// long lines, several inputs, unreadable inputs, negative and large job
// ids), read back in any order and with inputs added afterwards.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "state/journal.h"

namespace rq::state {
namespace {

bool same(const Entry& a, const Entry& b) {
    if (a.line != b.line || a.timing != b.timing || a.touched_jobs != b.touched_jobs) return false;
    if (a.inputs.size() != b.inputs.size()) return false;
    for (size_t i = 0; i < a.inputs.size(); ++i)
        if (a.inputs[i].path != b.inputs[i].path || a.inputs[i].blob != b.inputs[i].blob) return false;
    return true;
}

// A timing text: mostly in the form the session prints (stored as numbers),
// sometimes almost (stored as text).
std::string random_timing(std::mt19937_64& rng) {
    auto pick = [&](uint64_t n) { return rng() % n; };
    auto number = [&]() -> double {
        switch (pick(9)) {
        case 0: return 0.0;
        case 1: return -1.5;
        case 2: return 1.0 / 0.0;
        case 3: return -0.0;
        case 4: return 4.9e-324 * static_cast<double>(pick(1000));  // subnormal
        case 5: {  // any bits: nan, huge, tiny
            uint64_t bits = rng();
            double v;
            std::memcpy(&v, &bits, sizeof v);
            return v;
        }
        default: return std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(pick(80)));
        }
    };
    char buf[200];
    std::snprintf(buf, sizeof buf, "%a %a %a %" PRId64, number(), number(), number(),
                  static_cast<int64_t>(rng()) >> pick(64));
    std::string text = buf;
    for (size_t k = pick(4); k > 0; --k) {
        std::snprintf(buf, sizeof buf, " %" PRId64 ":%a", static_cast<int64_t>(rng()) >> pick(64), number());
        text += buf;
    }
    switch (pick(12)) {
    case 0: return text + " ";
    case 1: return " " + text;
    case 2: return text + " 5";
    case 3: return text.substr(0, pick(text.size() + 1));
    case 4: return "0x1.8p-3 0x1p+0 " + std::to_string(rng());
    case 5: return "";
    case 6: return "0X1P+0 0x1p+0 0x1p+0 1";  // parses, prints otherwise
    default: return text;
    }
}

Entry random_entry(std::mt19937_64& rng, const std::vector<Entry>& before) {
    auto pick = [&](uint64_t n) { return rng() % n; };
    Entry e;
    e.line = std::string(pick(4) == 0 ? pick(300) : pick(30), static_cast<char>('a' + pick(26)));
    if (!before.empty() && pick(3) == 0) e.line = before[before.size() - 1 - pick(std::min<size_t>(3, before.size()))].line;
    for (size_t k = pick(4); k > 0; --k)
        e.inputs.push_back(Input{"dir/file" + std::to_string(pick(5)), static_cast<int64_t>(pick(10)) - 1});
    e.timing = random_timing(rng);
    for (size_t k = pick(5); k > 0; --k) {
        int64_t id = pick(3) == 0 ? static_cast<int64_t>(rng()) : static_cast<int64_t>(pick(1000)) - 10;
        e.touched_jobs.push_back(id);
    }
    return e;
}

TEST(EntryLog, MatchesAVectorOfEntries) {
    std::mt19937_64 rng(13);
    EntryLog log;
    std::vector<Entry> model;
    for (int round = 0; round < 20000; ++round) {
        uint64_t what = rng() % 10;
        if (what < 7 || model.empty()) {
            model.push_back(random_entry(rng, model));
            log.push_back(model.back());
        } else if (what < 9) {
            size_t i = rng() % model.size();
            ASSERT_TRUE(same(log[i], model[i])) << "entry " << i;
        } else {
            size_t i = rng() % model.size();
            Input in{"added" + std::to_string(rng() % 3), static_cast<int64_t>(rng() % 5) - 1};
            model[i].inputs.push_back(in);
            log.add_input(i, in);
        }
        ASSERT_EQ(log.size(), model.size());
    }
    size_t i = 0;
    for (const Entry& e : log) ASSERT_TRUE(same(e, model[i++]));
    EXPECT_EQ(i, model.size());
}

TEST(EntryLog, EntryLongerThanAChunk) {
    EntryLog log;
    Entry big;
    big.line = std::string(200000, 'x');
    log.push_back(Entry{"a", {}, "", {1}});
    log.push_back(big);
    log.push_back(Entry{"b", {}, "t", {}});
    EXPECT_EQ(log[1].line, big.line);
    EXPECT_EQ(log[0].touched_jobs, std::vector<int64_t>{1});
    EXPECT_EQ(log[2].timing, "t");
}

TEST(EntryLog, TimingsInAnySpellingReadBackExactly) {
    // Canonical %a texts are kept as numbers, near misses as text; either
    // way the text reads back byte for byte.
    const std::vector<std::string> timings = {
        "0x1.8p-3 0x1p+0 0x0p+0 7 3:0x1.2p-19 -4:-0x1.fffffffffffffp+1023",
        "-0x0p+0 0x1p-1022 0x1p+1023 -9223372036854775808 9223372036854775807:0x1p+0",
        "0x1.00000000000001p+0 0x1p+0 0x1p+0 1",  // 14 hex digits
        "0x1.80p+0 0x1p+0 0x1p+0 1",              // trailing zero
        "0x1p+00 0x1p+0 0x1p+0 1", "0x1p-0 0x1p+0 0x1p+0 1", "0x1P+0 0x1p+0 0x1p+0 1",
        "0x1.Ap+0 0x1p+0 0x1p+0 1", "0x2p+0 0x1p+0 0x1p+0 1", "0x1p+1024 0x1p+0 0x1p+0 1",
        "0x1p-1023 0x1p+0 0x1p+0 1", "0x0.0000000000001p-1022 0x1p+0 0x1p+0 1",
        "0x1p+0 0x1p+0 0x1p+0 01", "0x1p+0 0x1p+0 0x1p+0 -0", "0x1p+0 0x1p+0 0x1p+0 +1",
        "0x1p+0 0x1p+0 0x1p+0 9223372036854775808", "0x1p+0 0x1p+0 0x1p+0 1 ", "0x1p+0 0x1p+0 0x1p+0 1 2:",
        "0x1p+0 0x1p+0 0x1p+0 1 2:0x1p+0 ", "0x1p+0  0x1p+0 0x1p+0 1", "0x1p+0 0x1p+0 0x1p+0",
        "inf nan -nan 1", "0x", "0x1.", "0x1.p+0 0x1p+0 0x1p+0 1", std::string("0x1p+0\0 0x1p+0 0x1p+0 1", 23),
    };
    EntryLog log;
    for (const std::string& t : timings) log.push_back(Entry{"match", {}, t, {}});
    for (size_t i = 0; i < timings.size(); ++i) EXPECT_EQ(log[i].timing, timings[i]) << "timing " << i;
}

}  // namespace
}  // namespace rq::state
