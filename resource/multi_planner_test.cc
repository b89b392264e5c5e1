// Unit tests for MultiPlanner (spec/planner.md §3, §5).
#include "resource/multi_planner.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace rq {
namespace {

constexpr uint16_t kCore = 1;
constexpr uint16_t kGpu = 3;
constexpr uint16_t kNode = 4;
constexpr uint16_t kSsd = 8;

using Amounts = std::vector<int64_t>;
using Points = std::vector<Time>;

TEST(MultiPlanner, ConstructionAndLookup) {
    MultiPlanner m({kNode, kCore, kGpu}, {2, 32, 4});
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m.type(0), kNode);
    EXPECT_EQ(m.type(2), kGpu);
    EXPECT_EQ(m.planner(1).total(), 32);
    EXPECT_EQ(m.index_of(kCore), 1);
    EXPECT_EQ(m.index_of(kSsd), -1);
    EXPECT_EQ(m.span_count(), 0u);
    EXPECT_TRUE(m.fits(0, 10, {2, 32, 4}));
    EXPECT_FALSE(m.fits(0, 10, {2, 33, 4}));
    EXPECT_FALSE(m.fits(0, 10, {1, 1}));  // wrong number of amounts
}

TEST(MultiPlanner, MissingTotalsAreZero) {
    MultiPlanner m({kNode, kCore}, {3});
    EXPECT_EQ(m.planner(0).total(), 3);
    EXPECT_EQ(m.planner(1).total(), 0);
}

TEST(MultiPlanner, AddSpanAddsOneSpanPerTypeWithSequentialIds) {
    MultiPlanner m({kNode, kCore}, {2, 8});
    auto first = m.add_span(0, 100, {1, 4});
    auto second = m.add_span(50, 100, {0, 4});
    ASSERT_TRUE(first.ok() && second.ok());
    EXPECT_EQ(*first, 0);
    EXPECT_EQ(*second, 1);
    EXPECT_EQ(m.span_count(), 2u);
    EXPECT_TRUE(m.has_span(1));
    // A zero amount of the first type still adds a span (its points are
    // earliest()'s candidates), so both planners share the points.
    EXPECT_EQ(m.planner(0).points(), (Points{0, 50, 100, 150}));
    EXPECT_EQ(m.planner(1).points(), (Points{0, 50, 100, 150}));
    EXPECT_EQ(m.planner(0).span_count(), 2u);
    EXPECT_EQ(m.span_amount(1, 0), 0);
    EXPECT_EQ(m.span_amount(1, 1), 4);
    EXPECT_EQ(m.planner(1).avail_at(75), 0);
    EXPECT_FALSE(m.fits(60, 10, {0, 1}));
    EXPECT_TRUE(m.fits(100, 10, {1, 4}));
}

TEST(MultiPlanner, AddSpanIsAllOrNothing) {
    MultiPlanner m({kNode, kCore}, {2, 8});
    ASSERT_TRUE(m.add_span(0, 100, {0, 8}).ok());
    auto busy = m.add_span(10, 10, {1, 1});  // node fits, cores do not
    ASSERT_FALSE(busy.ok());
    EXPECT_EQ(busy.code(), Errc::kBusy);
    EXPECT_EQ(m.span_count(), 1u);
    EXPECT_EQ(m.planner(0).span_count(), 1u);
    EXPECT_EQ(m.planner(0).points(), (Points{0, 100}));
    EXPECT_EQ(m.add_span(0, 10, {1}).code(), Errc::kInvalid);
    EXPECT_EQ(m.add_span(0, 10, {-1, 0}).code(), Errc::kInvalid);
    EXPECT_EQ(m.add_span(-1, 10, {0, 0}).code(), Errc::kInvalid);
    EXPECT_EQ(m.add_span(kPlannerEnd, 1, {0, 0}).code(), Errc::kInvalid);
    auto next = m.add_span(100, 1, {2, 8});
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, 1);  // failed adds consume no id
}

TEST(MultiPlanner, RemoveSpan) {
    MultiPlanner m({kNode, kCore}, {2, 8});
    auto a = m.add_span(0, 100, {1, 4});
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(m.remove_span(*a).ok());
    EXPECT_FALSE(m.has_span(*a));
    EXPECT_EQ(m.planner(0).span_count(), 0u);
    EXPECT_EQ(m.planner(1).points(), (Points{0}));
    Status again = m.remove_span(*a);
    EXPECT_EQ(again.code(), Errc::kNotFound);
    EXPECT_EQ(again.message(), "multi-planner: unknown span id 0");
}

