// The Standard Workload Format reader (queue/trace.h). Field numbers and
// their meaning follow the archive's definition,
// https://www.cs.huji.ac.il/labs/parallel/workload/swf.html ("The Data
// Fields" and "Header Comments").
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "queue/trace.h"
#include "utilities/file.h"

namespace rq::queue {

namespace {

// SWF field numbers (1-based, as the definition numbers them).
enum Field : size_t {
    kNumber = 1, kSubmit = 2, kRunTime = 4, kAllocated = 5, kUsedMem = 7, kRequested = 8,
    kRequestedTime = 9, kRequestedMem = 10, kStatus = 11, kUser = 12, kGroup = 13, kQueue = 15,
    kPartition = 16
};

class SwfSource : public TraceSource {
public:
    SwfSource(std::string path, std::unique_ptr<std::istream> in, const TraceOptions& options)
        : path_(std::move(path)), in_(std::move(in)), options_(options) {}

    const char* unit() const override { return "line"; }

    Result<std::optional<TraceJob>> next() override {
        for (std::string line; std::getline(*in_, line);) {
            ++line_no_;
            size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos) continue;
            if (line[first] == ';') {
                RQ_TRY(header(line.substr(first + 1)));
                continue;
            }
            auto job = parse(line);
            if (!job) return job.error();
            if (*job) return std::move(*job);
        }
        if (in_->bad()) return make_error(Errc::kIo, path_ + ": read error");
        return std::optional<TraceJob>();
    }

private:
    Error where(const std::string& what) const {
        return make_error(Errc::kInvalid, path_ + ":" + std::to_string(line_no_) + ": " + what);
    }

    // `; MaxProcs: N` (or MaxNodes with whole-node sizes) larger than the
    // machine: the trace was recorded on a larger one, and replaying it
    // here would skip or starve its widest jobs. Said once, up front.
    Status header(const std::string& comment) {
        const char* key = options_.whole_nodes ? "MaxNodes:" : "MaxProcs:";
        size_t at = comment.find(key);
        if (at == std::string::npos || options_.capacity <= 0) return ok_status();
        std::istringstream value(comment.substr(at + std::string(key).size()));
        int64_t n = 0;
        if (!(value >> n) || n <= options_.capacity) return ok_status();
        std::string unit = options_.capacity_unit;
        return where(std::string(key) + " " + std::to_string(n) + " is larger than the machine (" +
                     std::to_string(options_.capacity) + " " + unit + "): replay on a machine of at least " +
                     std::to_string(n) + " " + unit +
                     (options_.whole_nodes ? "" : ", or give --replay-nodes if the trace's processors are nodes"));
    }

    // Field `field` as a whole number (fractions truncated). Errors: not a
    // number, or beyond what a double holds exactly.
    Status number(const std::vector<std::string>& f, size_t field, int64_t& out) const {
        const std::string& s = f[field - 1];
        char* end = nullptr;
        double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || std::isnan(v))
            return where("field " + std::to_string(field) + " is not a number: '" + s + "'");
        if (!(std::fabs(v) <= double(kMaxTraceNumber)))
            return where("field " + std::to_string(field) + " is out of range: '" + s + "', at most " +
                         std::to_string(kMaxTraceNumber));
        out = static_cast<int64_t>(v);
        return ok_status();
    }

    std::optional<TraceJob> skip(SkipReason r) {
        skipped_.add(r, line_no_);
        return std::nullopt;
    }

    Result<std::optional<TraceJob>> parse(const std::string& line) {
        std::istringstream fields(line);
        std::vector<std::string> f;
        for (std::string w; fields >> w;) f.push_back(w);
        if (f.size() < 9) return where("an SWF line needs at least 9 fields, found " + std::to_string(f.size()));
        f.resize(std::max<size_t>(f.size(), kPartition), "-1");  // short lines: the rest unknown
        TraceJob j;
        j.line = line_no_;
        j.has_number = true;
        int64_t alloc = 0, req = 0, est = 0, used_mem = 0, req_mem = 0, status = 0;
        for (auto [field, out] : {std::pair<size_t, int64_t*>{kNumber, &j.number}, {kSubmit, &j.submit},
                                  {kRunTime, &j.runtime}, {kAllocated, &alloc}, {kUsedMem, &used_mem},
                                  {kRequested, &req}, {kRequestedTime, &est}, {kRequestedMem, &req_mem},
                                  {kStatus, &status}})
            RQ_TRY(number(f, field, *out));
        j.status = static_cast<int>(status);
        j.mem = req_mem > 0 ? req_mem : used_mem;
        if (f[kUser - 1] != "-1") j.user = f[kUser - 1];
        if (f[kGroup - 1] != "-1") j.group = f[kGroup - 1];
        const std::string& queue = f[(options_.partition_queues ? kPartition : kQueue) - 1];
        if (queue != "-1") j.queue = queue;
        // "Requested Number of Processors": -1 when not given; some logs
        // write 0. Either way the allocated count (field 5) stands in.
        j.size = req > 0 ? req : alloc;
        if (j.size <= 0) return skip(SkipReason::kBadSize);
        if (j.runtime < 0) return skip(SkipReason::kNegativeRuntime);
        if (options_.completed_only && j.status != 1) return skip(SkipReason::kStatus);
        if (options_.capacity > 0 && j.size > options_.capacity) return skip(SkipReason::kTooBig);
        j.estimate = est > 0 ? est : j.runtime;
        // The planner needs a span of at least one second.
        j.estimate = std::max<int64_t>(j.estimate, 1);
        j.name = "swf" + std::to_string(j.number);
        int64_t base = base_ ? *base_ : options_.shift ? j.submit : 0;
        j.submit -= base;
        if (j.submit < 0) return where("submit time " + std::to_string(j.submit + base) + " is negative (field 2)");
        if (j.submit < last_submit_)
            return where("submit time " + std::to_string(j.submit + base) + " is before the previous job's");
        // A job must be able to end inside the planning window.
        if (j.submit >= options_.time_limit || j.estimate >= options_.time_limit - j.submit)
            return skip(SkipReason::kOutOfRange);
        base_ = base;
        last_submit_ = j.submit;
        return std::optional<TraceJob>(std::move(j));
    }

    std::string path_;
    std::unique_ptr<std::istream> in_;
    TraceOptions options_;
    int64_t line_no_ = 0;
    std::optional<int64_t> base_;
    int64_t last_submit_ = INT64_MIN;
};

}  // namespace

Result<std::unique_ptr<TraceSource>> open_swf_trace(const std::string& path, const TraceOptions& options) {
    // Streamed line by line: bounded by the file's size, never opened if it
    // is a FIFO or a device (docs/formats.md "Limits on input files").
    if (std::string problem = streamed_file_problem(path, FileKind::kTrace); !problem.empty())
        return make_error(Errc::kIo, "cannot read " + path + ": " + problem);
    auto in = std::make_unique<std::ifstream>(path);
    if (!*in) return make_error(Errc::kIo, "cannot read " + path);
    return std::unique_ptr<TraceSource>(std::make_unique<SwfSource>(path, std::move(in), options));
}

Result<std::unique_ptr<TraceSource>> swf_trace_from_text(const std::string& name, const std::string& text,
                                                         const TraceOptions& options) {
    auto in = std::make_unique<std::istringstream>(text);
    return std::unique_ptr<TraceSource>(std::make_unique<SwfSource>(name, std::move(in), options));
}

}  // namespace rq::queue
