// The job table of spec/cli.md §5.1: one record per job id, ids ascending.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

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

// The job table, ids ascending. Matches create ever-larger ids, so an
// insert appends (one 56-byte entry in a deque block; a std::map node took
// 96); an `update` with an older id inserts in the middle, moving the
// entries after it. Entries have `first` (id) and `second` (record), as
// map entries do.
class JobTable {
public:
    struct Entry {
        int64_t first;
        JobRecord second;
    };
    using iterator = std::deque<Entry>::iterator;
    using const_iterator = std::deque<Entry>::const_iterator;

    iterator begin() { return entries_.begin(); }
    iterator end() { return entries_.end(); }
    const_iterator begin() const { return entries_.begin(); }
    const_iterator end() const { return entries_.end(); }
    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    size_t count(int64_t id) const { return find(id) != end() ? 1 : 0; }
    iterator find(int64_t id) {
        auto it = lower(id);
        return it != entries_.end() && it->first == id ? it : entries_.end();
    }
    const_iterator find(int64_t id) const { return const_cast<JobTable*>(this)->find(id); }
    // The record of `id`, default-constructed if absent.
    JobRecord& operator[](int64_t id) {
        if (entries_.empty() || entries_.back().first < id) return entries_.push_back({id, JobRecord{}}), entries_.back().second;
        auto it = lower(id);
        if (it == entries_.end() || it->first != id) it = entries_.insert(it, Entry{id, JobRecord{}});
        return it->second;
    }

    // Forgets `id` (an all-or-nothing match undoing its earlier jobs).
    size_t erase(int64_t id) {
        auto it = find(id);
        if (it == end()) return 0;
        entries_.erase(it);
        return 1;
    }

private:
    iterator lower(int64_t id) {
        return std::lower_bound(entries_.begin(), entries_.end(), id,
                                [](const Entry& e, int64_t key) { return e.first < key; });
    }
    std::deque<Entry> entries_;
};

}  // namespace rq
