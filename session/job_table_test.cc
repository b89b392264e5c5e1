// The job table against a std::map model (spec/cli.md §5.13: `list` prints
// every job, canceled ones included, ids ascending; docs/state.md, Memory:
// canceled jobs move to a file, and nothing of what `list`/`info` print
// changes).
#include "session/job_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <random>
#include <sstream>

namespace rq {
namespace {

// The `list` line of cli/cmd_jobs.cc, with the overhead's exact bits.
std::string line(int64_t id, const JobRecord& j) {
    std::ostringstream out;
    char overhead[40];
    std::snprintf(overhead, sizeof overhead, "%a", j.overhead);
    out << id << "/" << j.id << ", " << static_cast<int>(j.state) << ", " << j.scheduled_at << ", "
        << (j.jobspec_path ? *j.jobspec_path : std::string("(none)")) << ", " << overhead << "\n";
    return out.str();
}

std::string listing(const JobTable& t) {
    std::string out;
    for (auto& [id, job] : t) out += line(id, job);
    return out;
}

std::string listing(const std::map<int64_t, JobRecord>& m) {
    std::string out;
    for (auto& [id, job] : m) out += line(id, job);
    return out;
}

struct Model {
    std::mt19937_64 rng;
    std::map<int64_t, JobRecord> model;
    JobTable table;
    int64_t next = 1;
    std::vector<std::shared_ptr<const std::string>> paths{
        std::make_shared<const std::string>("a.yaml"), std::make_shared<const std::string>("dir/b.yaml"), nullptr};

    explicit Model(uint64_t seed) : rng(seed) {}
    int64_t pick() {  // an id in use, or one near them
        if (model.empty() || rng() % 8 == 0) return static_cast<int64_t>(rng() % (next + 3));
        auto it = model.begin();
        std::advance(it, rng() % model.size());
        return it->first;
    }
    JobRecord job(int64_t id) {
        JobRecord j;
        j.id = id;
        j.state = rng() % 3 ? JobState::kAllocated : JobState::kReserved;
        j.scheduled_at = j.state == JobState::kAllocated ? 0 : static_cast<int64_t>(rng() % 1000);
        j.jobspec_path = rng() % 4 ? paths[rng() % paths.size()]
                                   : std::make_shared<const std::string>("p" + std::to_string(rng() % 5));
        j.overhead = std::uniform_real_distribution<double>(0, 1e-3)(rng);
        return j;
    }
    void put(int64_t id) {  // a match (the next id) or an update (an explicit one)
        JobRecord j = job(id);
        table[id] = j;
        model[id] = j;
    }
    void step() {
        switch (rng() % 10) {
        case 0: case 1: case 2: put(next), next += 1 + (rng() % 6 == 0 ? rng() % 3000 : 0); break;
        case 3: {  // update: an explicit id that is not live (unused, or canceled)
            int64_t id = pick();
            auto m = model.find(id);
            if (m == model.end() || m->second.state == JobState::kCanceled) put(id);
            break;
        }
        case 4: case 5: case 6: {
            int64_t id = pick();
            auto m = model.find(id);
            if (m != model.end() && m->second.state != JobState::kCanceled) {
                table.cancel(id);
                m->second.state = JobState::kCanceled;
            }
            break;
        }
        case 7: {  // a resume restoring a measured time
            int64_t id = pick();
            double o = rng() % 2 ? 0.25 : 0.5;
            table.set_overhead(id, o);
            if (model.count(id)) model[id].overhead = o;
            break;
        }
        case 8: {  // an all-or-nothing match forgetting a job
            int64_t id = pick();
            EXPECT_EQ(table.erase(id), model.erase(id));
            break;
        }
        default: {
            int64_t id = pick();
            auto found = table.find(id);
            auto m = model.find(id);
            ASSERT_EQ(found.has_value(), m != model.end()) << id;
            ASSERT_EQ(table.count(id), model.count(id));
            if (found) {
                ASSERT_EQ(line(id, *found), line(id, m->second));
            }
        }
        }
    }
};

TEST(JobTable, RandomOperationsMatchAMapModel) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        Model m(seed);
        for (int i = 0; i < 12000; ++i) {
            m.step();
            ASSERT_EQ(m.table.size(), m.model.size()) << "seed " << seed << " step " << i;
            if (i % 1500 == 0) {
                ASSERT_EQ(listing(m.table), listing(m.model)) << "seed " << seed << " step " << i;
            }
        }
        ASSERT_EQ(listing(m.table), listing(m.model)) << "seed " << seed;
        JobTable moved = std::move(m.table);  // a session rebuilt (session/build.cc)
        ASSERT_EQ(listing(moved), listing(m.model));
    }
}

// The soak's pattern (t/bench/state_memory_soak.sh): match, cancel, repeat.
// Every canceled job leaves memory; `list` still prints them all.
TEST(JobTable, MatchCancelCyclesKeepOnlyLiveJobsInMemory) {
    JobTable t;
    auto path = std::make_shared<const std::string>("core.yaml");
    for (int64_t id = 1; id <= 5000; ++id) {
        t[id] = JobRecord{id, JobState::kAllocated, 0, path, 1.0 / static_cast<double>(id)};
        t.cancel(id);
        EXPECT_EQ(t.live(id), nullptr);
    }
    t[5001] = JobRecord{5001, JobState::kReserved, 7, path, 0.5};
    EXPECT_EQ(t.size(), 5001u);
    int64_t expect = 1;
    for (auto& [id, job] : t) {
        ASSERT_EQ(id, expect++);
        EXPECT_EQ(job.state, id == 5001 ? JobState::kReserved : JobState::kCanceled);
        EXPECT_EQ(job.overhead, id == 5001 ? 0.5 : 1.0 / static_cast<double>(id));
        EXPECT_EQ(*job.jobspec_path, "core.yaml");
    }
    EXPECT_EQ(expect, 5002);
    auto info = t.find(4097);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->overhead, 1.0 / 4097);
    EXPECT_FALSE(t.find(0));
    EXPECT_FALSE(t.find(5002));
}

}  // namespace
}  // namespace rq
