// Crash isolation for hwloc's XML import (see hwloc_child.h).
#include "resource/hwloc_child.h"

#include <hwloc/shmem.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <cstring>

#include "resource/hwloc_reader.h"  // the test hooks defined here

namespace rq {

Error hwloc_error(const std::string& what) { return make_error(Errc::kInvalid, "hwloc_reader: " + what); }

Result<Topology> new_topology(const std::string& where) {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0)
        return hwloc_error(where + ": cannot initialize an hwloc topology: " + std::strerror(errno));
    Topology topology(raw);
    // I/O devices: only the ones that matter (PCI devices with OS devices,
    // block devices, GPUs...); caches: only those that add structure.
    if (hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
        hwloc_topology_set_cache_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_STRUCTURE) != 0)
        return hwloc_error(where + ": cannot set the hwloc type filters: " + std::strerror(errno));
    return topology;
}

namespace {

// ---- untrusted XML -------------------------------------------------------------
//
// hwloc's XML import is not hardened against malformed input: a missing
// nodeset, a broken cpuset or absurd nesting can make hwloc_topology_load
// dereference null or overflow the stack. So the user's XML is first
// loaded in a forked child process that only reports whether hwloc
// survived it and, if hwloc refused it, hwloc's own reason (what it prints
// on its standard error with HWLOC_XML_VERBOSE=1, which the child sends
// through a pipe). Only a file the child loaded is used here.
//
// The child hands the topology it built back through hwloc's shared
// memory support (hwloc_shmem_topology_write/adopt: hwloc's own copy of
// its own objects, no parsing), so the file is parsed once. The copy
// must sit at the same address in both processes: this process reserves
// an address range before the fork, the child writes there, and this
// process adopts it. When that is not possible (topology larger than the
// reservation, no memfd...), this process parses the file itself, which
// the child proved safe. (Re-exporting the topology as XML, as this
// reader once did, cost 80% of a large load.)

// Exit codes of the child. Not 1, nor the other small codes sanitizers and
// runtimes use (AddressSanitizer and UBSan exit with 1 by default): any
// other status means the child was ended by something else than its own
// verdict.
constexpr int kChildLoaded = 0;
constexpr int kChildCannotLoad = 71;
constexpr int kChildCannotInit = 72;

void set_close_on_exec(int fd) { fcntl(fd, F_SETFD, FD_CLOEXEC); }

// hwloc reads HWLOC_XML_VERBOSE once per process, on its first XML
// import, and keeps the answer; it must be set before that, i.e. in this
// process before the first child is forked.
void ask_hwloc_for_reasons() {
    static const bool done = (setenv("HWLOC_XML_VERBOSE", "1", 1), true);
    (void)done;
}

// Where the child leaves the topology: a memory file (header at offset
// 0, hwloc's copy at one page) and an address range this process keeps
// reserved for it.
struct SharedSpot {
    int fd = -1;
    void* address = nullptr;
    size_t capacity = 0;  // bytes for hwloc's copy at `address`, followed
                          // by as many reserved inaccessible bytes (a guard)
    size_t page = 4096;
};

// What the child leaves at offset 0 of the memory file.
struct SharedHeader {
    uint64_t magic;
    uint64_t loaded;  // 1: hwloc loaded the file (written before the copy)
    uint64_t shared;  // 1: hwloc's copy is complete at `address`
};
constexpr uint64_t kSharedMagic = 0x7271687769746f70;  // "rqhwtop"

size_t shared_room_for_tests = 0;  // see set_hwloc_shared_room_for_tests()

// Reserves (without committing memory) room for a topology built from a
// `text_size`-byte XML file; a spot with fd -1 when it cannot.
SharedSpot reserve_shared_spot(size_t text_size) {
    SharedSpot spot;
    spot.page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    // hwloc's objects take about 5 times the room of their XML (a 4.5 MB
    // export of 8,192 PUs: 23 MB); only the pages written cost memory.
    size_t room = shared_room_for_tests != 0 ? shared_room_for_tests : text_size * 16 + (size_t(64) << 20);
    spot.capacity = (room + spot.page - 1) / spot.page * spot.page;
    void* reserved = mmap(nullptr, 2 * spot.capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED) return spot;
    spot.fd = memfd_create("rq-hwloc-topology", MFD_CLOEXEC);
    if (spot.fd < 0 || ftruncate(spot.fd, static_cast<off_t>(spot.page + spot.capacity)) != 0) {
        if (spot.fd >= 0) close(spot.fd);
        spot.fd = -1;
        munmap(reserved, 2 * spot.capacity);
        return spot;
    }
    spot.address = reserved;
    return spot;
}

void release_shared_spot(SharedSpot& spot) {
    if (spot.address != nullptr) munmap(spot.address, 2 * spot.capacity);
    if (spot.fd >= 0) close(spot.fd);
    spot = SharedSpot();
}

bool write_header(const SharedSpot& spot, uint64_t shared) {
    SharedHeader header{kSharedMagic, 1, shared};
    return pwrite(spot.fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header);
}

// In the child, once hwloc loaded the file: records that, then has hwloc
// copy `topology` into the spot. The copy is given the whole reservation
// rather than hwloc_shmem_topology_get_length()'s figure (computing it is
// a second full copy). hwloc does not check that bound: a topology larger
// than the room writes into the guard after it and crashes the child
// here, after the record; the parent then parses the file itself.
void share_topology(hwloc_topology_t topology, const SharedSpot& spot) {
    if (spot.fd < 0 || !write_header(spot, 0)) return;
    munmap(spot.address, spot.capacity);  // the child's copy of the room (not the guard): hwloc maps the file there
    if (hwloc_shmem_topology_write(topology, spot.fd, spot.page, spot.address, spot.capacity, 0) != 0) return;
    write_header(spot, 1);
}

// In this process, after the child ended (`exited_ok`: with status 0):
// whether hwloc loaded the file there, and the topology it left in `spot`
// (nullptr: none). Releases the spot.
struct ChildOutcome {
    bool loaded = false;
    hwloc_topology_t topology = nullptr;
};
ChildOutcome adopt_shared_topology(SharedSpot& spot, bool exited_ok) {
    ChildOutcome outcome;
    SharedHeader header{};
    if (spot.fd >= 0 && pread(spot.fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header) &&
        header.magic == kSharedMagic) {
        outcome.loaded = header.loaded == 1;
        if (header.shared == 1 && exited_ok) {
            munmap(spot.address, spot.capacity);  // free the room for hwloc's mapping; nothing runs in between
            if (hwloc_shmem_topology_adopt(&outcome.topology, spot.fd, spot.page, spot.address, spot.capacity, 0) != 0)
                outcome.topology = nullptr;
            munmap(static_cast<char*>(spot.address) + spot.capacity, spot.capacity);  // the guard
            spot.address = nullptr;  // nothing left reserved
        }
    }
    release_shared_spot(spot);
    return outcome;
}

// In the child: loads `text` (NUL-terminated) with the reader's filters
// and leaves a copy of the topology in `spot`.
int child_load(const std::string& text, const SharedSpot& spot) {
    auto topology = new_topology("");
    if (!topology) return kChildCannotInit;
    if (hwloc_topology_set_xmlbuffer(topology->get(), text.c_str(), static_cast<int>(text.size() + 1)) != 0)
        return kChildCannotInit;
    if (hwloc_topology_load(topology->get()) != 0) return kChildCannotLoad;
    share_topology(topology->get(), spot);
    return kChildLoaded;
}

// Lines hwloc prints around every parse failure; they say nothing about
// this file.
bool is_generic_hwloc_line(std::string_view line) {
    for (std::string_view generic : {"Failed to parse XML input", "generated by hwloc, try enabling",
                                     "XML component discovery failed", "hwloc: Topology loaded"}) {
        if (line.find(generic) != std::string_view::npos) return true;
    }
    return false;
}

// hwloc's reason among what the child printed: its last specific line
// (the fatal message comes last, after any "ignoring ..." warnings), with
// the "xmlbuffer: " prefix hwloc puts before the messages of an XML
// buffer dropped; empty when there is none.
std::string hwloc_reason(std::string_view printed) {
    std::string reason;
    while (!printed.empty()) {
        size_t end = printed.find('\n');
        std::string_view line = printed.substr(0, end);
        printed = end == std::string_view::npos ? std::string_view() : printed.substr(end + 1);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '.')) line.remove_suffix(1);
        if (line.rfind("xmlbuffer: ", 0) == 0) line.remove_prefix(11);
        if (!line.empty() && !is_generic_hwloc_line(line)) reason = std::string(line);
    }
    return reason;
}

