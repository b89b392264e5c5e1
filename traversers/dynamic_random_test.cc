// A randomized test of the dynamic operations (spec/traversal.md §10-§13,
// §17): thousands of random steps per configuration (a machine and a
// policy) mixing
//
//   match           allocate, allocate_orelse_reserve, with_satisfiability;
//   update          replaying the R (JGF, or rv1exec on the flat machine) of
//                   an earlier job, now or in the future;
//   partial-cancel  one rank of a live job by JGF or rv1exec, and requests
//                   that must fail (a rank the job does not hold);
//   cancel;
//   attach          a new node under the cluster or a rack;
//   remove          an idle node by path, or any node by rank.
//
// After every step check_pools() must hold (no pool over-allocated, planners
// agree with the spans the records list, subtree plans never promise taken
// units), and a step that fails must leave the store exactly as it was.
// Every 1,000 steps and at the end every live job is cancelled and the
// store must equal that of a "twin" matcher that went through the same
// attach/remove steps without ever running a job.
//
// RQ_SEED=<n> changes the seed, RQ_OPS=<n> the steps per configuration.
// A failure prints the seed, the configuration and the last operations.
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "resource/jobspec.h"
#include "traversers/dynamic_world.h"

namespace rq::testing {
namespace {

constexpr uint64_t kDefaultSeed = 20261121;
constexpr uint64_t kDefaultSteps = 2000;
constexpr uint64_t kCheckpointEvery = 1000;

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
}

struct Config {
    std::string name;
    int racks = 0;  // 0: nodes right below the cluster, rv1exec layout
    int nodes = 0;  // per rack
    std::string policy;
};

std::ostream& operator<<(std::ostream& out, const Config& c) { return out << c.name; }

// A slot of `cores` cores (and `gpus` gpus), optionally inside `nodes`
// nodes, optionally exclusive.
std::string jobspec(int nodes, bool exclusive, int cores, int gpus, int64_t duration) {
    std::string slot_with = "      - type: core\n        count: " + str(cores) + "\n";
    if (gpus > 0) slot_with += "      - type: gpu\n        count: " + str(gpus) + "\n";
    std::string slot = "  - type: slot\n    count: 1\n    label: s\n    with:\n" + slot_with;
    std::string resources = slot;
    if (nodes > 0) {
        // Indent the slot below the node.
        std::string indented;
        for (size_t i = 0; i < slot.size(); ++i) {
            if (i == 0 || slot[i - 1] == '\n') indented += "    ";
            indented += slot[i];
        }
        resources = "  - type: node\n    count: " + str(nodes) + "\n" + (exclusive ? "    exclusive: true\n" : "") +
                    "    with:\n" + indented;
    }
    return "version: 1\nresources:\n" + resources +
           "tasks:\n  - command: [app]\n    slot: s\n    count: {per_slot: 1}\n"
           "attributes:\n  system:\n    duration: " +
           str(duration) + "\n";
}

struct LiveJob {
    std::string jgf, rv1;
    int64_t duration = 0;
    std::set<int64_t> ranks;  // ranks it still holds exclusive vertices on
    // Scheduled in the future by allocate_orelse_reserve: its spans are
    // reservations, which partial-cancel (§13) does not release.
    bool reserved = false;
};

struct Replay {
    std::string jgf, rv1;
    int64_t duration = 0;
};

class DynamicRun {
public:
    DynamicRun(const Config& config, uint64_t seed) : config_(config), seed_(seed), rng_(seed) {}

    // Runs `steps` random steps; "" or the first problem found.
    std::string run(uint64_t steps) {
        std::string machine = machine_jgf(config_.racks, config_.nodes);
        main_ = make_world(machine, config_.policy);
        twin_ = make_world(machine, config_.policy);
        if (!main_ || !twin_) return "cannot build the machine";
        next_node_ = config_.nodes * std::max(config_.racks, 1);
        for (step_ = 1; step_ <= steps; ++step_) {
            std::string problem = random_step();
            if (problem.empty()) problem = check_pools(*main_);
            if (problem.empty() && (step_ % kCheckpointEvery == 0 || step_ == steps)) problem = cancel_all();
            if (!problem.empty()) return problem + context();
        }
        return "";
    }

    std::map<std::string, int> counts;  // what the run did, per outcome

private:
    ResourceGraph& graph() { return main_->graph; }
    DfuTraverser& traverser() { return *main_->traverser; }
    int64_t pick(int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(rng_); }
    bool chance(int percent) { return pick(100) < percent; }

    void log(const std::string& what) {
        history_.push_back("step " + str(static_cast<int64_t>(step_)) + ": " + what);
        if (history_.size() > 10) history_.pop_front();
    }
    std::string context() const {
        std::string text = "\nseed " + str(static_cast<int64_t>(seed_)) + ", config " + config_.name +
                           ", last operations:\n";
        for (const std::string& h : history_) text += "  " + h + "\n";
        return text;
    }

