// Pool requests in the simulated queue (docs/queue.md "Pool requests in the queue").
//
// Machine: one worker with one sum pool `cpus` of N units (pools/
// pool_graph.h), so a reservation is tied to nothing but an amount, and the
// independent model below is a flat pool of N (docs/queue.md "Graph vs flat
// pool", "Pool requests in the queue": the sum-pool machine). The model shares no code with queue/,
// pools/ or the planner: per pass it walks the pending jobs in order;
// a job starts if its amount fits over [now, now + requested time) beside
// the running jobs' spans and this pass's reservations, else it is reserved
// at the earliest span end where it fits (while the policy grants
// reservations), else it blocks (fcfs stops there).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "policies/match_policy.h"
#include "pools/pool_graph.h"
#include "queue/queue_test_util.h"
#include "queue/replay.h"
#include "queue/simulator.h"

namespace rq::queue {
namespace {

using testing::Spec;

struct PoolQueue {
    ResourceGraph graph;
    ScheduleStore store;
    std::unique_ptr<MatchPolicy> match_policy;
    std::unique_ptr<DfuTraverser> traverser;
    std::ostringstream lines;
    EventLog log{&lines};
    int64_t next_id = 1;
    std::unique_ptr<Simulator> sim;
    std::map<int64_t, int64_t> start;  // finished jobs: id -> start

    PoolQueue(const std::string& definition, const std::string& policy, int64_t queue_depth = 32) {
        pools::Machine m;
        pools::Worker w;
        w.name = "w";
        // HyperQueue refuses `cpus=sum(N)` (docs/pools.md "Coming from
        // HyperQueue"); this flat model wants a sum pool of cpus, so it is
        // parsed under another name and renamed.
        pools::Pool pool = *pools::parse_pool_definition("slots", definition);
        pool.name = "cpus";
        if (pool.sum) pool.groups = {{{"cpus", pool.size}}};
        w.pools.push_back(std::move(pool));
        m.workers.push_back(w);
        EXPECT_TRUE(pools::build_pool_graph(m, graph).ok());
        graph.recount_nodes_up();
        graph.types().freeze();
        match_policy = std::move(make_policy("first").value());
        TraverserConfig config;
        config.subsystems = {kContainment};
        config.prune_filters += pools::pool_prune_filters(graph);
        traverser = std::move(DfuTraverser::create(graph, store, *match_policy, config).value());
        sim = std::make_unique<Simulator>(*traverser, *make_queue_policy(policy, queue_depth, 0), log, next_id);
        sim->on_finish([this](const QueueJob& j) { start[j.id] = j.start; });
    }

