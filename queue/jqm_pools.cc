#include "queue/jqm_pools.h"

#include "pools/pool_graph.h"

namespace rq::queue {

int64_t consumption(const ResourceManager& m, const QueueJob& job) {
    auto it = job.rm.find(m.key);
    return it != job.rm.end() ? it->second : m.default_consumption;
}

JqmPools::~JqmPools() = default;

Result<std::shared_ptr<JqmPools>> JqmPools::build(const JqmQueue& queue) {
    std::shared_ptr<JqmPools> p(new JqmPools());
    p->managers_ = queue.managers;
    pools::Worker worker;
    worker.name = queue.name.empty() ? "queue" : queue.name;
    for (const ResourceManager& m : queue.managers) {
        std::string at = "queue " + queue.name + ": manager " + m.key + ": ";
        if (m.kind == ResourceManager::kHighlander) {
            p->highlander_ = true;
            continue;
        }
        pools::Pool pool;
        pool.name = pool_name(m);
        if (m.kind == ResourceManager::kQuantity) {
            if (m.quantity < 0) return make_error(Errc::kInvalid, at + "quantity must be >= 0");
            pool.sum = true;
            pool.size = m.quantity;
        } else {
            std::set<std::string> seen;
            pool.groups.emplace_back();
            for (const std::string& item : m.items) {
                if (item.empty() || item.find('/') != std::string::npos)
                    return make_error(Errc::kInvalid, at + "item '" + item + "' must be a non-empty name without '/'");
                if (!seen.insert(item).second) return make_error(Errc::kInvalid, at + "item '" + item + "' is listed twice");
                pool.groups.back().push_back({item, 1});
            }
        }
        // A pool of nothing has no vertex: every need of it is unsatisfiable.
        if (m.kind == ResourceManager::kQuantity && m.quantity == 0) continue;
        worker.pools.push_back(std::move(pool));
    }
    pools::Machine machine;
    machine.workers.push_back(std::move(worker));
    RQ_TRY(pools::build_pool_graph(machine, p->graph_));
    p->matcher_ = std::make_unique<pools::PoolMatcher>(p->graph_, p->store_, p->spec_);
    return p;
}

pools::Request JqmPools::request(const QueueJob& job) const {
    pools::Request r;
    for (const ResourceManager& m : managers_) {
        if (m.kind == ResourceManager::kHighlander) continue;
        int64_t n = consumption(m, job);
        if (n > 0) r.pools.push_back({pool_name(m), n, false, pools::Strategy::kCompact});
    }
    return r;
}

Result<pools::Allocation> JqmPools::find_one(const ResourceManager& m, int64_t n, pools::PoolOp op, int64_t now,
                                             int64_t duration) {
    pools::Request r;
    r.pools.push_back({pool_name(m), n, false, pools::Strategy::kCompact});
    return matcher_->find(r, op, duration, now);
}

Status JqmPools::check(const QueueJob& job) {
    auto whole = matcher_->find(request(job), pools::PoolOp::kSatisfiability, job.estimate);
    if (whole || whole.code() != Errc::kUnsatisfiable) return ok_status();
    for (const ResourceManager& m : managers_) {
        int64_t n = consumption(m, job);
        if (m.kind == ResourceManager::kHighlander || n == 0) continue;
        if (!find_one(m, n, pools::PoolOp::kSatisfiability, 0, job.estimate))
            return make_error(Errc::kUnsatisfiable, "resource manager " + m.key + " can never give " + std::to_string(n) +
                                                        " (it has " + std::to_string(m.capacity()) + ")");
    }
    return make_error(Errc::kUnsatisfiable, "the resource managers can never give " + whole.message());
}

RmAnswer JqmPools::ask(const ResourceManager& m, const QueueJob& job, int64_t now) {
    if (m.kind == ResourceManager::kHighlander) return running_.count(job.name) ? RmAnswer::kNotEnough : RmAnswer::kGo;
    int64_t n = consumption(m, job);
    if (n == 0 || find_one(m, n, pools::PoolOp::kAllocate, now, job.estimate)) return RmAnswer::kGo;
    return has_room(m, now) ? RmAnswer::kNotEnough : RmAnswer::kEmpty;
}

bool JqmPools::has_room(const ResourceManager& m, int64_t now) {
    return m.kind == ResourceManager::kHighlander || find_one(m, 1, pools::PoolOp::kAllocate, now, 1).ok();
}

Result<pools::Allocation> JqmPools::fit(const QueueJob& job, int64_t now) {
    return matcher_->find(request(job), pools::PoolOp::kAllocate, job.estimate, now);
}

Result<std::map<std::string, std::vector<std::string>>> JqmPools::take(const pools::Allocation& a, const QueueJob& job,
                                                                       int64_t now) {
    RQ_TRY(matcher_->record(a, job.id, job.estimate, now));
    held_[job.id] = a;
    if (highlander_) running_.insert(job.name);
    std::map<std::string, std::vector<std::string>> items;
    for (const ResourceManager& m : managers_) {
        if (m.kind != ResourceManager::kDiscrete) continue;
        std::vector<std::string>& names = items[m.key];
        for (const pools::PoolTake& t : a.pools)
            if (t.name == pool_name(m))
                for (const pools::ItemTake& i : t.items) names.emplace_back(graph_.name(i.item));
    }
    return items;
}

void JqmPools::release(const QueueJob& job) {
    auto it = held_.find(job.id);
    if (it == held_.end()) return;
    (void)matcher_->release(it->second, job.id);
    held_.erase(it);
    if (highlander_) {
        auto name = running_.find(job.name);
        if (name != running_.end()) running_.erase(name);
    }
}

Result<JqmPools*> pools_of(const JqmQueue& queue) {
    if (!queue.pools) {
        auto built = JqmPools::build(queue);
        if (!built) return built.error();
        queue.pools = std::move(*built);
    }
    return queue.pools.get();
}

}  // namespace rq::queue
