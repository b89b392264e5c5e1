#include "queue/replay_shapes.h"

#include <cmath>

namespace rq::queue {

namespace {

// The jobspec for an SWF size: `size` single-core slots, or `size` whole
// nodes. Shared by every job of that size.
std::string size_jobspec(int64_t size, bool whole_nodes) {
    std::string n = std::to_string(size);
    std::string resources =
        whole_nodes ? "  - type: node\n    count: " + n +
                          "\n    exclusive: true\n    with:\n      - type: slot\n        count: 1\n        label: task\n"
                          "        with:\n          - type: core\n            count: 1\n"
                    : "  - type: slot\n    count: " + n + "\n    label: task\n    with:\n      - type: core\n        count: 1\n";
    return "version: 1\nresources:\n" + resources +
           "tasks:\n  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n"
           "attributes:\n  system:\n    duration: 1\n";
}

}  // namespace

Status JobShapes::shape_by_size(QueueJob& job, int64_t size) {
    auto& slot = by_size_[size];
    if (!slot) {
        auto js = parse_jobspec(size_jobspec(size, whole_nodes_), traverser_.graph().types());
        if (!js) return js.error();
        slot = std::make_shared<Jobspec>(std::move(*js));
    }
    job.jobspec = slot;
    job.size = size;
    if (job.estimate == 0) job.estimate = std::max<int64_t>(job.runtime, 1);
    return ok_status();
}

Status JobShapes::shape_by_file(QueueJob& job, const std::string& path, int64_t runtime) {
    auto& slot = by_file_[path];
    if (!slot.first) {
        std::string text;
        if (!read_(path, text)) return make_error(Errc::kIo, "cannot read jobspec " + path);
        auto js = parse_jobspec(text, traverser_.graph().types());
        if (!js) return make_error(Errc::kInvalid, path + ": " + js.message());
        slot.second = js->duration;
        slot.first = std::make_shared<Jobspec>(std::move(*js));
    }
    job.jobspec = slot.first;
    double d = slot.second;
    if (job.estimate == 0) job.estimate = d >= 1 ? static_cast<int64_t>(std::ceil(d)) : runtime;
    job.estimate = std::max<int64_t>(job.estimate, 1);
    return ok_status();
}

Status JobShapes::shape_by_request(QueueJob& job, const std::string& text) {
    auto [it, fresh] = by_request_.try_emplace(text);
    Pool& pool = it->second;
    if (fresh) {
        // A trace's or template's request is HyperQueue's unless it starts
        // with `--as DIALECT` (docs/queue.md).
        auto request = pools::parse_request_text(text, pools::Dialect::kHq);
        if (!request) {
            by_request_.erase(it);
            return make_error(Errc::kInvalid, "request '" + text + "': " + request.message());
        }
        if (!matcher_)
            matcher_ = std::make_unique<pools::PoolMatcher>(traverser_.graph(), traverser_.store(), traverser_.prune_spec());
        auto sat = matcher_->find(*request, pools::PoolOp::kSatisfiability, 1);
        if (!sat && sat.code() == Errc::kUnsatisfiable) {
            pool.never = Errc::kUnsatisfiable;
            pool.why = sat.message();
        }
        pool.request = std::make_shared<const pools::Request>(std::move(*request));
        pool.jobspec = std::make_shared<Jobspec>();
    }
    if (pool.never != Errc::kOk) return make_error(pool.never, "request '" + text + "': " + pool.why);
    job.pool = pool.request;
    job.jobspec = pool.jobspec;
    // A request without a trace size: its cpus are its size (utilization).
    if (job.size == 0)
        for (const pools::PoolRequest& p : pool.request->pools)
            if (p.name == "cpus" && !p.all) job.size += p.amount;
    if (job.estimate == 0) job.estimate = std::max<int64_t>(job.runtime, 1);
    return ok_status();
}

}  // namespace rq::queue