TEST(MultiPlanner, ReduceSpanReleasesPerTypeSpansThenForgetsTheMultiSpan) {
    MultiPlanner m({kNode, kCore, kGpu}, {2, 8, 4});
    auto a = m.add_span(0, 100, {1, 6, 0});
    ASSERT_TRUE(a.ok());
    auto partial = m.reduce_span(*a, 1, 2);
    ASSERT_TRUE(partial.ok());
    EXPECT_TRUE(*partial);
    EXPECT_EQ(m.span_amount(*a, 1), 4);
    EXPECT_EQ(m.planner(1).avail_at(0), 4);

    EXPECT_EQ(m.reduce_span(*a, 1, 5).code(), Errc::kRange);
    EXPECT_EQ(m.reduce_span(*a, 3, 1).code(), Errc::kInvalid);
    EXPECT_EQ(m.reduce_span(*a + 7, 0, 1).code(), Errc::kNotFound);

    auto cores_gone = m.reduce_span(*a, 1, 4);
    ASSERT_TRUE(cores_gone.ok());
    EXPECT_TRUE(*cores_gone);
    EXPECT_EQ(m.span_amount(*a, 1), std::nullopt);
    EXPECT_EQ(m.planner(1).span_count(), 0u);
    EXPECT_EQ(m.reduce_span(*a, 1, 0).code(), Errc::kNotFound);

    auto gpus_gone = m.reduce_span(*a, 2, 0);  // zero-amount span removed
    ASSERT_TRUE(gpus_gone.ok());
    EXPECT_TRUE(*gpus_gone);
    EXPECT_EQ(m.planner(2).span_count(), 0u);

    auto all_gone = m.reduce_span(*a, 0, 1);
    ASSERT_TRUE(all_gone.ok());
    EXPECT_FALSE(*all_gone);
    EXPECT_FALSE(m.has_span(*a));
    EXPECT_EQ(m.span_count(), 0u);
    EXPECT_EQ(m.planner(0).points(), (Points{0}));
    EXPECT_EQ(m.remove_span(*a).code(), Errc::kNotFound);
}

TEST(MultiPlanner, RemoveAfterPartialReduce) {
    MultiPlanner m({kNode, kCore}, {2, 8});
    auto a = m.add_span(10, 10, {2, 8});
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(m.reduce_span(*a, 0, 2).ok());
    ASSERT_TRUE(m.remove_span(*a).ok());
    EXPECT_EQ(m.planner(0).span_count(), 0u);
    EXPECT_EQ(m.planner(1).span_count(), 0u);
    EXPECT_TRUE(m.fits(10, 10, {2, 8}));
}

TEST(MultiPlanner, ResetKeepsSurvivingTypesAndTheirSpans) {
    MultiPlanner m({kNode, kCore, kGpu}, {2, 8, 4});
    auto a = m.add_span(0, 100, {1, 6, 2});
    ASSERT_TRUE(a.ok());
    // Graph changed: gpus vanished, ssds appeared, order changed.
    m.reset({kCore, kSsd, kNode}, {16, 5, 3});
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m.type(0), kCore);
    EXPECT_EQ(m.index_of(kGpu), -1);
    EXPECT_EQ(m.planner(0).total(), 16);
    EXPECT_EQ(m.planner(0).avail_at(50), 10);  // the core span survived
    EXPECT_EQ(m.planner(1).span_count(), 0u);  // ssd planner is new
    EXPECT_EQ(m.planner(1).total(), 5);
    EXPECT_EQ(m.planner(2).avail_at(50), 2);
    EXPECT_EQ(m.span_amount(*a, 0), 6);
    EXPECT_EQ(m.span_amount(*a, 1), std::nullopt);
    EXPECT_EQ(m.span_amount(*a, 2), 1);
    // New spans cover every current type, and ids keep counting.
    auto b = m.add_span(0, 10, {10, 5, 2});
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(*b, 1);
    ASSERT_TRUE(m.remove_span(*a).ok());
    EXPECT_EQ(m.planner(0).avail_at(50), 16);
    EXPECT_EQ(m.planner(2).avail_at(50), 3);
    EXPECT_EQ(m.planner(0).avail_at(5), 6);
}

TEST(MultiPlanner, MultiSpanSurvivesResetDroppingAllItsTypes) {
    MultiPlanner m({kNode}, {2});
    auto a = m.add_span(0, 100, {1});
    ASSERT_TRUE(a.ok());
    m.reset({kCore}, {4});
    EXPECT_TRUE(m.has_span(*a));
    EXPECT_EQ(m.span_amount(*a, 0), std::nullopt);
    EXPECT_EQ(m.planner(0).span_count(), 0u);
    ASSERT_TRUE(m.remove_span(*a).ok());
    EXPECT_EQ(m.span_count(), 0u);
}

