// request and hwdetect: resource pools of HyperQueue, canary and CTest
// (pools/). Thin: parsing, matching and printing live in pools/.
#include <chrono>
#include <iostream>

#include "session/operations.h"
#include "cli/command_table.h"
#include "pools/env_writer.h"
#include "pools/local_detect.h"
#include "pools/pool_def.h"
#include "pools/pool_matcher.h"
#include "pools/request.h"

namespace rq {

namespace {

const char* kRule = "INFO: =============================\n";

struct RequestCommand {
    std::string format;  // empty: the session's writer
    std::vector<std::pair<std::string, std::string>> templates;
    int64_t duration = 3600;
    pools::PoolOp op = pools::PoolOp::kAllocate;
    std::string text;
};

Result<RequestCommand> parse_command(const Args& args) {
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

pools::PoolMatcher& matcher(Session& s) {
    if (!s.pool_matcher)
        s.pool_matcher = std::make_unique<pools::PoolMatcher>(*s.graph, *s.store, s.traverser->prune_spec());
    return *s.pool_matcher;
}

}  // namespace

Next cmd_request(Session& s, const Args& args) {
    auto command = parse_command(args);
    if (!command) {
        std::cerr << "request: ERROR: " << command.message() << std::endl;
        return Next::kFailed;
    }
    if (s.traverser->dominant() != kContainment) {
        // Pools live in the containment tree; so do the records we write.
        std::cerr << "request: ERROR: requests need containment as the dominant subsystem (-S CA, C+...)" << std::endl;
        return Next::kFailed;
    }
    auto request = pools::parse_request(command->text);
    if (!request) {
        std::cerr << "request: ERROR: " << request.message() << std::endl;
        return Next::kFailed;
    }
    std::unique_ptr<MatchWriter> own;
    MatchWriter* writer = s.writer.get();
    if (!command->format.empty()) {
        auto w = pools::make_pool_writer(command->format);
        if (!w) {
            std::cerr << "request: ERROR: unknown format " << command->format << std::endl;
            return Next::kFailed;
        }
        own = std::move(*w);
        writer = own.get();
    }
    const int64_t jobid = s.next_jobid;
    const auto started = std::chrono::steady_clock::now();
    auto found = matcher(s).find(*request, command->op, command->duration);
    if (command->op == pools::PoolOp::kSatisfiability) {
        if (!found && found.code() == Errc::kUnsatisfiable) std::cerr << "request: ERROR: " << found.message() << std::endl;
        s.out() << kRule << (found ? "INFO: Satisfiable request\n" : "INFO: Unsatisfiable request\n") << kRule;
        return found ? Next::kContinue : Next::kFailed;
    }
    Status recorded = found ? matcher(s).record(*found, jobid, command->duration) : Status(found.error());
    if (!recorded) {
        std::cerr << "request: ERROR: " << recorded.message() << std::endl;
        s.out() << kRule << "INFO: No matching resources found\n";
        if (recorded.code() == Errc::kUnsatisfiable) s.out() << "INFO: Unsatisfiable request\n";
        s.out() << "INFO: JOBID=" << jobid << "\n" << kRule;
        return Next::kFailed;
    }
    if (auto* env = dynamic_cast<pools::EnvWriter*>(writer)) {
        env->set_allocation(*found, *s.graph);
        env->set_templates(command->templates);
    }
    matcher(s).emit(*found, *writer, command->duration);
    if (Status written = writer->flush(s.out()); !written) {
        std::cerr << "request: ERROR: match writer emit: " << errc_text(written.code()) << std::endl;
        writer->reset();
    }
    s.next_jobid = jobid_after(s.next_jobid);
    s.out() << kRule << "INFO: JOBID=" << jobid << "\n"
            << "INFO: RESOURCES=" << (found->at == 0 ? "ALLOCATED" : "RESERVED") << "\n"
            << "INFO: SCHEDULED AT=" << (found->at == 0 ? std::string("Now") : std::to_string(found->at)) << "\n"
            << kRule;
    JobRecord job;
    job.id = jobid;
    job.state = found->at == 0 ? JobState::kAllocated : JobState::kReserved;
    job.scheduled_at = found->at;
    job.jobspec_path = s.share_path("request " + command->text);
    s.jobs[jobid] = job;
    // `list` and `info` keep a request's overhead 0 (a resumed session
    // prints what the uninterrupted one did); `stat` gets its time.
    record_match_time(s, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return Next::kContinue;
}

Next cmd_hwdetect(Session& s, const Args& args) {
    if (args.size() != 1) return malformed();
    auto machine = pools::detect_local_machine();
    if (!machine) {
        std::cerr << "hwdetect: ERROR: " << machine.message() << std::endl;
        return Next::kFailed;
    }
    for (const pools::Worker& w : machine->workers) {
        s.out() << "# worker " << w.name << "\n";
        for (const pools::Pool& p : w.pools) s.out() << p.name << "=" << pools::format_pool_definition(p) << "\n";
    }
    return Next::kContinue;
}

}  // namespace rq
