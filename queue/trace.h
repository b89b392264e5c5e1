// Workload traces for --replay: the Standard Workload Format of the
// Parallel Workloads Archive, read as a stream, and a YAML job list
// (docs/queue.md, "Replay" and "SWF fields").
//
// SWF (https://www.cs.huji.ac.il/labs/parallel/workload/swf.html, version
// 2.2): 18 whitespace-separated fields per job, -1 where a field does not
// apply, ';' header comments. What is read (queue/swf_trace.cc):
//   1 job number (the job's id in events and CSV), 2 submit, 4 run time,
//   5 allocated processors, 7 used memory, 8 requested processors (-1 or
//   0: field 5 instead), 9 requested time (-1: the run time), 10 requested
//   memory (-1: field 7), 11 status, 12 user, 13 group, 15 queue,
//   16 partition; headers `; MaxProcs:` and `; MaxNodes:`.
// Jobs that cannot be replayed are skipped and counted by reason, with the
// line of the first of each reason. Times are kept as written unless
// `shift` (first accepted submit becomes 0).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "utilities/result.h"

namespace rq::queue {

struct TraceJob {
    int64_t number = 0;        // SWF field 1, or the YAML list's index
    bool has_number = false;   // SWF: the number is the job's id
    int64_t line = 0;          // where it was read (SWF line, YAML index)
    int64_t submit = 0;
    int64_t runtime = 0;
    int64_t estimate = 0;
    int64_t size = 0;          // cores, or nodes with whole-node mapping
    int64_t mem = -1;          // SWF field 10 (else 7): KB per processor; -1 unknown
    int status = -1;           // SWF field 11: 1 completed, 0 failed, 5 canceled, ...
    int priority = 5;
    std::string queue = "default";
    std::string user;          // SWF field 12 (a number as written), YAML `user`
    std::string group;         // SWF field 13
    std::string name;
    std::string jobspec_path;  // YAML list only: a jobspec instead of a size
    std::string request;       // YAML list only: a pool request ("cpus=4")
};

enum class SkipReason {
    kBadSize,          // size <= 0
    kNegativeRuntime,  // field 4 < 0
    kTooBig,           // size above the machine
    kOutOfRange,       // submit or requested time beyond the planning window
    kStatus,           // --replay-status completed: status is not 1
    kNeverFits,        // a pool request the machine can never serve
    kUnknownField,     // --replay-request names a field the job leaves -1 ({mem})
    kCount
};

// How many jobs were skipped for each reason, and the line of the first.
class SkipCounts {
public:
    void add(SkipReason r, int64_t line) {
        auto i = static_cast<size_t>(r);
        if (count_[i]++ == 0) first_line_[i] = line;
    }
    int64_t count(SkipReason r) const { return count_[static_cast<size_t>(r)]; }
    int64_t first_line(SkipReason r) const { return first_line_[static_cast<size_t>(r)]; }
    int64_t total() const;
    // "1 with size <= 0 (first at line 4), 2 ..." (reasons with a count).
    std::string describe(const std::string& unit) const;
    // Short key of a reason for the summary ("bad_size", "out_of_range").
    static const char* key(SkipReason r);

private:
    static constexpr size_t kReasons = static_cast<size_t>(SkipReason::kCount);
    std::array<int64_t, kReasons> count_{};
    std::array<int64_t, kReasons> first_line_{};
};

class TraceSource {
public:
    virtual ~TraceSource() = default;
    // The next accepted job (submit times never decrease), or nullopt at
    // the end. Errors name the file and line.
    virtual Result<std::optional<TraceJob>> next() = 0;
    SkipCounts& skipped() { return skipped_; }
    // "line" for SWF, "job" for a YAML list (skip messages say where).
    virtual const char* unit() const = 0;

protected:
    SkipCounts skipped_;
};

// Reads a whole input file (the session's read_input, so that state/ can
// record it); false when it cannot be read.
using InputReader = std::function<bool(const std::string& path, std::string& text)>;

struct TraceOptions {
    // The machine's size in the unit of the sizes (cores, or nodes with
    // whole-node mapping); larger jobs are skipped. 0: no size check (a
    // pool machine: its matcher decides).
    int64_t capacity = 0;
    std::string capacity_unit = "cores";
    bool shift = false;
    // The planning window's end: a job must be able to end before it.
    int64_t time_limit = INT64_MAX;
    bool completed_only = false;   // --replay-status completed
    bool partition_queues = false; // --replay-queues partition: field 16, else 15
    bool whole_nodes = false;      // compare `; MaxNodes:` instead of MaxProcs
};

// The largest number a trace field may hold: times and sizes are read as
// doubles (SWF allows fractional times), exact up to 2^53.
inline constexpr int64_t kMaxTraceNumber = int64_t(1) << 53;

// --replay-request: `template_text` with {size} and {mem} replaced by the
// job's values; nullopt when the template names a field the trace leaves
// unknown (-1).
std::optional<std::string> expand_request(const std::string& template_text, const TraceJob& job);

// Opens TRACE: a YAML job list when it ends in .yaml/.yml (read whole
// through `read`), else SWF (streamed line by line from the file: an
// archive trace can be larger than memory wants to hold).
Result<std::unique_ptr<TraceSource>> open_trace(const std::string& path, const TraceOptions& options,
                                                const InputReader& read);

// The SWF reader (queue/swf_trace.cc): from a file, or from text (tests,
// the fuzz target; `name` is used only in messages).
Result<std::unique_ptr<TraceSource>> open_swf_trace(const std::string& path, const TraceOptions& options);
Result<std::unique_ptr<TraceSource>> swf_trace_from_text(const std::string& name, const std::string& text,
                                                         const TraceOptions& options);
// A YAML job list from its text (`path` names it in messages).
Result<std::unique_ptr<TraceSource>> yaml_trace_from_text(const std::string& path, const std::string& text,
                                                          const TraceOptions& options);

}  // namespace rq::queue
