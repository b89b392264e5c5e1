// The simulator's one match hook: a queued job is a jobspec (matched by
// the traverser) or a pool request (docs/pools.md), matched by
// the pool matcher at the simulated time, so that every queue policy
// (fcfs, easy, conservative, hybrid, jqm) serves both.
#include "queue/simulator.h"

namespace rq::queue {

namespace {

pools::PoolOp pool_op(MatchOp op) {
    switch (op) {
        case MatchOp::kSatisfiability: return pools::PoolOp::kSatisfiability;
        case MatchOp::kAllocateOrElseReserve: return pools::PoolOp::kAllocateOrElseReserve;
        default: return pools::PoolOp::kAllocate;
    }
}

}  // namespace

MatchResult Simulator::match(QueueJob& job, MatchOp op) {
    collector_.reset();
    if (!job.pool) {
        job.jobspec->duration = static_cast<double>(job.estimate);
        return traverser_.run(*job.jobspec, op, op == MatchOp::kSatisfiability ? 0 : job.id, collector_);
    }
    if (!pool_matcher_)
        pool_matcher_ = std::make_unique<pools::PoolMatcher>(traverser_.graph(), traverser_.store(), traverser_.prune_spec());
    MatchResult r;
    auto found = pool_matcher_->find(*job.pool, pool_op(op), job.estimate, now_);
    if (!found) {
        r.code = found.code();
        return r;
    }
    r.at = found->at;
    r.duration = job.estimate;
    if (op == MatchOp::kSatisfiability) return r;
    Status recorded = pool_matcher_->record(*found, job.id, job.estimate, now_);
    if (!recorded) {
        r.code = recorded.code();
        return r;
    }
    pool_matcher_->emit(*found, collector_, job.estimate);
    return r;
}

}  // namespace rq::queue
