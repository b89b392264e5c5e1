// Start-up graph loading: picks the reader for a -f format.
#pragma once

#include <functional>
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
    // GRUG only: called now and then with (vertices generated, total).
    std::function<void(size_t, size_t)> progress;
};

// Fills `graph`. The error message is the reader's own text; the CLI frames
// it as the reference does (": Runtime error: resource_query_t: ERROR: ...").
// When the reader's text does not name the file (JSON readers say
// "<string>@1:0"), the error's detail does, with a hint when the content
// looks like another format (a GraphML file given to -f jgf).
// A GRUG recipe too big for this machine's memory is refused before
// anything is generated; running out of memory anyway is an error, not a
// crash.
// What a reader leaves out of a file it still loads is appended to
// `warnings` (when given), one line each that does not name the file: the
// caller frames it (the CLI prints "WARNING: <file>: <warning>").
Status load_graph(const LoadRequest& request, ResourceGraph& graph, std::vector<std::string>* warnings = nullptr);

}  // namespace rq
