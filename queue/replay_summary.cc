#include "queue/replay_summary.h"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

namespace rq::queue {

namespace {

long peak_rss_kb() {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

nlohmann::json summary_json(const Summary& s) {
    nlohmann::json j;
    j["jobs"] = s.jobs;
    j["killed"] = s.killed;
    j["zero_runtime"] = s.zero_runtime;
    j["makespan"] = s.makespan;
    j["core_seconds"] = s.core_seconds;
    j["utilization"] = s.utilization;
    j["throughput_per_hour"] = s.throughput;
    j["wait"] = {{"mean", s.wait_mean}, {"median", s.wait_median}, {"p90", s.wait_p90},
                 {"p99", s.wait_p99},   {"max", s.wait_max}};
    j["bounded_slowdown"] = {{"mean", s.bsld_mean}, {"max", s.bsld_max}};
    return j;
}

}  // namespace

void print_summary_lines(std::ostream& out, const ReplayConfig& config, const Metrics& metrics,
                         const SkipCounts& skipped, const ReplayRun& run) {
    Summary s = metrics.summary();
    auto line = [&](const std::string& key, const std::string& value) { out << "SUMMARY " << key << "=" << value << "\n"; };
    if (run.partial) line("partial", "1");
    line("policy", config.policy.name);
    line("queue_depth", std::to_string(config.policy.queue_depth));
    line("jobs", std::to_string(s.jobs));
    line("skipped", std::to_string(skipped.total()));
    for (size_t r = 0; r < static_cast<size_t>(SkipReason::kCount); ++r)
        if (skipped.count(SkipReason(r)) > 0)
            line(std::string("skipped_") + SkipCounts::key(SkipReason(r)), std::to_string(skipped.count(SkipReason(r))));
    line("never_started", std::to_string(run.never_started));
    line("killed", std::to_string(s.killed));
    line("zero_runtime", std::to_string(s.zero_runtime));
    line("makespan", std::to_string(s.makespan));
    line("utilization", fixed(s.utilization, 4));
    line("throughput_per_hour", fixed(s.throughput, 2));
    line("wait_mean", fixed(s.wait_mean, 2));
    line("wait_median", fixed(s.wait_median, 1));
    line("wait_p90", std::to_string(s.wait_p90));
    line("wait_p99", std::to_string(s.wait_p99));
    line("wait_max", std::to_string(s.wait_max));
    line("slowdown_bound", std::to_string(metrics.slowdown_bound()));
    line("bounded_slowdown_mean", fixed(s.bsld_mean, 3));
    line("bounded_slowdown_max", fixed(s.bsld_max, 3));
    line("passes", std::to_string(run.passes));
    line("reused_tries", std::to_string(run.reused_tries));
    line("kept_reservations", std::to_string(run.kept_reservations));
    line("wall_seconds", fixed(run.wall, 3));
    line("jobs_per_second", fixed(run.wall > 0 ? double(run.submitted) / run.wall : 0, 0));
    // CPU time too: on a shared machine the wall clock measures the others.
    line("cpu_seconds", fixed(run.cpu, 3));
    line("jobs_per_cpu_second", fixed(run.cpu > 0 ? double(run.submitted) / run.cpu : 0, 0));
    line("peak_rss_kb", std::to_string(peak_rss_kb()));
}

Status write_summary_json(const std::string& path, const ReplayConfig& config, const Metrics& metrics,
                          const SkipCounts& skipped, const ReplayRun& run) {
    nlohmann::json j = summary_json(metrics.summary());
    j["trace"] = config.trace;
    j["partial"] = run.partial;
    if (run.partial) j["simulated_time"] = run.simulated_time;
    j["policy"] = config.policy.name;
    j["never_started"] = run.never_started;
    j["bounded_slowdown"]["bound"] = metrics.slowdown_bound();
    nlohmann::json skips = {{"total", skipped.total()}};
    for (size_t r = 0; r < static_cast<size_t>(SkipReason::kCount); ++r)
        skips[SkipCounts::key(SkipReason(r))] = skipped.count(SkipReason(r));
    j["skipped"] = skips;
    nlohmann::json queues = nlohmann::json::object();
    for (auto& [name, s] : metrics.by_queue()) queues[name] = summary_json(s);
    j["queues"] = queues;
    nlohmann::json users = nlohmann::json::array();
    for (auto& [name, s] : metrics.top_users(config.top_users)) {
        nlohmann::json u = summary_json(s);
        u["user"] = name;
        users.push_back(u);
    }
    j["users"] = users;  // the top users by core-seconds
    j["users_total"] = metrics.users();
    // What the run was, for a study's tables (docs/queue.md "Replay
    // metrics"): the files it wrote are null when not asked for.
    j["machine"] = config.machine;
    j["cores"] = run.cores;
    j["nodes"] = run.nodes;
    j["queue_depth"] = config.policy.queue_depth;
    j["match_policy"] = config.match_policy;
    auto path_or_null = [](const std::string& p) { return p.empty() ? nlohmann::json() : nlohmann::json(p); };
    j["series"] = path_or_null(config.series);
    j["csv"] = path_or_null(config.csv);
    std::ofstream file(path, std::ios::trunc);
    if (!file) return make_error(Errc::kIo, "--replay-summary: cannot open " + path + " for writing");
    file << j.dump(2) << '\n';
    file.flush();
    if (!file) return make_error(Errc::kIo, "--replay-summary: cannot write " + path);
    return ok_status();
}

}  // namespace rq::queue
