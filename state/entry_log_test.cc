// EntryLog against a plain vector of entries: random entries (empty and
// long lines, several inputs, unreadable inputs, negative and large job
// ids), read back in any order and with inputs added afterwards.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "state/journal.h"

namespace rq::state {
namespace {

bool same(const Entry& a, const Entry& b) {
    if (a.line != b.line || a.timing.text() != b.timing.text() || a.touched_jobs != b.touched_jobs) return false;
    if (a.inputs.size() != b.inputs.size()) return false;
    for (size_t i = 0; i < a.inputs.size(); ++i)
        if (a.inputs[i].path != b.inputs[i].path || a.inputs[i].blob != b.inputs[i].blob) return false;
    return true;
}

Timing random_timing(std::mt19937_64& rng) {
    auto number = [&]() -> double {
        switch (rng() % 5) {
        case 0: return 0.0;
        case 1: return -std::numeric_limits<double>::infinity();
        case 2: return 4.9e-324 * static_cast<double>(rng() % 1000);  // subnormal
        default: return std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 80));
        }
    };
    Timing t{number(), number(), number(), static_cast<int64_t>(rng()) >> (rng() % 64), {}};
    for (size_t k = rng() % 4; k > 0; --k) t.overheads.emplace_back(static_cast<int64_t>(rng()) >> (rng() % 64), number());
    return t;
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
    Entry first;
    first.line = "a";
    first.touched_jobs = {1};
    log.push_back(first);
    log.push_back(big);
    Entry timed;
    timed.line = "b";
    timed.timing = Timing{1, 2, 3, 4, {{5, 6}}};
    log.push_back(timed);
    EXPECT_EQ(log[1].line, big.line);
    EXPECT_EQ(log[0].touched_jobs, std::vector<int64_t>{1});
    EXPECT_EQ(log[2].timing.text(), "0x1p+0 0x1p+1 0x1.8p+1 4 5:0x1.8p+2");
}

}  // namespace
}  // namespace rq::state
