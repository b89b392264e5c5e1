// Start-up graph loading: picks the reader for a -f format.
#pragma once

#include <string>
#include <vector>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

struct LoadRequest {
    std::string format = "grug";  // grug, hwloc, jgf, jgf_shorthand, rv1exec, rv1exec_force
    std::string path;             // for messages
    std::string text;             // the whole load file
    std::string allowlist;        // hwloc -W
    // hwloc only: detect the topology of the machine we run on instead of
    // reading `text` (`-f hwloc` without `-L`); `path` and `text` are unused.
    bool local_machine = false;
    // Resource pools (pools/): --resource NAME=DEF arguments.
    std::vector<std::string> resources;
};

// Fills `graph`. The error message is the reader's own text; the CLI frames
// it as the reference does (": Runtime error: resource_query_t: ERROR: ...").
Status load_graph(const LoadRequest& request, ResourceGraph& graph);

}  // namespace rq
