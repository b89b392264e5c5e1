// Planner micro-benchmarks: cost per operation at 10^3 .. 10^6 live spans.
//
// Each planner is pre-populated with random spans over a time range that
// grows with the span count, so the span density (about 8 overlapping spans
// at any instant) and hence the shape of the availability profile are the
// same at every size; only the number of scheduled points changes. The
// acceptance criterion is that the per-op cost at 10^6 spans stays within
// 4x of the cost at 10^3 (logarithmic, not linear, growth).
//
// Every benchmark runs with two access patterns (second argument):
//   cold (0): requests uniformly spread over the whole time range. At 10^6
//     spans the tree is ~100 MB, so nearly every operation starts with a
//     cache and TLB miss; this is the worst case and the headline figure.
//   warm (1): requests confined to the first stretch of the timeline (as
//     much as 1000 spans cover), the same region at every size: caches stay
//     warm and only the tree height grows, which isolates the algorithmic
//     cost from the memory hierarchy.
//
// Run in Release, e.g.
//   planner_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// and read the "_min" rows (other load on the machine only adds time).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "resource/planner.h"

namespace {

using rq::Planner;
using rq::Span;
using rq::SpanId;
using rq::Time;

constexpr int64_t kTotal = 64;
constexpr Time kMaxDuration = 2000;  // mean ~1000 s
constexpr int64_t kMaxAmount = 4;    // mean 2.5 units
constexpr size_t kBatch = 4096;      // updates between untimed clean-ups
constexpr size_t kWarmBatch = 256;   // fewer where they all land in the
                                     // warm region, to keep its density
// Distinct random requests each benchmark cycles through: in the cold
// pattern they touch the whole tree at every size.
constexpr size_t kRequests = 1 << 16;
constexpr int64_t kWarmSpans = 1000;  // the warm region holds this many

// Time range for n spans: mean concurrency n * 1000 / range ~= 8.
Time range_for(int64_t spans) { return spans * 125; }

// Requests start anywhere in [0, range_for(spans)] (cold) or in the warm
// region [0, range_for(kWarmSpans)].
Time start_limit(int64_t spans, bool warm) {
    return range_for(warm ? std::min(spans, kWarmSpans) : spans);
}

struct Request {
    Time at;
    Time duration;
    int64_t amount;
};

std::vector<Request> random_requests(Time limit, size_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<Time> at(0, limit);
    std::uniform_int_distribution<Time> duration(1, kMaxDuration);
    std::uniform_int_distribution<int64_t> amount(1, kMaxAmount);
    std::vector<Request> requests(count);
    for (Request& r : requests) r = Request{at(rng), duration(rng), amount(rng)};
    return requests;
}

// One populated planner per size, built on first use and shared by every
// benchmark (each benchmark restores it to the same set of spans), with the
// ids of its spans.
struct Population {
    Planner planner{kTotal};
    std::vector<SpanId> ids;
};

Population& populated(int64_t spans) {
    static std::map<int64_t, std::unique_ptr<Population>> cache;
    auto& slot = cache[spans];
    if (!slot) {
        slot = std::make_unique<Population>();
        uint64_t seed = 1000000;  // apart from the seeds of the measured requests
        while (static_cast<int64_t>(slot->ids.size()) < spans) {
            for (const Request& r : random_requests(range_for(spans), 4096, seed++)) {
                if (static_cast<int64_t>(slot->ids.size()) == spans) break;
                auto id = slot->planner.add_span(r.at, r.duration, r.amount);
                if (id.ok()) slot->ids.push_back(*id);  // busy: skip
            }
        }
    }
    return *slot;
}

// Shared set-up of one benchmark run.
struct Setup {
    int64_t spans;
    bool warm;
    size_t batch;  // how many spans an update benchmark adds before cleaning up
    Population& population;
    std::vector<Request> requests;

