#include "session/queue.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <utility>

#include <unistd.h>

#include "pools/pool_load.h"
#include "pools/request.h"
#include "queue/replay.h"
#include "session/pools.h"
#include "utilities/file.h"

namespace rq {

namespace {

std::string number_text(double d) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", d);
    return text;
}

}  // namespace

queue::PolicyDefaults queue_policy_defaults(const Session& s) {
    return {s.options.queue_policy, s.options.queue_depth, s.options.reservation_depth};
}

Result<queue::Simulator*> session_queue(Session& s) {
    if (s.queue) return s.queue.get();
    auto policy = queue::make_queue_policy(s.options.queue_policy, s.options.queue_depth, s.options.reservation_depth);
    if (!policy) return make_error(policy.code(), "--queue-policy: " + policy.message());
    auto log = std::make_unique<queue::EventLog>(&s.out());
    if (!s.options.events_json.empty()) {
        Status opened = log->open_json(s.options.events_json);
        if (!opened) return opened.error();
    }
    queue::JqmConfig jqm = queue::default_jqm_config();
    if (!s.options.queues_file.empty()) {
        std::string text, why;
        if (!s.read_input(s.options.queues_file, text, FileKind::kConfig, &why))
            return make_error(Errc::kNotFound, "-Q: cannot read " + s.options.queues_file + ": " + why);
        auto loaded = queue::parse_jqm_config(s.options.queues_file, text);
        if (!loaded) return make_error(loaded.code(), "-Q: " + loaded.message());
        jqm = std::move(*loaded);
    }
    auto policies = queue::resolve_queue_policies(jqm, queue_policy_defaults(s));
    if (!policies)
        return make_error(policies.code(), (s.options.queues_file.empty() ? "--queue-policy: " : "-Q: " + s.options.queues_file + ": ") +
                                               policies.message());
    s.queue_log = std::move(log);
    s.queue = std::make_unique<queue::Simulator>(*s.traverser, *policy, *s.queue_log, s.next_jobid);
    s.queue->set_queues(std::move(jqm), std::move(*policies));
    return s.queue.get();
}

Status shape_pool_job(Session& s, const std::string& items, int64_t duration, queue::QueueJob& job) {
    std::string what = "request " + items;
    if (s.traverser->dominant() != kContainment)
        return make_error(Errc::kInvalid, "pool requests need containment as the dominant subsystem (-S CA, C+...)");
    auto request = pools::parse_request_text(items, session_dialect(s));
    if (!request) return request.error();
    // The queue rejects what can never fit; ask first to say why.
    auto sat = session_pool_matcher(s).find(*request, pools::PoolOp::kSatisfiability, 1);
    if (!sat && sat.code() == Errc::kUnsatisfiable)
        return make_error(Errc::kUnsatisfiable, what + ": " + sat.message());
    job.pool = std::make_shared<const pools::Request>(std::move(*request));
    // The saved source names a dialect other than HyperQueue's, so that a
    // resumed session reads it back alike (state/queue_rows_restore.cc).
    bool named = items.rfind("--as", 0) == 0;
    job.source = std::make_shared<const std::string>(named ? what : "request " + pools::request_text(request->dialect, items));
    job.jobspec = std::make_shared<Jobspec>();
    job.estimate = duration < 0 ? 3600 : duration;
    return ok_status();
}

Status shape_jobspec_job(Session& s, const std::string& path, queue::QueueJob& job) {
    std::string text, why;
    if (!s.read_input(path, text, FileKind::kJobspec, &why)) {
        if (pools::parse_request(path, session_dialect(s)))
            return make_error(Errc::kNotFound, "cannot read " + path + " (a pool request is written: submit request " + path + ")");
        return make_error(Errc::kNotFound, "cannot read " + path + ": " + why);
    }
    auto jobspec = parse_jobspec(text, s.graph->types());
    if (!jobspec) return make_error(jobspec.code(), path + ": " + jobspec.message());
    double d = jobspec->duration;
    // Beyond the planner's horizon says the real limit, not "at least 1"
    // (docs/formats.md "Limits on input files").
    if (d > double(kGraphEnd - 1) && !std::isnan(d))
        return make_error(Errc::kRange, path + ": attributes.system.duration " + number_text(d) +
                                            ": out of range, at most " + std::to_string(kGraphEnd - 1));
    if (!(d >= 1 && d < double(kGraphEnd)))
        return make_error(Errc::kInvalid, path + ": attributes.system.duration must be at least 1 second (the requested time)");
    job.estimate = static_cast<int64_t>(std::ceil(d));
    job.jobspec = std::make_shared<Jobspec>(std::move(*jobspec));
    job.source = std::make_shared<const std::string>(std::move(text));
    return ok_status();
}

