// Randomized differential test of Planner at a size where its point tree
// has several levels (planner_random_test.cc keeps planners small so spans
// collide constantly; there the tree is a single leaf). The reference here
// is a plain ordered map of points -> net usage change, evaluated by linear
// scans. RQ_SEED overrides the fixed seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "resource/planner.h"

namespace rq {
namespace {

struct PointModel {
    int64_t total = 0;
    struct Change {
        int64_t amount = 0;
        int references = 0;
    };
    std::map<Time, Change> points{{0, Change{0, 1}}};  // 0: the base point
    std::map<SpanId, Span> spans;

    void add_point(Time t, int64_t change) {
        Change& c = points[t];
        c.amount += change;
        c.references += 1;
    }
    void remove_point(Time t, int64_t change) {
        Change& c = points[t];
        c.amount += change;
        if (--c.references == 0) points.erase(t);
    }
    void add(const Span& s) {
        spans[s.id] = s;
        add_point(s.start, s.amount);
        add_point(s.end, -s.amount);
    }
    void remove(SpanId id) {
        const Span s = spans.at(id);
        spans.erase(id);
        remove_point(s.start, -s.amount);
        remove_point(s.end, s.amount);
    }
    void reduce(SpanId id, int64_t by) {
        Span& s = spans.at(id);
        s.amount -= by;
        points[s.start].amount -= by;
        points[s.end].amount += by;
    }
    // Max usage over [t, t + d): usage at t and at every point inside.
    int64_t max_usage(Time t, Time d) const {
        int64_t usage = 0, best = 0;
        bool started = false;
        for (const auto& [time, c] : points) {
            if (time > t && !started) {
                best = usage;
                started = true;
            }
            if (time >= t + d) break;
            usage += c.amount;
            if (started) best = std::max(best, usage);
        }
        return started ? best : usage;
    }
    bool fits(Time t, Time d, int64_t n) const {
        return n >= 0 && n <= total && max_usage(t, d) <= total - n;
    }
    // Tries every point >= from in order, scanning its window forward.
    std::optional<Time> earliest(Time from, Time d, int64_t n) const {
        if (n < 0 || n > total) return std::nullopt;
        std::vector<Time> times;
        std::vector<int64_t> usage;  // usage from each point to the next
        int64_t running = 0;
        for (const auto& [time, c] : points) {
            running += c.amount;
            times.push_back(time);
            usage.push_back(running);
        }
        for (size_t i = 0; i < times.size(); ++i) {
            if (times[i] < from) continue;
            bool ok = true;
            for (size_t j = i; ok && j < times.size() && times[j] < times[i] + d; ++j)
                ok = usage[j] <= total - n;
            if (ok) return times[i];
        }
        return std::nullopt;
    }
};

TEST(PlannerLargeRandom, DeepTreeMatchesPointModel) {
    const char* env = std::getenv("RQ_SEED");
    const uint64_t seed = env && *env ? std::strtoull(env, nullptr, 10) : 424242;
    SCOPED_TRACE("RQ_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto in = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    constexpr Time kRange = 30000;
    Planner planner(40);
    PointModel model;
    model.total = 40;
    std::vector<SpanId> live;

    auto add_random = [&](int step) {
        Time t = in(0, kRange), d = in(1, 400);
        int64_t n = in(0, 6);
        const bool want = model.fits(t, d, n);
        Result<SpanId> got = planner.add_span(t, d, n);
        ASSERT_EQ(got.ok(), want) << "step " << step << " add " << t << " " << d << " " << n;
        if (!got.ok()) return;
        model.add(Span{*got, t, t + d, n});
        live.push_back(*got);
    };

    // Grow to a few thousand spans, then churn at that size.
    for (int step = 0; step < 6000; ++step) add_random(step);
    ASSERT_GT(live.size(), 2000u);
    ASSERT_GT(planner.point_count(), 4000u);  // many leaves deep
    for (int step = 0; step < 20000; ++step) {
        const int kind = static_cast<int>(in(0, 99));
        if (kind < 20) {
            add_random(step);
        } else if (kind < 40 && !live.empty()) {
            size_t k = static_cast<size_t>(in(0, static_cast<int64_t>(live.size()) - 1));
            ASSERT_TRUE(planner.remove_span(live[k]).ok()) << "step " << step;
            model.remove(live[k]);
            live[k] = live.back();
            live.pop_back();
        } else if (kind < 45 && !live.empty()) {
            SpanId id = live[in(0, static_cast<int64_t>(live.size()) - 1)];
            int64_t amount = model.spans.at(id).amount;
            int64_t by = in(0, amount);
            ASSERT_TRUE(planner.reduce_span(id, by).ok()) << "step " << step;
            if (by == amount) {
                model.remove(id);
                live.erase(std::find(live.begin(), live.end(), id));
            } else {
                model.reduce(id, by);
            }
        } else if (kind < 65) {
            Time t = in(0, kRange + 500), d = in(1, 3000);
            int64_t n = in(0, 40);
            ASSERT_EQ(planner.fits(t, d, n), model.fits(t, d, n))
                << "step " << step << " fits " << t << " " << d << " " << n;
        } else if (kind < 80) {
            Time t = in(0, kRange + 500), d = in(1, 3000);
            ASSERT_EQ(*planner.avail_during(t, d), 40 - model.max_usage(t, d))
                << "step " << step << " avail_during " << t << " " << d;
        } else {
            Time from = in(0, kRange), d = in(1, 1500);
            int64_t n = in(0, 30);
            std::optional<Time> want = model.earliest(from, d, n);
            Result<Time> got = planner.earliest(from, d, n);
            ASSERT_EQ(got.ok(), want.has_value())
                << "step " << step << " earliest " << from << " " << d << " " << n;
            if (want) {
                ASSERT_EQ(*got, *want) << "step " << step << " earliest " << from;
            }
        }
        ASSERT_EQ(planner.span_count(), model.spans.size()) << "step " << step;
        if (step % 1000 == 0) {
            std::vector<Time> want;
            for (const auto& entry : model.points) want.push_back(entry.first);
            ASSERT_EQ(planner.points(), want) << "step " << step;
        }
    }
    // Drain everything: the planner must end with only the base point.
    for (SpanId id : live) ASSERT_TRUE(planner.remove_span(id).ok());
    EXPECT_EQ(planner.points(), std::vector<Time>{0});
    EXPECT_EQ(planner.span_count(), 0u);
}

}  // namespace
}  // namespace rq