    QueueJob job(const std::string& request, int64_t estimate, int64_t runtime = -1) {
        QueueJob j;
        j.pool = std::make_shared<const pools::Request>(*pools::parse_request(request, pools::Dialect::kHq));
        j.jobspec = std::make_shared<Jobspec>();
        j.estimate = estimate;
        j.runtime = runtime < 0 ? estimate : runtime;
        j.name = "r";
        return j;
    }
    int64_t submit(const std::string& request, int64_t estimate, int64_t runtime = -1) {
        auto id = sim->submit(job(request, estimate, runtime));
        EXPECT_TRUE(id.ok()) << (id.ok() ? "" : id.message());
        return id.ok() ? *id : -1;
    }
    std::string pending_text() const {
        std::string out;
        for (const QueueJob* j : sim->pending())
            out += std::to_string(j->id) + ":" + std::to_string(static_cast<int>(j->state)) + " ";
        return out;
    }
};

TEST(QueuePoolRequests, WaitsForARunningOneToEnd) {
    PoolQueue q("sum(4)", "fcfs");
    int64_t a = q.submit("cpus=3", 10);
    int64_t b = q.submit("cpus=2", 10);
    q.sim->settle();
    EXPECT_EQ(q.sim->running(), 1u);
    EXPECT_EQ(q.sim->pending().size(), 1u);
    ASSERT_TRUE(q.sim->run().ok());
    EXPECT_EQ(q.start[a], 0);
    EXPECT_EQ(q.start[b], 10);
    EXPECT_NE(q.lines.str().find("EVENT 10 start job=2 queue=default name=r resources=w:cpus"), std::string::npos)
        << q.lines.str();
}

TEST(QueuePoolRequests, TooBigOrUnknownIsRejectedAndChangesNothing) {
    PoolQueue q("sum(4)", "easy");
    q.submit("cpus=3", 10);
    q.submit("cpus=2", 10);
    q.sim->settle();
    std::string events = q.lines.str(), pending = q.pending_text(), store = q.store.describe();
    int64_t next = q.next_id;
    for (const char* bad : {"cpus=5", "gpus=1", "cpus=2 mem=1"}) {
        auto id = q.sim->submit(q.job(bad, 10));
        ASSERT_FALSE(id.ok()) << bad;
        EXPECT_EQ(id.code(), Errc::kUnsatisfiable) << bad;
        EXPECT_EQ(q.next_id, next);
        EXPECT_EQ(q.lines.str(), events);
        EXPECT_EQ(q.pending_text(), pending);
        EXPECT_EQ(q.store.describe(), store);
    }
}

TEST(QueuePoolRequests, EasyBackfillsOnlyWhatDoesNotDelayTheReservation) {
    PoolQueue q("range(0-3)", "easy");
    int64_t a = q.submit("cpus=3", 10);
    int64_t b = q.submit("cpus=4", 10);  // reserved at 10
    int64_t c = q.submit("cpus=1", 5);   // backfills now
    int64_t d = q.submit("cpus=1", 20);  // would delay b: waits
    ASSERT_TRUE(q.sim->run().ok());
    EXPECT_EQ(q.start[a], 0);
    EXPECT_EQ(q.start[b], 10);
    EXPECT_EQ(q.start[c], 0);
    EXPECT_EQ(q.start[d], 20);
    EXPECT_NE(q.lines.str().find("EVENT 0 reserve job=2 queue=default name=r at=10 resources=w:[0-3]"),
              std::string::npos)
        << q.lines.str();
}

TEST(QueuePoolRequests, ServedByJqmManagersToo) {
    PoolQueue q("sum(8)", "jqm");
    JqmConfig c = default_jqm_config();
    c.queues[0].managers[0].quantity = 2;
    q.sim->set_jqm(c);
    for (int i = 0; i < 3; ++i) q.submit("cpus=1", 10);
    ASSERT_TRUE(q.sim->run().ok());
    EXPECT_EQ(q.start[1], 0);
    EXPECT_EQ(q.start[2], 0);
    EXPECT_EQ(q.start[3], 10);  // the thread manager had 2
}

// ---- the flat-pool model --------------------------------------------------

struct Span {
    int64_t from, to, n;
};

class FlatModel {
public:
    FlatModel(int64_t units, int64_t reservation_depth, bool stop, int64_t queue_depth)
        : units_(units), res_depth_(reservation_depth), stop_(stop), depth_(queue_depth) {}

