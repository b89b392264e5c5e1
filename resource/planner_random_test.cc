// Randomized differential test: Planner and MultiPlanner against a naive
// model that keeps a plain list of spans and evaluates every query by brute
// force straight from spec/planner.md §2, §3, §5.
//
// Times are drawn from a small range (plus a small range just below the
// window end) so spans share points and collide all the time. The seed is
// fixed; set RQ_SEED=<n> to try another one. Every failure message carries
// the seed and the step that went wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "resource/multi_planner.h"
#include "resource/planner.h"

namespace rq {
namespace {

constexpr uint64_t kDefaultSeed = 20240601;

uint64_t test_seed() {
    const char* env = std::getenv("RQ_SEED");
    return env && *env ? std::strtoull(env, nullptr, 10) : kDefaultSeed;
}

// ---- the brute-force model ----------------------------------------------------

bool model_window_ok(Time at, Time d) {
    return at >= 0 && d >= 1 &&
           static_cast<__int128>(at) + d <= static_cast<__int128>(kPlannerEnd);
}

struct ModelPlanner {
    int64_t total = 0;
    SpanId next_id = 1;
    std::vector<Span> spans;

    std::vector<Time> points() const {
        std::set<Time> set{0};
        for (const Span& s : spans) {
            set.insert(s.start);
            set.insert(s.end);
        }
        return {set.begin(), set.end()};
    }
    int64_t avail_at(Time x) const {
        int64_t avail = total;
        for (const Span& s : spans)
            if (s.start <= x && x < s.end) avail -= s.amount;
        return avail;
    }
    // Minimum over [t, t+d): the value at t and at every point inside.
    int64_t min_avail(Time t, Time d) const {
        int64_t result = avail_at(t);
        for (Time p : points())
            if (p > t && static_cast<__int128>(p) < static_cast<__int128>(t) + d)
                result = std::min(result, avail_at(p));
        return result;
    }
    bool fits(Time t, Time d, int64_t n) const {
        return model_window_ok(t, d) && n >= 0 && n <= total && min_avail(t, d) >= n;
    }
    Errc earliest(Time from, Time d, int64_t n, Time* found) const {
        if (d < 1 || n < 0) return Errc::kInvalid;
        if (n > total) return Errc::kRange;
        for (Time p : points()) {
            if (p >= from && fits(p, d, n)) {
                *found = p;
                return Errc::kOk;
            }
        }
        return Errc::kNotFound;
    }
    Errc add(Time t, Time d, int64_t n, SpanId* id) {
        if (!model_window_ok(t, d) || n < 0) return Errc::kInvalid;
        if (n > total) return Errc::kRange;
        if (!fits(t, d, n)) return Errc::kBusy;
        *id = next_id++;
        spans.push_back(Span{*id, t, t + d, n});
        return Errc::kOk;
    }
    Span* find(SpanId id) {
        for (Span& s : spans)
            if (s.id == id) return &s;
        return nullptr;
    }
    Errc remove(SpanId id) {
        for (size_t i = 0; i < spans.size(); ++i) {
            if (spans[i].id == id) {
                spans.erase(spans.begin() + i);
                return Errc::kOk;
            }
        }
        return Errc::kNotFound;
    }
    Errc reduce(SpanId id, int64_t by) {
        Span* s = find(id);
        if (!s) return Errc::kNotFound;
        if (by < 0) return Errc::kInvalid;
        if (by > s->amount) return Errc::kRange;
        if (by == s->amount) return remove(id);
        s->amount -= by;
        return Errc::kOk;
    }
};

// Compares every observable piece of state.
void expect_same(const Planner& real, const ModelPlanner& model) {
    ASSERT_EQ(real.total(), model.total);
    ASSERT_EQ(real.span_count(), model.spans.size());
    ASSERT_EQ(real.points(), model.points());
    ASSERT_EQ(real.point_count(), model.points().size());
    for (const Span& s : model.spans) {
        const Span* r = real.span(s.id);
        ASSERT_NE(r, nullptr) << "span " << s.id;
        EXPECT_EQ(r->start, s.start);
        EXPECT_EQ(r->end, s.end);
        EXPECT_EQ(r->amount, s.amount);
    }
}

// ---- random inputs -------------------------------------------------------------

class Draw {
public:
    explicit Draw(uint64_t seed) : rng_(seed) {}
    int64_t in(int64_t lo, int64_t hi) {  // inclusive
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
    }
    bool chance(int percent) { return in(0, 99) < percent; }
    // Mostly small times; sometimes just below the window end; rarely bad.
    Time time() {
        int kind = static_cast<int>(in(0, 99));
        if (kind < 85) return in(0, 40);
        if (kind < 97) return kPlannerEnd - in(0, 25);
        return in(-3, -1);
    }
    Time duration() {
        int kind = static_cast<int>(in(0, 99));
        if (kind < 90) return in(1, 15);
        if (kind < 95) return kPlannerEnd - in(0, 30);
        return in(-1, 0);
    }

private:
    std::mt19937_64 rng_;
};

std::string describe(const char* op, std::initializer_list<int64_t> args) {
    std::ostringstream out;
    out << op << "(";
    const char* sep = "";
    for (int64_t a : args) {
        out << sep << a;
        sep = ", ";
    }
    out << ")";
    return out.str();
}

// Counts how often each (operation, outcome) pair happened, so that a
// generator drifting into trivial cases (say, every add failing) is caught.
class Outcomes {
public:
    void note(const std::string& op, Errc code) { ++counts_[key(op, code)]; }
    void expect_at_least(const std::string& op, Errc code, int minimum) const {
        auto it = counts_.find(key(op, code));
        int seen = it == counts_.end() ? 0 : it->second;
        EXPECT_GE(seen, minimum) << op << " with outcome " << errc_text(code)
                                 << "\nall outcomes:\n" << summary();
    }
    std::string summary() const {
        std::ostringstream out;
        for (const auto& [name, count] : counts_) out << "  " << name << " " << count << "\n";
        return out.str();
    }

private:
    static std::string key(const std::string& op, Errc code) {
        return op + ":" + std::to_string(static_cast<int>(code));
    }

