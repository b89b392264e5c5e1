// Randomized: 12,000 requests and cancels on a pool machine against a
// simple independent model (per item, the list of live jobs' windows).
// Checks: no index held by two overlapping jobs, no sum pool over its size,
// a plain `allocate` fails exactly when no worker has the free amounts,
// and cancelling everything restores the initial state.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "pools/pool_graph.h"
#include "pools/pool_matcher.h"
#include "traversers/dfu.h"

namespace rq::pools {
namespace {

struct Window {
    int64_t start, end, amount;
};

class PoolWorld {
public:
    explicit PoolWorld(bool prune) {
        Machine m;
        Worker a{"a", {}, 2, true};
        a.pools.push_back(*parse_pool_definition("cpus", "4x4"));
        a.pools.push_back(*parse_pool_definition("gpus", "range(0-3)"));
        a.pools.push_back(*parse_pool_definition("mem", "sum(1099511627776)"));
        Worker b{"b", {}, 1, false};
        b.pools.push_back(*parse_pool_definition("cpus", "[[x, y], [z]]"));
        Pool slots;
        slots.name = "gpus";
        slots.groups = {{{"0", 2}, {"1", 4}}};
        b.pools.push_back(slots);
        b.pools.push_back(*parse_pool_definition("mem", "sum(10)"));
        m.workers = {a, b};
        EXPECT_TRUE(build_pool_graph(m, graph).ok());
        graph.recount_nodes_up();
        graph.types().freeze();
        auto made = make_policy("first");
        policy = std::move(made.value());
        TraverserConfig config;
        config.subsystems = {kContainment};
        if (prune) config.prune_filters += pool_prune_filters(graph);
        auto created = DfuTraverser::create(graph, store, *policy, config);
        traverser = std::move(created.value());
        matcher = std::make_unique<PoolMatcher>(graph, store, traverser->prune_spec());
    }

    // Usage of `item` by live jobs, maximal over [0, d).
    int64_t used(VertexId item, int64_t d) const {
        auto it = model.find(item);
        if (it == model.end()) return 0;
        int64_t most = 0;
        std::vector<int64_t> points{0};
        for (auto& w : it->second)
            if (w.start < d) points.push_back(w.start);
        for (int64_t p : points) {
            if (p >= d) continue;
            int64_t sum = 0;
            for (auto& w : it->second)
                if (w.start <= p && p < w.end) sum += w.amount;
            most = std::max(most, sum);
        }
        return most;
    }

    // Items of `type` under `worker` (the model's own walk of the graph).
    std::vector<VertexId> items(VertexId worker, TypeId type) const {
        std::vector<VertexId> out, stack{worker};
        while (!stack.empty()) {
            VertexId v = stack.back();
            stack.pop_back();
            if (graph.type(v) == type) out.push_back(v);
            for (EdgeId e : graph.out(v)) stack.push_back(graph.target(e));
        }
        return out;
    }

    bool model_fits(const Request& r, int64_t d) const {
        for (VertexId w : graph.by_type(types::kNode)) {
            bool ok = true;
            for (auto& p : r.pools) {
                int64_t free = 0;
                bool whole = true;
                auto list = items(w, graph.types().find(p.name));
                for (VertexId i : list) {
                    int64_t u = used(i, d);
                    free += graph.size(i) - u;
                    whole = whole && u == 0;
                }
                ok = ok && (p.all ? whole && !list.empty() : free >= p.amount);
            }
            if (ok) return true;
        }
        return false;
    }

    void check_no_overbooking() const {
        for (auto& [item, windows] : model)
            for (auto& w : windows) {
                int64_t sum = 0;
                for (auto& o : windows)
                    if (o.start <= w.start && w.start < o.end) sum += o.amount;
                ASSERT_LE(sum, graph.size(item)) << "item " << graph.name(item) << " overbooked at " << w.start;
            }
    }

