#include "resource/loader.h"

#include "resource/grug.h"
#include "resource/hwloc_reader.h"
#include "resource/jgf_reader.h"
#include "resource/rv1exec_reader.h"
#include "pools/pool_load.h"

namespace rq {

Status load_graph(const LoadRequest& request, ResourceGraph& graph) {
    if (request.format == "grug") {
        auto recipe = parse_grug(request.text, request.path);
        if (!recipe) return recipe.error();
        RQ_TRY(validate_recipe(*recipe, request.path));
        RQ_TRY(load_grug(*recipe, graph));
        graph.types().freeze();
        return ok_status();
    }
    // jgf_shorthand differs from jgf only when applying an allocation
    // (`update`), rv1exec_force not at all (spec/readers.md §2, §3).
    if (request.format == "jgf" || request.format == "jgf_shorthand") {
        RQ_TRY(read_jgf(request.text, graph));
    } else if (request.format == "rv1exec" || request.format == "rv1exec_force") {
        RQ_TRY(read_rv1exec(request.text, graph));
    } else if (pools::is_pool_format(request.format)) {
        RQ_TRY(pools::load_pools(request.format, request.path, request.text, request.resources, graph));
    } else if (request.format == "hwloc") {
        auto allowlist = TypeAllowlist::parse(request.allowlist);
        if (request.local_machine)
            RQ_TRY(read_hwloc_local(allowlist, graph));
        else
            RQ_TRY(read_hwloc_xml(request.text, request.path, allowlist, graph));
    } else {
        return make_error(Errc::kInvalid, "load format " + request.format + " is not supported yet");
    }
    graph.recount_nodes_up();
    graph.types().freeze();
    return ok_status();
}

}  // namespace rq
