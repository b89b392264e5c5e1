// --replay-series FILE.csv (docs/queue.md "Replay time series"): the
// replay's state over simulated time, one row per instant at which any
// figure changed, giving the state after everything at that instant
// (releases, arrivals, the pass) was done. Exact, not sampled; streamed:
// one row is kept, never the history.
//
//   time,running_jobs,busy_cores,busy_nodes,pending_jobs,reserved_jobs,started_jobs,finished_jobs
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "utilities/result.h"

namespace rq::queue {

// The figures of one instant. running_jobs is started - finished;
// pending_jobs counts reserved jobs too; busy_cores are the running jobs'
// sizes in cores (a pool machine's cpus); busy_nodes the nodes holding
// part of a running job (queue/job_nodes.h).
struct SeriesRow {
    int64_t time = 0;
    int64_t running_jobs = 0;
    int64_t busy_cores = 0;
    int64_t busy_nodes = 0;
    int64_t pending_jobs = 0;
    int64_t reserved_jobs = 0;
    int64_t started_jobs = 0;
    int64_t finished_jobs = 0;
    // The figures only (not the time).
    bool same_figures(const SeriesRow& o) const;
};

inline constexpr const char* kSeriesHeader =
    "time,running_jobs,busy_cores,busy_nodes,pending_jobs,reserved_jobs,started_jobs,finished_jobs";

// Keeps the started/finished counts and busy cores as jobs start and
// end, and writes the rows.
class ReplaySeries {
public:
    // Opens (truncates) `path` and writes the header; errors name the file.
    Status open(const std::string& path);
    bool is_open() const { return file_.is_open(); }

    void job_started(int64_t cores);
    void job_finished(int64_t cores);
    // The state after a step at `time` (the queue's pending and reserved
    // jobs, the busy nodes); an instant's row is written once time moves
    // past it, if any figure differs from the last row written.
    void observe(int64_t time, int64_t pending, int64_t reserved, int64_t busy_nodes);
    // Writes the last instant and checks every write (a full disk is an
    // error, not a short file).
    Status close();

    const SeriesRow& current() const { return current_; }

private:
    void write(const SeriesRow& row);
    std::ofstream file_;
    std::string path_;
    SeriesRow current_;   // the instant being observed (or the last one)
    SeriesRow written_;   // the last row written (all zero before the first)
    bool observed_ = false;
    int64_t busy_cores_ = 0, started_ = 0, finished_ = 0;
};

}  // namespace rq::queue
