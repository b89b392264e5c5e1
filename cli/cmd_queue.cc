// The simulated queue's commands: submit, set-priority, dequeue, queue,
// time, advance, run (docs/queue.md), and --replay.
// The queue itself lives in queue/; this file only parses and prints.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli/command_table.h"
#include "pools/pool_matcher.h"
#include "pools/request.h"
#include "queue/replay.h"
#include "utilities/file.h"

namespace rq {

namespace {

bool parse_int(const std::string& s, int64_t& n) {
    if (s.empty() || s.size() > 15) return false;
    size_t i = s[0] == '-' ? 1 : 0;
    if (i == s.size()) return false;
    for (size_t k = i; k < s.size(); ++k)
        if (s[k] < '0' || s[k] > '9') return false;
    n = std::stoll(s);
    return true;
}

std::string number_text(double d) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", d);
    return text;
}

// A whole number of seconds from `low` to `high` for option `flag`. A
// value written as a number but beyond the range says the real limit
// ("--runtime 1e300: out of range, at most ...") rather than "not a
// number" (docs/formats.md "Limits on input files").
Status parse_seconds(const std::string& flag, const std::string& value, int64_t low, int64_t high, int64_t& n) {
    std::string shape = flag + " must be a number of seconds >= " + std::to_string(low) + ", not '" + value + "'";
    if (parse_int(value, n)) {
        if (n < low) return make_error(Errc::kInvalid, shape);
        if (n > high) return make_error(Errc::kRange, flag + " " + value + ": out of range, at most " + std::to_string(high));
        return ok_status();
    }
    char* end = nullptr;
    errno = 0;
    long double v = value.empty() ? 0 : std::strtold(value.c_str(), &end);
    if (value.empty() || end == value.c_str() || *end != '\0' || std::isnan(v)) return make_error(Errc::kInvalid, shape);
    if (v > static_cast<long double>(high))
        return make_error(Errc::kRange, flag + " " + value + ": out of range, at most " + std::to_string(high));
    if (v < static_cast<long double>(low)) return make_error(Errc::kInvalid, shape);
    if (v != std::floor(v)) return make_error(Errc::kInvalid, flag + " must be a whole number of seconds, not '" + value + "'");
    n = static_cast<int64_t>(v);
    return ok_status();
}

queue::PolicyDefaults policy_defaults(const Session& s) {
    return {s.options.queue_policy, s.options.queue_depth, s.options.reservation_depth};
}

// The queue, created on first use with the command-line settings. Errors
// (a bad --queue-policy, an unwritable --events-json) are printed here.
queue::Simulator* simulator(Session& s) {
    if (s.queue) return s.queue.get();
    auto policy = queue::make_queue_policy(s.options.queue_policy, s.options.queue_depth, s.options.reservation_depth);
    if (!policy) {
        std::cerr << "ERROR: --queue-policy: " << policy.message() << "\n";
        return nullptr;
    }
    auto log = std::make_unique<queue::EventLog>(&s.out());
    if (!s.options.events_json.empty()) {
        Status opened = log->open_json(s.options.events_json);
        if (!opened) {
            std::cerr << "ERROR: " << opened.message() << "\n";
            return nullptr;
        }
    }
    queue::JqmConfig jqm = queue::default_jqm_config();
    if (!s.options.queues_file.empty()) {
        std::string text;
        std::string why;
        if (!s.read_input(s.options.queues_file, text, FileKind::kConfig, &why)) {
            std::cerr << "ERROR: -Q: cannot read " << s.options.queues_file << ": " << why << "\n";
            return nullptr;
        }
        auto loaded = queue::parse_jqm_config(s.options.queues_file, text);
        if (!loaded) {
            std::cerr << "ERROR: -Q: " << loaded.message() << "\n";
            return nullptr;
        }
        jqm = std::move(*loaded);
    }
    auto policies = queue::resolve_queue_policies(jqm, policy_defaults(s));
    if (!policies) {
        std::cerr << "ERROR: " << (s.options.queues_file.empty() ? "--queue-policy: " : "-Q: " + s.options.queues_file + ": ")
                  << policies.message() << "\n";
        return nullptr;
    }
    s.queue_log = std::move(log);
    s.queue = std::make_unique<queue::Simulator>(*s.traverser, *policy, *s.queue_log, s.next_jobid);
    s.queue->set_queues(std::move(jqm), std::move(*policies));
    return s.queue.get();
}

Next queue_error(const std::string& what, const std::string& message) {
    std::cerr << "ERROR: " << what << ": " << message << "\n";
    return Next::kFailed;
}

// The job's shape: a jobspec FILE, or `request ITEMS...` (a pool request in
// the syntax of the `request` command, docs/pools.md).
Status shape_job(Session& s, const Args& args, size_t i, int64_t duration, queue::QueueJob& job, std::string& what) {
    if (args[i] == "request" && i + 1 == args.size())
        return make_error(Errc::kInvalid, "request needs ITEMS, such as cpus=4 (a file named request: ./request)");
    if (args[i] == "request") {
        std::string text;
        for (size_t k = i + 1; k < args.size(); ++k) text += (k > i + 1 ? " " : "") + args[k];
        what = "request " + text;
        if (s.traverser->dominant() != kContainment)
            return make_error(Errc::kInvalid, "pool requests need containment as the dominant subsystem (-S CA, C+...)");
        auto request = pools::parse_request(text);
        if (!request) return request.error();
        // The queue rejects what can never fit; ask first to say why.
        if (!s.pool_matcher)
            s.pool_matcher = std::make_unique<pools::PoolMatcher>(*s.graph, *s.store, s.traverser->prune_spec());
        auto sat = s.pool_matcher->find(*request, pools::PoolOp::kSatisfiability, 1);
        if (!sat && sat.code() == Errc::kUnsatisfiable)
            return make_error(Errc::kUnsatisfiable, what + ": " + sat.message());
        job.pool = std::make_shared<const pools::Request>(std::move(*request));
        job.source = std::make_shared<const std::string>(what);
        job.jobspec = std::make_shared<Jobspec>();
        job.estimate = duration < 0 ? 3600 : duration;
        return ok_status();
    }
    if (i + 1 != args.size())
        return make_error(Errc::kInvalid, "usage: submit [--queue Q] [--priority P] [--name DEF] [--runtime S] "
                                          "[--rm KEY=N] FILE | [--duration S] request ITEMS...");
    what = args[i];
    if (duration >= 0)
        return make_error(Errc::kInvalid, "--duration is for pool requests; a jobspec's requested time is its duration");
    std::string text, why;
    if (!s.read_input(what, text, FileKind::kJobspec, &why)) {
        if (pools::parse_request(what)) return make_error(Errc::kNotFound, "cannot read " + what + " (a pool request is written: submit request " + what + ")");
        return make_error(Errc::kNotFound, "cannot read " + what + ": " + why);
    }
    auto jobspec = parse_jobspec(text, s.graph->types());
    if (!jobspec) return make_error(jobspec.code(), what + ": " + jobspec.message());
    double d = jobspec->duration;
    if (d > double(kGraphEnd - 1) && !std::isnan(d))
        return make_error(Errc::kRange, what + ": attributes.system.duration " + number_text(d) +
                                            ": out of range, at most " + std::to_string(kGraphEnd - 1));
    if (!(d >= 1 && d < double(kGraphEnd)))
        return make_error(Errc::kInvalid, what + ": attributes.system.duration must be at least 1 second (the requested time)");
    job.estimate = static_cast<int64_t>(std::ceil(d));
    job.jobspec = std::make_shared<Jobspec>(std::move(*jobspec));
    job.source = std::make_shared<const std::string>(std::move(text));
    return ok_status();
}

}  // namespace

