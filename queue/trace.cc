#include "queue/trace.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "utilities/file.h"

namespace rq::queue {

int64_t SkipCounts::total() const {
    int64_t n = 0;
    for (int64_t c : count_) n += c;
    return n;
}

const char* SkipCounts::key(SkipReason r) {
    switch (r) {
        case SkipReason::kBadSize: return "bad_size";
        case SkipReason::kNegativeRuntime: return "negative_runtime";
        case SkipReason::kTooBig: return "larger_than_machine";
        case SkipReason::kOutOfRange: return "out_of_range";
        case SkipReason::kStatus: return "status";
        case SkipReason::kNeverFits: return "never_fits";
        case SkipReason::kUnknownField: return "unknown_field";
        default: return "?";
    }
}

namespace {

const char* reason_text(SkipReason r) {
    switch (r) {
        case SkipReason::kBadSize: return "with size <= 0";
        case SkipReason::kNegativeRuntime: return "with a negative run time";
        case SkipReason::kTooBig: return "larger than the machine";
        case SkipReason::kOutOfRange: return "ending past the planning window (submit or requested time out of range)";
        case SkipReason::kStatus: return "not completed (status other than 1; --replay-status all keeps them)";
        case SkipReason::kNeverFits: return "that the machine can never serve";
        case SkipReason::kUnknownField: return "whose --replay-request field is unknown (-1)";
        default: return "?";
    }
}

}  // namespace

std::string SkipCounts::describe(const std::string& unit) const {
    std::string out;
    for (size_t i = 0; i < kReasons; ++i) {
        if (count_[i] == 0) continue;
        if (!out.empty()) out += ", ";
        out += std::to_string(count_[i]) + " " + reason_text(static_cast<SkipReason>(i)) + " (first at " + unit + " " +
               std::to_string(first_line_[i]) + ")";
    }
    return out;
}

std::optional<std::string> expand_request(const std::string& template_text, const TraceJob& job) {
    std::string out;
    for (size_t i = 0; i < template_text.size();) {
        auto field = [&](const char* name, int64_t value) {
            std::string key = std::string("{") + name + "}";
            if (template_text.compare(i, key.size(), key) != 0) return false;
            out += std::to_string(value);
            i += key.size();
            return true;
        };
        if (template_text[i] == '{') {
            if (template_text.compare(i, 5, "{mem}") == 0 && job.mem < 0)
                return std::nullopt;
            if (field("size", job.size) || field("mem", job.mem)) continue;
        }
        out += template_text[i++];
    }
    return out;
}

namespace {

// A relative `jobspec:` path names a file beside the list, wherever the
// session runs (docs/queue.md).
std::string beside(const std::string& list_path, const std::string& jobspec_path) {
    size_t slash = list_path.rfind('/');
    if (jobspec_path.empty() || jobspec_path[0] == '/' || slash == std::string::npos) return jobspec_path;
    return list_path.substr(0, slash + 1) + jobspec_path;
}

// A YAML list, loaded whole (it is meant for small hand-written cases):
//   - submit: 0          # required, seconds
//     runtime: 100       # required
//     size: 4            # cores (or nodes with --replay-nodes) ...
//     jobspec: job.yaml  # ... or a jobspec file (its duration is the estimate)
//     request: cpus=4    # ... or a pool request (docs/pools.md)
//     estimate: 120      # optional; default: the jobspec's duration, else runtime
//     priority: 5        # optional, 1..10
//     name: build        # optional
//     queue: default     # optional
//     user: alice        # optional (per-user metrics)
class YamlSource : public TraceSource {
public:
    const char* unit() const override { return "job"; }

