// The library's cost (docs/library.md): match + cancel through the C API against
// the same work on the in-process core (session/operations.h, no C
// boundary, no lock), on conf/tiny.graphml and the Sierra-sized
// conf/sierra.graphml; reapi_cli_initialize and per-match p50/p99 on the
// El Capitan-sized ../shared/bench/elcap.graphml.
//
//   build/bin/reapi_bench [--benchmark_filter=...] [--benchmark_repetitions=N]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "resource/reapi/bindings/c/reapi_cli.h"
#include "session/build.h"
#include "session/operations.h"
#include "utilities/file.h"

namespace {

std::string source(const std::string& relative) { return std::string(RQ_SOURCE_DIR) + "/" + relative; }

std::string slurp(const std::string& path) {
    std::string text;
    if (!rq::read_file(path, text)) std::abort();
    return text;
}

const char* kOptions = R"({"matcher_policy": "first", "match_format": "jgf"})";

std::string recipe(int which) {
    return which == 0 ? source("conf/tiny.graphml") : source("conf/sierra.graphml");
}

std::string jobspec() { return slurp(source("t/data/jobspecs/node-socket-core.yaml")); }

void BM_LibraryMatchCancel(benchmark::State& state) {
    std::string graph = slurp(recipe(static_cast<int>(state.range(0))));
    std::string js = jobspec();
    reapi_cli_ctx_t* ctx = reapi_cli_new();
    if (reapi_cli_initialize(ctx, graph.c_str(), kOptions) != 0) std::abort();
    for (auto _ : state) {
        uint64_t id = 0;
        bool reserved = false;
        char* R = nullptr;
        int64_t at = 0;
        double ov = 0;
        if (reapi_cli_match(ctx, MATCH_ALLOCATE, js.c_str(), &id, &reserved, &R, &at, &ov) != 0) std::abort();
        benchmark::DoNotOptimize(R);
        std::free(R);
        if (reapi_cli_cancel(ctx, id, false) != 0) std::abort();
    }
    reapi_cli_destroy(ctx);
}

void BM_CoreMatchCancel(benchmark::State& state) {
    std::string graph = slurp(recipe(static_cast<int>(state.range(0))));
    std::string js = jobspec();
    rq::Options options;
    options.match_format = "jgf";
    rq::Session s;
    if (!rq::load_session_graph(s, options, graph, {}, nullptr).ok() || !rq::finish_session(s).ok()) std::abort();
    for (auto _ : state) {
        int64_t id = rq::next_match_jobid(s);
        rq::MatchOutcome m = rq::match_jobspec(s, rq::MatchOp::kAllocate, js, id, "");
        if (m.code != rq::Errc::kOk) std::abort();
        if (m.consumes_id) ++s.next_jobid;
        benchmark::DoNotOptimize(m.R);
        if (!rq::cancel_job(s, id).ok()) std::abort();
    }
}

BENCHMARK(BM_LibraryMatchCancel)->Arg(0)->Arg(1)->ArgName("sierra");
BENCHMARK(BM_CoreMatchCancel)->Arg(0)->Arg(1)->ArgName("sierra");

std::string elcap() { return source("../shared/bench/elcap.graphml"); }

void BM_ElcapInitialize(benchmark::State& state) {
    std::string graph = slurp(elcap());
    for (auto _ : state) {
        reapi_cli_ctx_t* ctx = reapi_cli_new();
        if (reapi_cli_initialize(ctx, graph.c_str(), kOptions) != 0) std::abort();
        state.PauseTiming();
        reapi_cli_destroy(ctx);
        state.ResumeTiming();
    }
}
BENCHMARK(BM_ElcapInitialize)->Unit(benchmark::kMillisecond)->Iterations(3);

// Allocations one after another (the machine fills up), each call timed.
void BM_ElcapMatchPercentiles(benchmark::State& state) {
    std::string graph = slurp(elcap());
    std::string js = slurp(source("../shared/bench/core-in-socket.yaml"));
    reapi_cli_ctx_t* ctx = reapi_cli_new();
    if (reapi_cli_initialize(ctx, graph.c_str(), kOptions) != 0) std::abort();
    std::vector<double> us;
    for (auto _ : state) {
        for (int i = 0; i < state.range(0); ++i) {
            uint64_t id = 0;
            bool reserved = false;
            char* R = nullptr;
            int64_t at = 0;
            double ov = 0;
            auto t0 = std::chrono::steady_clock::now();
            int rc = reapi_cli_match(ctx, MATCH_ALLOCATE, js.c_str(), &id, &reserved, &R, &at, &ov);
            auto t1 = std::chrono::steady_clock::now();
            if (rc != 0) std::abort();
            std::free(R);
            us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        }
    }
    std::sort(us.begin(), us.end());
    state.counters["p50_us"] = us[us.size() / 2];
    state.counters["p99_us"] = us[us.size() * 99 / 100];
    state.counters["matches"] = static_cast<double>(us.size());
    reapi_cli_destroy(ctx);
}
BENCHMARK(BM_ElcapMatchPercentiles)->Arg(20000)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
