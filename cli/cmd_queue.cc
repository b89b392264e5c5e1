// The simulated queue's commands: submit, set-priority, dequeue, queue,
// time, advance, run (docs/queue.md), and --replay.
// The queue itself lives in queue/; this file only parses and prints.
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli/command_table.h"
#include "session/queue.h"
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

// The session's queue; the reason it cannot be made is printed here.
queue::Simulator* simulator(Session& s) {
    auto made = session_queue(s);
    if (!made) {
        std::cerr << "ERROR: " << made.message() << "\n";
        return nullptr;
    }
    return *made;
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
        return shape_pool_job(s, text, duration, job);
    }
    if (i + 1 != args.size())
        return make_error(Errc::kInvalid, "usage: submit [--queue Q] [--priority P] [--name DEF] [--runtime S] "
                                          "[--rm KEY=N] FILE | [--duration S] request ITEMS...");
    what = args[i];
    if (duration >= 0)
        return make_error(Errc::kInvalid, "--duration is for pool requests; a jobspec's requested time is its duration");
    return shape_jobspec_job(s, what, job);
}

// A submit the queue refuses (it can never run there) is a `reject`
// event without a job id (docs/queue.md, "Events"), so that a
// script reading --events-json sees it.
void log_reject(Session& s, const queue::QueueJob& job, const std::string& what, const std::string& why) {
    if (simulator(s) == nullptr) return;  // the reason is printed
    log_queue_reject(s, job, what, why);
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
    if (!shaped) {
        if (shaped.code() == Errc::kUnsatisfiable) log_reject(s, job, what, shaped.message());
        return queue_error("submit", shaped.message());
    }
    job.runtime = runtime < 0 ? job.estimate : runtime;
    if (job.name.empty()) job.name = job.pool ? "request" : what;
    queue::Simulator* q = simulator(s);
    if (q == nullptr) return Next::kFailed;  // the reason is printed
    std::string queue_name = job.queue, name = job.name;
    auto id = q->submit(std::move(job));
    if (!id) {
        queue::QueueJob refused;
        refused.queue = queue_name;
        refused.name = name;
        log_reject(s, refused, what, id.message());
        return queue_error("submit", what + ": " + id.message());
    }
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
    Status added = sim->add_queue(std::move(q), queue_policy_defaults(s));
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

namespace {

// The signal that asked a replay to stop (0: none). A replay checks it
// between simulated instants.
volatile std::sig_atomic_t replay_stop = 0;

void request_replay_stop(int signal) { replay_stop = signal; }

// SIGINT and SIGTERM stop the replay (it prints the summary so far) for
// the life of this object; the previous handlers come back after.
class ReplayStopSignals {
public:
    ReplayStopSignals() {
        replay_stop = 0;
        struct sigaction action {};
        action.sa_handler = request_replay_stop;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &old_int_);
        sigaction(SIGTERM, &action, &old_term_);
    }
    ~ReplayStopSignals() {
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
    }

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
};

}  // namespace

int run_replay(Session& s) {
    ReplayStopSignals signals;
    Status done = replay_trace(s, std::cerr, &replay_stop);
    s.out().flush();
    if (!done) {
        std::cerr << "ERROR: " << done.message() << "\n";
        // Stopped by a signal: the shell's convention, 128 + the signal.
        return replay_stop != 0 ? 128 + replay_stop : 1;
    }
    return 0;
}

}  // namespace rq
