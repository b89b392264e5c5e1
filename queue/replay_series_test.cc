// --replay-series (docs/queue.md "Replay time series"): every row of a
// hand-checked trace, and on random workloads the series against an
// independent model computed from the per-job CSV alone.
#include "queue/replay_series.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "queue/replay.h"
#include "traversers/test_fixture.h"
#include "utilities/hostlist.h"

namespace rq::queue {
namespace {

std::string temp_path(const std::string& name) {
    return ::testing::TempDir() + "/rq-series-" + std::to_string(::getpid()) + "-" + name;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

struct ReplayOutput {
    std::vector<std::string> csv;     // the per-job CSV, header first
    std::vector<std::string> series;  // the series file, header first
};

// Replays the YAML job list `jobs` on `recipe` and reads both files.
ReplayOutput replay_list(const std::string& recipe, const std::string& match_policy, const std::string& policy,
                         const std::string& jobs, bool whole_nodes = false) {
    rq::testing::Matcher m(recipe, match_policy);
    ReplayConfig config;
    config.trace = "/nonexistent/list.yaml";
    config.policy = *make_queue_policy(policy, 0, 2);
    config.read = [&](const std::string&, std::string& text) {
        text = jobs;
        return true;
    };
    config.series = temp_path("series.csv");
    config.whole_nodes = whole_nodes;
    std::ostringstream out, err;
    Status done = replay(*m.traverser, config, out, err);
    EXPECT_TRUE(done.ok()) << done.message() << err.str();
    ReplayOutput r;
    for (const std::string& line : lines_of(out.str()))
        if (line.rfind("SUMMARY ", 0) != 0) r.csv.push_back(line);
    std::ifstream file(config.series);
    std::stringstream text;
    text << file.rdbuf();
    r.series = lines_of(text.str());
    std::remove(config.series.c_str());
    return r;
}

// Two nodes of two cores, `low`, easy backfill (one reservation). `low`
// spreads a job's single-core slots over the nodes, one per node in turn
// from node0, and takes the lowest-numbered free core. The trace
// (estimate = run time):
//   job 1: submit 0, 2 cores, runs 10
//   job 2: submit 0, 1 core,  runs 4
//   job 3: submit 2, 3 cores, runs 5
//   job 4: submit 3, 1 core,  runs 2
//   job 5: submit 5, 2 cores, runs 3
// What happens:
//   t=0  job 1 starts on a core of each node, job 2 on node0's other
//        core: 2 running, 3 cores, 2 nodes.
//   t=2  job 3 needs 3 cores, 1 is free: blocked; easy reserves it at
//        t=10 (node0 frees at 10); it pends, reserved.
//   t=3  job 4 (1 core, ends at 5 <= 10) backfills on node1's free core.
//   t=4  job 2 ends: 3 cores (jobs 1 and 4); job 3 stays reserved at 10.
//   t=5  job 4 ends, job 5 (2 cores, ends at 8 <= 10) backfills on the
//        free core of each node: 4 cores.
//   t=8  job 5 ends: only job 1 runs, still on both nodes.
//   t=10 job 1 ends, job 3 starts on 3 of the 4 cores (both nodes).
//   t=15 job 3 ends: all idle, 5 started, 5 finished.
TEST(ReplaySeries, HandCheckedTraceGivesEveryRow) {
    ReplayOutput r = replay_list(rq::testing::machine_recipe(1, 2, 1, 2), "low", "easy",
                                 "- {submit: 0, size: 2, runtime: 10}\n"
                                 "- {submit: 0, size: 1, runtime: 4}\n"
                                 "- {submit: 2, size: 3, runtime: 5}\n"
                                 "- {submit: 3, size: 1, runtime: 2}\n"
                                 "- {submit: 5, size: 2, runtime: 3}\n");
    EXPECT_EQ(r.series, (std::vector<std::string>{
                            kSeriesHeader,
                            // time,running,cores,nodes,pending,reserved,started,finished
                            "0,2,3,2,0,0,2,0",
                            "2,2,3,2,1,1,2,0",
                            "3,3,4,2,1,1,3,0",
                            "4,2,3,2,1,1,3,1",
                            "5,2,4,2,1,1,4,2",
                            "8,1,2,2,1,1,4,3",
                            "10,1,3,2,0,0,5,4",
                            "15,0,0,0,0,0,5,5",
                        }));
    // The nodes column: the same story, job by job in order of ending (a
    // hostlist without a comma is not quoted).
    EXPECT_EQ(r.csv, (std::vector<std::string>{
                         "job,name,queue,submit,start,end,wait,runtime,estimate,size,status,nodes",
                         "2,job2,default,0,0,4,0,4,4,1,completed,node0",
                         "4,job4,default,3,3,5,0,2,2,1,completed,node1",
                         "5,job5,default,5,5,8,0,3,3,2,completed,node[0-1]",
                         "1,job1,default,0,0,10,0,10,10,2,completed,node[0-1]",
                         "3,job3,default,2,10,15,8,5,5,3,completed,node[0-1]",
                     }));
}

// The independent model: from the CSV's submit, start, end, size and
// nodes, the figures at every instant that any job reaches, rows kept
// where they change. The series' reserved_jobs is not in the CSV: it is
// left out of the comparison (and rows that differ only by it merged).
struct Figures {
    int64_t running = 0, cores = 0, nodes = 0, pending = 0, started = 0, finished = 0;
    bool operator==(const Figures& o) const {
        return running == o.running && cores == o.cores && nodes == o.nodes && pending == o.pending &&
               started == o.started && finished == o.finished;
    }
};

struct CsvJob {
    int64_t submit, start, end, size;
    std::vector<std::string> nodes;
};

std::vector<CsvJob> parse_csv(const std::vector<std::string>& csv) {
    std::vector<CsvJob> jobs;
    for (size_t i = 1; i < csv.size(); ++i) {
        std::vector<std::string> f;
        size_t at = 0;
        while (f.size() < 11) {
            size_t comma = csv[i].find(',', at);
            f.push_back(csv[i].substr(at, comma - at));
            at = comma + 1;
        }
        std::string nodes = csv[i].substr(at);
        if (!nodes.empty() && nodes.front() == '"') nodes = nodes.substr(1, nodes.size() - 2);
        CsvJob j{std::stoll(f[3]), std::stoll(f[4]), std::stoll(f[5]), std::stoll(f[9]), {}};
        if (!nodes.empty()) j.nodes = *decode_hostlist(nodes);
        jobs.push_back(j);
    }
    return jobs;
}

std::vector<std::pair<int64_t, Figures>> model_rows(const std::vector<CsvJob>& jobs) {
    std::set<int64_t> instants;
    for (const CsvJob& j : jobs) instants.insert({j.submit, j.start, j.end});
    std::vector<std::pair<int64_t, Figures>> rows;
    Figures last;
    for (int64_t t : instants) {
        Figures f;
        std::set<std::string> busy;
        for (const CsvJob& j : jobs) {
            if (j.start <= t && t < j.end) {
                ++f.running;
                f.cores += j.size;
                busy.insert(j.nodes.begin(), j.nodes.end());
            }
            if (j.submit <= t && t < j.start) ++f.pending;
            if (j.start <= t) ++f.started;
            if (j.end <= t) ++f.finished;
        }
        f.nodes = static_cast<int64_t>(busy.size());
        if (!(f == last)) rows.emplace_back(t, f);
        last = f;
    }
    return rows;
}

std::vector<std::pair<int64_t, Figures>> series_rows(const std::vector<std::string>& series) {
    std::vector<std::pair<int64_t, Figures>> rows;
    Figures last;
    int64_t last_time = -1;
    std::string last_line;
    for (size_t i = 1; i < series.size(); ++i) {
        std::vector<int64_t> v;
        std::istringstream in(series[i]);
        for (std::string cell; std::getline(in, cell, ',');) v.push_back(std::stoll(cell));
        EXPECT_EQ(v.size(), 8u) << series[i];
        if (v.size() != 8) return rows;
        // Rows: time strictly increasing, and each one a change.
        EXPECT_GT(v[0], last_time) << series[i];
        EXPECT_NE(series[i].substr(series[i].find(',')), last_line) << series[i];
        last_time = v[0];
        last_line = series[i].substr(series[i].find(','));
        EXPECT_LE(v[5], v[4]) << "reserved jobs are pending jobs: " << series[i];
        Figures f{v[1], v[2], v[3], v[4], v[6], v[7]};
        if (!(f == last)) rows.emplace_back(v[0], f);
        last = f;
    }
    return rows;
}

std::string describe(const std::vector<std::pair<int64_t, Figures>>& rows) {
    std::ostringstream o;
    for (auto& [t, f] : rows)
        o << t << ": " << f.running << ' ' << f.cores << ' ' << f.nodes << ' ' << f.pending << ' ' << f.started << ' '
          << f.finished << '\n';
    return o.str();
}

TEST(ReplaySeries, MatchesAModelOfThePerJobCsvOnRandomWorkloads) {
    std::mt19937_64 rng(27);
    const char* policies[] = {"fcfs", "easy", "conservative", "hybrid", "jqm"};
    const char* matches[] = {"low", "high", "first"};
    for (int round = 0; round < 60; ++round) {
        int nodes = 1 + static_cast<int>(rng() % 4), cores = 1 + static_cast<int>(rng() % 4);
        // Every fourth round sizes are whole nodes (--replay-nodes): the
        // CSV's size and busy_cores are then nodes x cores per node.
        bool whole_nodes = round % 4 == 3;
        int capacity = whole_nodes ? nodes : nodes * cores;
        std::string jobs;
        int64_t submit = 0;
        int n = 5 + static_cast<int>(rng() % 40);
        for (int i = 0; i < n; ++i) {
            submit += static_cast<int64_t>(rng() % 4);  // several jobs per instant too
            int64_t size = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(capacity));
            int64_t runtime = static_cast<int64_t>(rng() % 12);  // 0: starts and ends at one instant
            int64_t estimate = std::max<int64_t>(1, runtime + static_cast<int64_t>(rng() % 5) - 1);  // some killed
            jobs += "- {submit: " + std::to_string(submit) + ", size: " + std::to_string(size) +
                    ", runtime: " + std::to_string(runtime) + ", estimate: " + std::to_string(estimate) + "}\n";
        }
        const char* policy = policies[round % 5];
        const char* match = matches[round % 3];
        ReplayOutput r = replay_list(rq::testing::machine_recipe(1, nodes, 1, cores), match, policy, jobs, whole_nodes);
        std::vector<CsvJob> parsed = parse_csv(r.csv);
        ASSERT_EQ(parsed.size(), static_cast<size_t>(n)) << jobs;
        // Each job's nodes can hold its cores: whole nodes exactly, else
        // from ceil(size / cores per node) to size nodes.
        for (const CsvJob& j : parsed) {
            auto held = static_cast<int64_t>(j.nodes.size());
            if (whole_nodes)
                EXPECT_EQ(held * cores, j.size) << r.csv[0];
            else
                EXPECT_TRUE(held >= (j.size + cores - 1) / cores && held <= j.size) << held << " nodes for " << j.size;
        }
        auto expected = model_rows(parsed);
        auto actual = series_rows(r.series);
        ASSERT_EQ(describe(actual), describe(expected)) << "round " << round << " " << policy << " " << match << " on "
                                                        << nodes << "x" << cores << (whole_nodes ? " whole nodes" : "") << "\n"
                                                        << jobs;
    }
}

TEST(ReplaySeries, KeepsTheLastFiguresOfAnInstantAndOnlyChanges) {
    ReplaySeries s;
    std::string path = temp_path("unit.csv");
    ASSERT_TRUE(s.open(path).ok());
    s.observe(0, 0, 0, 0);  // nothing yet: no row
    s.job_started(4);
    s.observe(3, 1, 0, 1);
    s.job_finished(4);      // a zero-length job: started and ended at 3
    s.observe(3, 1, 0, 0);  // the same instant again: this state wins
    s.observe(7, 1, 0, 0);  // nothing changed: no row
    s.observe(9, 0, 0, 0);
    ASSERT_TRUE(s.close().ok());
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::remove(path.c_str());
    EXPECT_EQ(text.str(), std::string(kSeriesHeader) + "\n3,0,0,0,1,0,1,1\n9,0,0,0,0,0,1,1\n");
}

TEST(ReplaySeries, AnUnwritableFileIsOneErrorNamingIt) {
    ReplaySeries s;
    Status opened = s.open("/nonexistent/dir/series.csv");
    ASSERT_FALSE(opened.ok());
    EXPECT_EQ(opened.message(), "--replay-series: cannot open /nonexistent/dir/series.csv for writing");
}

}  // namespace
}  // namespace rq::queue
