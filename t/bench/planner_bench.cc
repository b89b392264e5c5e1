// Planner micro-benchmarks: cost per operation at 10^3 .. 10^6 live spans.
//
// Each planner is pre-populated with random spans over a time range that
// grows with the span count, so the span density (about 8 overlapping spans
// at any instant) and hence the shape of the availability profile are the
// same at every size; only the number of scheduled points changes. The
// acceptance criterion is that the per-op cost at 10^6 spans stays within
// 4x of the cost at 10^3 (logarithmic, not linear, growth).
//
// Run in Release, e.g.
//   planner_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// and read the "_min" rows.
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
// Distinct random requests each benchmark cycles through: enough that they
// touch the whole tree at every size, so large planners are measured with
// cold caches rather than with a cached working set.
constexpr size_t kRequests = 1 << 16;

// Time range for n spans: mean concurrency n * 1000 / range ~= 8.
Time range_for(int64_t spans) { return spans * 125; }

struct Request {
    Time at;
    Time duration;
    int64_t amount;
};

std::vector<Request> random_requests(int64_t spans, size_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<Time> at(0, range_for(spans));
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
            for (const Request& r : random_requests(spans, 4096, seed++)) {
                if (static_cast<int64_t>(slot->ids.size()) == spans) break;
                auto id = slot->planner.add_span(r.at, r.duration, r.amount);
                if (id.ok()) slot->ids.push_back(*id);  // busy: skip
            }
        }
    }
    return *slot;
}

void BM_AddSpan(benchmark::State& state) {
    const int64_t spans = state.range(0);
    Planner& planner = populated(spans).planner;
    const std::vector<Request> requests = random_requests(spans, kRequests, 77);
    std::vector<SpanId> added;
    added.reserve(kBatch);
    size_t next = 0;
    for (auto _ : state) {
        const Request& r = requests[next];
        next = (next + 1) % kRequests;
        auto id = planner.add_span(r.at, r.duration, r.amount);
        if (id.ok()) added.push_back(*id);
        if (next % kBatch == 0) {  // back to the pre-populated state
            state.PauseTiming();
            for (SpanId id : added) (void)planner.remove_span(id);
            added.clear();
            state.ResumeTiming();
        }
    }
    for (SpanId id : added) (void)planner.remove_span(id);
    state.counters["points"] = static_cast<double>(planner.point_count());
}

// Removes random pre-populated spans (cold data, as when a long-running
// job is cancelled); between batches they are put back, untimed.
void BM_RemoveSpan(benchmark::State& state) {
    const int64_t spans = state.range(0);
    Population& population = populated(spans);
    Planner& planner = population.planner;
    std::vector<SpanId>& ids = population.ids;
    std::mt19937_64 rng(78);
    const size_t batch_size = std::min(kBatch, ids.size() / 2);
    std::vector<Span> batch(batch_size);
    auto choose_batch = [&] {  // a random sample, moved to the front of ids
        for (size_t i = 0; i < batch_size; ++i) {
            std::swap(ids[i], ids[i + rng() % (ids.size() - i)]);
            batch[i] = *planner.span(ids[i]);
        }
    };
    auto restore = [&](size_t removed) {
        for (size_t i = 0; i < removed; ++i) {
            const Span& s = batch[i];
            ids[i] = *planner.add_span(s.start, s.end - s.start, s.amount);
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
        benchmark::DoNotOptimize(planner.remove_span(ids[next++]).ok());
    }
    restore(next);
}

// Steady state: every iteration adds one span and removes the oldest one
// added by this benchmark (reported per pair).
void BM_AddRemovePair(benchmark::State& state) {
    const int64_t spans = state.range(0);
    Planner& planner = populated(spans).planner;
    const std::vector<Request> requests = random_requests(spans, kRequests, 79);
    std::vector<SpanId> ring(kBatch, 0);  // the spans this benchmark added
    size_t next = 0;
    for (auto _ : state) {
        const Request& r = requests[next % kRequests];
        SpanId& oldest = ring[next % kBatch];
        if (oldest != 0) (void)planner.remove_span(oldest);
        auto id = planner.add_span(r.at, r.duration, r.amount);
        oldest = id.ok() ? *id : 0;
        ++next;
    }
    for (SpanId id : ring)
        if (id != 0) (void)planner.remove_span(id);
}

void BM_Fits(benchmark::State& state) {
    const int64_t spans = state.range(0);
    const Planner& planner = populated(spans).planner;
    const std::vector<Request> requests = random_requests(spans, kRequests, 80);
    size_t next = 0;
    int64_t fitting = 0;
    for (auto _ : state) {
        const Request& r = requests[next];
        // Ask for between 40 and 64 units: fits about half of the time.
        fitting += planner.fits(r.at, r.duration, kTotal - 6 * r.amount);
        next = (next + 1) % kRequests;
    }
    state.counters["fit%"] =
        100.0 * static_cast<double>(fitting) / static_cast<double>(state.iterations());
}

void BM_AvailDuring(benchmark::State& state) {
    const int64_t spans = state.range(0);
    const Planner& planner = populated(spans).planner;
    const std::vector<Request> requests = random_requests(spans, kRequests, 81);
    size_t next = 0;
    for (auto _ : state) {
        const Request& r = requests[next];
        benchmark::DoNotOptimize(planner.avail_during(r.at, r.duration).ok());
        next = (next + 1) % kRequests;
    }
}

// Earliest start for 32 of 64 units over 1000 s from a random time: the
// search has to skip busy runs and gaps that are too short (a few on
// average, see mean_wait_s against the ~62 s between points), a number that
// depends on the (size-independent) density, not on the span count.
void BM_Earliest(benchmark::State& state) {
    const int64_t spans = state.range(0);
    const Planner& planner = populated(spans).planner;
    const std::vector<Request> requests = random_requests(spans, kRequests, 82);
    size_t next = 0;
    double waited = 0;
    for (auto _ : state) {
        const Request& r = requests[next];
        auto t = planner.earliest(r.at, 1000, 32);
        if (t.ok()) waited += static_cast<double>(*t - r.at);
        next = (next + 1) % kRequests;
    }
    state.counters["mean_wait_s"] = waited / static_cast<double>(state.iterations());
}

// Other processes on a shared machine only ever make a run slower, so the
// minimum over repetitions is the most faithful figure; ask for it with
// --benchmark_repetitions=N (see the header comment).
double minimum(const std::vector<double>& values) {
    return values.empty() ? 0 : *std::min_element(values.begin(), values.end());
}

#define PLANNER_SIZES \
    RangeMultiplier(10)->Range(1000, 1000000)->ComputeStatistics("min", minimum)

BENCHMARK(BM_AddSpan)->PLANNER_SIZES;
BENCHMARK(BM_RemoveSpan)->PLANNER_SIZES;
BENCHMARK(BM_AddRemovePair)->PLANNER_SIZES;
BENCHMARK(BM_Fits)->PLANNER_SIZES;
BENCHMARK(BM_AvailDuring)->PLANNER_SIZES;
BENCHMARK(BM_Earliest)->PLANNER_SIZES;

}  // namespace

BENCHMARK_MAIN();
