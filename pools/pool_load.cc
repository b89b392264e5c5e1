#include "pools/pool_load.h"

#include <iostream>

#include "pools/local_detect.h"
#include "pools/pool_graph.h"
#include "pools/pool_loaders.h"
#include "utilities/memory.h"

namespace rq::pools {

bool is_pool_format(const std::string& format) {
    return format == "hq" || format == "canary" || format == "ctest" || format == "local" || format == "resource";
}

Status load_pools(const std::string& format, const std::string& path, const std::string& text,
                  const std::vector<std::string>& resources, ResourceGraph& graph) {
    Result<Machine> machine = make_error(Errc::kInvalid, "unknown pool format " + format);
    GrugLimits limits;  // GRUG's memory guard (docs/formats.md "Limits on input files")
    limits.memory_bytes = usable_memory_bytes();
    if (format == "hq") machine = read_hq_workers(text, path, limits);
    else if (format == "canary") machine = read_canary_pool(text, path, limits);
    else if (format == "ctest") machine = read_ctest_spec(text, path, limits);
    else if (format == "local") machine = detect_local_machine();
    else if (format == "resource") machine = machine_from_arguments({});
    if (!machine) return machine.error();
    for (const std::string& line : machine->warnings) std::cerr << line << "\n";
    if (!resources.empty()) {
        // --resource pools are added to (or replace) the first worker's.
        auto extra = machine_from_arguments(resources);
        if (!extra) return extra.error();
        if (machine->workers.empty()) machine->workers.push_back(extra->workers[0]);
        Worker& w = machine->workers[0];
        for (Pool& p : extra->workers[0].pools) {
            bool replaced = false;
            for (Pool& q : w.pools)
                if (q.name == p.name) q = p, replaced = true;
            if (!replaced) w.pools.push_back(p);
        }
    }
    return build_pool_graph(*machine, graph);
}

}  // namespace rq::pools