    std::vector<int64_t> run(const std::vector<Spec>& jobs) {
        const int64_t kInf = std::numeric_limits<int64_t>::max();
        std::vector<int64_t> start(jobs.size(), -1), end(jobs.size(), -1);
        std::vector<size_t> pending;
        size_t next = 0;
        for (int64_t now = 0;;) {
            int64_t t = next < jobs.size() ? jobs[next].submit : kInf;
            for (size_t j = 0; j < jobs.size(); ++j)
                if (start[j] >= 0 && end[j] > now) t = std::min(t, end[j]);
            if (t == kInf) break;
            now = t;
            running_.clear();
            for (size_t j = 0; j < jobs.size(); ++j)
                if (start[j] >= 0 && end[j] > now) running_.push_back({start[j], start[j] + jobs[j].estimate, jobs[j].cores});
            while (next < jobs.size() && jobs[next].submit == now) pending.push_back(next++);
            std::vector<Span> reserved;
            std::vector<size_t> still;
            int64_t considered = 0, reservations = 0;
            size_t i = 0;
            for (; i < pending.size(); ++i) {
                if (depth_ != 0 && considered >= depth_) break;
                ++considered;
                const Spec& s = jobs[pending[i]];
                if (fits(now, s, reserved)) {
                    start[pending[i]] = now;
                    end[pending[i]] = now + std::min(s.runtime, s.estimate);
                    running_.push_back({now, now + s.estimate, s.cores});
                    continue;
                }
                still.push_back(pending[i]);
                if (reservations < res_depth_) {
                    ++reservations;
                    reserved.push_back({earliest(now, s, reserved), 0, s.cores});
                    reserved.back().to = reserved.back().from + s.estimate;
                } else if (stop_) {
                    ++i;
                    break;
                }
            }
            for (; i < pending.size(); ++i) still.push_back(pending[i]);
            pending = still;
        }
        return start;
    }

private:
    int64_t used_at(int64_t t, const std::vector<Span>& reserved) const {
        int64_t n = 0;
        for (auto* list : {&running_, &reserved})
            for (const Span& s : *list)
                if (s.from <= t && t < s.to) n += s.n;
        return n;
    }
    bool fits(int64_t t, const Spec& job, const std::vector<Span>& reserved) const {
        // Usage only rises at span starts: check t and every start inside.
        std::vector<int64_t> points{t};
        for (auto* list : {&running_, &reserved})
            for (const Span& s : *list)
                if (t < s.from && s.from < t + job.estimate) points.push_back(s.from);
        for (int64_t p : points)
            if (used_at(p, reserved) + job.cores > units_) return false;
        return true;
    }
    int64_t earliest(int64_t now, const Spec& job, const std::vector<Span>& reserved) const {
        std::vector<int64_t> ends;
        for (auto* list : {&running_, &reserved})
            for (const Span& s : *list)
                if (s.to > now) ends.push_back(s.to);
        std::sort(ends.begin(), ends.end());
        for (int64_t t : ends)
            if (fits(t, job, reserved)) return t;
        ADD_FAILURE() << "model: no reservation time";
        return -1;
    }