    // A failed step must change nothing (describe() before and after).
    std::string unchanged(const std::string& before, const std::string& what) {
        std::string after = without_empty_records(main_->store.describe());
        if (after == before) return "";
        return what + " failed but changed the store:\n" + line_diff(before, after);
    }

    // The lines only one of two describe() texts has.
    static std::string line_diff(const std::string& a, const std::string& b) {
        auto lines = [](const std::string& text) {
            std::set<std::string> set;
            std::istringstream in(text);
            for (std::string line; std::getline(in, line);) set.insert(line);
            return set;
        };
        std::set<std::string> la = lines(a), lb = lines(b);
        std::string diff;
        for (const std::string& l : la)
            if (lb.count(l) == 0) diff += "- " + l + "\n";
        for (const std::string& l : lb)
            if (la.count(l) == 0) diff += "+ " + l + "\n";
        return diff;
    }

    std::string random_step() {
        int64_t dice = pick(100);
        if (dice < 38) return step_match();
        if (dice < 53) return step_update();
        if (dice < 70) return step_partial_cancel();
        if (dice < 88) return step_cancel();
        if (dice < 94) return step_attach();
        return step_remove();
    }

    // ---- match ---------------------------------------------------------------
    std::string step_match() {
        static const int64_t kDurations[] = {100, 1000, 3600};
        int64_t duration = kDurations[pick(3)];
        std::string text;
        switch (pick(7)) {
            case 0: text = jobspec(0, false, 1 + static_cast<int>(pick(6)), 0, duration); break;
            case 1: text = jobspec(1, false, 1 + static_cast<int>(pick(2)), 0, duration); break;
            case 2: text = jobspec(1, true, 1, 0, duration); break;
            case 3: text = jobspec(0, false, 1, 1, duration); break;
            case 4: text = jobspec(2, false, 1, 0, duration); break;
            default: text = jobspec(2 + static_cast<int>(pick(2)), chance(50), 1, 0, duration); break;
        }
        static const MatchOp kOps[] = {MatchOp::kAllocate, MatchOp::kAllocate, MatchOp::kAllocateOrElseReserve,
                                       MatchOp::kAllocateWithSatisfiability};
        MatchOp op = kOps[pick(4)];
        auto js = parse_jobspec(text, graph().types());
        if (!js.ok()) return "jobspec rejected: " + js.message() + "\n" + text;
        std::string before = without_empty_records(main_->store.describe());
        JobId id = next_job_++;
        MatchResult r = traverser().run(*js, op, id, capture_);
        traverser().clear_message();
        log("match job " + str(id) + " op " + str(static_cast<int>(op)) + " -> " + (r.ok() ? "ok" : "fail"));
        if (!r.ok()) {
            capture_.reset();
            ++counts["match failed"];
            return unchanged(before, "match");
        }
        ++counts[r.at > 0 ? "match reserved" : "match allocated"];
        return remember(id, r.duration, r.at > 0);
    }

    // Records a new live job from the captured output.
    std::string remember(JobId id, int64_t duration, bool reserved) {
        auto [jgf, rv1] = capture_.take();
        LiveJob job{jgf, rv1, duration, {}, reserved};
        auto doc = Json::parse(jgf, nullptr, false);
        if (doc.is_discarded()) return "job " + str(id) + ": unreadable JGF output: " + jgf;
        for (auto& node : doc["graph"]["nodes"])
            if (node["metadata"].value("exclusive", false)) job.ranks.insert(node["metadata"].value("rank", -1));
        live_[id] = std::move(job);
        return "";
    }

    // Forgets a job that is gone, keeping its R for later updates.
    void forget(JobId id) {
        auto it = live_.find(id);
        if (it == live_.end()) return;
        replays_.push_back({it->second.jgf, it->second.rv1, it->second.duration});
        if (replays_.size() > 40) replays_.erase(replays_.begin());
        live_.erase(it);
    }

    JobId random_live() {
        auto it = live_.begin();
        std::advance(it, pick(static_cast<int64_t>(live_.size())));
        return it->first;
    }

    // ---- update ----------------------------------------------------------------
    std::string step_update() {
        if (replays_.empty()) return "";
        const Replay& replay = replays_[static_cast<size_t>(pick(static_cast<int64_t>(replays_.size())))];
        bool rv1exec = config_.racks == 0 && chance(50);
        Time at = chance(50) ? 0 : pick(5000);
        JobId id = next_job_++;
        std::string before = without_empty_records(main_->store.describe());
        MatchResult r = traverser().apply(rv1exec ? "rv1exec" : "jgf", rv1exec ? replay.rv1 : replay.jgf, id, at,
                                          replay.duration, capture_);
        traverser().clear_message();
        log("update job " + str(id) + (rv1exec ? " rv1exec" : " jgf") + " at " + str(at) + " -> " +
            (r.ok() ? "ok" : "fail"));
        if (!r.ok()) {
            capture_.reset();
            ++counts["update failed"];
            return unchanged(before, "update");
        }
        ++counts["update applied"];
        return remember(id, replay.duration, false);
    }