void log_queue_reject(Session& s, const queue::QueueJob& job, const std::string& what, const std::string& why) {
    if (!s.queue || !s.queue_log) return;
    queue::Event e;
    e.time = s.queue->now();
    e.event = "reject";
    e.queue = job.queue;
    e.name = job.name.empty() ? what : job.name;
    // The shape's errors start with what was submitted: the name says it.
    std::string reason = why.rfind(what + ": ", 0) == 0 ? why.substr(what.size() + 2) : why;
    e.fields = {{"reason", "\"" + reason + "\""}};
    s.queue_log->emit(e);
}

namespace {

// --replay-summary's `machine`: the -L file, else the pool machine's
// --resource definitions, else the machine detected here (-f hwloc).
std::string describe_machine(const Options& o) {
    if (!o.pool_resources.empty()) {
        std::string text;
        for (const std::string& r : o.pool_resources) text += (text.empty() ? "" : " ") + r;
        return text;
    }
    if (o.load_local_machine) return "local machine (" + o.load_format + ")";
    return o.load_file;
}

}  // namespace

Status replay_trace(Session& s, std::ostream& err, const volatile std::sig_atomic_t* stop) {
    queue::ReplayConfig config;
    config.trace = s.options.replay;
    config.shift = s.options.replay_shift;
    config.whole_nodes = s.options.replay_nodes;
    config.csv = s.options.replay_csv;
    config.exhaustive = s.options.replay_exhaustive;
    config.events_json = s.options.events_json;
    auto policy = queue::make_queue_policy(s.options.queue_policy, s.options.queue_depth, s.options.reservation_depth);
    if (!policy) return make_error(policy.code(), "--queue-policy: " + policy.message());
    config.policy = *policy;
    config.read = [&s](const std::string& p, std::string& t) { return s.read_input(p, t, FileKind::kTrace); };
    config.pool_machine = pools::is_pool_format(s.options.load_format) || !s.options.replay_request.empty();
    config.request_template = s.options.replay_request.empty() ? queue::kDefaultReplayRequest : s.options.replay_request;
    config.completed_only = s.options.replay_completed_only;
    config.partition_queues = s.options.replay_partition_queues;
    config.summary_json = s.options.replay_summary;
    config.series = s.options.replay_series;
    config.machine = describe_machine(s.options);
    config.match_policy = s.options.match_policy;
    // A progress line only where a person watches (docs/queue.md "Replay").
    config.progress = ::isatty(STDERR_FILENO) == 1;
    config.slowdown_bound = s.options.replay_slowdown_bound;
    config.top_users = static_cast<size_t>(s.options.replay_top_users);
    config.stop = stop;
    Status done = queue::replay(*s.traverser, config, s.out(), err);
    if (!done) return make_error(done.code(), "--replay: " + done.message());
    return ok_status();
}

Status finish_queue(Session& s) {
    if (s.queue) s.queue->settle();
    if (!s.queue_log) return ok_status();
    s.queue_log->flush();
    return s.queue_log->check_json_written();
}

Status check_queue_options(const Session& s) {
    const Options& o = s.options;
    if (!o.events_json.empty()) {
        // Opened (and emptied) here as the queue will open it.
        std::ofstream probe(o.events_json, std::ios::trunc);
        if (!probe)
            return make_error(Errc::kIo, "--events-json: cannot open " + o.events_json + " for writing: " + std::strerror(errno));
    }
    auto policy = queue::make_queue_policy(o.queue_policy, o.queue_depth, o.reservation_depth);
    if (!policy) return make_error(Errc::kInvalid, "--queue-policy: " + policy.message());
    if (o.queues_file.empty()) return ok_status();
    std::string text, why;
    if (!read_file(o.queues_file, text, &why, FileKind::kConfig))
        return make_error(Errc::kIo, "-Q: cannot read " + o.queues_file + ": " + why);
    auto loaded = queue::parse_jqm_config(o.queues_file, text);
    if (!loaded) return make_error(Errc::kInvalid, "-Q: " + loaded.message());
    auto policies = queue::resolve_queue_policies(*loaded, queue_policy_defaults(s));
    if (!policies) return make_error(Errc::kInvalid, "-Q: " + o.queues_file + ": " + policies.message());
    return ok_status();
}

}  // namespace rq