TEST(MultiPlanner, EarliestUsesFirstPlannersPointsAndAllFits) {
    MultiPlanner m({kNode, kCore}, {2, 8});
    ASSERT_TRUE(m.add_span(0, 100, {1, 8}).ok());    // cores full until 100
    ASSERT_TRUE(m.add_span(100, 50, {2, 0}).ok());   // nodes full [100,150)
    ASSERT_TRUE(m.add_span(150, 50, {0, 6}).ok());   // 2 cores [150,200)
    auto t = m.earliest(1, 10, {1, 1});
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(*t, 150);
    EXPECT_EQ(*m.earliest(1, 10, {1, 4}), 200);
    EXPECT_EQ(*m.earliest(1, 10, {0, 0}), 100);   // zero request fits any point
    EXPECT_EQ(*m.earliest(0, 10, {1, 0}), 0);
    EXPECT_EQ(*m.earliest(151, 10, {0, 8}), 200);
}

TEST(MultiPlanner, EarliestErrors) {
    MultiPlanner m({kNode, kCore}, {2, 8});
    ASSERT_TRUE(m.add_span(0, 100, {2, 8}).ok());
    EXPECT_EQ(m.earliest(1, 10, {3, 1}).code(), Errc::kRange);
    // Too much of a later type never fits: candidates run out instead.
    EXPECT_EQ(m.earliest(1, 10, {1, 9}).code(), Errc::kNotFound);
    EXPECT_EQ(m.earliest(101, 10, {1, 1}).code(), Errc::kNotFound);
    EXPECT_EQ(m.earliest(1, kPlannerEnd - 99, {1, 1}).code(), Errc::kNotFound);
    EXPECT_EQ(*m.earliest(1, kPlannerEnd - 100, {1, 1}), 100);
    EXPECT_EQ(m.earliest(1, 0, {1, 1}).code(), Errc::kInvalid);
    EXPECT_EQ(m.earliest(1, 10, {1}).code(), Errc::kInvalid);
    MultiPlanner none;
    EXPECT_EQ(none.earliest(0, 10, {}).code(), Errc::kInvalid);
}

TEST(MultiPlanner, CopiesAreIndependent) {
    MultiPlanner m({kNode}, {1});
    ASSERT_TRUE(m.add_span(0, 10, {1}).ok());
    MultiPlanner copy = m;
    ASSERT_TRUE(copy.remove_span(0).ok());
    EXPECT_TRUE(m.has_span(0));
    EXPECT_EQ(m.planner(0).avail_at(5), 0);
    EXPECT_EQ(copy.planner(0).avail_at(5), 1);
}

// A zero amount of a later type is a part of the multi-span, held by no
// span of that type's planner (multi_planner.h, add_span).
TEST(MultiPlanner, ZeroAmountOfALaterTypeIsNoPlannerSpan) {
    MultiPlanner m({kCore, kNode}, {8, 2});
    auto a = m.add_span(10, 10, {4, 0});
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(m.planner(1).span_count(), 0u);
    EXPECT_EQ(m.planner(1).points(), (Points{0}));
    EXPECT_EQ(m.span_count(1), 1u);
    EXPECT_EQ(m.span_count(0), 1u);
    EXPECT_EQ(m.span_amount(*a, 1), 0);
    EXPECT_EQ(m.multispan(*a)->at(1), MultiPlanner::kZeroPart);
    EXPECT_EQ(m.reduce_span(*a, 1, 1).code(), Errc::kRange);
    EXPECT_EQ(m.reduce_span(*a, 1, -1).code(), Errc::kInvalid);
    auto kept = m.reduce_span(*a, 1, 0);  // as a planner span of 0: removed
    ASSERT_TRUE(kept.ok());
    EXPECT_TRUE(*kept);
    EXPECT_EQ(m.span_count(1), 0u);
    EXPECT_EQ(m.span_amount(*a, 1), std::nullopt);
    auto b = m.add_span(30, 10, {1, 0});
    ASSERT_TRUE(b.ok());
    m.reset({kNode, kCore}, {2, 8});  // the zero part moves with its type
    EXPECT_EQ(m.span_count(0), 1u);
    EXPECT_EQ(m.span_amount(*b, 0), 0);
    ASSERT_TRUE(m.remove_span(*b).ok());
    EXPECT_EQ(m.span_count(0), 0u);
    // A saved row with the zero part restores it.
    MultiPlanner r({kCore, kNode}, {8, 2});
    ASSERT_TRUE(r.restore_multispan(5, {0, -1}).ok());
    EXPECT_EQ(r.span_count(1), 1u);
    EXPECT_EQ(r.span_amount(5, 1), 0);
    EXPECT_EQ(r.restore_multispan(6, {0, -2}).code(), Errc::kInvalid);
}