    // ---- partial-cancel -----------------------------------------------------------
    std::string step_partial_cancel() {
        if (live_.empty()) return "";
        JobId id = random_live();
        LiveJob& job = live_[id];
        if (job.reserved) return "";
        // Mostly a rank the job holds; sometimes any node's rank, which
        // must fail when the job holds nothing there.
        int64_t rank = -1;
        if (!job.ranks.empty() && chance(85)) {
            auto it = job.ranks.begin();
            std::advance(it, pick(static_cast<int64_t>(job.ranks.size())));
            rank = *it;
        } else {
            rank = pick(next_node_);
        }
        bool rv1exec = chance(50);
        std::string text;
        if (rv1exec) {
            text = Json{{"version", 1},
                        {"execution",
                         {{"R_lite", Json::array({Json{{"rank", str(rank)}, {"children", {{"core", "0"}}}}})},
                          {"starttime", 0},
                          {"expiration", 0},
                          {"nodelist", Json::array({"node" + str(rank)})}}}}
                       .dump();
        } else {
            JgfBuilder doc;
            const Json r = Json::parse(job.jgf);  // kept alive for the loop below
            for (auto& node : r["graph"]["nodes"])
                if (node["metadata"].value("exclusive", false) && node["metadata"].value("rank", -1) == rank)
                    doc.raw_vertex(node);
            if (doc.vertex_count() == 0) return "";
            text = doc.text();
        }
        std::string before = without_empty_records(main_->store.describe());
        auto r = traverser().partial_cancel(id, rv1exec ? "rv1exec" : "jgf", text);
        traverser().clear_message();
        log("partial-cancel job " + str(id) + " rank " + str(rank) + (rv1exec ? " rv1exec" : " jgf") + " -> " +
            (r.ok() ? (*r ? "all released" : "ok") : "fail: " + r.message()));
        if (!r.ok()) {
            // Also legitimate on a rank the job holds: a vertex that an
            // rv1exec update emitted exclusively may have no allocation span
            // of its own (spec §12), and §13 then refuses the JGF request.
            ++counts["partial-cancel refused"];
            return unchanged(before, "partial-cancel");
        }
        if (job.ranks.count(rank) == 0 && !rv1exec)
            return "partial cancel of rank " + str(rank) + " that job " + str(id) + " does not hold succeeded";
        job.ranks.erase(rank);
        ++counts[*r ? "partial-cancel (all)" : "partial-cancel"];
        if (*r) forget(id);
        return "";
    }

    // ---- cancel ---------------------------------------------------------------------
    std::string step_cancel() {
        if (live_.empty()) return "";
        JobId id = random_live();
        Status s = traverser().cancel(id);
        log("cancel job " + str(id) + " -> " + (s.ok() ? "ok" : s.message()));
        if (!s.ok()) return "cancel of live job " + str(id) + " failed: " + s.message();
        ++counts["cancel"];
        forget(id);
        return "";
    }

    // Cancels every live job; the store must then equal the twin's.
    std::string cancel_all() {
        while (!live_.empty()) {
            JobId id = live_.begin()->first;
            Status s = traverser().cancel(id);
            if (!s.ok()) return "cancel-all: job " + str(id) + ": " + s.message();
            forget(id);
        }
        ++counts["cancel-all checkpoint"];
        std::string ours = without_empty_records(main_->store.describe());
        std::string fresh = without_empty_records(twin_->store.describe());
        if (ours == fresh) return "";
        return "after cancelling every job the store differs from a fresh matcher's (- fresh, + ours):\n" +
               line_diff(fresh, ours);
    }

    // ---- attach / remove ---------------------------------------------------------------
    std::vector<VertexId> reachable_nodes() {
        std::vector<VertexId> nodes;
        for (VertexId v : reachable_vertices(graph()))
            if (graph().type_name(v) == "node") nodes.push_back(v);
        return nodes;
    }

