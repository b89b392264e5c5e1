// JQM's managers as pools (queue/jqm_pools.h) against the counters they
// replace: a quantity manager is a count, a discrete manager a list of
// taken flags handed out first-free in list order, highlander a multiset
// of running names. Random takes and releases; every answer, every
// item list and every satisfiability verdict must agree.
#include "queue/jqm_pools.h"

#include <gtest/gtest.h>

#include <random>

namespace rq::queue {
namespace {

struct Counters {
    int64_t quantity = 0, used = 0;
    std::vector<std::string> items;
    std::vector<bool> taken;
    std::multiset<std::string> running;

    int64_t free_items() const { return static_cast<int64_t>(std::count(taken.begin(), taken.end(), false)); }
    RmAnswer answer(int64_t n, int64_t free) const {
        if (n <= free) return RmAnswer::kGo;
        return free > 0 ? RmAnswer::kNotEnough : RmAnswer::kEmpty;
    }
};

TEST(JqmPools, AgreeWithCountersOnRandomTakesAndReleases) {
    std::mt19937_64 rng(10);
    int asked = 0, taken = 0;
    for (int round = 0; round < 200; ++round) {
        std::uniform_int_distribution<int> small(0, 4);
        Counters model;
        model.quantity = small(rng);
        JqmQueue q;
        q.name = "q";
        ResourceManager thread;
        thread.key = "thread";
        thread.quantity = model.quantity;
        ResourceManager gpu;
        gpu.kind = ResourceManager::kDiscrete;
        gpu.key = "gpu";
        gpu.default_consumption = 0;
        for (int i = small(rng); i > 0; --i) gpu.items.push_back("g" + std::to_string(i));
        model.items = gpu.items;
        model.taken.assign(gpu.items.size(), false);
        ResourceManager hl;
        hl.kind = ResourceManager::kHighlander;
        hl.key = "hl";
        q.managers = {thread, gpu, hl};
        auto built = JqmPools::build(q);
        ASSERT_TRUE(built.ok()) << built.message();
        JqmPools& pools = **built;
        std::map<int64_t, QueueJob> held;
        std::map<int64_t, std::pair<int64_t, std::vector<size_t>>> model_held;
        int64_t now = 0;
        for (int64_t id = 1; id <= 40; ++id) {
            now += small(rng);
            if (!held.empty() && small(rng) < 2) {  // release a random job
                auto it = std::next(held.begin(), std::uniform_int_distribution<size_t>(0, held.size() - 1)(rng));
                pools.release(it->second);
                auto& [n, items] = model_held[it->first];
                model.used -= n;
                for (size_t i : items) model.taken[i] = false;
                model.running.erase(model.running.find(it->second.name));
                held.erase(it);
            }
            QueueJob job;
            job.id = id;
            job.estimate = 1000;
            job.name = small(rng) < 2 ? "a" : "b";
            job.rm = {{"thread", small(rng)}, {"gpu", small(rng)}};
            int64_t nq = job.rm["thread"], nd = job.rm["gpu"];
            Status check = pools.check(job);
            bool satisfiable = nq <= model.quantity && nd <= static_cast<int64_t>(model.items.size());
            ASSERT_EQ(check.ok(), satisfiable) << check.message();
            if (!satisfiable) {
                EXPECT_EQ(check.code(), Errc::kUnsatisfiable);
                continue;
            }
            RmAnswer aq = model.answer(nq, model.quantity - model.used);
            RmAnswer ad = model.answer(nd, model.free_items());
            RmAnswer ah = model.running.count(job.name) ? RmAnswer::kNotEnough : RmAnswer::kGo;
            ASSERT_EQ(pools.ask(thread, job, now), aq);
            ASSERT_EQ(pools.ask(gpu, job, now), ad);
            ASSERT_EQ(pools.ask(hl, job, now), ah);
            ASSERT_EQ(pools.has_room(thread, now), model.quantity - model.used > 0);
            ASSERT_EQ(pools.has_room(gpu, now), model.free_items() > 0);
            ++asked;
            auto fit = pools.fit(job, now);
            ASSERT_EQ(fit.ok(), aq == RmAnswer::kGo && ad == RmAnswer::kGo);
            if (!fit || ah != RmAnswer::kGo) continue;
            auto items = pools.take(*fit, job, now);
            ASSERT_TRUE(items.ok());
            std::vector<std::string> expect;
            std::vector<size_t> indices;
            for (size_t i = 0; i < model.items.size() && static_cast<int64_t>(indices.size()) < nd; ++i)
                if (!model.taken[i]) {
                    model.taken[i] = true;
                    indices.push_back(i);
                    expect.push_back(model.items[i]);
                }
            EXPECT_EQ((*items)["gpu"], expect);
            model.used += nq;
            model.running.insert(job.name);
            model_held[id] = {nq, indices};
            held[id] = job;
            ++taken;
        }
    }
    EXPECT_GT(asked, 2000);
    EXPECT_GT(taken, 500);
}

TEST(JqmPools, BadItemListsAreErrorsNamingTheManager) {
    JqmQueue q;
    q.name = "batch";
    ResourceManager gpu;
    gpu.kind = ResourceManager::kDiscrete;
    gpu.key = "gpu";
    gpu.items = {"g0", "g1", "g0"};
    q.managers = {gpu};
    auto built = JqmPools::build(q);
    ASSERT_FALSE(built.ok());
    EXPECT_EQ(built.message(), "queue batch: manager gpu: item 'g0' is listed twice");
    q.managers[0].items = {"a/b"};
    EXPECT_FALSE(JqmPools::build(q).ok());
    std::string yaml = "queues:\n  - name: default\n    managers:\n      - {type: discrete, key: gpu, items: [x, x]}\n";
    auto parsed = parse_jqm_config("q.yaml", yaml);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.message(), "q.yaml: queue default: manager gpu: item 'x' is listed twice");
}

}  // namespace
}  // namespace rq::queue
