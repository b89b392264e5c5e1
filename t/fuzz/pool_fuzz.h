// The body of the pool loader fuzz targets (hq_fuzz.cc, canary_fuzz.cc,
// ctest_fuzz.cc): any input must give a graph or an error value, never a
// crash, leak or undefined behaviour.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pools/pool_graph.h"
#include "pools/pool_loaders.h"

template <class Reader>
int fuzz_pool_loader(const uint8_t* data, size_t size, Reader read) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // Keep each run small: a one-line file can ask for millions of
    // workers or items, which the guard must refuse while reading.
    rq::GrugLimits limits;
    limits.max_vertices = 20000;
    auto machine = read(text, "fuzz", limits);
    if (!machine.ok()) return 0;
    rq::ResourceGraph graph;
    (void)rq::pools::build_pool_graph(*machine, graph);
    return 0;
}
