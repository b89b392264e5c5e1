#include "session/pools.h"

#include <chrono>

#include "pools/env_writer.h"
#include "pools/local_detect.h"
#include "pools/pool_def.h"
#include "pools/request.h"
#include "session/operations.h"

namespace rq {

Result<RequestCommand> parse_request_command(const Args& args) {
    RequestCommand c;
    size_t i = 1;
    auto value = [&](const std::string& flag) -> Result<std::string> {
        if (i + 1 >= args.size()) return make_error(Errc::kInvalid, flag + " needs a value");
        return args[++i];
    };
    for (; i < args.size() && args[i].size() > 1 && args[i][0] == '-'; ++i) {
        if (args[i] == "-F") {
            auto v = value("-F");
            if (!v) return v.error();
            c.format = *v;
        } else if (args[i] == "--as") {
            auto v = value("--as");
            if (!v) return v.error();
            c.dialect = pools::parse_dialect(*v);
            if (!c.dialect) return make_error(Errc::kInvalid, "--as " + *v + ": expected hq, canary or ctest");
        } else if (args[i] == "--env") {
            auto v = value("--env");
            if (!v) return v.error();
            size_t eq = v->find('=');
            if (eq == std::string::npos || eq == 0) return make_error(Errc::kInvalid, "--env needs NAME=TEMPLATE");
            c.templates.push_back({v->substr(0, eq), v->substr(eq + 1)});
        } else if (args[i] == "--duration") {
            auto v = value("--duration");
            if (!v) return v.error();
            if (!pools::parse_amount(*v, c.duration) || c.duration < 1)
                return make_error(Errc::kInvalid, "--duration needs a positive number of seconds, got " + *v);
        } else {
            return make_error(Errc::kInvalid, "unknown option " + args[i]);
        }
    }
    if (i >= args.size()) return make_error(Errc::kInvalid, "missing sub-command");
    const std::string& sub = args[i++];
    if (sub == "allocate") c.op = pools::PoolOp::kAllocate;
    else if (sub == "allocate_orelse_reserve") c.op = pools::PoolOp::kAllocateOrElseReserve;
    else if (sub == "satisfiability") c.op = pools::PoolOp::kSatisfiability;
    else return make_error(Errc::kInvalid, "unknown subcmd " + sub);
    for (; i < args.size(); ++i) c.text += (c.text.empty() ? "" : " ") + args[i];
    return c;
}

pools::Dialect session_dialect(const Session& s) { return pools::dialect_of_format(s.options.load_format); }

pools::PoolMatcher& session_pool_matcher(Session& s) {
    if (!s.pool_matcher)
        s.pool_matcher = std::make_unique<pools::PoolMatcher>(*s.graph, *s.store, s.traverser->prune_spec());
    return *s.pool_matcher;
}

Result<std::unique_ptr<MatchWriter>> make_named_writer(const std::string& format) {
    return pools::make_pool_writer(format);
}

RequestOutcome run_request(Session& s, const RequestCommand& command) {
    RequestOutcome out;
    if (s.traverser->dominant() != kContainment) {
        // Pools live in the containment tree; so do the records we write.
        out.refused = make_error(Errc::kInvalid, "requests need containment as the dominant subsystem (-S CA, C+...)");
        return out;
    }
    pools::Dialect dialect = command.dialect.value_or(session_dialect(s));
    auto request = pools::parse_request(command.text, dialect);
    if (!request) {
        out.refused = request.error();
        return out;
    }
    std::unique_ptr<MatchWriter> own;
    MatchWriter* writer = s.writer.get();
    if (!command.format.empty()) {
        auto w = make_named_writer(command.format);
        if (!w) {
            out.refused = make_error(Errc::kInvalid, "unknown format " + command.format);
            return out;
        }
        own = std::move(*w);
        writer = own.get();
    }
    pools::PoolMatcher& matcher = session_pool_matcher(s);
    for (auto& [name, text] : command.templates) {
        auto is_pool = [&](const std::string& pool) { return matcher.resolve(pool) != kNoId; };
        Status known = pools::check_placeholders(name, text, is_pool);
        if (!known) {
            out.refused = known;
            return out;
        }
    }
    out.jobid = s.next_jobid;
    const auto started = std::chrono::steady_clock::now();
    auto found = matcher.find(*request, command.op, command.duration);
    if (command.op == pools::PoolOp::kSatisfiability) {
        if (!found) out.found = found.error();
        return out;
    }
    out.found = found ? matcher.record(*found, out.jobid, command.duration) : Status(found.error());
    if (!out.found) return out;
    if (auto* env = dynamic_cast<pools::EnvWriter*>(writer)) {
        // Several workers: say which one got the job (docs/pools.md "-F env").
        std::string worker = matcher.workers().size() > 1 ? std::string(s.graph->name(found->worker)) : "";
        env->set_allocation(*found, *s.graph, dialect, worker);
        env->set_templates(command.templates);
    }
    matcher.emit(*found, *writer, command.duration);
    out.written = flush_to(s, *writer, out.R);
    out.at = found->at;
    s.next_jobid = jobid_after(s.next_jobid);
    JobRecord job;
    job.id = out.jobid;
    job.state = found->at == 0 ? JobState::kAllocated : JobState::kReserved;
    job.scheduled_at = found->at;
    job.jobspec_path = s.share_path("request " + command.text);
    s.jobs[out.jobid] = job;
    // `list` and `info` keep a request's overhead 0 (a resumed session
    // prints what the uninterrupted one did); `stat` gets its time.
    record_match_time(s, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return out;
}

Result<std::string> local_pool_lines() {
    auto machine = pools::detect_local_machine();
    if (!machine) return machine.error();
    std::string text;
    for (const pools::Worker& w : machine->workers) {
        text += "# worker " + w.name + "\n";
        for (const pools::Pool& p : w.pools) text += p.name + "=" + pools::format_pool_definition(p) + "\n";
    }
    return text;
}

}  // namespace rq
