// Which paths may be state files, and the one-writer rule (docs/state.md, Durability): a state file is a regular file
// (or a path that does not exist yet), and one process at a time writes
// it, holding an advisory lock for the whole session.
#pragma once

#include <string>

#include "utilities/result.h"

namespace rq::state {

// Refuses a path that exists and is not a regular file (a device, a FIFO,
// a directory) before anything is opened or created beside it: SQLite
// would create PATH-journal / PATH-wal next to /dev/null.
Status check_state_path(const std::string& path);

// Whether a resume must open `path` immutable: its folder (or the file)
// cannot be written, so SQLite could make no -wal/-shm file beside it. A
// non-empty PATH-wal there holds commits such a read would not see:
// refused.
Result<bool> read_only_place(const std::string& path);

// An exclusive advisory lock (flock) on a state file, held until
// destroyed. A second writer is refused with one line naming the file and
// the holder's pid (read from /proc/locks where there is one).
class WriterLock {
public:
    WriterLock() = default;
    WriterLock(const WriterLock&) = delete;
    WriterLock& operator=(const WriterLock&) = delete;
    WriterLock(WriterLock&& o) noexcept : fd_(o.fd_), created_(std::move(o.created_)) { o.fd_ = -1; o.created_.clear(); }
    WriterLock& operator=(WriterLock&& o) noexcept;
    ~WriterLock();

    // Locks `path` (creating it, empty, if absent).
    static Result<WriterLock> acquire(const std::string& path);
    bool held() const { return fd_ >= 0; }
    // Removes the file if acquire() created it (a start-up that failed
    // before its first commit leaves nothing behind).
    void discard_created();
    // The file is a state file now: keep it.
    void keep() { created_.clear(); }

private:
    int fd_ = -1;
    std::string created_;  // the path, if acquire() created the file
};

}  // namespace rq::state
