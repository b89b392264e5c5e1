#include "queue/replay.h"

#include <sys/resource.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include "queue/metrics.h"
#include "queue/simulator.h"
#include "queue/trace.h"
#include "utilities/file.h"

namespace rq::queue {

namespace {

// The jobspec for an SWF size: `size` single-core slots, or `size` whole
// nodes. Shared by every job of that size.
std::string size_jobspec(int64_t size, bool whole_nodes) {
    std::string n = std::to_string(size);
    std::string resources =
        whole_nodes ? "  - type: node\n    count: " + n +
                          "\n    exclusive: true\n    with:\n      - type: slot\n        count: 1\n        label: task\n"
                          "        with:\n          - type: core\n            count: 1\n"
                    : "  - type: slot\n    count: " + n + "\n    label: task\n    with:\n      - type: core\n        count: 1\n";
    return "version: 1\nresources:\n" + resources +
           "tasks:\n  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n"
           "attributes:\n  system:\n    duration: 1\n";
}

class JobspecCache {
public:
    JobspecCache(const ResourceGraph& graph, bool whole_nodes, const InputReader& read)
        : graph_(graph), whole_nodes_(whole_nodes), read_(read) {}
    Result<std::shared_ptr<Jobspec>> for_size(int64_t size) {
        auto& slot = by_size_[size];
        if (!slot) {
            auto js = parse_jobspec(size_jobspec(size, whole_nodes_), graph_.types());
            if (!js) return js.error();
            slot = std::make_shared<Jobspec>(std::move(*js));
        }
        return slot;
    }
    Result<std::shared_ptr<Jobspec>> for_file(const std::string& path, double& duration) {
        auto& slot = by_file_[path];
        if (!slot) {
            std::string text;
            if (!read_(path, text)) return make_error(Errc::kIo, "cannot read jobspec " + path);
            auto js = parse_jobspec(text, graph_.types());
            if (!js) return make_error(Errc::kInvalid, path + ": " + js.message());
            slot = std::make_shared<Jobspec>(std::move(*js));
            durations_[path] = slot->duration;
        }
        duration = durations_[path];
        return slot;
    }

private:
    const ResourceGraph& graph_;
    bool whole_nodes_;
    const InputReader& read_;
    std::map<int64_t, std::shared_ptr<Jobspec>> by_size_;
    std::map<std::string, std::shared_ptr<Jobspec>> by_file_;
    std::map<std::string, double> durations_;
};

int64_t total_size(const ResourceGraph& graph, TypeId type) {
    int64_t n = 0;
    for (VertexId v : graph.by_type(type)) n += graph.size(v);
    return n;
}

long peak_rss_kb() {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

}  // namespace

Status replay(DfuTraverser& traverser, const ReplayConfig& config, std::ostream& out, std::ostream& err) {
    ResourceGraph& graph = traverser.graph();
    int64_t cores = total_size(graph, types::kCore);
    int64_t nodes = total_size(graph, types::kNode);
    int64_t cores_per_node = nodes > 0 ? cores / nodes : 0;
    InputReader read = config.read ? config.read : InputReader([](const std::string& p, std::string& t) { return read_file(p, t, nullptr, FileKind::kTrace); });
    auto source = open_trace(config.trace, config.whole_nodes ? nodes : cores, config.shift, read);
    if (!source) return source.error();
    TraceSource& trace = **source;

    std::ofstream csv_file;
    if (!config.csv.empty()) {
        csv_file.open(config.csv, std::ios::trunc);
        if (!csv_file) return make_error(Errc::kIo, "--replay-csv: cannot open " + config.csv + " for writing");
    }
    std::ostream& csv = config.csv.empty() ? out : csv_file;
    EventLog log(nullptr);
    if (!config.events_json.empty()) RQ_TRY(log.open_json(config.events_json));
    int64_t next_id = 1;
    Simulator sim(traverser, config.policy, log, next_id);
    sim.set_owns_traverser(!config.exhaustive);
    sim.set_walk_cancel(config.exhaustive);
    Metrics metrics(cores);
    Metrics::csv_header(csv);
    sim.on_finish([&](const QueueJob& job) {
        int64_t size = config.whole_nodes ? job.size * cores_per_node : job.size;
        metrics.add(job, size);
        Metrics::csv_row(csv, job, size);
    });

    JobspecCache cache(graph, config.whole_nodes, read);
    std::optional<TraceJob> buffered;
    Status failure = ok_status();
    auto pull = [&]() -> Status {
        auto n = trace.next();
        if (!n) return n.error();
        buffered = std::move(*n);
        return ok_status();
    };
    RQ_TRY(pull());
    int64_t submitted = 0;
    Arrivals arrivals;
    arrivals.next_time = [&]() { return buffered ? buffered->submit : kNever; };
    arrivals.enqueue_due = [&](int64_t t) -> Status {
        while (buffered && buffered->submit == t) {
            TraceJob& tj = *buffered;
            QueueJob job;
            job.name = tj.name;
            job.queue = tj.queue;
            job.priority = tj.priority;
            job.runtime = tj.runtime;
            job.estimate = tj.estimate;
            if (!tj.jobspec_path.empty()) {
                double d = 0;
                auto js = cache.for_file(tj.jobspec_path, d);
                if (!js) return make_error(js.code(), config.trace + ": job " + std::to_string(tj.number) + ": " + js.message());
                job.jobspec = *js;
                if (job.estimate == 0) job.estimate = d >= 1 ? static_cast<int64_t>(std::ceil(d)) : tj.runtime;
                job.estimate = std::max<int64_t>(job.estimate, 1);
            } else {
                auto js = cache.for_size(tj.size);
                if (!js) return js.error();
                job.jobspec = *js;
                job.size = tj.size;
                if (job.estimate == 0) job.estimate = std::max<int64_t>(tj.runtime, 1);
            }
            sim.enqueue(std::move(job));
            ++submitted;
            RQ_TRY(pull());
        }
        return ok_status();
    };

    auto started = std::chrono::steady_clock::now();
    std::clock_t cpu_started = std::clock();
    auto left = sim.run(&arrivals);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    double cpu = double(std::clock() - cpu_started) / CLOCKS_PER_SEC;
    if (!left) return left.error();
    log.flush();
    csv.flush();
    if (csv_file.is_open() && !csv_file) return make_error(Errc::kIo, "--replay-csv: error writing " + config.csv);
    RQ_TRY(log.check_json_written());

    const SkipCounts& skipped = trace.skipped();
    if (skipped.total() > 0)
        err << "WARN: --replay: skipped " << skipped.total() << " job(s) of " << config.trace << ": "
            << skipped.bad_size << " with size <= 0, " << skipped.negative_runtime << " with a negative run time, "
            << skipped.too_big << " larger than the machine\n";
    if (*left > 0) err << "WARN: --replay: " << *left << " job(s) could never start\n";
    Summary s = metrics.summary();
    char buf[128];
    auto line = [&](const char* key, const std::string& value) { out << "SUMMARY " << key << "=" << value << "\n"; };
    auto fixed = [&](double v, int digits) {
        std::snprintf(buf, sizeof buf, "%.*f", digits, v);
        return std::string(buf);
    };
    line("policy", config.policy.name);
    line("queue_depth", std::to_string(config.policy.queue_depth));
    line("jobs", std::to_string(s.jobs));
    line("skipped", std::to_string(skipped.total()));
    line("never_started", std::to_string(*left));
    line("killed", std::to_string(s.killed));
    line("makespan", std::to_string(s.makespan));
    line("utilization", fixed(s.utilization, 4));
    line("wait_mean", fixed(s.wait_mean, 2));
    line("wait_median", fixed(s.wait_median, 1));
    line("wait_max", std::to_string(s.wait_max));
    line("bounded_slowdown_mean", fixed(s.bsld_mean, 3));
    line("passes", std::to_string(sim.passes()));
    line("reused_tries", std::to_string(sim.reused_tries()));
    line("wall_seconds", fixed(wall, 3));
    line("jobs_per_second", fixed(wall > 0 ? double(submitted) / wall : 0, 0));
    // CPU time too: on a shared machine the wall clock measures the others.
    line("cpu_seconds", fixed(cpu, 3));
    line("jobs_per_cpu_second", fixed(cpu > 0 ? double(submitted) / cpu : 0, 0));
    line("peak_rss_kb", std::to_string(peak_rss_kb()));
    out.flush();
    if (!out) return make_error(Errc::kIo, "error writing the summary (standard output or -t)");
    return ok_status();
}

}  // namespace rq::queue