    int64_t units_, res_depth_;
    bool stop_;
    int64_t depth_;
    std::vector<Span> running_;
};

// The policies and the model's settings for each.
struct PolicyCase {
    const char* name;
    int64_t reservation_depth;
    bool stop;
};
const PolicyCase kPolicyCases[] = {{"fcfs", 0, true}, {"easy", 1, false}, {"conservative", 1 << 30, false}};
const int64_t kUnits = 8;

// 2 to `max_jobs` jobs of 1 to kUnits units; a quarter of them end early,
// a quarter overrun (killed at the requested time).
std::vector<Spec> random_jobs(std::mt19937_64& rng, int max_jobs) {
    std::uniform_int_distribution<int> njobs(2, max_jobs), size(1, kUnits), est(1, 30), gap(0, 6), coin(0, 3);
    std::vector<Spec> jobs;
    int64_t t = 0;
    for (int i = njobs(rng); i > 0; --i) {
        t += coin(rng) == 0 ? 0 : gap(rng);
        Spec s;
        s.submit = t;
        s.cores = size(rng);
        s.estimate = est(rng);
        int r = coin(rng);
        s.runtime = r == 0 ? std::max<int64_t>(1, s.estimate / 3) : r == 1 ? s.estimate + 5 : s.estimate;
        jobs.push_back(s);
    }
    return jobs;
}

TEST(QueuePoolRequests, StartTimesAgreeWithAFlatPoolModel) {
    std::mt19937_64 rng(1124);
    int compared = 0;
    for (int w = 0; w < 400; ++w) {
        std::vector<Spec> jobs = random_jobs(rng, 12);
        int64_t depth = w % 5 == 0 ? 1 : 0;
        for (const PolicyCase& c : kPolicyCases) {
            PoolQueue q("sum(8)", c.name, depth);
            size_t next = 0;
            Arrivals arrivals;
            arrivals.next_time = [&]() { return next < jobs.size() ? jobs[next].submit : kNever; };
            arrivals.enqueue_due = [&](int64_t at) -> Status {
                for (; next < jobs.size() && jobs[next].submit == at; ++next)
                    q.sim->enqueue(q.job("cpus=" + std::to_string(jobs[next].cores), jobs[next].estimate,
                                         jobs[next].runtime));
                return ok_status();
            };
            ASSERT_TRUE(q.sim->run(&arrivals).ok());
            std::vector<int64_t> ours;
            for (int64_t id = 1; id <= static_cast<int64_t>(jobs.size()); ++id)
                ours.push_back(q.start.count(id) ? q.start[id] : -1);
            auto theirs = FlatModel(kUnits, c.reservation_depth, c.stop, depth).run(jobs);
            ASSERT_EQ(ours, theirs) << c.name << " depth " << depth << " workload " << w << "\n" << q.lines.str();
            compared += static_cast<int>(jobs.size());
        }
    }
    EXPECT_GT(compared, 5000);
}

// --replay on a pool machine: each SWF job asks SIZE cpus of the pool
// (docs/queue.md, "Replay on a pool machine"), and the start times are the flat
// pool's. Job ids in the CSV are the SWF job numbers.
TEST(QueuePoolRequests, SwfReplayOnAPoolAgreesWithTheFlatPoolModel) {
    std::mt19937_64 rng(2611);
    std::string path = ::testing::TempDir() + "/pool_replay.swf";
    int compared = 0;
    for (int w = 0; w < 120; ++w) {
        std::vector<Spec> jobs = random_jobs(rng, 10);
        std::ostringstream swf;
        swf << "; MaxProcs: " << kUnits << "\n";
        for (size_t i = 0; i < jobs.size(); ++i) {
            const Spec& s = jobs[i];
            // Numbered from 101: the CSV must show these, not 1, 2, ...
            // Every third job gives field 8 as 0: field 5 stands in.
            swf << 101 + i << ' ' << s.submit << " -1 " << s.runtime << ' ' << s.cores << " -1 -1 "
                << (i % 3 == 2 ? 0 : s.cores) << ' ' << s.estimate << " -1 1 1 1 -1 1 1 -1 -1\n";
        }
        {
            std::ofstream f(path, std::ios::trunc);
            f << swf.str();
        }
        for (const PolicyCase& c : kPolicyCases) {
            PoolQueue q("sum(8)", c.name);
            ReplayConfig config;
            config.trace = path;
            config.policy = *make_queue_policy(c.name, 0, 0);
            config.pool_machine = true;
            config.request_template = kDefaultReplayRequest;
            std::ostringstream out, err;
            Status done = replay(*q.traverser, config, out, err);
            ASSERT_TRUE(done.ok()) << done.message();
            ASSERT_EQ(err.str(), "");
            std::map<int64_t, int64_t> start;  // SWF number -> start
            std::istringstream rows(out.str());
            std::string row;
            std::getline(rows, row);  // header
            while (std::getline(rows, row) && row.rfind("SUMMARY", 0) != 0) {
                std::vector<std::string> f;
                std::istringstream cells(row);
                for (std::string c; std::getline(cells, c, ',');) f.push_back(c);
                ASSERT_EQ(f.size(), 12u) << row;  // ... status,nodes (one worker: no quoting)
                start[std::stoll(f[0])] = std::stoll(f[4]);
            }
            std::vector<int64_t> ours;
            for (size_t i = 0; i < jobs.size(); ++i) ours.push_back(start.count(101 + int64_t(i)) ? start[101 + int64_t(i)] : -1);
            auto theirs = FlatModel(kUnits, c.reservation_depth, c.stop, 0).run(jobs);
            ASSERT_EQ(ours, theirs) << c.name << " workload " << w << "\n" << swf.str() << out.str();
            compared += static_cast<int>(jobs.size());
        }
    }
    EXPECT_GT(compared, 1000);
}

}  // namespace
}  // namespace rq::queue
