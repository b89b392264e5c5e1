// cancel, list, info, stat (spec/cli.md §5.7, §5.13).
#include <cstdlib>
#include <iostream>

#include "cli/command_table.h"
#include "session/operations.h"

namespace rq {

namespace {

int64_t parse_jobid(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }

const char* state_name(JobState state) {
    switch (state) {
    case JobState::kAllocated: return "ALLOCATED";
    case JobState::kReserved: return "RESERVED";
    case JobState::kCanceled: return "CANCELED";
    }
    return "";
}

void print_job(const JobRecord& job) {
    std::cout << "INFO: " << job.id << ", " << state_name(job.state) << ", " << job.scheduled_at << ", "
              << (job.jobspec_path ? *job.jobspec_path : std::string()) << ", " << job.overhead << "\n";
}

}  // namespace

Next cmd_cancel(Session& s, const Args& args) {
    if (args.size() != 2 && args.size() != 3) return malformed();
    int64_t jobid = parse_jobid(args[1]);
    Status done = cancel_job(s, jobid);
    if (!done.ok()) {
        std::cerr << done.message() << std::endl;
        return Next::kFailed;
    }
    if (args.size() == 3 && args[2] == "stats") {
        s.out() << "INFO: =============================\n"
                << "INFO: CANCEL PREORDER COUNT=\"" << s.traverser->preorder() << "\"\n"
                << "INFO: CANCEL POSTORDER COUNT=\"" << s.traverser->postorder() << "\"\n"
                << "INFO: =============================\n";
        s.out().flush();
    }
    return Next::kContinue;
}

Next cmd_list(Session& s, const Args&) {
    for (auto& [id, job] : s.jobs) print_job(job);
    std::cout.flush();
    return Next::kContinue;
}

Next cmd_info(Session& s, const Args& args) {
    if (args.size() != 2) return malformed();
    int64_t jobid = parse_jobid(args[1]);
    auto job = s.jobs.find(jobid);
    if (!job) {
        std::cerr << "info: ERROR: nonexistent job " << jobid << std::endl;
        return Next::kFailed;
    }
    print_job(*job);
    std::cout.flush();
    return Next::kContinue;
}

Next cmd_stat(Session& s, const Args& args) {
    if (args.size() != 1) return malformed();
    size_t jobs = s.jobs.size();
    double min = jobs == 0 ? 0 : s.min_match_time;
    double avg = jobs == 0 ? 0 : s.total_match_time / static_cast<double>(jobs);
    std::cout << "INFO: Num. of Jobs Matched: " << jobs << "\n"
              << "INFO: Min. Match Time: " << min << "\n"
              << "INFO: Max. Match Time: " << s.max_match_time << "\n"
              << "INFO: Avg. Match Time: " << avg << std::endl;
    return Next::kContinue;
}

}  // namespace rq
