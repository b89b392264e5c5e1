// Resource pools at scale: 10,000 HyperQueue workers of 128 cpus in 4
// groups, 8 gpus and a memory sum pool. Figures: loading the machine (the
// graph plus the traverser's pruning filters, as resource-query does) and a
// 1-cpu `request allocate` (find, record, emit to the simple writer) on it,
// with the job cancelled afterwards so every iteration sees the same state.
//
//   build/bin/pools_bench
#include <benchmark/benchmark.h>

#include <sstream>

#include "pools/pool_graph.h"
#include "pools/pool_loaders.h"
#include "pools/pool_matcher.h"
#include "pools/request.h"
#include "resource/match_writer.h"
#include "traversers/dfu.h"

namespace rq::pools {
namespace {

const char* kWorkers =
    "workers:\n"
    "  - name: cn\n"
    "    count: 10000\n"
    "    resources:\n"
    "      cpus: 4x32\n"
    "      gpus/nvidia: range(0-7)\n"
    "      mem: sum(549755813888)\n";

struct World {
    ResourceGraph graph;
    ScheduleStore store;
    std::unique_ptr<MatchPolicy> policy;
    std::unique_ptr<DfuTraverser> traverser;

    World() {
        auto machine = read_hq_workers(kWorkers, "bench.yaml");
        if (!machine || !build_pool_graph(*machine, graph).ok()) std::abort();
        graph.recount_nodes_up();
        graph.types().freeze();
        auto made = make_policy("first");
        policy = std::move(made.value());
        TraverserConfig config;
        config.subsystems = {kContainment};
        config.prune_filters += pool_prune_filters(graph);
        auto created = DfuTraverser::create(graph, store, *policy, config);
        traverser = std::move(created.value());
    }
};

void BM_Load10kWorkers(benchmark::State& state) {
    for (auto _ : state) {
        World world;
        benchmark::DoNotOptimize(world.graph.num_vertices());
        state.counters["vertices"] = double(world.graph.num_vertices());
    }
}
BENCHMARK(BM_Load10kWorkers)->Unit(benchmark::kMillisecond)->Iterations(3);

void request_bench(benchmark::State& state, const char* text, bool busy_first_half) {
    static World* world = new World();
    PoolMatcher matcher(world->graph, world->store, world->traverser->prune_spec());
    auto writer = make_writer("simple");
    auto request = parse_request(text, Dialect::kHq);
    JobId id = 1;
    std::vector<JobId> held;
    if (busy_first_half) {  // the first 5,000 workers' cpus are all taken
        auto all = parse_request("cpus=all", Dialect::kHq);
        for (int i = 0; i < 5000; ++i) {
            auto a = matcher.find(*all, PoolOp::kAllocate, 3600);
            if (!a || !matcher.record(*a, id, 3600).ok()) std::abort();
            held.push_back(id++);
        }
    }
    std::ostringstream sink;
    for (auto _ : state) {
        auto a = matcher.find(*request, PoolOp::kAllocate, 3600);
        if (!a || !matcher.record(*a, id, 3600).ok()) std::abort();
        matcher.emit(*a, **writer, 3600);
        (void)(*writer)->flush(sink);
        state.PauseTiming();
        sink.str("");
        (void)world->traverser->cancel(id++);
        state.ResumeTiming();
    }
    for (JobId h : held) (void)world->traverser->cancel(h);
}

void BM_Request1Cpu(benchmark::State& state) { request_bench(state, "cpus=1", false); }
BENCHMARK(BM_Request1Cpu)->Unit(benchmark::kMicrosecond);
void BM_Request8CpuScatter(benchmark::State& state) { request_bench(state, "cpus=\"8 scatter\" gpus/nvidia=1 mem=1073741824", false); }
BENCHMARK(BM_Request8CpuScatter)->Unit(benchmark::kMicrosecond);
void BM_Request1CpuHalfBusy(benchmark::State& state) { request_bench(state, "cpus=1", true); }
BENCHMARK(BM_Request1CpuHalfBusy)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rq::pools
BENCHMARK_MAIN();
