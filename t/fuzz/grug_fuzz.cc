// libFuzzer target: GRUG recipes (GraphML) through the reader, the
// validator and the expansion. Any input must give a graph or an error
// value, never a crash, leak or undefined behaviour.
//
//   clang++ -fsanitize=fuzzer,address,undefined ... (cmake -DRQ_FUZZ=ON)
//   build-fuzz/bin/grug_fuzz -max_total_time=60 corpus/
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "resource/grug.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto recipe = rq::parse_grug(text, "fuzz.graphml");
    if (!recipe.ok()) return 0;
    if (!rq::validate_recipe(*recipe, "fuzz.graphml").ok()) return 0;
    rq::ResourceGraph graph;
    // Keep each run small: a one-line recipe can ask for billions of
    // vertices, which the limit must refuse cleanly.
    rq::GrugLimits limits;
    limits.max_vertices = 20000;
    (void)rq::load_grug(*recipe, graph, limits);
    return 0;
}