// Reads `fd` to its end, keeping the last `keep` bytes at most.
std::string read_tail(int fd, size_t keep) {
    std::string tail;
    char buffer[1 << 14];
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        tail.append(buffer, static_cast<size_t>(n));
        if (tail.size() > 2 * keep) tail.erase(0, tail.size() - keep);
    }
    if (tail.size() > keep) tail.erase(0, tail.size() - keep);
    return tail;
}

}  // namespace

void set_hwloc_shared_room_for_tests(size_t bytes) { shared_room_for_tests = bytes; }

Status hwloc_child_verdict(int status, std::string_view printed, const std::string& where) {
    std::string reason = hwloc_reason(printed);
    if (WIFSIGNALED(status))
        return hwloc_error(where + ": hwloc crashed loading it (" + strsignal(WTERMSIG(status)) +
                           "): malformed hwloc topology");
    if (!WIFEXITED(status)) return hwloc_error(where + ": the hwloc loader process vanished");
    switch (WEXITSTATUS(status)) {
    case kChildLoaded: return ok_status();
    case kChildCannotLoad:
        return hwloc_error(where + ": hwloc cannot load it: " +
                           (reason.empty() ? "malformed XML or not an hwloc topology" : reason));
    case kChildCannotInit: return hwloc_error(where + ": cannot set up an hwloc topology to load it");
    default:
        // A sanitizer or the C++ runtime ended the child (its report, or
        // the end of it, is the reason).
        return hwloc_error(where + ": hwloc crashed loading it (the loader process exited with status " +
                           std::to_string(WEXITSTATUS(status)) + (reason.empty() ? "" : ": " + reason) + ")");
    }
}

