// libFuzzer target: JGF documents through the reader, first into a fresh
// graph (start-up load), then, if that worked, into the same graph again
// (the `attach` path: every vertex is found by path and rank and reused).
// Any input must give a graph or an error value, never a crash, leak or
// undefined behaviour.
//
//   clang++ -fsanitize=fuzzer,address,undefined ... (cmake -DRQ_FUZZ=ON)
//   build-fuzz/bin/jgf_fuzz -max_total_time=60 corpus/
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "resource/jgf_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    rq::ResourceGraph graph;
    rq::JgfReadResult first;
    if (!rq::read_jgf(text, graph, &first).ok()) return 0;
    graph.recount_nodes_up();
    graph.types().freeze();
    rq::JgfReadResult second;
    (void)rq::read_jgf(text, graph, &second);
    // Touch what the readers built so that inconsistent indexes show up.
    for (rq::VertexId v = 0; v < graph.num_vertices(); ++v) {
        for (rq::EdgeId e : graph.out(v)) (void)graph.target(e);
        graph.for_each_path(v, [&](rq::SubsystemId, std::string_view path) { (void)graph.at_path(path); });
    }
    return 0;
}
