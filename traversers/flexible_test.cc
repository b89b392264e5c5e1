#include "traversers/flexible.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "traversers/test_fixture.h"

namespace rq {
namespace {

using flexible::AlternativeMinimum;
using flexible::plan_slots;
using flexible::SlotShape;
using flexible::XorVariants;

// ---- helpers ----------------------------------------------------------------------

JobResource res(TypeId type, uint32_t count, std::vector<JobResource> with = {}, std::string label = "") {
    JobResource r;
    r.type = type;
    r.count.min = r.count.max = count;
    r.with = std::move(with);
    r.label = std::move(label);
    return r;
}
JobResource xor_slot(std::string label, std::vector<JobResource> with) {
    return res(types::kXorSlot, 1, std::move(with), std::move(label));
}
JobResource slot(std::string label, std::vector<JobResource> with) {
    return res(types::kSlot, 1, std::move(with), std::move(label));
}

// A compact picture of a resource list: "slot(a)[core]" etc.
std::string picture(const std::vector<JobResource>& list) {
    std::string s;
    for (const JobResource& r : list) {
        if (!s.empty()) s += ",";
        s += r.type == types::kSlot      ? "slot"
             : r.type == types::kXorSlot ? "xor"
             : r.type == types::kNode    ? "node"
             : r.type == types::kSocket  ? "socket"
             : r.type == types::kCore    ? "core"
             : r.type == types::kGpu     ? "gpu"
                                         : "?";
        if (!r.label.empty()) s += "(" + r.label + ")";
        if (!r.with.empty()) s += "[" + picture(r.with) + "]";
    }
    return s;
}

std::vector<std::string> all_variants(const std::vector<JobResource>& list) {
    auto variants = XorVariants::expand(list);
    EXPECT_TRUE(variants.ok());
    std::vector<std::string> out;
    if (!variants.ok()) return out;
    for (uint64_t i = 0; i < variants->size(); ++i) out.push_back(picture(variants->variant(i)));
    return out;
}

// ---- xor expansion ----------------------------------------------------------------

TEST(XorVariants, AlternativesInOrderNestedOnesMultiplyOut) {
    std::vector<JobResource> list = {
        xor_slot("a", {res(types::kSocket, 1, {xor_slot("a1", {res(types::kCore, 8)}),
                                              xor_slot("a2", {res(types::kCore, 10)})})}),
        xor_slot("b", {res(types::kCore, 4)}),
    };
    EXPECT_TRUE(XorVariants::has_xor_slot(list));
    EXPECT_EQ(all_variants(list), (std::vector<std::string>{
                                      "slot(a)[socket[slot(a1)[core]]]",
                                      "slot(a)[socket[slot(a2)[core]]]",
                                      "slot(b)[core]",
                                  }));
}

TEST(XorVariants, PlainSiblingsCombineAsACrossProductFirstVaryingSlowest) {
    std::vector<JobResource> list = {
        res(types::kNode, 1, {xor_slot("x", {res(types::kCore, 1)}), xor_slot("y", {res(types::kGpu, 1)})}),
        xor_slot("s", {res(types::kCore, 2)}),
        res(types::kSocket, 1),
        xor_slot("t", {res(types::kCore, 3)}),
    };
    // The xor group takes the place of its first member.
    EXPECT_EQ(all_variants(list), (std::vector<std::string>{
                                      "node[slot(x)[core]],slot(s)[core],socket",
                                      "node[slot(x)[core]],slot(t)[core],socket",
                                      "node[slot(y)[gpu]],slot(s)[core],socket",
                                      "node[slot(y)[gpu]],slot(t)[core],socket",
                                  }));
}

TEST(XorVariants, ListsWithoutXorSlotsHaveOneVariant) {
    std::vector<JobResource> list = {res(types::kNode, 2, {slot("s", {res(types::kCore, 1)})})};
    EXPECT_FALSE(XorVariants::has_xor_slot(list));
    EXPECT_EQ(all_variants(list), (std::vector<std::string>{"node[slot(s)[core]]"}));
}

// `n` plain sockets, each with `k` xor alternatives: k^n variants.
std::vector<JobResource> sockets_with_alternatives(int n, int k) {
    std::vector<JobResource> list;
    for (int i = 0; i < n; ++i) {
        JobResource socket = res(types::kSocket, 1);
        for (int j = 0; j < k; ++j) socket.with.push_back(xor_slot("x" + std::to_string(j), {res(types::kCore, 1)}));
        list.push_back(socket);
    }
    return list;
}

TEST(XorVariants, AThousandVariantsAreFineOneMoreFails) {
    auto thousand = XorVariants::expand(sockets_with_alternatives(3, 10));
    ASSERT_TRUE(thousand.ok());
    EXPECT_EQ(thousand->size(), 1000u);
    EXPECT_EQ(picture(thousand->variant(999)), "socket[slot(x9)[core]],socket[slot(x9)[core]],socket[slot(x9)[core]]");

    std::vector<JobResource> more = sockets_with_alternatives(3, 10);
    more.push_back(xor_slot("one", {res(types::kCore, 1)}));
    more.push_back(xor_slot("two", {res(types::kCore, 1)}));  // 1000 x 2 alternatives
    auto failed = XorVariants::expand(more);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.code(), Errc::kInvalid);
}

TEST(XorVariants, HugeExpansionsFailWithoutBuildingAnything) {
    // 2^60 variants: counted with saturation, never materialised.
    auto huge = XorVariants::expand(sockets_with_alternatives(60, 2));
    EXPECT_FALSE(huge.ok());
    // Deep nesting: every level has two alternatives beside the next level.
    JobResource inner = res(types::kCore, 1);
    for (int depth = 0; depth < 400; ++depth)
        inner = res(types::kSocket, 1,
                    {xor_slot("a", {res(types::kCore, 1)}), xor_slot("b", {res(types::kGpu, 1)}), inner});
    EXPECT_FALSE(XorVariants::expand({inner}).ok());
}

// ---- priming minima -----------------------------------------------------------------

TEST(AlternativeMinimum, TakesThePerTypeMinimumAMissingTypeCountsZero) {
    PruneSpec spec;
    spec.add(PruneSpec::kAnyAnchor, types::kCore);
    spec.add(PruneSpec::kAnyAnchor, types::kGpu);
    TypeCounts small, big;
    small.add(types::kCore, 8);
    small.add(types::kGpu, 1);
    big.add(types::kCore, 10);
    AlternativeMinimum minimum;
    minimum.add(2, small);  // two slots: 16 cores, 2 gpus
    minimum.add(1, big);
    TypeCounts out;
    out.add(types::kCore, 1);  // what the siblings already added stays
    minimum.add_to(spec, out);
    EXPECT_EQ(out.get(types::kCore), 1 + 10);
    EXPECT_TRUE(out.has(types::kGpu));
    EXPECT_EQ(out.get(types::kGpu), 0);
}

TEST(AlternativeMinimum, UntrackedTypesAndNoAlternativesAddNothing) {
    PruneSpec spec;
    spec.add(PruneSpec::kAnyAnchor, types::kCore);
    TypeCounts a;
    a.add(types::kGpu, 3);
    AlternativeMinimum minimum;
    TypeCounts out;
    minimum.add_to(spec, out);
    EXPECT_TRUE(out.empty());
    minimum.add(1, a);
    minimum.add_to(spec, out);
    EXPECT_TRUE(out.empty());
}

// ---- the or-slot plan -----------------------------------------------------------------

SlotShape shape(std::vector<std::pair<TypeId, int64_t>> needs) { return SlotShape{std::move(needs)}; }

std::vector<int64_t> plan(const std::vector<SlotShape>& shapes, std::vector<std::pair<TypeId, int64_t>> available) {
    auto p = plan_slots(shapes, available);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.message());
    return p.ok() ? *p : std::vector<int64_t>{};
}

