#include "queue/trace.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "utilities/file.h"

namespace rq::queue {

namespace {

class SwfSource : public TraceSource {
public:
    SwfSource(std::string path, int64_t capacity, bool shift)
        : path_(std::move(path)), capacity_(capacity), shift_(shift) {}
    Status open() {
        // Streamed line by line: bounded by the file's size, never opened if
        // it is a FIFO or a device (utilities/file.h).
        if (std::string problem = streamed_file_problem(path_, FileKind::kTrace); !problem.empty())
            return make_error(Errc::kIo, "cannot read " + path_ + ": " + problem);
        in_.open(path_);
        if (!in_) return make_error(Errc::kIo, "cannot read " + path_);
        return ok_status();
    }

    Result<std::optional<TraceJob>> next() override {
        for (std::string line; std::getline(in_, line);) {
            ++line_no_;
            size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == ';') continue;
            auto job = parse(line);
            if (!job) return job.error();
            if (!*job) continue;  // skipped and counted
            TraceJob& j = **job;
            if (!base_) base_ = shift_ ? j.submit : 0;
            j.submit -= *base_;
            if (j.submit < last_submit_)
                return where("submit time " + std::to_string(j.submit + *base_) + " is before the previous job's");
            last_submit_ = j.submit;
            return std::move(*job);
        }
        if (in_.bad()) return make_error(Errc::kIo, path_ + ": read error");
        return std::optional<TraceJob>();
    }

private:
    Error where(const std::string& what) const {
        return make_error(Errc::kInvalid, path_ + ":" + std::to_string(line_no_) + ": " + what);
    }

    Result<std::optional<TraceJob>> parse(const std::string& line) {
        std::istringstream fields(line);
        std::vector<std::string> f;
        for (std::string w; fields >> w;) f.push_back(w);
        if (f.size() < 9) return where("an SWF line needs at least 9 fields, found " + std::to_string(f.size()));
        auto num = [&](size_t field, int64_t& out) -> bool {
            const std::string& s = f[field - 1];
            char* end = nullptr;
            double v = std::strtod(s.c_str(), &end);
            if (end == s.c_str() || *end != '\0' || !(v > -1e15 && v < 1e15)) return false;
            out = static_cast<int64_t>(v);
            return true;
        };
        TraceJob j;
        int64_t alloc = 0, req = 0, est = 0;
        for (auto [field, out] : {std::pair<size_t, int64_t*>{1, &j.number}, {2, &j.submit}, {4, &j.runtime},
                                  {5, &alloc}, {8, &req}, {9, &est}})
            if (!num(field, *out)) return where("field " + std::to_string(field) + " is not a number: '" + f[field - 1] + "'");
        if (f.size() >= 15 && f[14] != "-1") j.queue = f[14];
        j.size = req != -1 ? req : alloc;
        if (j.size <= 0) {
            ++skipped_.bad_size;
            return std::optional<TraceJob>();
        }
        if (j.runtime < 0) {
            ++skipped_.negative_runtime;
            return std::optional<TraceJob>();
        }
        if (j.size > capacity_) {
            ++skipped_.too_big;
            return std::optional<TraceJob>();
        }
        j.estimate = est > 0 ? est : j.runtime;
        // The planner needs a span of at least one second.
        j.estimate = std::max<int64_t>(j.estimate, 1);
        j.name = "swf" + std::to_string(j.number);
        return std::optional<TraceJob>(std::move(j));
    }

    std::string path_;
    int64_t capacity_;
    bool shift_;
    std::ifstream in_;
    int64_t line_no_ = 0;
    std::optional<int64_t> base_;
    int64_t last_submit_ = INT64_MIN;
};

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
//     estimate: 120      # optional; default: the jobspec's duration, else runtime
//     priority: 5        # optional, 1..10
//     name: build        # optional
//     queue: default     # optional
class YamlSource : public TraceSource {
public:
    Status load(const std::string& path, int64_t capacity, bool shift, const InputReader& read) {
        std::string text;
        if (!read(path, text)) return make_error(Errc::kIo, "cannot read " + path);
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
                if (!item.IsMap() || !item["submit"] || !item["runtime"])
                    return make_error(Errc::kInvalid, at + "needs 'submit' and 'runtime'");
                TraceJob j;
                j.number = n;
                j.submit = item["submit"].as<int64_t>();
                j.runtime = item["runtime"].as<int64_t>();
                if (item["size"]) j.size = item["size"].as<int64_t>();
                if (item["jobspec"]) j.jobspec_path = beside(path, item["jobspec"].as<std::string>());
                if (j.jobspec_path.empty() && !item["size"]) return make_error(Errc::kInvalid, at + "needs 'size' or 'jobspec'");
                j.estimate = item["estimate"] ? item["estimate"].as<int64_t>() : 0;
                if (item["priority"]) j.priority = item["priority"].as<int>();
                if (j.priority < 1 || j.priority > 10) return make_error(Errc::kInvalid, at + "priority must be 1 to 10");
                if (j.estimate < 0) return make_error(Errc::kInvalid, at + "estimate must not be negative");
                j.name = item["name"] ? item["name"].as<std::string>() : "job" + std::to_string(n);
                if (item["queue"]) j.queue = item["queue"].as<std::string>();
                if (j.jobspec_path.empty() && j.size <= 0) { ++skipped_.bad_size; continue; }
                if (j.runtime < 0) { ++skipped_.negative_runtime; continue; }
                if (j.jobspec_path.empty() && j.size > capacity) { ++skipped_.too_big; continue; }
                jobs_.push_back(std::move(j));
            } catch (const YAML::Exception& e) {
                return make_error(Errc::kInvalid, at + e.what());
            }
        }
        std::stable_sort(jobs_.begin(), jobs_.end(), [](const TraceJob& a, const TraceJob& b) { return a.submit < b.submit; });
        if (shift && !jobs_.empty()) {
            int64_t base = jobs_.front().submit;
            for (auto& j : jobs_) j.submit -= base;
        }
        if (!jobs_.empty() && jobs_.front().submit < 0) return make_error(Errc::kInvalid, path + ": negative submit time");
        return ok_status();
    }
    Result<std::optional<TraceJob>> next() override {
        if (next_ == jobs_.size()) return std::optional<TraceJob>();
        return std::optional<TraceJob>(jobs_[next_++]);
    }

private:
    std::vector<TraceJob> jobs_;
    size_t next_ = 0;
};

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Result<std::unique_ptr<TraceSource>> open_trace(const std::string& path, int64_t capacity, bool shift,
                                                const InputReader& read) {
    if (ends_with(path, ".yaml") || ends_with(path, ".yml")) {
        auto source = std::make_unique<YamlSource>();
        RQ_TRY(source->load(path, capacity, shift, read));
        return std::unique_ptr<TraceSource>(std::move(source));
    }
    auto source = std::make_unique<SwfSource>(path, capacity, shift);
    RQ_TRY(source->open());
    return std::unique_ptr<TraceSource>(std::move(source));
}

}  // namespace rq::queue
