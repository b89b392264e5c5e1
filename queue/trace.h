// Workload traces for --replay: the Standard Workload Format of the
// Parallel Workloads Archive, read as a stream, and a YAML job list.
//
// SWF field rules (issue 15): size = requested processors (field 8), else
// allocated processors (field 5) when field 8 is -1; estimate = requested
// time (field 9), else the run time (field 4); queue = field 15. Jobs with
// a size of 0 or less, a negative run time, or a size above the machine
// are skipped and counted. ';' lines are header comments. Times are kept
// as written unless `shift` (first accepted submit becomes 0).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <functional>

#include "utilities/result.h"

namespace rq::queue {

struct TraceJob {
    int64_t number = 0;
    int64_t submit = 0;
    int64_t runtime = 0;
    int64_t estimate = 0;
    int64_t size = 0;          // cores, or nodes with whole-node mapping
    int priority = 5;
    std::string queue = "default";
    std::string name;
    std::string jobspec_path;  // YAML list only: a jobspec instead of a size
};

struct SkipCounts {
    int64_t bad_size = 0;          // size <= 0
    int64_t negative_runtime = 0;  // field 4 < 0
    int64_t too_big = 0;           // size above the machine
    int64_t total() const { return bad_size + negative_runtime + too_big; }
};

class TraceSource {
public:
    virtual ~TraceSource() = default;
    // The next accepted job (submit times never decrease), or nullopt at
    // the end. Errors name the file and line.
    virtual Result<std::optional<TraceJob>> next() = 0;
    const SkipCounts& skipped() const { return skipped_; }

protected:
    SkipCounts skipped_;
};

// Reads a whole input file (the session's read_input, so that state/ can
// record it); false when it cannot be read.
using InputReader = std::function<bool(const std::string& path, std::string& text)>;

// Opens TRACE: a YAML job list when it ends in .yaml/.yml (read whole
// through `read`), else SWF (streamed line by line from the file: an
// archive trace can be larger than memory wants to hold).
// `capacity` is the machine's size in the unit of the sizes (cores, or
// nodes with whole-node mapping).
Result<std::unique_ptr<TraceSource>> open_trace(const std::string& path, int64_t capacity, bool shift,
                                                const InputReader& read);

}  // namespace rq::queue
