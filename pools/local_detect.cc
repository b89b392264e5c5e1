#include "pools/local_detect.h"

#include <dirent.h>
#include <hwloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

namespace rq::pools {

namespace {

using Topology = std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)>;

// The cpus the process may run on, or nullopt when the mask is unknown
// (HyperQueue then allows every core: hwdetect.rs filter_masked_cpus).
std::optional<std::set<unsigned>> affinity_mask() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
    std::set<unsigned> cpus;
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) cpus.insert(cpu);
    return cpus;
}

// The cpus outside `allowed` removed, empty groups dropped. HyperQueue
// filters its NUMA cpu lists by the affinity mask
// (crates/hyperqueue/src/worker/hwdetect.rs:52-70, filter_masked_cpus).
void keep_allowed(Pool& pool, const std::set<unsigned>& allowed) {
    for (auto& group : pool.groups)
        group.erase(std::remove_if(group.begin(), group.end(),
                                   [&](const PoolItem& i) { return allowed.count(unsigned(std::stoul(i.id))) == 0; }),
                    group.end());
    pool.groups.erase(std::remove_if(pool.groups.begin(), pool.groups.end(), [](const auto& g) { return g.empty(); }),
                      pool.groups.end());
    if (pool.groups.empty()) pool.groups.emplace_back();
    pool.grouped = pool.grouped && pool.groups.size() > 1;
}

// cpus: PU os indexes grouped by the objects of `by` (NUMA, else package).
Pool detect_cpus(hwloc_topology_t topo) {
    Pool pool;
    pool.name = "cpus";
    hwloc_obj_type_t by = HWLOC_OBJ_NUMANODE;
    int groups = hwloc_get_nbobjs_by_type(topo, by);
    if (groups < 2) by = HWLOC_OBJ_PACKAGE, groups = hwloc_get_nbobjs_by_type(topo, by);
    if (groups >= 2) {
        for (int g = 0; g < groups; ++g) {
            hwloc_obj_t obj = hwloc_get_obj_by_type(topo, by, unsigned(g));
            std::vector<PoolItem> items;
            int n = hwloc_get_nbobjs_inside_cpuset_by_type(topo, obj->cpuset, HWLOC_OBJ_PU);
            for (int i = 0; i < n; ++i) {
                hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topo, obj->cpuset, HWLOC_OBJ_PU, unsigned(i));
                items.push_back({std::to_string(pu->os_index), 1});
            }
            if (!items.empty()) pool.groups.push_back(std::move(items));
        }
        pool.grouped = pool.groups.size() > 1;
    }
    if (pool.groups.empty()) {
        pool.groups.emplace_back();
        int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        for (int i = 0; i < n; ++i)
            pool.groups.back().push_back({std::to_string(hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, unsigned(i))->os_index), 1});
    }
    if (pool.grouped) return pool;
    // One group: a plain list, ids in numeric order.
    std::vector<PoolItem> all;
    for (auto& g : pool.groups) all.insert(all.end(), g.begin(), g.end());
    pool.groups.assign(1, std::move(all));
    return pool;
}

std::vector<PoolItem> nvidia_from_proc(const std::string& proc_root) {
    std::vector<PoolItem> items;
    DIR* dir = opendir((proc_root + "/driver/nvidia/gpus").c_str());
    if (dir == nullptr) return items;
    int n = 0;
    while (dirent* e = readdir(dir))
        if (e->d_name[0] != '.') ++n;
    closedir(dir);
    for (int i = 0; i < n; ++i) items.push_back({std::to_string(i), 1});
    return items;
}

void add_indexed(Worker& w, const std::string& name, std::vector<PoolItem> items) {
    if (items.empty()) return;
    Pool p;
    p.name = name;
    p.groups.push_back(std::move(items));
    w.pools.push_back(std::move(p));
}

}  // namespace

