#include "session/job_table.h"

#include <algorithm>

namespace rq {

JobTable::const_iterator::const_iterator(const JobTable* table, std::deque<Entry>::const_iterator live, size_t next)
    : table_(table), live_(live), next_(next) {
    settle();
}

const CanceledRecord& JobTable::const_iterator::record(size_t index) {
    size_t block = index / CanceledJobs::kBlockRecords;
    if (block != block_no_) {
        table_->canceled_.read_block(block, block_);
        block_no_ = block;
    }
    return block_[index % CanceledJobs::kBlockRecords];
}

// Skips forgotten stored records, then points at the smaller id of the two.
void JobTable::const_iterator::settle() {
    const size_t n = table_->canceled_.size();
    while (next_ < n && !table_->removed_.empty() && table_->removed_.count(record(next_).id)) ++next_;
    if (next_ == n) {
        from_live_ = true;
        return;
    }
    const CanceledRecord& r = record(next_);
    from_live_ = live_ != table_->live_.end() && live_->first < r.id;
    if (!from_live_) stored_ = Entry{r.id, table_->record_of(r)};
}

JobTable::const_iterator& JobTable::const_iterator::operator++() {
    if (from_live_)
        ++live_;
    else
        ++next_;
    settle();
    return *this;
}

JobRecord JobTable::record_of(const CanceledRecord& r) const {
    JobRecord j;
    j.id = r.id;
    j.state = JobState::kCanceled;
    j.scheduled_at = r.scheduled_at;
    j.jobspec_path = canceled_.path(r.path);
    j.overhead = r.overhead;
    return j;
}

std::deque<JobTable::Entry>::iterator JobTable::lower(int64_t id) {
    return std::lower_bound(live_.begin(), live_.end(), id, [](const Entry& e, int64_t key) { return e.first < key; });
}

std::optional<CanceledRecord> JobTable::stored(int64_t id) const {
    if (canceled_.empty() || id > canceled_.last_id() || removed_.count(id)) return std::nullopt;
    return canceled_.find(id);
}

JobRecord* JobTable::live(int64_t id) {
    auto it = lower(id);
    return it != live_.end() && it->first == id ? &it->second : nullptr;
}

std::optional<JobRecord> JobTable::find(int64_t id) const {
    if (const JobRecord* j = live(id)) return *j;
    if (auto r = stored(id)) return record_of(*r);
    return std::nullopt;
}

JobRecord& JobTable::operator[](int64_t id) {
    if (live_.empty() || live_.back().first < id) {
        if (auto r = stored(id)) {  // (only when live_ is empty or all older)
            removed_.insert(id);
            live_.push_back({id, record_of(*r)});
        } else {
            live_.push_back({id, JobRecord{}});
        }
        return live_.back().second;
    }
    auto it = lower(id);
    if (it == live_.end() || it->first != id) {
        JobRecord j;
        if (auto r = stored(id)) {
            removed_.insert(id);
            j = record_of(*r);
        }
        it = live_.insert(it, Entry{id, std::move(j)});
    }
    return it->second;
}

void JobTable::cancel(int64_t id) {
    auto it = lower(id);
    if (it == live_.end() || it->first != id) return;  // absent, or stored (canceled already)
    it->second.state = JobState::kCanceled;
    // The store keeps ids ascending; an older id stays here, canceled.
    if (!canceled_.empty() && id <= canceled_.last_id()) return;
    const JobRecord& j = it->second;
    canceled_.append(id, j.scheduled_at, j.overhead, j.jobspec_path);
    live_.erase(it);
}

void JobTable::set_overhead(int64_t id, double overhead) {
    if (JobRecord* j = live(id)) {
        j->overhead = overhead;
        return;
    }
    auto r = stored(id);
    if (r && r->overhead != overhead) (*this)[id].overhead = overhead;  // brought back to memory
}

size_t JobTable::erase(int64_t id) {
    auto it = lower(id);
    if (it != live_.end() && it->first == id) {
        live_.erase(it);
        return 1;
    }
    if (!stored(id)) return 0;
    removed_.insert(id);
    return 1;
}

}  // namespace rq