    std::map<std::string, int> counts_;
};

// ---- single planner -------------------------------------------------------------

TEST(PlannerRandom, MatchesBruteForceModel) {
    const uint64_t seed = test_seed();
    SCOPED_TRACE("RQ_SEED=" + std::to_string(seed));
    Draw draw(seed);
    constexpr int kSlots = 3;
    std::vector<Planner> planners;
    std::vector<ModelPlanner> models(kSlots);
    for (int i = 0; i < kSlots; ++i) {
        models[i].total = draw.in(0, 6);
        planners.emplace_back(models[i].total);
    }
    Outcomes outcomes;
    constexpr int kSteps = 200000;
    for (int step = 0; step < kSteps; ++step) {
        const int slot = static_cast<int>(draw.in(0, kSlots - 1));
        Planner& real = planners[slot];
        ModelPlanner& model = models[slot];
        std::string op;
        const int kind = static_cast<int>(draw.in(0, 99));
        const bool crowded = model.spans.size() > 30;
        auto random_id = [&]() -> SpanId {
            if (!model.spans.empty() && draw.chance(85))
                return model.spans[draw.in(0, model.spans.size() - 1)].id;
            return draw.in(-1, model.next_id + 1);
        };
        if (kind < 25 && !crowded) {
            Time t = draw.time(), d = draw.duration();
            int64_t n = draw.in(-1, model.total + 1);
            op = describe("add_span", {t, d, n});
            SpanId want_id = 0;
            Errc want = model.add(t, d, n, &want_id);
            Result<SpanId> got = real.add_span(t, d, n);
            outcomes.note("add_span", want);
            ASSERT_EQ(got.code(), want) << op;
            if (got.ok()) {
                ASSERT_EQ(*got, want_id) << op;
            } else {
                ASSERT_FALSE(got.message().empty()) << op;
            }
        } else if (kind < 40) {
            SpanId id = random_id();
            op = describe("remove_span", {id});
            Errc want = model.remove(id);
            outcomes.note("remove_span", want);
            ASSERT_EQ(real.remove_span(id).code(), want) << op;
        } else if (kind < 48) {
            SpanId id = random_id();
            Span* s = model.find(id);
            int64_t amount = s ? s->amount : 2;
            int64_t by = draw.chance(30) ? amount : draw.in(-1, amount + 1);
            op = describe("reduce_span", {id, by});
            Errc want = model.reduce(id, by);
            outcomes.note("reduce_span", want);
            ASSERT_EQ(real.reduce_span(id, by).code(), want) << op;
        } else if (kind < 63) {
            Time t = draw.time(), d = draw.duration();
            int64_t n = draw.in(-1, model.total + 1);
            op = describe("fits", {t, d, n});
            bool want = model.fits(t, d, n);
            outcomes.note("fits", want ? Errc::kOk : Errc::kBusy);
            ASSERT_EQ(real.fits(t, d, n), want) << op;
        } else if (kind < 75) {
            Time t = draw.time(), d = draw.duration();
            op = describe("avail_during", {t, d});
            Result<int64_t> got = real.avail_during(t, d);
            if (!model_window_ok(t, d)) {
                ASSERT_EQ(got.code(), Errc::kInvalid) << op;
            } else {
                ASSERT_TRUE(got.ok()) << op;
                ASSERT_EQ(*got, model.min_avail(t, d)) << op;
            }
        } else if (kind < 80) {
            Time t = draw.chance(90) ? draw.in(-2, 45) : kPlannerEnd - draw.in(0, 3);
            op = describe("avail_at", {t});
            int64_t want = (t < 0 || t >= kPlannerEnd) ? model.total : model.avail_at(t);
            ASSERT_EQ(real.avail_at(t), want) << op;
        } else if (kind < 96) {
            Time from = draw.chance(90) ? draw.in(-2, 45) : draw.time();
            Time d = draw.duration();
            int64_t n = draw.in(-1, model.total + 1);
            op = describe("earliest", {from, d, n});
            Time want_time = -1;
            Errc want = model.earliest(from, d, n, &want_time);
            const bool later = want_time > std::max<Time>(from, 0);
            outcomes.note(later ? "earliest-later" : "earliest", want);
            Result<Time> got = real.earliest(from, d, n);
            ASSERT_EQ(got.code(), want) << op;
            if (got.ok()) {
                ASSERT_EQ(*got, want_time) << op;
            }
        } else if (kind < 98) {
            // Resizing under live spans switches to the reference's
            // point-by-point model (planner_resized.h), which this span-list
            // model does not describe; that path has its own tests.
            int64_t total = draw.in(0, 8);
            op = describe("set_total", {total});
            if (real.span_count() == 0) {
                real.set_total(total);
                model.total = total;
            }
        } else {
            // Copy (or move) one slot over another: state must travel intact.
            int from_slot = static_cast<int>(draw.in(0, kSlots - 1));
            op = describe("copy_slot", {from_slot, slot});
            if (from_slot != slot) {
                if (draw.chance(50)) {
                    real = planners[from_slot];
                } else {
                    Planner temp = planners[from_slot];
                    real = std::move(temp);
                }
                model = models[from_slot];
            }
        }
        expect_same(real, model);
        if (::testing::Test::HasFailure()) {
            ADD_FAILURE() << "step " << step << ": " << op;
            return;
        }
    }
    for (Errc code : {Errc::kOk, Errc::kInvalid, Errc::kRange, Errc::kBusy})
        outcomes.expect_at_least("add_span", code, 500);
    outcomes.expect_at_least("remove_span", Errc::kOk, 5000);
    outcomes.expect_at_least("remove_span", Errc::kNotFound, 500);
    for (Errc code : {Errc::kOk, Errc::kInvalid, Errc::kRange})
        outcomes.expect_at_least("reduce_span", code, 300);
    outcomes.expect_at_least("fits", Errc::kOk, 5000);
    outcomes.expect_at_least("fits", Errc::kBusy, 5000);
    outcomes.expect_at_least("earliest", Errc::kOk, 500);
    outcomes.expect_at_least("earliest-later", Errc::kOk, 2000);
    for (Errc code : {Errc::kNotFound, Errc::kRange, Errc::kInvalid})
        outcomes.expect_at_least("earliest", code, 300);
}

// ---- multi planner --------------------------------------------------------------

struct ModelMulti {
    std::vector<uint16_t> types;
    std::vector<ModelPlanner> planners;
    // 0 = released, -1 = an amount of 0 of a type after the first, which
    // no planner span holds (resource/multi_planner.h, add_span)
    std::map<SpanId, std::vector<SpanId>> spans;
    SpanId next_id = 0;

