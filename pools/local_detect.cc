#include "pools/local_detect.h"

#include <dirent.h>
#include <hwloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace rq::pools {

namespace {

using Topology = std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)>;

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

std::vector<PoolItem> nvidia_from_proc() {
    std::vector<PoolItem> items;
    DIR* dir = opendir("/proc/driver/nvidia/gpus");
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

Result<Machine> detect_local_machine() {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) return make_error(Errc::kIo, "local machine: cannot initialize hwloc");
    Topology topo(raw, hwloc_topology_destroy);
    if (hwloc_topology_load(topo.get()) != 0) return make_error(Errc::kIo, "local machine: hwloc cannot detect the topology");
    Worker w;
    char host[256] = {0};
    w.name = gethostname(host, sizeof host - 1) == 0 && host[0] ? host : "localhost";
    w.pools.push_back(detect_cpus(topo.get()));
    const char* cuda = std::getenv("CUDA_VISIBLE_DEVICES");
    std::vector<PoolItem> nvidia = cuda ? visible_devices(cuda) : std::vector<PoolItem>{};
    add_indexed(w, "gpus/nvidia", nvidia.empty() ? nvidia_from_proc() : std::move(nvidia));
    const char* rocr = std::getenv("ROCR_VISIBLE_DEVICES");
    const char* hip = std::getenv("HIP_VISIBLE_DEVICES");
    if (rocr || hip) add_indexed(w, "gpus/amd", visible_devices(rocr ? rocr : hip));
    uint64_t bytes = hwloc_get_root_obj(topo.get())->total_memory;
    if (bytes == 0) bytes = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
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