// Against a model that keeps every amount as a planner span (what the
// multi-planner did before zero parts): random adds, removes and partial
// reductions, then fits, availability, per-type counts and earliest()
// must agree.
TEST(MultiPlanner, ZeroPartsAnswerAsZeroSpansWouldOnRandomOperations) {
    std::mt19937 rng(3);
    for (int round = 0; round < 300; ++round) {
        const std::vector<int64_t> totals{6, 3, 2};
        MultiPlanner m({kCore, kNode, kGpu}, totals);
        std::vector<Planner> model;
        for (int64_t t : totals) model.emplace_back(t);
        struct Live {
            SpanId id;
            std::vector<SpanId> parts;  // model span ids, 0 once reduced away
        };
        std::vector<Live> live;
        for (int op = 0; op < 60; ++op) {
            int kind = static_cast<int>(rng() % 4);
            if (kind <= 1 || live.empty()) {
                Time at = rng() % 50, d = 1 + rng() % 20;
                Amounts amounts;
                for (int64_t t : totals) amounts.push_back(rng() % 3 == 0 ? 0 : static_cast<int64_t>(rng() % (t + 1)));
                auto id = m.add_span(at, d, amounts);
                bool model_fits = true;
                for (size_t i = 0; i < totals.size(); ++i) model_fits = model_fits && model[i].fits(at, d, amounts[i]);
                ASSERT_EQ(id.ok(), model_fits);
                if (!id.ok()) continue;
                Live l{*id, {}};
                for (size_t i = 0; i < totals.size(); ++i) l.parts.push_back(*model[i].add_span(at, d, amounts[i]));
                live.push_back(l);
            } else if (kind == 2) {
                size_t k = rng() % live.size();
                ASSERT_TRUE(m.remove_span(live[k].id).ok());
                for (size_t i = 0; i < totals.size(); ++i)
                    if (live[k].parts[i] != 0) {
                        ASSERT_TRUE(model[i].remove_span(live[k].parts[i]).ok());
                    }
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
            } else {
                size_t k = rng() % live.size(), i = rng() % totals.size();
                auto amount = m.span_amount(live[k].id, i);
                int64_t by = amount ? static_cast<int64_t>(rng() % (*amount + 1)) : 0;
                auto kept = m.reduce_span(live[k].id, i, by);
                if (live[k].parts[i] == 0) {
                    ASSERT_FALSE(kept.ok());
                    continue;
                }
                const Span* part = model[i].span(live[k].parts[i]);
                ASSERT_NE(part, nullptr);
                bool all = part->amount == by;
                ASSERT_TRUE(model[i].reduce_span(live[k].parts[i], by).ok());
                if (all) live[k].parts[i] = 0;
                ASSERT_TRUE(kept.ok());
                bool any = false;
                for (SpanId p : live[k].parts) any = any || p != 0;
                ASSERT_EQ(*kept, any);
                if (!any) live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
            }
            for (size_t i = 0; i < totals.size(); ++i) {
                ASSERT_EQ(m.span_count(i), model[i].span_count()) << "round " << round << " op " << op;
                for (Time t = 0; t < 75; t += 5) ASSERT_EQ(m.planner(i).avail_at(t), model[i].avail_at(t));
            }
            Amounts want;
            for (int64_t t : totals) want.push_back(static_cast<int64_t>(rng() % (t + 1)));
            Time from = rng() % 60, d = 1 + rng() % 15;
            bool model_fits = true;
            for (size_t i = 0; i < totals.size(); ++i) model_fits = model_fits && model[i].fits(from, d, want[i]);
            ASSERT_EQ(m.fits(from, d, want), model_fits);
            // earliest(): the model's first-planner points where all fit.
            std::optional<Time> expect;
            for (Time p : model[0].points()) {
                if (p < from || p + d > kPlannerEnd) continue;
                bool all = true;
                for (size_t i = 0; i < totals.size(); ++i) all = all && model[i].fits(p, d, want[i]);
                if (all) {
                    expect = p;
                    break;
                }
            }
            auto got = m.earliest(from, d, want);
            ASSERT_EQ(got.ok(), expect.has_value()) << "round " << round << " op " << op;
            if (expect) {
                ASSERT_EQ(*got, *expect) << "round " << round << " op " << op;
            }
        }
    }
}

}  // namespace
}  // namespace rq