namespace {

// Loads `text` in a child process. If hwloc loaded it there: the topology
// the child left in `spot`, or a null one (this process must parse the
// file itself, which is then known to be safe). Otherwise an error naming
// `where` and giving the reason, one line. Releases `spot`. Must be
// called while this process is single-threaded (start-up).
Result<Topology> run_child(const std::string& text, const std::string& where, SharedSpot& spot) {
    ask_hwloc_for_reasons();
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        int error = errno;
        release_shared_spot(spot);
        return hwloc_error(where + ": cannot create a pipe: " + std::strerror(error));
    }
    set_close_on_exec(pipe_fds[0]);
    pid_t child = fork();
    if (child < 0) {
        int error = errno;
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        release_shared_spot(spot);
        return hwloc_error(where + ": cannot fork: " + std::strerror(error));
    }
    if (child == 0) {
        close(pipe_fds[0]);
        dup2(pipe_fds[1], STDERR_FILENO);  // hwloc's messages (and a sanitizer's report) go to the parent
        dup2(pipe_fds[1], STDOUT_FILENO);
        rlimit no_core{0, 0};
        setrlimit(RLIMIT_CORE, &no_core);  // a crash here is expected, not worth a core file
        _exit(child_load(text, spot));     // _exit: never flush the parent's stdio buffers
    }
    close(pipe_fds[1]);
    std::string printed = read_tail(pipe_fds[0], 4096);
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            int error = errno;
            release_shared_spot(spot);
            return hwloc_error(where + ": lost the hwloc loader process: " + std::strerror(error));
        }
    }
    ChildOutcome outcome = adopt_shared_topology(spot, WIFEXITED(status) && WEXITSTATUS(status) == kChildLoaded);
    if (outcome.loaded) return Topology(outcome.topology);  // even if the copy then crashed
    RQ_TRY(hwloc_child_verdict(status, printed, where));
    return Topology();  // loaded, but no memory file: parse here
}

// Runs `load` with this process's standard error sent to /dev/null: hwloc
// repeats here the warnings the child already printed (and we dropped).
template <typename Load>
auto with_stderr_silenced(Load load) {
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null_fd >= 0) dup2(null_fd, STDERR_FILENO);
    auto result = load();
    if (saved >= 0 && null_fd >= 0) dup2(saved, STDERR_FILENO);
    if (saved >= 0) close(saved);
    if (null_fd >= 0) close(null_fd);
    return result;
}

}  // namespace

Result<Topology> load_in_child(const std::string& text, const std::string& where) {
    SharedSpot spot = reserve_shared_spot(text.size());
    return run_child(text, where, spot);
}

int load_quietly(hwloc_topology_t topology) {
    return with_stderr_silenced([&] { return hwloc_topology_load(topology); });
}

}  // namespace rq
