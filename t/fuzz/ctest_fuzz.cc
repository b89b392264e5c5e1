// libFuzzer target: CTest resource specification files (-f ctest, JSON) through the pool
// loader and the pool graph builder. Any input must give a graph or an
// error value, never a crash, leak or undefined behaviour.
//
//   clang++ -fsanitize=fuzzer,address,undefined ... (cmake -DRQ_FUZZ=ON)
//   build-fuzz/bin/ctest_fuzz -max_total_time=60 corpus/ t/fuzz/seeds/ctest/
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pools/pool_graph.h"
#include "pools/pool_loaders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // Keep each run small: a one-line file can ask for millions of
    // workers or items, which the guard must refuse while reading.
    rq::GrugLimits limits;
    limits.max_vertices = 20000;
    auto machine = rq::pools::read_ctest_spec(text, "fuzz", limits);
    if (!machine.ok()) return 0;
    rq::ResourceGraph graph;
    (void)rq::pools::build_pool_graph(*machine, graph);
    return 0;
}
