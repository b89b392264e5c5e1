#include "queue/replay.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <unordered_map>

#include "queue/job_nodes.h"
#include "queue/metrics.h"
#include "queue/replay_progress.h"
#include "queue/replay_series.h"
#include "queue/replay_shapes.h"
#include "queue/replay_summary.h"
#include "queue/simulator.h"
#include "queue/trace.h"
#include "utilities/file.h"

namespace rq::queue {

namespace {

int64_t total_size(const ResourceGraph& graph, TypeId type) {
    int64_t n = 0;
    if (type == kNoId) return 0;
    for (VertexId v : graph.by_type(type)) n += graph.size(v);
    return n;
}

// The machine in the unit of the trace's sizes.
struct Machine {
    int64_t cores = 0;           // for utilization: cores, or a pool machine's cpus
    int64_t capacity = 0;        // largest size a job may ask (0: the pool matcher decides)
    int64_t nodes = 0;           // vertices of type node (a pool machine's workers)
    int64_t cores_per_node = 0;  // whole-node sizes to cores
    std::string unit = "cores";
};

Machine machine_of(const ResourceGraph& graph, const ReplayConfig& config) {
    Machine m;
    m.nodes = total_size(graph, types::kNode);
    if (config.pool_machine) {
        m.cores = total_size(graph, graph.types().find("cpus"));
        // The default request asks SIZE cpus: the machine's cpus bound it.
        if (config.request_template == kDefaultReplayRequest) m.capacity = m.cores;
        m.unit = "cpus";
        return m;
    }
    m.cores = total_size(graph, types::kCore);
    m.cores_per_node = m.nodes > 0 ? m.cores / m.nodes : 0;
    m.capacity = config.whole_nodes ? m.nodes : m.cores;
    if (config.whole_nodes) m.unit = "nodes";
    return m;
}

}  // namespace

Status replay(DfuTraverser& traverser, const ReplayConfig& config, std::ostream& out, std::ostream& err) {
    ResourceGraph& graph = traverser.graph();
    Machine machine = machine_of(graph, config);
    InputReader read = config.read ? config.read : InputReader([](const std::string& p, std::string& t) { return read_file(p, t, nullptr, FileKind::kTrace); });
    TraceOptions options;
    options.capacity = machine.capacity;
    options.capacity_unit = machine.unit;
    options.shift = config.shift;
    options.time_limit = kGraphEnd;
    options.completed_only = config.completed_only;
    options.partition_queues = config.partition_queues;
    options.whole_nodes = config.whole_nodes;
    auto source = open_trace(config.trace, options, read);
    if (!source) return source.error();
    TraceSource& trace = **source;

    // The first job read before anything is written: a trace refused at
    // its header or first line leaves no CSV behind it.
    std::optional<TraceJob> buffered;
    auto pull = [&]() -> Status {
        auto n = trace.next();
        if (!n) return n.error();
        buffered = std::move(*n);
        return ok_status();
    };
    RQ_TRY(pull());

    std::ofstream csv_file;
    if (!config.csv.empty()) {
        csv_file.open(config.csv, std::ios::trunc);
        if (!csv_file) return make_error(Errc::kIo, "--replay-csv: cannot open " + config.csv + " for writing");
    }
    std::ostream& csv = config.csv.empty() ? out : csv_file;
    ReplaySeries series;
    if (!config.series.empty()) RQ_TRY(series.open(config.series));
    EventLog log(nullptr);
    if (!config.events_json.empty()) RQ_TRY(log.open_json(config.events_json));
    int64_t next_id = 1;
    Simulator sim(traverser, config.policy, log, next_id);
    sim.set_owns_traverser(!config.exhaustive);
    sim.set_walk_cancel(config.exhaustive);
    Metrics metrics(machine.cores, config.slowdown_bound);
    Metrics::csv_header(csv);
    // The users of the jobs not yet finished (per-user metrics), by id.
    std::unordered_map<int64_t, std::string> user_of;
    auto cores_of = [&](const QueueJob& job) { return config.whole_nodes ? job.size * machine.cores_per_node : job.size; };
    JobNodes job_nodes(graph);
    sim.on_start([&](const QueueJob& job, const std::vector<VertexId>& vertices) {
        job_nodes.start(job.id, vertices);
        series.job_started(cores_of(job));
    });
    int64_t finished = 0;
    sim.on_finish([&](const QueueJob& job) {
        ++finished;
        int64_t size = cores_of(job);
        auto user = user_of.find(job.id);
        metrics.add(job, size, user == user_of.end() ? std::string() : user->second);
        if (user != user_of.end()) user_of.erase(user);
        series.job_finished(size);
        Metrics::csv_row(csv, job, size, job_nodes.finish(job.id));
    });
    ReplayProgress progress(err, config.progress, config.progress ? count_trace_jobs(config.trace) : -1);
    if (series.is_open() || progress.on())
        sim.on_instant([&](int64_t t) {
            if (series.is_open())
                series.observe(t, int64_t(sim.pending_count()), int64_t(sim.reserved_count()), job_nodes.busy());
            progress.update(finished, t);
        });

    JobShapes shapes(traverser, config.whole_nodes, read);
    std::string request_template = config.request_template.empty() ? kDefaultReplayRequest : config.request_template;
    int64_t submitted = 0;
    bool stopped = false;
    auto stop_requested = [&]() { return config.stop != nullptr && *config.stop != 0; };
    // Shapes the trace job; false: skipped (counted), with no error.
    auto shape = [&](const TraceJob& tj, QueueJob& job) -> Result<bool> {
        Status shaped = ok_status();
        if (!tj.jobspec_path.empty()) {
            shaped = shapes.shape_by_file(job, tj.jobspec_path, tj.runtime);
            // The job's index in the list names it (docs/queue.md "Replay").
            if (!shaped) return make_error(shaped.code(), config.trace + ": job " + std::to_string(tj.number) + ": " + shaped.message());
        } else if (!tj.request.empty() || config.pool_machine) {
            std::optional<std::string> text = tj.request.empty() ? expand_request(request_template, tj) : tj.request;
            if (!text) {
                trace.skipped().add(SkipReason::kUnknownField, tj.line);
                return false;
            }
            job.size = tj.size;
            // The pool matcher reads the leaves' own records and writes
            // checker spans of its own (no leaf holds and no deferred
            // checkers from here on, traversers/dfu_leaf_holds.cc, dfu_deferred_x.cc).
            traverser.set_replay_shortcuts(false);
            shaped = shapes.shape_by_request(job, *text);
            if (!shaped && shaped.code() == Errc::kUnsatisfiable) {
                trace.skipped().add(SkipReason::kNeverFits, tj.line);
                return false;
            }
        } else {
            shaped = shapes.shape_by_size(job, tj.size);
        }
        if (!shaped) return shaped.error();
        return true;
    };
    Arrivals arrivals;
    // A stop request shows as an arrival now: the loop hands it to
    // enqueue_due, which ends the run with the summary so far.
    arrivals.next_time = [&]() { return stop_requested() ? sim.now() : buffered ? buffered->submit : kNever; };
    arrivals.enqueue_due = [&](int64_t t) -> Status {
        if (stop_requested()) {
            stopped = true;
            return make_error(Errc::kBusy, "interrupted");
        }
        while (buffered && buffered->submit == t) {
            TraceJob& tj = *buffered;
            QueueJob job;
            job.name = tj.name;
            job.queue = tj.queue;
            job.priority = tj.priority;
            job.runtime = tj.runtime;
            job.estimate = tj.estimate;
            auto shaped = shape(tj, job);
            if (!shaped) return shaped.error();
            if (*shaped) {
                // The trace's job number is the job's id (events, CSV);
                // the archive numbers jobs uniquely.
                if (tj.has_number) {
                    if (tj.number < 1 || sim.jobs().count(tj.number))
                        return make_error(Errc::kInvalid, config.trace + ":" + std::to_string(tj.line) + ": job number " +
                                                              std::to_string(tj.number) +
                                                              (tj.number < 1 ? " is not positive" : " is used twice"));
                    next_id = tj.number;
                }
                int64_t id = sim.enqueue(std::move(job));
                if (!tj.user.empty()) user_of[id] = tj.user;
                ++submitted;
            }
            RQ_TRY(pull());
        }
        return ok_status();
    };

    auto started = std::chrono::steady_clock::now();
    std::clock_t cpu_started = std::clock();
    auto left = sim.run(&arrivals);
    ReplayRun run;
    run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress.finish(finished, sim.now());
    run.cpu = double(std::clock() - cpu_started) / CLOCKS_PER_SEC;
    if (!left && !stopped) return left.error();
    log.flush();
    csv.flush();
    run.partial = stopped;
    run.submitted = submitted;
    run.never_started = left ? static_cast<int64_t>(*left) : static_cast<int64_t>(sim.jobs().size());
    run.passes = sim.passes();
    run.reused_tries = sim.reused_tries();
    run.kept_reservations = sim.kept_reservations();
    run.simulated_time = sim.now();
    run.cores = machine.cores;
    run.nodes = machine.nodes;
    // Every write checked (docs/formats.md "Limits on input files"): a full
    // disk under --replay-csv or --events-json is an error, not a short file.
    if (csv_file.is_open() && !csv_file) return make_error(Errc::kIo, "--replay-csv: error writing " + config.csv);
    RQ_TRY(series.close());
    RQ_TRY(log.check_json_written());

    const SkipCounts& skipped = trace.skipped();
    if (skipped.total() > 0)
        err << "WARN: --replay: skipped " << skipped.total() << " job(s) of " << config.trace << ": "
            << skipped.describe(trace.unit()) << "\n";
    if (!stopped && run.never_started > 0) err << "WARN: --replay: " << run.never_started << " job(s) could never start\n";
    print_summary_lines(out, config, metrics, skipped, run);
    out.flush();
    if (!out) return make_error(Errc::kIo, "error writing the summary (standard output or -t)");
    if (!config.summary_json.empty()) RQ_TRY(write_summary_json(config.summary_json, config, metrics, skipped, run));
    if (stopped)
        return make_error(Errc::kBusy, "interrupted at simulated time " + std::to_string(run.simulated_time) +
                                           "; the summary covers the " + std::to_string(metrics.summary().jobs) +
                                           " job(s) finished by then (partial)");
    return ok_status();
}

}  // namespace rq::queue