// submit [--queue Q] [--priority P] [--name DEF] [--runtime S] [--rm KEY=N]
//        FILE | [--duration S] request ITEMS...
Next cmd_submit(Session& s, const Args& args) {
    queue::QueueJob job;
    int64_t runtime = -1, duration = -1;
    size_t i = 1;
    for (; i + 1 < args.size() && args[i].rfind("--", 0) == 0; i += 2) {
        const std::string& flag = args[i];
        const std::string& value = args[i + 1];
        int64_t n = 0;
        if (flag == "--queue") {
            job.queue = value;
        } else if (flag == "--name") {
            job.name = value;
        } else if (flag == "--priority") {
            if (!parse_int(value, n) || n < 1 || n > 10)
                return queue_error("submit", "--priority must be 1 to 10, not '" + value + "'");
            job.priority = static_cast<int>(n);
        } else if (flag == "--rm") {
            auto eq = value.find('=');
            if (eq == std::string::npos || eq == 0 || !parse_int(value.substr(eq + 1), n) || n < 0)
                return queue_error("submit", "--rm needs KEY=COUNT (a resource manager's consumption), not '" + value + "'");
            job.rm[value.substr(0, eq)] = n;
        } else if (flag == "--runtime") {
            // Any run time: one beyond the requested time is killed at it.
            if (Status ok = parse_seconds(flag, value, 0, INT64_MAX, n); !ok) return queue_error("submit", ok.message());
            runtime = n;
        } else if (flag == "--duration") {
            // The planner's time window is [0, kGraphEnd).
            if (Status ok = parse_seconds(flag, value, 1, kGraphEnd - 1, n); !ok) return queue_error("submit", ok.message());
            duration = n;
        } else {
            return queue_error("submit", "unknown option '" + flag + "' (--queue, --priority, --name, --runtime, --rm, --duration)");
        }
    }
    if (i >= args.size())
        return queue_error("submit", "usage: submit [--queue Q] [--priority P] [--name DEF] [--runtime S] [--rm KEY=N] "
                                     "FILE | [--duration S] request ITEMS...");
    std::string what;
    Status shaped = shape_job(s, args, i, duration, job, what);
    if (!shaped) return queue_error("submit", shaped.message());
    job.runtime = runtime < 0 ? job.estimate : runtime;
    if (job.name.empty()) job.name = job.pool ? "request" : what;
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    auto id = q->submit(std::move(job));
    if (!id) return queue_error("submit", what + ": " + id.message());
    return Next::kContinue;
}