    std::string step_attach() {
        if (reachable_nodes().size() >= static_cast<size_t>(config_.nodes * std::max(config_.racks, 1) + 6))
            return "";
        JgfBuilder doc;
        VertexId root = graph().root(kContainment);
        std::string parent = doc.existing(graph(), root);
        std::string parent_path(graph().path(root, kContainment));
        if (config_.racks > 0) {
            std::vector<VertexId> racks;
            for (EdgeId e : graph().out(root))
                if (graph().subsystem(e) == kContainment) racks.push_back(graph().target(e));
            if (racks.empty()) return "";
            VertexId rack = racks[static_cast<size_t>(pick(static_cast<int64_t>(racks.size())))];
            std::string rack_id = doc.existing(graph(), rack);
            doc.edge(parent, rack_id);
            parent = rack_id;
            parent_path = std::string(graph().path(rack, kContainment));
        }
        int64_t node = next_node_++;
        add_node(doc, next_uniq_, parent, parent_path, node, node, config_.racks > 0 ? 2 : 0);
        std::string text = doc.text();
        Status ours = traverser().attach(text);
        Status theirs = twin_->traverser->attach(text);
        log("attach node" + str(node) + " -> " + (ours.ok() ? "ok" : ours.message()));
        if (!ours.ok() || !theirs.ok()) return "attach failed: " + ours.message() + theirs.message();
        ++counts["attach"];
        return "";
    }

    // Whether no vertex of v's subtree holds anything.
    bool idle_subtree(VertexId v) {
        const VertexSchedule* r = main_->store.find(v);
        if (r != nullptr && (r->plan.span_count() != 0 || !r->tags.empty() || r->x_checker().span_count() != 0))
            return false;
        const SubtreePlan* sub = main_->store.subtree(v, 0);
        if (sub != nullptr && sub->plan.span_count() != 0) return false;
        for (EdgeId e : graph().out(v))
            if (graph().subsystem(e) == kContainment && !idle_subtree(graph().target(e))) return false;
        return true;
    }

    std::string step_remove() {
        std::vector<VertexId> nodes = reachable_nodes();
        if (nodes.size() <= 2) return "";
        VertexId v = nodes[static_cast<size_t>(pick(static_cast<int64_t>(nodes.size())))];
        // By path only when idle: removing a busy subtree by path keeps its
        // jobs' units on the ancestors (§17), by design of the reference.
        if (chance(50) && idle_subtree(v)) {
            std::string path(graph().path(v, kContainment));
            Status ours = traverser().remove_path(path);
            Status theirs = twin_->traverser->remove_path(path);
            log("remove " + path + " -> " + (ours.ok() ? "ok" : ours.message()));
            if (!ours.ok() || !theirs.ok()) return "remove by path failed: " + ours.message() + theirs.message();
            ++counts["remove path"];
            return "";
        }
        int64_t rank = graph().rank(v);
        Status ours = traverser().remove_ranks({rank});
        Status theirs = twin_->traverser->remove_ranks({rank});
        log("remove rank " + str(rank) + " -> " + (ours.ok() ? "ok" : ours.message()));
        if (!ours.ok() || !theirs.ok()) return "remove by rank failed: " + ours.message() + theirs.message();
        for (auto& [id, job] : live_) job.ranks.erase(rank);
        ++counts["remove rank"];
        return "";
    }

    Config config_;
    uint64_t seed_;
    std::mt19937_64 rng_;
    std::unique_ptr<World> main_, twin_;
    RCapture capture_;
    std::map<JobId, LiveJob> live_;
    std::vector<Replay> replays_;
    JobId next_job_ = 1;
    int64_t next_node_ = 0;
    int64_t next_uniq_ = 100000;
    uint64_t step_ = 0;
    std::deque<std::string> history_;
};

std::vector<Config> configs() {
    return {{"flat_first", 0, 8, "first"},  {"flat_low", 0, 8, "low"},       {"flat_high", 0, 8, "high"},
            {"racks_first", 2, 4, "first"}, {"racks_lonodex", 2, 4, "lonodex"}, {"racks_hinode", 2, 4, "hinode"}};
}

class DynamicRandom : public ::testing::TestWithParam<Config> {};

TEST_P(DynamicRandom, PoolsStayConsistentAndCancelRestoresThem) {
    uint64_t seed = env_number("RQ_SEED", kDefaultSeed);
    uint64_t steps = env_number("RQ_OPS", kDefaultSteps);
    DynamicRun run(GetParam(), seed);
    ASSERT_EQ(run.run(steps), "");
    // The run must have exercised every kind of step, successful or not.
    for (const char* kind : {"match allocated", "match failed", "update applied", "update failed", "partial-cancel",
                             "partial-cancel refused", "cancel", "attach", "remove rank", "cancel-all checkpoint"})
        EXPECT_GT(run.counts[kind], 0) << kind;
    std::string summary;
    for (auto& [kind, n] : run.counts) summary += " " + kind + "=" + str(n);
    std::cout << GetParam().name << " seed " << seed << ":" << summary << std::endl;
}

INSTANTIATE_TEST_SUITE_P(Configs, DynamicRandom, ::testing::ValuesIn(configs()),
                         [](const ::testing::TestParamInfo<Config>& info) { return info.param.name; });

}  // namespace
}  // namespace rq::testing