    Setup(const benchmark::State& state, uint64_t seed)
        : spans(state.range(0)),
          warm(state.range(1) != 0),
          batch(warm ? kWarmBatch : kBatch),
          population(populated(spans)),
          requests(random_requests(start_limit(spans, warm), kRequests, seed)) {}
};

void BM_AddSpan(benchmark::State& state) {
    Setup setup(state, 77);
    Planner& planner = setup.population.planner;
    std::vector<SpanId> added;
    added.reserve(setup.batch);
    size_t next = 0;
    for (auto _ : state) {
        const Request& r = setup.requests[next];
        next = (next + 1) % kRequests;
        auto id = planner.add_span(r.at, r.duration, r.amount);
        if (id.ok()) added.push_back(*id);
        if (next % setup.batch == 0) {  // back to the pre-populated state
            state.PauseTiming();
            for (SpanId id : added) (void)planner.remove_span(id);
            added.clear();
            state.ResumeTiming();
        }
    }
    for (SpanId id : added) (void)planner.remove_span(id);
    state.counters["points"] = static_cast<double>(planner.point_count());
}

// Removes random pre-populated spans (as when a job placed long ago is
// cancelled); between batches they are put back, untimed.
void BM_RemoveSpan(benchmark::State& state) {
    Setup setup(state, 78);
    Planner& planner = setup.population.planner;
    std::vector<SpanId>& ids = setup.population.ids;
    // Positions (in ids) of the spans this pattern may remove.
    std::vector<size_t> candidates;
    const Time limit = start_limit(setup.spans, setup.warm);
    for (size_t i = 0; i < ids.size(); ++i)
        if (planner.span(ids[i])->start <= limit) candidates.push_back(i);
    const size_t batch_size = std::min(setup.batch, candidates.size() / 2);
    std::mt19937_64 rng(78);
    std::vector<Span> batch(batch_size);
    auto choose_batch = [&] {  // a random sample, moved to the front
        for (size_t i = 0; i < batch_size; ++i) {
            std::swap(candidates[i], candidates[i + rng() % (candidates.size() - i)]);
            batch[i] = *planner.span(ids[candidates[i]]);
        }
    };
    auto restore = [&](size_t removed) {
        for (size_t i = 0; i < removed; ++i) {
            const Span& s = batch[i];
            ids[candidates[i]] = *planner.add_span(s.start, s.end - s.start, s.amount);
        }
    };
    choose_batch();
    size_t next = 0;
    for (auto _ : state) {
        if (next == batch_size) {
            state.PauseTiming();
            restore(batch_size);
            choose_batch();
            next = 0;
            state.ResumeTiming();
        }
        benchmark::DoNotOptimize(planner.remove_span(ids[candidates[next++]]).ok());
    }
    restore(next);
}

// Steady state: every iteration adds one span and removes the one this
// benchmark added `batch` iterations earlier (reported per pair).
void BM_AddRemovePair(benchmark::State& state) {
    Setup setup(state, 79);
    Planner& planner = setup.population.planner;
    std::vector<SpanId> ring(setup.batch, 0);  // span ids start at 1
    size_t next = 0;
    for (auto _ : state) {
        const Request& r = setup.requests[next % kRequests];
        SpanId& oldest = ring[next % setup.batch];
        if (oldest != 0) (void)planner.remove_span(oldest);
        auto id = planner.add_span(r.at, r.duration, r.amount);
        oldest = id.ok() ? *id : 0;
        ++next;
    }
    for (SpanId id : ring)
        if (id != 0) (void)planner.remove_span(id);
}

void BM_Fits(benchmark::State& state) {
    Setup setup(state, 80);
    const Planner& planner = setup.population.planner;
    size_t next = 0;
    int64_t fitting = 0;
    for (auto _ : state) {
        const Request& r = setup.requests[next];
        // Ask for between 40 and 58 of 64 units: fits ~15% of the time.
        fitting += planner.fits(r.at, r.duration, kTotal - 6 * r.amount);
        next = (next + 1) % kRequests;
    }
    state.counters["fit%"] =
        100.0 * static_cast<double>(fitting) / static_cast<double>(state.iterations());
}

void BM_AvailDuring(benchmark::State& state) {
    Setup setup(state, 81);
    const Planner& planner = setup.population.planner;
    size_t next = 0;
    for (auto _ : state) {
        const Request& r = setup.requests[next];
        benchmark::DoNotOptimize(planner.avail_during(r.at, r.duration).ok());
        next = (next + 1) % kRequests;
    }
}

// Earliest start for 32 of 64 units over 1000 s from a random time: the
// search has to skip busy runs and gaps that are too short (a few on
// average, see mean_wait_s against the ~62 s between points), a number that
// depends on the (size-independent) density, not on the span count.
void BM_Earliest(benchmark::State& state) {
    Setup setup(state, 82);
    const Planner& planner = setup.population.planner;
    size_t next = 0;
    double waited = 0;
    for (auto _ : state) {
        const Request& r = setup.requests[next];
        auto t = planner.earliest(r.at, 1000, 32);
        if (t.ok()) waited += static_cast<double>(*t - r.at);
        next = (next + 1) % kRequests;
    }
    state.counters["mean_wait_s"] = waited / static_cast<double>(state.iterations());
}

// Other processes on a shared machine only ever make a run slower, so the
// minimum over repetitions is the most faithful figure.
double minimum(const std::vector<double>& values) {
    return values.empty() ? 0 : *std::min_element(values.begin(), values.end());
}

void planner_sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"spans", "warm"});
    for (int warm : {0, 1})
        for (int64_t spans : {1000, 10000, 100000, 1000000}) b->Args({spans, warm});
    b->ComputeStatistics("min", minimum);
}

BENCHMARK(BM_AddSpan)->Apply(planner_sizes);
BENCHMARK(BM_RemoveSpan)->Apply(planner_sizes);
BENCHMARK(BM_AddRemovePair)->Apply(planner_sizes);
BENCHMARK(BM_Fits)->Apply(planner_sizes);
BENCHMARK(BM_AvailDuring)->Apply(planner_sizes);
BENCHMARK(BM_Earliest)->Apply(planner_sizes);

}  // namespace

BENCHMARK_MAIN();
