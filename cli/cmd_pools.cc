// request and hwdetect: resource pools of HyperQueue, canary and CTest
// (pools/). Thin: the operations live in session/pools.h (parsing,
// matching and writing in pools/); this file prints.
#include <iostream>

#include "cli/command_table.h"
#include "session/pools.h"

namespace rq {

namespace {

const char* kRule = "INFO: =============================\n";

}  // namespace

Next cmd_request(Session& s, const Args& args) {
    auto command = parse_request_command(args);
    if (!command) {
        std::cerr << "request: ERROR: " << command.message() << std::endl;
        return Next::kFailed;
    }
    RequestOutcome done = run_request(s, *command);
    if (!done.refused) {
        std::cerr << "request: ERROR: " << done.refused.message() << std::endl;
        return Next::kFailed;
    }
    const Status& found = done.found;
    if (command->op == pools::PoolOp::kSatisfiability) {
        if (!found && found.code() == Errc::kUnsatisfiable) std::cerr << "request: ERROR: " << found.message() << std::endl;
        s.out() << kRule << (found ? "INFO: Satisfiable request\n" : "INFO: Unsatisfiable request\n") << kRule;
        return found ? Next::kContinue : Next::kFailed;
    }
    if (!found) {
        std::cerr << "request: ERROR: " << found.message() << std::endl;
        s.out() << kRule << "INFO: No matching resources found\n";
        if (found.code() == Errc::kUnsatisfiable) s.out() << "INFO: Unsatisfiable request\n";
        s.out() << "INFO: JOBID=" << done.jobid << "\n" << kRule;
        return Next::kFailed;
    }
    if (done.written.ok())
        s.out() << done.R;
    else
        std::cerr << "request: ERROR: match writer emit: " << errc_text(done.written.code()) << std::endl;
    s.out() << kRule << "INFO: JOBID=" << done.jobid << "\n"
            << "INFO: RESOURCES=" << (done.at == 0 ? "ALLOCATED" : "RESERVED") << "\n"
            << "INFO: SCHEDULED AT=" << (done.at == 0 ? std::string("Now") : std::to_string(done.at)) << "\n"
            << kRule;
    return Next::kContinue;
}

Next cmd_hwdetect(Session& s, const Args& args) {
    if (args.size() != 1) return malformed();
    auto lines = local_pool_lines();
    if (!lines) {
        std::cerr << "hwdetect: ERROR: " << lines.message() << std::endl;
        return Next::kFailed;
    }
    s.out() << *lines;
    return Next::kContinue;
}

}  // namespace rq
