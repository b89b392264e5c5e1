// The machine resource-query runs on, as HyperQueue's worker detection sees
// it: `cpus` grouped by NUMA node (or socket) from hwloc, `gpus/nvidia`
// from CUDA_VISIBLE_DEVICES else /proc/driver/nvidia/gpus, `gpus/amd` from
// ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES, `mem` in bytes as a sum pool.
// No GPU is no pool, not an error.
#pragma once

#include "pools/pool_def.h"

namespace rq::pools {

Result<Machine> detect_local_machine();

// Splits a *_VISIBLE_DEVICES value into ids (empty entries dropped).
std::vector<PoolItem> visible_devices(const std::string& value);

}  // namespace rq::pools