Next cmd_set_priority(Session& s, const Args& args) {
    int64_t id = 0, p = 0;
    if (args.size() != 3 || !parse_int(args[1], id) || !parse_int(args[2], p))
        return queue_error("set-priority", "usage: set-priority JOBID PRIORITY");
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    Status done = q->set_priority(id, static_cast<int>(std::max<int64_t>(std::min<int64_t>(p, 1000), -1000)));
    if (!done) return queue_error("set-priority", done.message());
    return Next::kContinue;
}

Next cmd_dequeue(Session& s, const Args& args) {
    int64_t id = 0;
    if (args.size() != 2 || !parse_int(args[1], id)) return queue_error("dequeue", "usage: dequeue JOBID");
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    Status done = q->dequeue(id);
    if (!done) return queue_error("dequeue", done.message());
    return Next::kContinue;
}

Next cmd_queue(Session& s, const Args&) {
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    q->settle();
    auto pending = q->pending();
    s.out() << "QUEUE time=" << q->now() << " policy=" << q->policy().name << " pending=" << pending.size()
            << " running=" << q->running() << "\n";
    for (const queue::QueueJob* j : pending) {
        s.out() << "  job=" << j->id << " name=" << j->name << " queue=" << j->queue << " priority=" << j->priority
                << " submit=" << j->submit
                << " state=" << (j->state == queue::QueueJobState::kReserved ? "reserved" : "pending")
                << " reason=\"" << (j->considered_in == q->passes() ? j->reason : "not considered in the last pass (behind a blocked fcfs head or beyond queue-depth)") << "\"\n";
    }
    return Next::kContinue;
}

Next cmd_time(Session& s, const Args&) {
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    q->settle();
    s.out() << "TIME " << q->now() << "\n";
    return Next::kContinue;
}

Next cmd_advance(Session& s, const Args& args) {
    int64_t seconds = 0;
    if (args.size() != 2 || !parse_int(args[1], seconds) || seconds < 0)
        return queue_error("advance", "usage: advance SECONDS (a number >= 0)");
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    Status done = q->advance(seconds);
    if (!done) return queue_error("advance", done.message());
    return Next::kContinue;
}

Next cmd_run(Session& s, const Args&) {
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    auto left = q->run();
    if (!left) return queue_error("run", left.message());
    if (*left > 0) std::cerr << "WARN: run: " << *left << " job(s) can never start (resources down?)\n";
    return Next::kContinue;
}

