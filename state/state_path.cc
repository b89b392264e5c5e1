#include "state/state_path.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rq::state {

namespace {

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// The pid holding a flock on the file `fd` names, from /proc/locks
// ("1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"); 0 if not found.
long holder_pid(int fd) {
    struct stat st {};
    if (fstat(fd, &st) != 0) return 0;
    char want[64];
    std::snprintf(want, sizeof want, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                  static_cast<unsigned long long>(st.st_ino));
    std::ifstream locks("/proc/locks");
    for (std::string line; std::getline(locks, line);) {
        std::istringstream in(line);
        std::string number, kind, advisory, mode, pid, file;
        if (!(in >> number >> kind)) continue;
        if (kind == "->") in >> kind;  // a waiter's line
        if (!(in >> advisory >> mode >> pid >> file)) continue;
        if (kind == "FLOCK" && file == want) return std::strtol(pid.c_str(), nullptr, 10);
    }
    return 0;
}

}  // namespace

Status check_state_path(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return ok_status();  // a new state file
        return make_error(Errc::kInvalid, path + ": " + std::strerror(errno));
    }
    if (S_ISREG(st.st_mode)) return ok_status();
    return make_error(Errc::kInvalid, path + ": " + kind_of(st.st_mode) +
                                          ", not a state file (a state file is a regular file or a new path)");
}

Result<bool> read_only_place(const std::string& path) {
    std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
    if (access(folder.c_str(), W_OK) == 0 && access(path.c_str(), W_OK) == 0) return false;
    std::error_code ec;
    if (std::filesystem::file_size(path + "-wal", ec) > 0 && !ec)
        return make_error(Errc::kInvalid, path + ": read-only here, and " + path +
                                              "-wal holds commits not yet in it; resume it where it can be written");
    return true;
}

WriterLock& WriterLock::operator=(WriterLock&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) close(fd_);
        fd_ = o.fd_;
        created_ = std::move(o.created_);
        o.fd_ = -1;
        o.created_.clear();
    }
    return *this;
}

WriterLock::~WriterLock() {
    if (fd_ >= 0) close(fd_);
}

Result<WriterLock> WriterLock::acquire(const std::string& path) {
    RQ_TRY(check_state_path(path));
    WriterLock lock;
    lock.fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (lock.fd_ >= 0) {
        lock.created_ = path;
    } else if (errno == EEXIST) {
        lock.fd_ = open(path.c_str(), O_RDWR | O_CLOEXEC);
    }
    if (lock.fd_ < 0) return make_error(Errc::kInvalid, path + ": cannot open the state file: " + std::strerror(errno));
    if (flock(lock.fd_, LOCK_EX | LOCK_NB) == 0) return lock;
    int error = errno;
    if (error != EWOULDBLOCK)
        return make_error(Errc::kInvalid, path + ": cannot lock the state file: " + std::strerror(error));
    long pid = holder_pid(lock.fd_);
    lock.created_.clear();  // another process's file
    return make_error(Errc::kBusy, path + ": in use by another resource-query (" +
                                       (pid > 0 ? "pid " + std::to_string(pid) : "pid unknown") +
                                       "), which holds the writer lock; resume it read-only with -f db -L");
}

void WriterLock::discard_created() {
    if (!created_.empty()) unlink(created_.c_str());
    created_.clear();
}

}  // namespace rq::state
