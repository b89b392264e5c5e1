// Readers of the pool descriptions of each tool, all producing a Machine:
//
//   --resource NAME=DEF ...   one worker "worker0" (HyperQueue's syntax)
//   -f hq      YAML:  workers: [{name, count?, resources: {NAME: DEF}}]
//   -f canary  JSON or YAML: resource_pool with `resources: {TYPE: [{id,
//              slots}]}` or the shorthand `{cpus: 32, gpus: 4}`
//   -f ctest   JSON: CTest's resource specification file (version 1.0)
//
// Errors name the file and the place ("FILE: workers[1].resources.cpus: ...").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pools/pool_def.h"
#include "resource/grug.h"
#include "utilities/result.h"

namespace rq::pools {

// `limits` is GRUG's memory guard (resource/grug.h check_grug_size): a
// file that would make more vertices than it allows is refused while it is
// read, before its workers are expanded (docs/formats.md "Limits on input files").
Result<Machine> machine_from_arguments(const std::vector<std::string>& arguments);
Result<Machine> read_hq_workers(std::string_view text, const std::string& path, const GrugLimits& limits = {});
Result<Machine> read_canary_pool(std::string_view text, const std::string& path, const GrugLimits& limits = {});
Result<Machine> read_ctest_spec(std::string_view text, const std::string& path, const GrugLimits& limits = {});

}  // namespace rq::pools
