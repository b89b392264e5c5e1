// The progress line of a replay on a terminal (docs/queue.md "Replay"):
// one line on stderr, rewritten in place (`\r`), with the jobs done out
// of the trace's jobs, the simulated time and the rate. The caller turns
// it on only when stderr is a terminal: never on a pipe or a file, whose
// reader wants no carriage returns.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace rq::queue {

class ReplayProgress {
public:
    // `total`: the trace's jobs (-1: unknown).
    ReplayProgress(std::ostream& out, bool on, int64_t total);
    bool on() const { return on_; }
    // At every simulated instant; prints at the first call, then at most
    // twice a second (the clock is read every few calls only).
    void update(int64_t done, int64_t time);
    // The last figures, then the line is ended.
    void finish(int64_t done, int64_t time);

    // The line itself (without `\r`), for tests.
    static std::string line(int64_t done, int64_t total, int64_t time, double seconds);

private:
    void print(int64_t done, int64_t time);
    std::ostream& out_;
    bool on_;
    int64_t total_;
    std::chrono::steady_clock::time_point started_, last_;
    uint64_t calls_ = 0;
    bool printed_ = false;
    size_t width_ = 0;  // of the last line: a shorter one pads over it
};

// The jobs of an SWF trace: lines that are neither blank nor `;`
// comments (an upper bound: some may be skipped). -1 for a YAML list or
// an unreadable file.
int64_t count_trace_jobs(const std::string& path);

}  // namespace rq::queue
