#include "session/canceled_jobs.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>

namespace rq {

namespace {

// Records written at a time: one 4 KiB page.
constexpr size_t kWriteRecords = 128;

std::string temp_dir() {
    const char* dir = std::getenv("TMPDIR");
    return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

}  // namespace

CanceledJobs::~CanceledJobs() { close_file(); }

CanceledJobs::CanceledJobs(CanceledJobs&& other) noexcept { *this = std::move(other); }

CanceledJobs& CanceledJobs::operator=(CanceledJobs&& other) noexcept {
    if (this == &other) return *this;
    close_file();
    fd_ = std::exchange(other.fd_, -1);
    file_name_ = std::move(other.file_name_);
    in_memory_ = other.in_memory_;
    count_ = std::exchange(other.count_, 0);
    flushed_ = std::exchange(other.flushed_, 0);
    last_id_ = std::exchange(other.last_id_, INT64_MIN);
    pending_ = std::move(other.pending_);
    block_first_id_ = std::move(other.block_first_id_);
    paths_ = std::move(other.paths_);
    path_index_ = std::move(other.path_index_);
    cached_ = std::move(other.cached_);
    cached_block_ = std::exchange(other.cached_block_, SIZE_MAX);
    other.pending_.clear();
    other.block_first_id_.clear();
    other.paths_.clear();
    other.path_index_.clear();
    return *this;
}

void CanceledJobs::close_file() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

uint32_t CanceledJobs::intern(const std::shared_ptr<const std::string>& path) {
    if (!path) return kNoPath;
    // Consecutive jobs share the pointer (Session::share_path).
    if (!paths_.empty() && paths_.back() == path) return static_cast<uint32_t>(paths_.size() - 1);
    auto [it, added] = path_index_.emplace(*path, static_cast<uint32_t>(paths_.size()));
    if (added) paths_.push_back(path);
    return it->second;
}

const std::shared_ptr<const std::string>& CanceledJobs::path(uint32_t index) const {
    static const std::shared_ptr<const std::string> none;
    return index < paths_.size() ? paths_[index] : none;
}

void CanceledJobs::append(int64_t id, int64_t scheduled_at, double overhead,
                          const std::shared_ptr<const std::string>& path) {
    if (count_ % kBlockRecords == 0) block_first_id_.push_back(id);
    if (cached_block_ == count_ / kBlockRecords) cached_block_ = SIZE_MAX;  // that block grows
    pending_.push_back(CanceledRecord{id, scheduled_at, overhead, intern(path), 0});
    ++count_;
    last_id_ = id;
    if (!in_memory_ && pending_.size() >= kWriteRecords) flush();
}

bool CanceledJobs::open_file() {
    std::string dir = temp_dir();
#ifdef O_TMPFILE
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ >= 0) {
        file_name_ = dir + " (an anonymous temporary file)";
        return true;
    }
#endif
    // Filesystems without O_TMPFILE: a named file, unlinked at once.
    std::string name = dir + "/resource-query-canceled-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    file_name_ = name;
    if (fd_ < 0) return give_up("cannot create", errno), false;
    ::unlink(name.c_str());
    return true;
}

void CanceledJobs::give_up(const char* what, int err) {
    std::cerr << "resource-query: warning: " << what << " " << file_name_ << ": " << std::strerror(err)
              << "; keeping canceled jobs in memory (docs/state.md, Memory)" << std::endl;
    in_memory_ = true;  // the file stays open: records already written are read from it
}

void CanceledJobs::flush() {
    if (fd_ < 0 && !open_file()) return;
    const char* bytes = reinterpret_cast<const char*>(pending_.data());
    size_t left = pending_.size() * sizeof(CanceledRecord);
    off_t at = static_cast<off_t>(flushed_ * sizeof(CanceledRecord));
    while (left > 0) {
        ssize_t n = ::pwrite(fd_, bytes, left, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return give_up("cannot write", n < 0 ? errno : ENOSPC);
        bytes += n, left -= static_cast<size_t>(n), at += n;
    }
    flushed_ += pending_.size();
    pending_.clear();
}

void CanceledJobs::read_block(size_t block, std::vector<CanceledRecord>& out) const {
    size_t first = block * kBlockRecords;
    size_t last = std::min(count_, first + kBlockRecords);
    out.resize(last > first ? last - first : 0);
    size_t from_file = first < flushed_ ? std::min(last, flushed_) - first : 0;
    char* bytes = reinterpret_cast<char*>(out.data());
    size_t left = from_file * sizeof(CanceledRecord);
    off_t at = static_cast<off_t>(first * sizeof(CanceledRecord));
    while (left > 0) {
        ssize_t n = ::pread(fd_, bytes, left, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw CanceledJobsReadError("cannot read canceled jobs from " + file_name_ + ": " +
                                     std::strerror(n < 0 ? errno : EIO));
        bytes += n, left -= static_cast<size_t>(n), at += n;
    }
    for (size_t i = std::max(first, flushed_); i < last; ++i) out[i - first] = pending_[i - flushed_];
}

std::optional<CanceledRecord> CanceledJobs::find(int64_t id) const {
    if (count_ == 0 || id > last_id_ || id < block_first_id_.front()) return std::nullopt;
    auto after = std::upper_bound(block_first_id_.begin(), block_first_id_.end(), id);
    size_t block = static_cast<size_t>(after - block_first_id_.begin()) - 1;
    if (cached_block_ != block) {
        read_block(block, cached_);
        cached_block_ = block;
    }
    auto it = std::lower_bound(cached_.begin(), cached_.end(), id,
                               [](const CanceledRecord& r, int64_t key) { return r.id < key; });
    if (it == cached_.end() || it->id != id) return std::nullopt;
    return *it;
}

}  // namespace rq