    ResourceGraph graph;
    ScheduleStore store;
    std::unique_ptr<MatchPolicy> policy;
    std::unique_ptr<DfuTraverser> traverser;
    std::unique_ptr<PoolMatcher> matcher;
    std::map<VertexId, std::vector<Window>> model;
    std::map<JobId, std::vector<std::pair<VertexId, Window>>> jobs;
};

// The store's description without the records that only exist because a
// job once touched the vertex (whole planner, no span): same state.
std::string described(const ScheduleStore& store) {
    static const std::regex idle(R"(^v\d+ plan\(total (\d+): 0=\1\) x\(total 1073741824: 0=1073741824\)$)");
    std::istringstream in(store.describe());
    std::string out;
    for (std::string line; std::getline(in, line);)
        if (!std::regex_match(line, idle)) out += line + "\n";
    return out;
}

Request random_request(std::mt19937& rng) {
    Request r;
    const char* names[] = {"cpus", "gpus", "mem"};
    const int64_t caps[] = {16, 6, 1100};
    for (int i = 0; i < 3; ++i) {
        if (rng() % 2 && !(i == 2 && r.pools.empty())) continue;
        PoolRequest p;
        p.name = names[i];
        p.all = rng() % 20 == 0;
        p.amount = 1 + int64_t(rng() % caps[i]);
        if (i == 2 && rng() % 4 == 0) p.amount = int64_t(1) << (32 + rng() % 8);
        p.strategy = Strategy(rng() % 5);
        r.pools.push_back(p);
    }
    if (r.pools.empty()) r.pools.push_back({"cpus", 1, false, Strategy::kCompact});
    return r;
}

// A request naming no cpus takes 1 cpu, as `hq submit` builds it
// (crates/hyperqueue/src/client/commands/submit/command.rs:522-542).
Request with_implied_cpu(Request r) {
    bool named = false;
    for (auto& p : r.pools) named = named || p.name == "cpus";
    if (!named) r.pools.push_back({"cpus", 1, false, Strategy::kCompact});
    return r;
}

class PoolMatcherRandom : public ::testing::TestWithParam<bool> {};

TEST_P(PoolMatcherRandom, NoDoubleBookingAndCancelAllRestores) {
    PoolWorld world(GetParam());
    const std::string initial = described(world.store);
    std::mt19937 rng(2024);
    JobId next = 1;
    int allocated = 0, reserved = 0, refused = 0, cancelled = 0;
    for (int op = 0; op < 12000; ++op) {
        if (!world.jobs.empty() && rng() % 5 < 2) {
            auto it = world.jobs.begin();
            std::advance(it, rng() % world.jobs.size());
            ASSERT_TRUE(world.traverser->cancel(it->first).ok());
            for (auto& [item, w] : it->second) {
                auto& list = world.model[item];
                for (size_t k = 0; k < list.size(); ++k)
                    if (list[k].start == w.start && list[k].end == w.end && list[k].amount == w.amount) {
                        list.erase(list.begin() + long(k));
                        break;
                    }
            }
            world.jobs.erase(it);
            ++cancelled;
            continue;
        }
        Request r;
        if (rng() % 8 == 0) {
            r.dialect = Dialect::kCtest;
            r.groups = {{{"gpus", 1 + int64_t(rng() % 4)}}, {{"gpus", 1 + int64_t(rng() % 2)}}};
        } else {
            r = random_request(rng);
        }
        int64_t d = 1 + int64_t(rng() % 50);
        bool strict = false;
        for (auto& p : r.pools)
            strict = strict || p.strategy == Strategy::kCompactStrict || p.strategy == Strategy::kTightStrict;
        PoolOp pop = rng() % 3 == 0 ? PoolOp::kAllocateOrElseReserve : PoolOp::kAllocate;
        auto found = world.matcher->find(r, pop, d);
        if (pop == PoolOp::kAllocate && !strict && !r.ctest()) {
            ASSERT_EQ(found.ok(), world.model_fits(with_implied_cpu(r), d)) << "op " << op;
        }
        if (!found) {
            ++refused;
            continue;
        }
        ASSERT_TRUE(world.matcher->record(*found, next, d).ok());
        (found->at == 0 ? allocated : reserved)++;
        std::map<VertexId, int64_t> per_item;
        for (auto& p : found->pools)
            for (auto& i : p.items) per_item[i.item] += i.amount;
        for (auto& g : found->ctest_groups)
            for (auto& i : g) per_item[i.item] += i.amount;
        for (auto& [item, amount] : per_item) {
            Window w{found->at, found->at + d, amount};
            world.model[item].push_back(w);
            world.jobs[next].push_back({item, w});
        }
        ++next;
        if (op % 97 == 0) world.check_no_overbooking();
    }
    world.check_no_overbooking();
    EXPECT_GT(allocated, 1000);
    EXPECT_GT(reserved, 100);
    EXPECT_GT(refused, 100);
    EXPECT_GT(cancelled, 1000);
    for (auto& [id, unused] : world.jobs) ASSERT_TRUE(world.traverser->cancel(id).ok());
    EXPECT_EQ(described(world.store), initial);
}

INSTANTIATE_TEST_SUITE_P(WorkerPruning, PoolMatcherRandom, ::testing::Bool());

}  // namespace
}  // namespace rq::pools
