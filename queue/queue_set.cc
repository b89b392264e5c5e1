// Several named queues, each with its own policy (queue/queue_set.h), and
// the simulator's multi-queue pass.
#include "queue/queue_set.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "queue/jqm_pools.h"
#include "queue/simulator.h"

namespace rq::queue {

namespace {

const char* const kPolicies[] = {"fcfs", "easy", "conservative", "hybrid", "jqm", "jqm-skip"};

}  // namespace

Status check_queue_fields(const JqmQueue& q) {
    if (q.name.empty()) return make_error(Errc::kInvalid, "a queue needs a name");
    if (!q.policy.empty() && std::none_of(std::begin(kPolicies), std::end(kPolicies),
                                          [&](const char* p) { return q.policy == p; }))
        return make_error(Errc::kInvalid, "unknown queue policy '" + q.policy +
                                              "' (fcfs, easy, conservative, hybrid, jqm, jqm-skip)");
    if (q.queue_depth < -1)
        return make_error(Errc::kInvalid,
                          "queue-depth must be 0 (all) or positive, not " + std::to_string(q.queue_depth));
    if (q.reservation_depth == 0 || q.reservation_depth < -1)
        return make_error(Errc::kInvalid, "reservation-depth must be >= 1, not " + std::to_string(q.reservation_depth));
    return ok_status();
}

Status parse_queue_policy_fields(const YAML::Node& entry, JqmQueue& q) {
    if (entry["policy"]) q.policy = entry["policy"].as<std::string>();
    // -1 stands for "unset": a written negative number is an error here.
    if (entry["queue_depth"]) {
        int64_t n = entry["queue_depth"].as<int64_t>();
        if (n < 0) return make_error(Errc::kInvalid, "queue-depth must be 0 (all) or positive, not " + std::to_string(n));
        q.queue_depth = n;
    }
    if (entry["reservation_depth"]) {
        int64_t n = entry["reservation_depth"].as<int64_t>();
        if (n < 1) return make_error(Errc::kInvalid, "reservation-depth must be >= 1, not " + std::to_string(n));
        q.reservation_depth = n;
    }
    return check_queue_fields(q);
}

Result<QueuePolicy> resolve_queue_policy(const JqmQueue& q, const PolicyDefaults& defaults) {
    auto policy = make_queue_policy(q.policy.empty() ? defaults.policy : q.policy,
                                    q.queue_depth < 0 ? defaults.queue_depth : q.queue_depth,
                                    q.reservation_depth < 0 ? defaults.reservation_depth : q.reservation_depth);
    if (!policy) return make_error(policy.code(), "queue " + q.name + ": " + policy.message());
    return policy;
}

Result<std::vector<QueuePolicy>> resolve_queue_policies(const JqmConfig& config, const PolicyDefaults& defaults) {
    std::vector<QueuePolicy> out;
    for (const JqmQueue& q : config.queues) {
        auto policy = resolve_queue_policy(q, defaults);
        if (!policy) return policy.error();
        if (!out.empty() && out.front().jqm != policy->jqm)
            return make_error(Errc::kInvalid, "queue " + q.name + ": policy " + policy->name + " cannot share a session with queue " +
                                                  config.queues.front().name + "'s " + out.front().name +
                                                  " (JQM's polls and the planner's passes do not mix)");
        out.push_back(std::move(*policy));
    }
    return out;
}

bool runs_multi_queue_passes(const JqmConfig& config) {
    if (config.queues.size() < 2) return false;
    return std::any_of(config.queues.begin(), config.queues.end(), [](const JqmQueue& q) {
        return !q.policy.empty() || q.queue_depth >= 0 || q.reservation_depth >= 0;
    });
}

void Simulator::set_queues(JqmConfig config, std::vector<QueuePolicy> policies) {
    jqm_ = std::move(config);
    queue_policies_ = std::move(policies);
    if (!queue_policies_.empty()) policy_ = queue_policies_.front();
    multi_queue_ = runs_multi_queue_passes(jqm_);
}

const QueuePolicy& Simulator::policy_of(const std::string& name) const {
    for (size_t i = 0; i < jqm_.queues.size() && i < queue_policies_.size(); ++i)
        if (jqm_.queues[i].name == name) return queue_policies_[i];
    return policy_;
}

Status Simulator::add_queue(JqmQueue q, const PolicyDefaults& defaults) {
    RQ_TRY(check_queue_fields(q));
    if (jqm_.find(q.name) != nullptr) return make_error(Errc::kInvalid, "queue '" + q.name + "' exists already");
    JqmConfig next = jqm_;
    next.queues.push_back(std::move(q));
    auto policies = resolve_queue_policies(next, defaults);
    if (!policies) return policies.error();
    if (runs_multi_queue_passes(next)) {
        const QueueJob* first = nullptr;  // the lowest id, for a stable message
        for (auto& entry : jobs_)
            if (next.find(entry.second.queue) == nullptr && (first == nullptr || entry.first < first->id))
                first = &entry.second;
        if (first != nullptr)
            return make_error(Errc::kInvalid, "job " + std::to_string(first->id) + " is in undeclared queue '" +
                                                  first->queue + "'; with several policies every job needs a declared queue");
    }
    set_queues(std::move(next), std::move(*policies));
    return ok_status();
}

Status Simulator::add_queue_manager(const std::string& name, ResourceManager m) {
    auto it = std::find_if(jqm_.queues.begin(), jqm_.queues.end(), [&](const JqmQueue& q) { return q.name == name; });
    if (it == jqm_.queues.end()) return make_error(Errc::kNotFound, "no queue '" + name + "'");
    int64_t first = -1;  // the lowest id, for a stable message
    for (auto& entry : jobs_)
        if (entry.second.queue == name && (first < 0 || entry.first < first)) first = entry.first;
    if (first >= 0)
        return make_error(Errc::kInvalid, "queue " + name + " has jobs (job " + std::to_string(first) +
                                              "); add its managers before the first submit to it");
    JqmQueue next = *it;
    next.pools = nullptr;  // rebuilt on first use with the new manager
    Status added = add_manager(next, std::move(m));
    if (!added) return make_error(Errc::kInvalid, "queue " + name + ": " + added.message());
    auto pools = JqmPools::build(next);
    if (!pools) return make_error(Errc::kInvalid, "queue " + name + ": " + pools.message());
    *it = std::move(next);
    return ok_status();
}

// The queues in declaration order, each over its own pending jobs (in
// queue order) with its own depth, reservation budget and fcfs stop; a
// later queue sees the starts and reservations of the earlier ones. A
// queue's walk skips other queues' jobs, so a pass costs queues x pending
// steps at most: meant for a handful of queues.
void Simulator::multi_pass() {
    pass_due_ = false;
    ++passes_;
    traverser_.set_now(now_);
    std::vector<int64_t> previously = cancel_reservations();
    failed_.clear();
    for (size_t qi = 0; qi < jqm_.queues.size() && qi < queue_policies_.size(); ++qi) {
        const std::string& name = jqm_.queues[qi].name;
        const QueuePolicy& policy = queue_policies_[qi];
        int64_t considered = 0, reservations = 0;
        for (auto it = pending_.begin(); it != pending_.end();) {
            QueueJob& job = jobs_[it->id];
            if (job.queue != name) {
                ++it;
                continue;
            }
            if (policy.queue_depth != 0 && considered >= policy.queue_depth) break;
            ++considered;
            if (!step_past(try_job(job, reservations, policy), it, policy)) break;
        }
    }
    forget_unreserved(previously);
    kept_.clear();
    reusable_ = false;
    traverser_.clear_message();
    traverser_.set_now(0);
}

}  // namespace rq::queue
