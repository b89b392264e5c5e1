#include "resource/loader.h"

#include "resource/grug.h"

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
    return make_error(Errc::kInvalid, "load format " + request.format + " is not supported yet");
}

}  // namespace rq
