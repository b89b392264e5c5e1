// The job table of spec/cli.md §5.1: one record per job id, ids ascending.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "session/canceled_jobs.h"

namespace rq {

enum class JobState { kAllocated, kReserved, kCanceled };

// One line of `list` / `info` (spec/cli.md §5.13).
struct JobRecord {
    int64_t id = 0;
    JobState state = JobState::kAllocated;
    int64_t scheduled_at = 0;
    // Shared by the records of consecutive jobs from the same file: scripts
    // submit one jobspec many times, and a path per job costs ~80 bytes.
    std::shared_ptr<const std::string> jobspec_path;
    double overhead = 0;  // seconds spent matching
};

// The job table, ids ascending. Jobs live in memory (a deque: matches
// create ever-larger ids, so an insert appends; an `update` with an older
// id inserts in the middle) until they are canceled; a canceled job whose
// id exceeds every stored one moves to CanceledJobs, on disk (docs/state.md,
// Memory). Iteration merges both in id order; entries have `first` (id) and
// `second` (record), as map entries do.
class JobTable {
public:
    struct Entry {
        int64_t first;
        JobRecord second;
    };

    // Walks the live and the stored jobs together, ids ascending. A stored
    // job is read a block at a time into the iterator.
    class const_iterator {
    public:
        const Entry& operator*() const { return from_live_ ? *live_ : stored_; }
        const Entry* operator->() const { return &**this; }
        const_iterator& operator++();
        bool operator==(const const_iterator& o) const { return live_ == o.live_ && next_ == o.next_; }
        bool operator!=(const const_iterator& o) const { return !(*this == o); }

    private:
        friend class JobTable;
        const_iterator(const JobTable* table, std::deque<Entry>::const_iterator live, size_t next);
        void settle();
        const CanceledRecord& record(size_t index);

        const JobTable* table_;
        std::deque<Entry>::const_iterator live_;
        size_t next_;  // the next stored record
        std::vector<CanceledRecord> block_;
        size_t block_no_ = SIZE_MAX;
        bool from_live_ = true;
        Entry stored_{};
    };

    const_iterator begin() const { return const_iterator(this, live_.begin(), 0); }
    const_iterator end() const { return const_iterator(this, live_.end(), canceled_.size()); }
    size_t size() const { return live_.size() + canceled_.size() - removed_.size(); }
    bool empty() const { return size() == 0; }
    size_t count(int64_t id) const { return live(id) != nullptr || stored(id) ? 1 : 0; }

    // The record of `id`, wherever it is kept.
    std::optional<JobRecord> find(int64_t id) const;
    // The in-memory record of `id` (nullptr when absent or stored).
    JobRecord* live(int64_t id);
    const JobRecord* live(int64_t id) const { return const_cast<JobTable*>(this)->live(id); }
    // The in-memory record of `id`, default-constructed if absent (a stored
    // record is brought back to memory first).
    JobRecord& operator[](int64_t id);
    // Marks `id` canceled; moves it to the store when it can go there.
    void cancel(int64_t id);
    // Sets the overhead of `id` (a resume restoring the measured times).
    void set_overhead(int64_t id, double overhead);
    // Forgets `id` (an all-or-nothing match undoing its earlier jobs).
    size_t erase(int64_t id);

private:
    std::deque<Entry>::iterator lower(int64_t id);
    std::optional<CanceledRecord> stored(int64_t id) const;
    JobRecord record_of(const CanceledRecord& r) const;

    std::deque<Entry> live_;
    CanceledJobs canceled_;
    // Stored ids taken back to memory or forgotten (rare: an `update` or
    // a resume rewriting a canceled id).
    std::set<int64_t> removed_;
};

}  // namespace rq