    void reset(const std::vector<uint16_t>& new_types,
               const std::vector<int64_t>& totals) {
        std::vector<ModelPlanner> fresh(new_types.size());
        std::vector<int64_t> old_of(new_types.size(), -1);
        for (size_t k = 0; k < new_types.size(); ++k) {
            for (size_t o = 0; o < types.size(); ++o)
                if (types[o] == new_types[k]) old_of[k] = static_cast<int64_t>(o);
            if (old_of[k] >= 0) fresh[k] = planners[old_of[k]];
            fresh[k].total = totals[k];
        }
        for (auto& [id, per_type] : spans) {
            std::vector<SpanId> remapped(new_types.size(), 0);
            for (size_t k = 0; k < new_types.size(); ++k)
                if (old_of[k] >= 0) remapped[k] = per_type[old_of[k]];
            per_type = remapped;
        }
        types = new_types;
        planners = fresh;
    }
    bool fits(Time t, Time d, const std::vector<int64_t>& q) const {
        if (q.size() != planners.size()) return false;
        for (size_t i = 0; i < q.size(); ++i)
            if (!planners[i].fits(t, d, q[i])) return false;
        return true;
    }
    bool amounts_ok(const std::vector<int64_t>& q) const {
        if (q.size() != planners.size()) return false;
        for (int64_t n : q)
            if (n < 0) return false;
        return true;
    }
    Errc add(Time t, Time d, const std::vector<int64_t>& q, SpanId* id) {
        if (!amounts_ok(q) || !model_window_ok(t, d)) return Errc::kInvalid;
        if (!fits(t, d, q)) return Errc::kBusy;
        std::vector<SpanId> per_type;
        for (size_t i = 0; i < q.size(); ++i) {
            SpanId sid = -1;
            if (i == 0 || q[i] != 0) planners[i].add(t, d, q[i], &sid);
            per_type.push_back(sid);
        }
        *id = next_id++;
        spans[*id] = per_type;
        return Errc::kOk;
    }
    Errc remove(SpanId id) {
        auto it = spans.find(id);
        if (it == spans.end()) return Errc::kNotFound;
        for (size_t i = 0; i < it->second.size(); ++i)
            if (it->second[i] > 0) planners[i].remove(it->second[i]);
        spans.erase(it);
        return Errc::kOk;
    }
    Errc reduce(SpanId id, size_t i, int64_t by, bool* still_exists) {
        auto it = spans.find(id);
        if (it == spans.end()) return Errc::kNotFound;
        if (i >= it->second.size()) return Errc::kInvalid;
        if (it->second[i] == 0) return Errc::kNotFound;
        if (it->second[i] == -1) {  // as a planner span of 0
            if (by < 0) return Errc::kInvalid;
            if (by > 0) return Errc::kRange;
            it->second[i] = 0;
        } else {
            Errc code = planners[i].reduce(it->second[i], by);
            if (code != Errc::kOk) return code;
            if (!planners[i].find(it->second[i])) it->second[i] = 0;
        }
        *still_exists = std::any_of(it->second.begin(), it->second.end(),
                                    [](SpanId s) { return s != 0; });
        if (!*still_exists) spans.erase(it);
        return Errc::kOk;
    }
    // spec/planner.md §5, literally.
    Errc earliest(Time from, Time d, const std::vector<int64_t>& q, Time* found) const {
        if (planners.empty() || !amounts_ok(q) || d < 1) return Errc::kInvalid;
        if (q[0] > planners[0].total) return Errc::kRange;
        for (Time t : planners[0].points()) {
            if (t < from) continue;
            if (static_cast<__int128>(t) + d > kPlannerEnd) continue;
            if (fits(t, d, q)) {
                *found = t;
                return Errc::kOk;
            }
        }
        return Errc::kNotFound;
    }
};

void expect_same(const MultiPlanner& real, const ModelMulti& model) {
    ASSERT_EQ(real.size(), model.types.size());
    ASSERT_EQ(real.span_count(), model.spans.size());
    for (size_t i = 0; i < model.types.size(); ++i) {
        ASSERT_EQ(real.type(i), model.types[i]);
        expect_same(real.planner(i), model.planners[i]);
        size_t parts = 0;
        for (const auto& entry : model.spans) parts += entry.second[i] != 0 ? 1 : 0;
        ASSERT_EQ(real.span_count(i), parts);
    }
    for (const auto& [id, per_type] : model.spans) {
        ASSERT_TRUE(real.has_span(id)) << "multi-span " << id;
        for (size_t i = 0; i < per_type.size(); ++i) {
            std::optional<int64_t> want;
            if (per_type[i] == -1) {
                want = 0;
            } else if (per_type[i] != 0) {
                const Span* s = real.planner(i).span(per_type[i]);
                ASSERT_NE(s, nullptr);
                want = s->amount;
            }
            ASSERT_EQ(real.span_amount(id, i), want) << "multi-span " << id;
        }
    }
}

TEST(PlannerRandom, MultiPlannerMatchesBruteForceModel) {
    const uint64_t seed = test_seed() ^ 0x5eedULL;
    SCOPED_TRACE("RQ_SEED=" + std::to_string(test_seed()));
    Draw draw(seed);
    const std::vector<uint16_t> type_pool = {1, 2, 3, 4, 5};
    auto random_types = [&]() {
        std::vector<uint16_t> types;
        for (uint16_t t : type_pool)
            if (draw.chance(60)) types.push_back(t);
        if (types.empty()) types.push_back(type_pool[draw.in(0, 4)]);
        for (size_t i = types.size(); i > 1; --i)
            std::swap(types[i - 1], types[draw.in(0, i - 1)]);
        return types;
    };
    auto random_totals = [&](size_t n) {
        std::vector<int64_t> totals;
        for (size_t i = 0; i < n; ++i) totals.push_back(draw.in(0, 5));
        return totals;
    };
    auto random_amounts = [&](const ModelMulti& m) {
        std::vector<int64_t> q;
        for (const ModelPlanner& p : m.planners)
            q.push_back(draw.chance(25) ? 0 : draw.in(0, p.total + (draw.chance(10) ? 1 : 0)));
        if (draw.chance(2)) q.push_back(1);         // wrong length
        if (draw.chance(2) && !q.empty()) q[0] = -1;  // negative
        return q;
    };

    std::vector<uint16_t> types = random_types();
    std::vector<int64_t> totals = random_totals(types.size());
    MultiPlanner real(types, totals);
    ModelMulti model;
    model.reset(types, totals);

    Outcomes outcomes;
    constexpr int kSteps = 60000;
    for (int step = 0; step < kSteps; ++step) {
        std::string op;
        const int kind = static_cast<int>(draw.in(0, 99));
        auto random_id = [&]() -> SpanId {
            if (!model.spans.empty() && draw.chance(85)) {
                auto it = model.spans.begin();
                std::advance(it, draw.in(0, model.spans.size() - 1));
                return it->first;
            }
            return draw.in(-1, model.next_id + 1);
        };
        if (kind < 25 && model.spans.size() < 25) {
            Time t = draw.time(), d = draw.duration();
            std::vector<int64_t> q = random_amounts(model);
            op = describe("multi add_span", {t, d, static_cast<int64_t>(q.size())});
            SpanId want_id = -1;
            Errc want = model.add(t, d, q, &want_id);
            outcomes.note("add_span", want);
            Result<SpanId> got = real.add_span(t, d, q);
            ASSERT_EQ(got.code(), want) << op;
            if (got.ok()) {
                ASSERT_EQ(*got, want_id) << op;
            }
        } else if (kind < 38) {
            SpanId id = random_id();
            op = describe("multi remove_span", {id});
            Errc want = model.remove(id);
            outcomes.note("remove_span", want);
            ASSERT_EQ(real.remove_span(id).code(), want) << op;
        } else if (kind < 52) {
            SpanId id = random_id();
            size_t i = static_cast<size_t>(draw.in(0, model.types.size()));
            std::optional<int64_t> amount = real.span_amount(id, i);
            int64_t by = amount && draw.chance(50) ? *amount : draw.in(-1, 3);
            op = describe("multi reduce_span", {id, static_cast<int64_t>(i), by});
            bool want_exists = false;
            Errc want = model.reduce(id, i, by, &want_exists);
            const bool forgotten = want == Errc::kOk && !want_exists;
            outcomes.note(forgotten ? "reduce_span-forget" : "reduce_span", want);
            Result<bool> got = real.reduce_span(id, i, by);
            ASSERT_EQ(got.code(), want) << op;
            if (got.ok()) {
                ASSERT_EQ(*got, want_exists) << op;
            }
        } else if (kind < 64) {
            Time t = draw.time(), d = draw.duration();
            std::vector<int64_t> q = random_amounts(model);
            op = describe("multi fits", {t, d});
            ASSERT_EQ(real.fits(t, d, q), model.fits(t, d, q)) << op;
        } else if (kind < 94) {
            Time from = draw.chance(90) ? draw.in(-2, 45) : draw.time();
            Time d = draw.duration();
            std::vector<int64_t> q = random_amounts(model);
            op = describe("multi earliest", {from, d});
            Time want_time = -1;
            Errc want = model.earliest(from, d, q, &want_time);
            const bool later = want_time > std::max<Time>(from, 0);
            outcomes.note(later ? "earliest-later" : "earliest", want);
            Result<Time> got = real.earliest(from, d, q);
            ASSERT_EQ(got.code(), want) << op;
            if (got.ok()) {
                ASSERT_EQ(*got, want_time) << op;
            }
        } else {
            std::vector<uint16_t> new_types = random_types();
            std::vector<int64_t> new_totals = random_totals(new_types.size());
            op = describe("multi reset", {static_cast<int64_t>(new_types.size())});
            if (real.span_count() == 0) {  // see set_total above
                real.reset(new_types, new_totals);
                model.reset(new_types, new_totals);
            }
        }
        expect_same(real, model);
        if (::testing::Test::HasFailure()) {
            ADD_FAILURE() << "step " << step << ": " << op;
            return;
        }
    }
    for (Errc code : {Errc::kOk, Errc::kInvalid, Errc::kBusy})
        outcomes.expect_at_least("add_span", code, 300);
    outcomes.expect_at_least("remove_span", Errc::kOk, 1000);
    for (Errc code : {Errc::kOk, Errc::kNotFound, Errc::kRange})
        outcomes.expect_at_least("reduce_span", code, 100);
    outcomes.expect_at_least("reduce_span-forget", Errc::kOk, 60);
    outcomes.expect_at_least("earliest", Errc::kOk, 600);
    outcomes.expect_at_least("earliest-later", Errc::kOk, 600);
    for (Errc code : {Errc::kNotFound, Errc::kRange, Errc::kInvalid})
        outcomes.expect_at_least("earliest", code, 100);
}

}  // namespace
}  // namespace rq
