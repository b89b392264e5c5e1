// The canceled jobs of the job table, kept out of memory (docs/state.md,
// Memory): `list` and `info` print every job, canceled ones included
// (spec/cli.md §5.13), so a long match/cancel session would otherwise grow
// by one table entry a cycle. A canceled job never changes again, so it
// becomes a fixed-size binary record appended, in ascending id order, to an
// anonymous temporary file in $TMPDIR; memory keeps one id per block of
// kBlockRecords records, the paths (interned), a small write buffer and one
// read block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace rq {

// A stored record could not be read back (the file and the errno text):
// the command fails with this line; nothing in memory changed.
struct CanceledJobsReadError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One canceled job as stored: its `list` line without the state.
struct CanceledRecord {
    int64_t id = 0;
    int64_t scheduled_at = 0;
    double overhead = 0;  // the exact double, so `list` prints the same digits
    uint32_t path = 0;    // index into the interned paths; kNoPath for none
    uint32_t unused = 0;
};
static_assert(sizeof(CanceledRecord) == 32, "a record is 32 bytes on disk");

class CanceledJobs {
public:
    static constexpr uint32_t kNoPath = UINT32_MAX;
    // Records per block: a lookup reads one block (32 KiB) with one pread;
    // the index holds one id per block (8 bytes per 1,024 jobs).
    static constexpr size_t kBlockRecords = 1024;

    CanceledJobs() = default;
    ~CanceledJobs();
    CanceledJobs(CanceledJobs&& other) noexcept;
    CanceledJobs& operator=(CanceledJobs&& other) noexcept;
    CanceledJobs(const CanceledJobs&) = delete;
    CanceledJobs& operator=(const CanceledJobs&) = delete;

    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    // The largest id stored; appends must exceed it (ids stay ascending).
    int64_t last_id() const { return last_id_; }

    // Appends a job whose id exceeds last_id(). If the temporary file cannot
    // be made or written, says so once on stderr (file and errno) and keeps
    // the records in memory instead: nothing is lost.
    void append(int64_t id, int64_t scheduled_at, double overhead, const std::shared_ptr<const std::string>& path);

    // The record of `id`, if stored (one pread unless its block is cached).
    std::optional<CanceledRecord> find(int64_t id) const;
    // Records [block * kBlockRecords, ...) up to one block, into `out`.
    void read_block(size_t block, std::vector<CanceledRecord>& out) const;
    size_t blocks() const { return (count_ + kBlockRecords - 1) / kBlockRecords; }
    // The path a record names (nullptr for kNoPath).
    const std::shared_ptr<const std::string>& path(uint32_t index) const;

private:
    uint32_t intern(const std::shared_ptr<const std::string>& path);
    bool open_file();
    void flush();
    void give_up(const char* what, int err);
    void close_file();

    int fd_ = -1;
    std::string file_name_;  // for error lines
    bool in_memory_ = false;  // the file failed: pending_ holds everything since
    size_t count_ = 0;
    size_t flushed_ = 0;  // records [0, flushed_) are in the file
    int64_t last_id_ = INT64_MIN;
    std::vector<CanceledRecord> pending_;  // records [flushed_, count_)
    std::vector<int64_t> block_first_id_;  // id of record b * kBlockRecords
    std::vector<std::shared_ptr<const std::string>> paths_;
    std::unordered_map<std::string, uint32_t> path_index_;
    // The block the last find() read: ascending lookups (a `save` walking
    // every id) read each block once.
    mutable std::vector<CanceledRecord> cached_;
    mutable size_t cached_block_ = SIZE_MAX;
};

}  // namespace rq
