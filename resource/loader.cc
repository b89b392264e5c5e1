#include "resource/loader.h"

#include "resource/graphml_reader.h"
#include "resource/grug.h"
#include "resource/hwloc_reader.h"
#include "resource/jgf_reader.h"
#include "resource/rv1exec_reader.h"
#include "pools/pool_load.h"
#include "utilities/memory.h"

#include <algorithm>
#include <new>

namespace rq {

namespace {

Status load_by_format(const LoadRequest& request, ResourceGraph& graph, std::vector<std::string>* warnings);

// The pool format (docs/pools.md) whose marks the text bears:
// CTest's `version` and `local`, canary's `resource_pool`, HyperQueue's
// `workers:`; "" if none.
std::string pool_format_of(const std::string& text) {
    if (text.find("\"local\"") != std::string::npos && text.find("\"version\"") != std::string::npos) return "ctest";
    if (text.find("resource_pool") != std::string::npos) return "canary";
    if (text.rfind("workers:", 0) == 0 || text.find("\nworkers:") != std::string::npos) return "hq";
    return "";
}

std::string pool_format_name(const std::string& format) {
    if (format == "ctest") return "a CTest resource specification";
    if (format == "canary") return "a canary resource pool";
    return "a HyperQueue worker list";
}

// What the file looks like, for a hint when -f names another format.
std::string format_hint(const LoadRequest& request) {
    size_t start = request.text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return "; the file is empty";
    if (std::string pool = pool_format_of(request.text); !pool.empty() && pool != request.format)
        return "; it looks like " + pool_format_name(pool) + ": -f " + pool;
    char first = request.text[start];
    // A graph written by -g graphml (it declares uniq_id) given to the GRUG reader.
    bool exported = request.text.find("attr.name=\"uniq_id\"") != std::string::npos;
    if (request.format == "grug" && exported) return "; it is a graph written by -g graphml: -f graphml";
    bool json_format = request.format != "grug" && request.format != "hwloc" && request.format != "graphml";
    if (first == '<' && request.format == "graphml" && !exported)
        return "; it looks like XML but not a graph written by -g graphml (a GraphML recipe: -f grug)";
    if (first == '<' && json_format) {
        bool graphml = request.text.find("<graphml") != std::string::npos;
        return std::string("; it looks like XML") +
               (graphml ? " (a GraphML recipe: -f grug)" : " (a GraphML recipe is -f grug, hwloc XML -f hwloc)");
    }
    if ((first == '{' || first == '[') && !json_format)
        return "; it looks like JSON (JGF: -f jgf, an R document: -f rv1exec)";
    return "";
}

}  // namespace

Status load_graph(const LoadRequest& request, ResourceGraph& graph, std::vector<std::string>* warnings) {
    Status loaded;
    try {
        loaded = load_by_format(request, graph, warnings);
        graph.finish_load();
    } catch (const std::bad_alloc&) {
        loaded = make_error(Errc::kNoMemory, "out of memory after " + std::to_string(graph.num_vertices()) +
                                                 " vertices while loading " + request.path);
    }
    if (loaded.ok() || request.local_machine) return loaded;
    Error error = loaded.error();
    std::string hint = format_hint(request);
    if (!error.detail.empty())
        error.detail += hint;
    else if (!hint.empty() || error.message.find(request.path) == std::string::npos)
        error.detail = request.path + ": cannot be loaded as -f " + request.format + hint;
    return error;
}

namespace {

Status load_by_format(const LoadRequest& request, ResourceGraph& graph, std::vector<std::string>* warnings) {
    if (request.format == "grug") {
        auto recipe = parse_grug(request.text, request.path);
        if (!recipe) return recipe.error();
        RQ_TRY(validate_recipe(*recipe, request.path));
        GrugLimits limits;
        limits.memory_bytes = usable_memory_bytes();
        limits.progress = request.progress;
        RQ_TRY(load_grug(*recipe, graph, limits));
        graph.types().freeze();
        return ok_status();
    }
    // jgf_shorthand differs from jgf only when applying an allocation
    // (`update`), rv1exec_force not at all (spec/readers.md §2, §3).
    if (request.format == "jgf" || request.format == "jgf_shorthand") {
        JgfReadResult read;
        RQ_TRY(read_jgf(request.text, graph, &read));
        std::string dropped = reverse_edges_warning(read);
        if (!dropped.empty() && warnings != nullptr) warnings->push_back(dropped);
    } else if (request.format == "graphml") {
        RQ_TRY(read_graphml(request.text, request.path, graph));
    } else if (request.format == "rv1exec" || request.format == "rv1exec_force") {
        double max_vertices = 2.0e9;
        if (uint64_t memory = usable_memory_bytes(); memory > 0)
            max_vertices = std::min(max_vertices, memory / 2.0 / kBytesPerVertex);
        RQ_TRY(read_rv1exec(request.text, graph, max_vertices));
    } else if (pools::is_pool_format(request.format)) {
        RQ_TRY(pools::load_pools(request.format, request.path, request.text, request.resources, graph));
    } else if (request.format == "hwloc") {
        auto allowlist = TypeAllowlist::parse(request.allowlist);
        if (request.local_machine)
            RQ_TRY(read_hwloc_local(allowlist, graph, warnings));
        else
            RQ_TRY(read_hwloc_xml(request.text, request.path, allowlist, graph, warnings));
    } else {
        return make_error(Errc::kInvalid, "load format " + request.format + " is not supported yet");
    }
    graph.recount_nodes_up();
    graph.types().freeze();
    return ok_status();
}

}  // namespace

}  // namespace rq
