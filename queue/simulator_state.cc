// Saving and restoring the simulator (state/queue_rows.cc keeps it in the
// state file): its counters and its jobs; everything else it holds is
// derived from them (the pending set, the ends, the span ends) or scratch
// of one pass.
#include <algorithm>

#include "queue/simulator.h"

namespace rq::queue {

Simulator::Clock Simulator::clock() const {
    return Clock{now_, next_seq_, passes_, pass_due_, poll_at_, reserved_};
}

Status Simulator::restore(const Clock& clock, std::vector<QueueJob> jobs) {
    if (!jobs_.empty()) return make_error(Errc::kInvalid, "the simulated queue already has jobs");
    std::unordered_map<int64_t, QueueJob> by_id;
    std::set<uint64_t> seqs;
    for (QueueJob& job : jobs) {
        auto bad = [&](const std::string& what) {
            return make_error(Errc::kInvalid, "queued job " + std::to_string(job.id) + ": " + what);
        };
        if (job.seq >= clock.next_seq || !seqs.insert(job.seq).second) return bad("submission order out of range");
        if (job.submit > clock.now) return bad("submitted after the clock");
        if (job.state == QueueJobState::kRunning && (job.start < 0 || job.end < job.start || job.end < clock.now))
            return bad("a running job without a start and an end after the clock");
        if (!job.jobspec) return bad("no jobspec");
        int64_t id = job.id;
        if (!by_id.emplace(id, std::move(job)).second) return make_error(Errc::kInvalid, "queued job " + std::to_string(id) + " twice");
    }
    for (int64_t id : clock.reserved) {
        auto it = by_id.find(id);
        if (it == by_id.end() || it->second.state != QueueJobState::kReserved)
            return make_error(Errc::kInvalid, "reserved job " + std::to_string(id) + " is not a reserved job");
    }
    for (auto& [id, job] : by_id) {
        if (job.state == QueueJobState::kReserved &&
            std::find(clock.reserved.begin(), clock.reserved.end(), id) == clock.reserved.end())
            return make_error(Errc::kInvalid, "queued job " + std::to_string(id) + " is reserved outside the last pass");
        job.totals.clear();
        add_job_totals(job);
        if (job.state == QueueJobState::kRunning)
            ends_.push({job.end, job.seq, job.id});
        else
            pending_.insert(key_of(job));
        if (job.span_end >= 0) span_ends_.insert(job.span_end);
    }
    jobs_ = std::move(by_id);
    now_ = clock.now;
    next_seq_ = clock.next_seq;
    passes_ = clock.passes;
    pass_due_ = clock.pass_due;
    poll_at_ = clock.poll_at;
    reserved_ = clock.reserved;
    kept_.clear();
    reusable_ = false;
    return ok_status();
}

}  // namespace rq::queue
