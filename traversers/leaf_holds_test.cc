// Leaf holds (traversers/dfu_leaf_holds.cc): a traverser with holds on and
// one with them off, given the same random matches, reservations and
// cancels, print the same matches, and once the holds are written out
// (set_leaf_holds(false)) the two stores say the same about every vertex:
// the same jobs in its tags, allocations and reservations, and the same
// free units at every time. The requests include plain `core[N]` (a walk
// that reaches the cores without the slot's test at their parent) and
// whole nodes, on sockets of 4 cores (each socket may hold its cores, all
// or some). Under `first` the traverser with holds also replays the slots
// of free sockets (dfu_free_slots.cc), which the one without never does.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "traversers/test_fixture.h"

namespace rq::testing {
namespace {

std::string plain_cores(int n, int duration) {
    return "version: 1\nresources:\n  - type: core\n    count: " + std::to_string(n) +
           "\ntasks:\n  - command: [app]\n    slot: s\n    count: {per_slot: 1}\n"
           "attributes:\n  system:\n    duration: " + std::to_string(duration) + "\n";
}

std::string random_request(std::mt19937_64& rng) {
    int duration = std::uniform_int_distribution<int>(1, 40)(rng);
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0: return slot_cores(std::uniform_int_distribution<int>(1, 24)(rng), duration);
    case 1: return slot_cores(4 * std::uniform_int_distribution<int>(1, 6)(rng), duration);
    case 2: return plain_cores(std::uniform_int_distribution<int>(1, 3)(rng), duration);
    case 3: return cores(std::uniform_int_distribution<int>(1, 8)(rng), duration);
    default: return node_cores(std::uniform_int_distribution<int>(1, 4)(rng), duration);
    }
}

std::set<JobId> keys(const JobMap<SpanId>& m) {
    std::set<JobId> out;
    for (auto& entry : m) out.insert(entry.first);
    return out;
}

// What a record says about jobs and time, without the planners' span ids.
void expect_same_records(const Matcher& with, const Matcher& without, const std::string& what) {
    for (VertexId v = 0; v < with.graph.num_vertices(); ++v) {
        const VertexSchedule* a = with.store.find(v);
        const VertexSchedule* b = without.store.find(v);
        std::set<JobId> tags_a, tags_b;
        if (a) tags_a.insert(a->tags.begin(), a->tags.end());
        if (b) tags_b.insert(b->tags.begin(), b->tags.end());
        std::string where = what + " " + std::string(with.graph.name(v));
        EXPECT_EQ(tags_a, tags_b) << where;
        EXPECT_EQ(a ? keys(a->allocations) : std::set<JobId>(), b ? keys(b->allocations) : std::set<JobId>()) << where;
        EXPECT_EQ(a ? keys(a->reservations) : std::set<JobId>(), b ? keys(b->reservations) : std::set<JobId>())
            << where;
        EXPECT_TRUE(a == nullptr || a->leaf_holds() == nullptr || a->leaf_holds()->empty()) << where;
        for (Time t = 0; t < 200; t += 3)
            EXPECT_EQ(with.store.avail(v, with.graph.size(v), t, 2), without.store.avail(v, without.graph.size(v), t, 2))
                << where << " at " << t;
    }
}

TEST(LeafHolds, MatchAsPerLeafRecordsDoAndWriteOutToThem) {
    std::mt19937_64 rng(2611);
    uint64_t holds_seen = 0, replays = 0;
    for (int round = 0; round < 60 && !::testing::Test::HasFailure(); ++round) {
        const char* policy = round % 3 == 0 ? "low" : round % 3 == 1 ? "first" : "high";
        Matcher with(machine_recipe(1, 3, 2, 4), policy);
        Matcher without(machine_recipe(1, 3, 2, 4), policy);
        with.traverser->set_leaf_holds(true);
        std::vector<JobId> live;
        for (int step = 0; step < 40; ++step) {
            std::string what = std::string(policy) + " round " + std::to_string(round) + " step " + std::to_string(step);
            ASSERT_TRUE(differential_step(rng, with, without, live, [&] { return random_request(rng); }, what));
            for (VertexId v = 0; v < with.graph.num_vertices(); ++v)
                if (const VertexSchedule* r = with.store.find(v); r && r->leaf_holds()) holds_seen += r->leaf_holds()->size();
        }
        replays += with.traverser->free_slot_replays();
        EXPECT_EQ(without.traverser->free_slot_replays(), 0u);
        with.traverser->set_leaf_holds(false);
        expect_same_records(with, without, std::string(policy) + " round " + std::to_string(round));
        // Both release the same: nothing is left once every job is gone.
        for (JobId id : live) {
            EXPECT_TRUE(with.traverser->cancel(id).ok());
            EXPECT_TRUE(without.traverser->cancel(id).ok());
        }
        with.expect_nothing_held();
    }
    EXPECT_GT(holds_seen, 100u);  // the walks really recorded holds
    EXPECT_GT(replays, 20u);      // and replayed free sockets' slots (dfu_free_slots.cc)
}

// A held leaf reads as taken over the hold's window only, and its
// parent's cancel gives it back.
TEST(LeafHolds, ALeafReadsItsParentsHold) {
    Matcher m(machine_recipe(1, 1, 2, 4), "low");
    m.traverser->set_leaf_holds(true);
    ASSERT_FALSE(m.match(slot_cores(4, 10)).empty());
    std::vector<VertexId> held;
    VertexId parent = kNoVertex;
    for (VertexId v = 0; v < m.graph.num_vertices(); ++v) {
        const VertexSchedule* r = m.store.find(v);
        if (r && r->leaf_holds() && !r->leaf_holds()->empty()) parent = v;
    }
    ASSERT_NE(parent, kNoVertex);
    EXPECT_EQ(m.graph.type(parent), m.graph.types().find("socket"));
    for (EdgeId e : m.graph.out(parent)) {
        VertexId core = m.graph.target(e);
        EXPECT_EQ(m.store.find(core), nullptr);  // no record written on the core
        EXPECT_EQ(m.store.avail(core, 1, 0, 10), 0);
        EXPECT_EQ(m.store.avail(core, 1, 9, 5), 0);
        EXPECT_EQ(m.store.avail(core, 1, 10, 5), 1);
    }
    ASSERT_TRUE(m.traverser->cancel(1).ok());
    for (EdgeId e : m.graph.out(parent)) EXPECT_EQ(m.store.avail(m.graph.target(e), 1, 0, 10), 1);
    m.expect_nothing_held();
    EXPECT_TRUE(m.store.find(parent)->leaf_holds()->empty());
}

// A job taking some of a parent's leaves holds those only: the parent's
// other leaves stay free, and a second job's hold on them is its own.
TEST(LeafHolds, APartialHoldNamesItsLeaves) {
    Matcher m(machine_recipe(1, 1, 1, 4), "low");
    m.traverser->set_leaf_holds(true);
    ASSERT_FALSE(m.match(slot_cores(1, 10)).empty());
    ASSERT_FALSE(m.match(slot_cores(2, 20)).empty());
    VertexId socket = m.graph.by_type(m.graph.types().find("socket")).front();
    ASSERT_NE(m.store.find(socket)->leaf_holds(), nullptr);
    EXPECT_EQ(m.store.find(socket)->leaf_holds()->size(), 2u);
    int taken_now = 0, taken_later = 0;
    for (EdgeId e : m.graph.out(socket)) {
        VertexId core = m.graph.target(e);
        EXPECT_EQ(m.store.find(core), nullptr);
        taken_now += m.store.avail(core, 1, 0, 5) == 0;
        taken_later += m.store.avail(core, 1, 12, 5) == 0;
    }
    EXPECT_EQ(taken_now, 3);    // jobs 1 and 2
    EXPECT_EQ(taken_later, 2);  // job 2 only
    ASSERT_TRUE(m.traverser->cancel(2).ok());
    int taken_after = 0;
    for (EdgeId e : m.graph.out(socket)) taken_after += m.store.avail(m.graph.target(e), 1, 0, 5) == 0;
    EXPECT_EQ(taken_after, 1);
}

}  // namespace
}  // namespace rq::testing
