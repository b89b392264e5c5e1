// Test support shared by the writer tests: vertices added by hand to a
// graph and emitted the way the update walk would.
#pragma once

#include <cstdint>
#include <string>

#include "resource/graph.h"
#include "resource/match_writer.h"

namespace rq::testing {

// A vertex of `type`; `name` defaults to basename + id, the GRUG naming.
inline VertexId add_vertex(ResourceGraph& graph, const std::string& type, const std::string& basename, int64_t id,
                           int64_t rank = -1, std::string name = "", int64_t size = 1,
                           const std::string& unit = "") {
    if (name.empty()) name = basename + std::to_string(id);
    VertexSpec spec;  // holds views: `name` must outlive add_vertex()
    spec.type = graph.types().intern(type);
    spec.basename = basename;
    spec.name = name;
    spec.id = id;
    spec.rank = rank;
    spec.size = size;
    spec.unit = unit;
    return graph.add_vertex(spec);
}

inline void emit_vertex(MatchWriter& writer, const ResourceGraph& graph, VertexId v, int64_t needs, bool exclusive,
                        bool parent_exclusive = false) {
    VertexEmission emission;
    emission.vertex = v;
    emission.needs = needs;
    emission.exclusive = exclusive;
    emission.parent_exclusive = parent_exclusive;
    writer.vertex(graph, emission);
}

}  // namespace rq::testing
