// libFuzzer target: graphs written by -g graphml, read back with
// -f graphml (resource/graphml_reader.h) and written again. Any input must
// give a graph or an error value, never a crash, leak or undefined
// behaviour.
//
//   clang++ -fsanitize=fuzzer,address,undefined ... (cmake -DRQ_FUZZ=ON)
//   build-fuzz/bin/graphml_fuzz -max_total_time=60 corpus/
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "resource/graph_export.h"
#include "resource/graphml_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    rq::ResourceGraph graph;
    if (!rq::read_graphml(text, "fuzz.graphml", graph).ok()) return 0;
    std::ostringstream out;
    rq::write_graphml(graph, out);
    return 0;
}