    Status load(const std::string& path, const std::string& text, const TraceOptions& options) {
        YAML::Node root;
        try {
            root = YAML::Load(text);
        } catch (const YAML::Exception& e) {
            return make_error(Errc::kInvalid, path + ": " + e.what());
        }
        if (!root.IsSequence()) return make_error(Errc::kInvalid, path + ": a job list must be a YAML sequence");
        int64_t n = 0;
        for (const YAML::Node& item : root) {
            ++n;
            std::string at = path + ": job " + std::to_string(n) + ": ";
            try {
                RQ_TRY(add(path, item, n, at, options));
            } catch (const YAML::Exception& e) {
                return make_error(Errc::kInvalid, at + e.what());
            }
        }
        std::stable_sort(jobs_.begin(), jobs_.end(), [](const TraceJob& a, const TraceJob& b) { return a.submit < b.submit; });
        if (options.shift && !jobs_.empty()) {
            int64_t base = jobs_.front().submit;
            for (auto& j : jobs_) j.submit -= base;
        }
        for (auto it = jobs_.begin(); it != jobs_.end();) {
            if (it->submit < 0)
                return make_error(Errc::kInvalid, path + ": job " + std::to_string(it->line) + ": negative submit time " +
                                                      std::to_string(it->submit));
            // A job must be able to end inside the planning window.
            if (it->submit >= options.time_limit || std::max(it->estimate, it->runtime) >= options.time_limit - it->submit) {
                skipped_.add(SkipReason::kOutOfRange, it->line);
                it = jobs_.erase(it);
            } else {
                ++it;
            }
        }
        return ok_status();
    }
    Result<std::optional<TraceJob>> next() override {
        if (next_ == jobs_.size()) return std::optional<TraceJob>();
        return std::optional<TraceJob>(jobs_[next_++]);
    }

private:
    Status add(const std::string& path, const YAML::Node& item, int64_t n, const std::string& at, const TraceOptions& options) {
        if (!item.IsMap() || !item["submit"] || !item["runtime"])
            return make_error(Errc::kInvalid, at + "needs 'submit' and 'runtime'");
        TraceJob j;
        j.number = n;
        j.line = n;
        RQ_TRY(number(item, "submit", at, j.submit));
        RQ_TRY(number(item, "runtime", at, j.runtime));
        RQ_TRY(number(item, "size", at, j.size));
        RQ_TRY(number(item, "estimate", at, j.estimate));
        if (item["jobspec"]) j.jobspec_path = beside(path, item["jobspec"].as<std::string>());
        if (item["request"]) j.request = item["request"].as<std::string>();
        int shapes = !!item["size"] + !j.jobspec_path.empty() + !j.request.empty();
        if (shapes != 1) return make_error(Errc::kInvalid, at + "needs one of 'size', 'jobspec' or 'request'");
        if (item["priority"]) j.priority = item["priority"].as<int>();
        if (j.priority < 1 || j.priority > 10) return make_error(Errc::kInvalid, at + "priority must be 1 to 10");
        if (j.estimate < 0) return make_error(Errc::kInvalid, at + "estimate must not be negative");
        j.name = item["name"] ? item["name"].as<std::string>() : "job" + std::to_string(n);
        if (item["queue"]) j.queue = item["queue"].as<std::string>();
        if (item["user"]) j.user = item["user"].as<std::string>();
        if (item["group"]) j.group = item["group"].as<std::string>();
        bool sized = item["size"].IsDefined();
        if (sized && j.size <= 0) {
            skipped_.add(SkipReason::kBadSize, n);
            return ok_status();
        }
        if (j.runtime < 0) {
            skipped_.add(SkipReason::kNegativeRuntime, n);
            return ok_status();
        }
        if (sized && options.capacity > 0 && j.size > options.capacity) {
            skipped_.add(SkipReason::kTooBig, n);
            return ok_status();
        }
        jobs_.push_back(std::move(j));
        return ok_status();
    }

    // Item `key` (if present) as a whole number within the trace limit.
    static Status number(const YAML::Node& item, const char* key, const std::string& at, int64_t& out) {
        if (!item[key]) return ok_status();
        double v = item[key].as<double>();
        if (!(std::fabs(v) <= double(kMaxTraceNumber)))
            return make_error(Errc::kInvalid, at + key + " is out of range: '" + item[key].as<std::string>() +
                                                  "', at most " + std::to_string(kMaxTraceNumber));
        out = item[key].as<int64_t>();
        return ok_status();
    }

    std::vector<TraceJob> jobs_;
    size_t next_ = 0;
};

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Result<std::unique_ptr<TraceSource>> yaml_trace_from_text(const std::string& path, const std::string& text,
                                                          const TraceOptions& options) {
    auto source = std::make_unique<YamlSource>();
    RQ_TRY(source->load(path, text, options));
    return std::unique_ptr<TraceSource>(std::move(source));
}

Result<std::unique_ptr<TraceSource>> open_trace(const std::string& path, const TraceOptions& options,
                                                const InputReader& read) {
    if (ends_with(path, ".yaml") || ends_with(path, ".yml")) {
        std::string text;
        if (!read(path, text)) return make_error(Errc::kIo, "cannot read " + path);
        return yaml_trace_from_text(path, text, options);
    }
    return open_swf_trace(path, options);
}

}  // namespace rq::queue