std::vector<PoolItem> visible_devices(const std::string& value) {
    std::vector<PoolItem> items;
    size_t start = 0;
    while (start <= value.size()) {
        size_t end = value.find(',', start);
        if (end == std::string::npos) end = value.size();
        std::string id = value.substr(start, end - start);
        id.erase(0, id.find_first_not_of(" \t"));
        id.erase(id.find_last_not_of(" \t") + 1);
        // HyperQueue ignores the whole variable when an id repeats or is
        // empty (crates/hyperqueue/src/worker/hwdetect.rs:209-221, 293-299);
        // `-1` is an id like any other there.
        bool dup = std::any_of(items.begin(), items.end(), [&](const PoolItem& i) { return i.id == id; });
        if (id.empty() || dup) return {};
        items.push_back({id, 1});
        start = end + 1;
    }
    return items;
}

std::optional<uint64_t> mem_total_bytes(const std::string& meminfo) {
    std::istringstream lines(meminfo);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("MemTotal:", 0) != 0) continue;
        std::istringstream fields(line.substr(9));
        uint64_t kib = 0;
        std::string unit;
        if (!(fields >> kib >> unit) || unit != "kB" || kib > UINT64_MAX / 1024) return std::nullopt;
        return kib * 1024;
    }
    return std::nullopt;
}

namespace {

Result<Topology> load_topology(const LocalSources& sources) {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) return make_error(Errc::kIo, "local machine: cannot initialize hwloc");
    Topology topo(raw, hwloc_topology_destroy);
    if (!sources.topology_xml.empty() && hwloc_topology_set_xml(raw, sources.topology_xml.c_str()) != 0)
        return make_error(Errc::kIo, "local machine: hwloc cannot read " + sources.topology_xml);
    if (hwloc_topology_load(raw) != 0) return make_error(Errc::kIo, "local machine: hwloc cannot detect the topology");
    return topo;
}

// The kernel's MemTotal, as HyperQueue reads it (the sysinfo crate's
// total_memory(), i.e. /proc/meminfo MemTotal: hwdetect.rs:239-244,
// read_linux_memory); else the physical pages. Not hwloc's NUMA memory,
// which on virtual machines is far below it (docs/pools.md "The local
// machine").
uint64_t detect_memory(const std::string& proc_root) {
    std::ifstream in(proc_root + "/meminfo");
    std::stringstream text;
    text << in.rdbuf();
    if (auto bytes = mem_total_bytes(text.str())) return *bytes;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace

Result<Machine> detect_local_machine(const LocalSources& sources) {
    auto topo = load_topology(sources);
    if (!topo) return topo.error();
    Worker w;
    char host[256] = {0};
    w.name = gethostname(host, sizeof host - 1) == 0 && host[0] ? host : "localhost";
    Pool cpus = detect_cpus(topo->get());
    auto allowed = sources.allowed_cpus ? sources.allowed_cpus : affinity_mask();
    if (allowed) keep_allowed(cpus, *allowed);
    w.pools.push_back(std::move(cpus));
    const char* cuda = std::getenv("CUDA_VISIBLE_DEVICES");
    std::vector<PoolItem> nvidia = cuda ? visible_devices(cuda) : std::vector<PoolItem>{};
    add_indexed(w, "gpus/nvidia", nvidia.empty() ? nvidia_from_proc(sources.proc_root) : std::move(nvidia));
    const char* rocr = std::getenv("ROCR_VISIBLE_DEVICES");
    const char* hip = std::getenv("HIP_VISIBLE_DEVICES");
    if (rocr || hip) add_indexed(w, "gpus/amd", visible_devices(rocr ? rocr : hip));
    uint64_t bytes = detect_memory(sources.proc_root);
    if (bytes > 0 && bytes <= uint64_t(kMaxAmount)) {
        Pool mem;
        mem.name = "mem";
        mem.sum = true;
        mem.size = int64_t(bytes);
        mem.groups.push_back({{"mem", mem.size}});
        w.pools.push_back(std::move(mem));
    }
    Machine m;
    m.workers.push_back(std::move(w));
    return m;
}

}  // namespace rq::pools