TEST(PlanSlots, PacksTheMostSlots) {
    SlotShape small = shape({{types::kCore, 8}, {types::kGpu, 1}});
    SlotShape big = shape({{types::kCore, 10}});
    EXPECT_EQ(plan({small, big}, {{types::kCore, 18}, {types::kGpu, 1}}), (std::vector<int64_t>{1, 1}));
    EXPECT_EQ(plan({small, big}, {{types::kCore, 10}, {types::kGpu, 0}}), (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(plan({small, big}, {{types::kCore, 7}, {types::kGpu, 1}}), (std::vector<int64_t>{0, 0}));
    // Not greedy: one big slot first would leave room for only one more.
    SlotShape six = shape({{types::kCore, 6}});
    EXPECT_EQ(plan({big, six}, {{types::kCore, 18}}), (std::vector<int64_t>{0, 3}));
}

TEST(PlanSlots, TiesGoToTheFirstKind) {
    SlotShape with_gpu = shape({{types::kCore, 6}, {types::kGpu, 1}});
    SlotShape with_socket = shape({{types::kCore, 6}, {types::kSocket, 1}});
    std::vector<std::pair<TypeId, int64_t>> one_of_each = {{types::kCore, 6}, {types::kGpu, 1}, {types::kSocket, 1}};
    EXPECT_EQ(plan({with_gpu, with_socket}, one_of_each), (std::vector<int64_t>{1, 0}));
    EXPECT_EQ(plan({with_socket, with_gpu}, one_of_each), (std::vector<int64_t>{1, 0}));
    // Identical kinds: the first takes everything.
    SlotShape one = shape({{types::kCore, 1}});
    EXPECT_EQ(plan({one, one, one}, {{types::kCore, 5}}), (std::vector<int64_t>{5, 0, 0}));
}

TEST(PlanSlots, KindsThatCannotBePackedGetNothing) {
    SlotShape empty = shape({});
    SlotShape zero = shape({{types::kCore, 0}});
    SlotShape two = shape({{types::kCore, 2}});
    EXPECT_EQ(plan({empty, zero, two}, {{types::kCore, 5}}), (std::vector<int64_t>{0, 0, 2}));
    EXPECT_EQ(plan({}, {{types::kCore, 5}}), (std::vector<int64_t>{}));
    // A type nothing was found of.
    EXPECT_EQ(plan({shape({{types::kGpu, 1}})}, {}), (std::vector<int64_t>{0}));
}

// Brute force: every count vector, the largest total, ties to the
// lexicographically largest vector.
std::vector<int64_t> brute_force(const std::vector<std::vector<int64_t>>& needs, const std::vector<int64_t>& avail) {
    std::vector<int64_t> best, counts(needs.size(), 0);
    int64_t best_total = -1;
    std::function<void(size_t, std::vector<int64_t>, int64_t)> walk = [&](size_t k, std::vector<int64_t> left,
                                                                          int64_t total) {
        if (k == needs.size()) {
            if (total > best_total) best_total = total, best = counts;
            return;
        }
        for (int64_t n = 20; n >= 0; --n) {
            std::vector<int64_t> rest = left;
            bool fits = true;
            for (size_t t = 0; t < rest.size(); ++t) fits = fits && (rest[t] -= n * needs[k][t]) >= 0;
            if (!fits) continue;
            counts[k] = n;
            walk(k + 1, rest, total + n);
        }
        counts[k] = 0;
    };
    walk(0, avail, 0);
    return best;
}

TEST(PlanSlots, AgreesWithABruteForceSearch) {
    const TypeId kinds_of_types[] = {types::kCore, types::kGpu, types::kSocket};
    std::mt19937 random(7);
    for (int round = 0; round < 300; ++round) {
        size_t kinds = 1 + random() % 4;
        std::vector<std::vector<int64_t>> needs(kinds, std::vector<int64_t>(3, 0));
        std::vector<SlotShape> shapes(kinds);
        for (size_t k = 0; k < kinds; ++k) {
            for (size_t t = 0; t < 3; ++t) {
                if (t > 0 && random() % 2) continue;  // every kind needs cores
                needs[k][t] = 1 + random() % 4;
                shapes[k].needs.emplace_back(kinds_of_types[t], needs[k][t]);
            }
        }
        std::vector<int64_t> avail = {int64_t(random() % 20), int64_t(random() % 8), int64_t(random() % 8)};
        std::vector<std::pair<TypeId, int64_t>> available;
        for (size_t t = 0; t < 3; ++t) available.emplace_back(kinds_of_types[t], avail[t]);
        EXPECT_EQ(plan(shapes, available), brute_force(needs, avail)) << "round " << round;
    }
}

TEST(PlanSlots, AnOversizedSearchIsAnErrorNotAHang) {
    std::vector<SlotShape> shapes = {
        shape({{types::kCore, 1}, {types::kGpu, 2}}),
        shape({{types::kCore, 2}, {types::kGpu, 1}}),
        shape({{types::kCore, 3}, {types::kSocket, 1}}),
        shape({{types::kSocket, 2}, {types::kGpu, 3}}),
    };
    auto start = std::chrono::steady_clock::now();
    auto p = plan_slots(shapes, {{types::kCore, 10000000}, {types::kGpu, 10000000}, {types::kSocket, 10000000}});
    EXPECT_FALSE(p.ok());
    EXPECT_EQ(p.code(), Errc::kRange);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
}

// ---- through the traverser ------------------------------------------------------------

// A matcher whose traverser runs with -T flexible.
struct FlexibleMatcher : testing::Matcher {
    FlexibleMatcher(const std::string& recipe, const std::string& policy) : Matcher(recipe, policy) {
        TraverserConfig config;
        config.subsystems = {kContainment};
        config.flexible = true;
        auto t = DfuTraverser::create(graph, store, *this->policy, config);
        EXPECT_TRUE(t.ok());
        traverser = std::move(*t);
    }
};

std::string slot_yaml(const char* kind, const char* label, const std::string& members, const char* indent = "  ") {
    return std::string(indent) + "- type: " + kind + "\n" + indent + "  count: 1\n" + indent + "  label: " + label +
           "\n" + indent + "  with:\n" + members;
}
std::string member(const char* type, int count, const char* indent = "      ") {
    return std::string(indent) + "- type: " + type + "\n" + indent + "  count: " + std::to_string(count) + "\n";
}

TEST(FlexibleTraverser, OrSlotsPackTheFirstKindThatFitsPerSocket) {
    // One node, two sockets of 4 cores and 1 gpu each.
    FlexibleMatcher m(testing::machine_recipe(1, 1, 2, 4, 1), "high");
    std::string socket_with_or_slots = "  - type: socket\n    count: 1\n    with:\n" +
                                       slot_yaml("slot", "s", member("core", 2, "          ") + member("gpu", 1, "          "), "      ") +
                                       slot_yaml("slot", "s", member("core", 3, "          "), "      ");
    std::string jobspec = testing::jobspec_yaml(socket_with_or_slots);
    auto gpus = [](const std::string& out) {
        int n = 0;
        for (auto& name : testing::Matcher::exclusive_names(out)) n += name.rfind("gpu", 0) == 0;
        return n;
    };
    std::string first = m.match(jobspec);
    EXPECT_EQ(testing::Matcher::exclusive_names(first).size(), 3u) << first;  // 2 cores + gpu
    EXPECT_EQ(gpus(first), 1);
    std::string second = m.match(jobspec);  // the other socket, same kind
    EXPECT_EQ(gpus(second), 1) << second;
    // 2 cores left per socket and no gpu: neither kind fits.
    MatchResult r;
    EXPECT_EQ(m.match(jobspec, MatchOp::kAllocate, &r), "");
    EXPECT_EQ(r.code, Errc::kBusy);
}

TEST(FlexibleTraverser, EachCandidateTimeTriesEveryXorVariant) {
    // One socket of 4 cores; 3 are busy for 100 s.
    FlexibleMatcher m(testing::machine_recipe(1, 1, 1, 4), "low");
    ASSERT_NE(m.match(testing::cores(3, 100)), "");
    std::string two_or_one = testing::jobspec_yaml(slot_yaml("xor_slot", "s", member("core", 2)) +
                                                   slot_yaml("xor_slot", "s", member("core", 1)));
    MatchResult r;
    std::string out = m.match(two_or_one, MatchOp::kAllocateOrElseReserve, &r);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.at, 0);  // the second variant now, not the first one at 100
    EXPECT_EQ(testing::Matcher::exclusive_names(out).size(), 1u) << out;

    // Now all 4 cores are busy until 100 and one of them until 3600: at 100
    // the 2-core variant fits, long before the 4-core one could.
    std::string four_or_two = testing::jobspec_yaml(slot_yaml("xor_slot", "s", member("core", 4)) +
                                                    slot_yaml("xor_slot", "s", member("core", 2)));
    out = m.match(four_or_two, MatchOp::kAllocateOrElseReserve, &r);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.at, 100);
    EXPECT_EQ(testing::Matcher::exclusive_names(out).size(), 2u) << out;
}

TEST(FlexibleTraverser, TooManyXorVariantsFailTheMatch) {
    FlexibleMatcher m(testing::machine_recipe(1, 1, 1, 4), "low");
    std::string alternatives;
    for (int i = 0; i < 1001; ++i) alternatives += slot_yaml("xor_slot", "s", member("core", 1));
    MatchResult r;
    EXPECT_EQ(m.match(testing::jobspec_yaml(alternatives), MatchOp::kAllocate, &r), "");
    EXPECT_EQ(r.code, Errc::kInvalid);
    EXPECT_NE(m.traverser->message().find("1000"), std::string::npos);
    // The traverser is still usable.
    m.traverser->clear_message();
    EXPECT_NE(m.match(testing::cores(1)), "");
}

}  // namespace
}  // namespace rq
