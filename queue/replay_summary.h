// The replay's summary (docs/queue.md, "Replay
// metrics"): SUMMARY key=value lines on the output, and with
// --replay-summary FILE one JSON object with the same figures plus the
// per-queue and per-user breakdowns.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "queue/metrics.h"
#include "queue/replay.h"
#include "queue/trace.h"

namespace rq::queue {

// What the run itself did, beside the finished jobs' metrics.
struct ReplayRun {
    bool partial = false;         // stopped by a signal: only the jobs finished by then
    int64_t submitted = 0;
    int64_t never_started = 0;    // pending at the end (or at the stop: pending and running)
    uint64_t passes = 0, reused_tries = 0, kept_reservations = 0;
    int64_t simulated_time = 0;
    double wall = 0, cpu = 0;     // seconds
    int64_t cores = 0, nodes = 0; // the machine's cores (a pool machine's cpus) and nodes
};

void print_summary_lines(std::ostream& out, const ReplayConfig& config, const Metrics& metrics,
                         const SkipCounts& skipped, const ReplayRun& run);
// Errors name the file.
Status write_summary_json(const std::string& path, const ReplayConfig& config, const Metrics& metrics,
                          const SkipCounts& skipped, const ReplayRun& run);

}  // namespace rq::queue
