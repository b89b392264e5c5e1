#include "utilities/file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace rq {

uint64_t file_limit(FileKind kind) {
    constexpr uint64_t kMiB = uint64_t{1} << 20;
    switch (kind) {
        case FileKind::kJobspec:
        case FileKind::kConfig:
            return 64 * kMiB;
        case FileKind::kGraph:
        case FileKind::kTrace:
            break;
    }
    return 1024 * kMiB;
}

const char* file_kind_name(FileKind kind) {
    switch (kind) {
        case FileKind::kJobspec: return "a jobspec";
        case FileKind::kConfig: return "a queue definition";
        case FileKind::kTrace: return "a job trace";
        case FileKind::kGraph: break;
    }
    return "a graph or recipe";
}

namespace {

std::string limit_text(FileKind kind) {
    uint64_t mib = file_limit(kind) >> 20;
    std::string size = mib % 1024 == 0 ? std::to_string(mib / 1024) + " GiB" : std::to_string(mib) + " MiB";
    return "larger than the " + size + " limit for " + file_kind_name(kind);
}

// Why a file of this type is not read; empty if it is (regular files,
// FIFOs and sockets such as a shell's pipe or <(...)).
std::string refused_type(mode_t mode) {
    if (S_ISDIR(mode)) return std::strerror(EISDIR);
    if (S_ISCHR(mode)) return "not a regular file (a character device)";
    if (S_ISBLK(mode)) return "not a regular file (a block device)";
    return "";
}

// Reads `fd` to its end into `text`; a pipe may stay silent at most
// kPipeSilenceSeconds between chunks.
bool read_all(int fd, bool pipe, FileKind kind, std::string& text, std::string& why) {
    const uint64_t limit = file_limit(kind);
    char buffer[1 << 16];
    for (;;) {
        if (pipe) {
            pollfd p{fd, POLLIN, 0};
            int ready = poll(&p, 1, kPipeSilenceSeconds * 1000);
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                why = "nothing to read for " + std::to_string(kPipeSilenceSeconds) + " s (a pipe with no writer?)";
                return false;
            }
        }
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) {
            why = std::strerror(errno);
            return false;
        }
        if (n == 0) return true;
        if (text.size() + static_cast<uint64_t>(n) > limit) {
            why = limit_text(kind);
            return false;
        }
        text.append(buffer, static_cast<size_t>(n));
    }
}

}  // namespace

std::string streamed_file_problem(const std::string& path, FileKind kind) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return std::strerror(errno);
    if (std::string refused = refused_type(info.st_mode); !refused.empty()) return refused;
    if (!S_ISREG(info.st_mode)) return "not a regular file (a pipe or socket cannot be streamed)";
    if (static_cast<uint64_t>(info.st_size) > file_limit(kind)) return limit_text(kind);
    return "";
}

bool read_file(const std::string& path, std::string& text, std::string* why, FileKind kind) {
    std::string reason;
    auto fail = [&](std::string because) {
        if (why != nullptr) *why = std::move(because);
        text.clear();
        return false;
    };
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return fail(std::strerror(errno));
    struct stat info {};
    bool ok = false;
    if (::fstat(fd, &info) != 0) {
        reason = std::strerror(errno);
    } else if (reason = refused_type(info.st_mode); reason.empty()) {
        text.clear();
        bool regular = S_ISREG(info.st_mode);
        try {
            if (regular && static_cast<uint64_t>(info.st_size) > file_limit(kind)) {
                reason = limit_text(kind);
            } else {
                if (regular) text.reserve(static_cast<size_t>(info.st_size));
                ok = read_all(fd, !regular, kind, text, reason);
            }
        } catch (const std::bad_alloc&) {
            reason = "not enough memory to read it (" + std::to_string(text.size()) + " bytes read)";
            ok = false;
            std::string().swap(text);
        }
    }
    ::close(fd);
    return ok ? true : fail(reason);
}

}  // namespace rq