// queue-add NAME [--policy P] [--queue-depth N] [--reservation-depth N]
Next cmd_queue_add(Session& s, const Args& args) {
    const char* usage = "usage: queue-add NAME [--policy P] [--queue-depth N] [--reservation-depth N]";
    if (args.size() < 2 || args[1].rfind("--", 0) == 0 || args.size() % 2 != 0) return queue_error("queue-add", usage);
    queue::JqmQueue q;
    q.name = args[1];
    for (size_t i = 2; i + 1 < args.size(); i += 2) {
        const std::string& flag = args[i];
        const std::string& value = args[i + 1];
        int64_t n = 0;
        if (flag == "--policy") {
            q.policy = value;
        } else if (flag == "--queue-depth") {
            if (!parse_int(value, n) || n < 0)
                return queue_error("queue-add", "queue-depth must be 0 (all) or positive, not '" + value + "'");
            q.queue_depth = n;
        } else if (flag == "--reservation-depth") {
            if (!parse_int(value, n) || n < 1)
                return queue_error("queue-add", "reservation-depth must be >= 1, not '" + value + "'");
            q.reservation_depth = n;
        } else {
            return queue_error("queue-add", "unknown option '" + flag + "' (--policy, --queue-depth, --reservation-depth)");
        }
    }
    queue::Simulator* sim = simulator(s);
    if (sim == nullptr) return Next::kFailed;  // the reason is printed
    Status added = sim->add_queue(std::move(q), policy_defaults(s));
    if (!added) return queue_error("queue-add", added.message());
    return Next::kContinue;
}

// queue-manager Q quantity KEY N | discrete KEY ITEM... | highlander KEY
Next cmd_queue_manager(Session& s, const Args& args) {
    const char* usage = "usage: queue-manager QUEUE quantity KEY N | discrete KEY ITEM... | highlander KEY";
    if (args.size() < 4) return queue_error("queue-manager", usage);
    queue::ResourceManager m;
    const std::string& type = args[2];
    m.key = args[3];
    if (type == "quantity") {
        if (args.size() != 5) return queue_error("queue-manager", usage);
        if (!parse_int(args[4], m.quantity))
            return queue_error("queue-manager", "queue " + args[1] + ": " + m.key + ": quantity must be a number, not '" + args[4] + "'");
    } else if (type == "discrete") {
        m.kind = queue::ResourceManager::kDiscrete;
        m.default_consumption = 0;
        if (args.size() < 5) return queue_error("queue-manager", usage);
        m.items.assign(args.begin() + 4, args.end());
    } else if (type == "highlander") {
        if (args.size() != 4) return queue_error("queue-manager", usage);
        m.kind = queue::ResourceManager::kHighlander;
    } else {
        return queue_error("queue-manager", "queue " + args[1] + ": unknown manager type '" + type +
                                                "' (quantity, discrete, highlander)");
    }
    queue::Simulator* sim = simulator(s);
    if (sim == nullptr) return Next::kFailed;  // the reason is printed
    Status added = sim->add_queue_manager(args[1], std::move(m));
    if (!added) return queue_error("queue-manager", added.message());
    return Next::kContinue;
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
        if (!probe) return make_error(Errc::kIo, "--events-json: cannot open " + o.events_json + " for writing: " +
                                                     std::strerror(errno));
    }
    auto policy = queue::make_queue_policy(o.queue_policy, o.queue_depth, o.reservation_depth);
    if (!policy) return make_error(Errc::kInvalid, "--queue-policy: " + policy.message());
    if (o.queues_file.empty()) return ok_status();
    std::string text, why;
    if (!read_file(o.queues_file, text, &why, FileKind::kConfig))
        return make_error(Errc::kIo, "-Q: cannot read " + o.queues_file + ": " + why);
    auto loaded = queue::parse_jqm_config(o.queues_file, text);
    if (!loaded) return make_error(Errc::kInvalid, "-Q: " + loaded.message());
    auto policies = queue::resolve_queue_policies(*loaded, policy_defaults(s));
    if (!policies) return make_error(Errc::kInvalid, "-Q: " + o.queues_file + ": " + policies.message());
    return ok_status();
}

int run_replay(Session& s) {
    queue::ReplayConfig config;
    config.trace = s.options.replay;
    config.shift = s.options.replay_shift;
    config.whole_nodes = s.options.replay_nodes;
    config.csv = s.options.replay_csv;
    config.exhaustive = s.options.replay_exhaustive;
    config.events_json = s.options.events_json;
    auto policy = queue::make_queue_policy(s.options.queue_policy, s.options.queue_depth, s.options.reservation_depth);
    if (!policy) {
        std::cerr << "ERROR: --queue-policy: " << policy.message() << "\n";
        return 1;
    }
    config.policy = *policy;
    config.read = [&s](const std::string& p, std::string& t) { return s.read_input(p, t, FileKind::kTrace); };
    Status done = queue::replay(*s.traverser, config, s.out(), std::cerr);
    s.out().flush();
    if (!done) {
        std::cerr << "ERROR: --replay: " << done.message() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace rq
