#include "utilities/memory.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace rq {

namespace {

// A cgroup limit file holds a byte count or "max" (v2); v1 reports a huge
// number when unlimited, which the min() below ignores.
uint64_t cgroup_limit(const char* path) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    try {
        return std::stoull(text);
    } catch (...) {
        return 0;
    }
}

}  // namespace

uint64_t usable_memory_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t physical = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
    uint64_t best = physical;
    for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        uint64_t limit = cgroup_limit(path);
        if (limit > 0) best = best == 0 ? limit : std::min(best, limit);
    }
    return best;
}

bool keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
    // Setting any of these fixes all three (glibc's "dynamic mmap
    // threshold" stops adapting), so the mmap threshold is set too, to
    // the highest value glibc's adaptation reaches on 64-bit systems.
    return mallopt(M_MMAP_THRESHOLD, kMmapBytes) == 1 && mallopt(M_TRIM_THRESHOLD, kKeptFreeBytes) == 1;
#else
    return false;
#endif
}

}  // namespace rq
