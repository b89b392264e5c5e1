// The machine resource-query runs on, as HyperQueue's worker detection sees
// it (docs/pools.md "Coming from HyperQueue"): `cpus` grouped by NUMA node
// (or socket) from hwloc, only those in the process's affinity mask;
// `gpus/nvidia` from CUDA_VISIBLE_DEVICES else /proc/driver/nvidia/gpus;
// `gpus/amd` from ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES; `mem` in
// bytes, the kernel's MemTotal (/proc/meminfo), as a sum pool. No GPU is
// no pool, not an error.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "pools/pool_def.h"

namespace rq::pools {

// Where the detection looks; the defaults are this machine. Tests point
// them at fake trees and topologies written for the test.
struct LocalSources {
    std::string proc_root = "/proc";  // meminfo, driver/nvidia/gpus
    std::string topology_xml;         // an hwloc XML file; empty: probe this machine
    // The cpus (OS indexes) the process may run on; nullopt: its affinity
    // mask (sched_getaffinity), as HyperQueue's filter_masked_cpus.
    std::optional<std::set<unsigned>> allowed_cpus;
};

Result<Machine> detect_local_machine(const LocalSources& sources = {});

// MemTotal of a /proc/meminfo text, in bytes; nullopt when absent or not
// a number of kB.
std::optional<uint64_t> mem_total_bytes(const std::string& meminfo);

// Splits a *_VISIBLE_DEVICES value into ids (empty entries dropped).
std::vector<PoolItem> visible_devices(const std::string& value);

}  // namespace rq::pools
