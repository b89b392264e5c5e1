// GraphML reader (`-f graphml`): loads the graph that `-g graphml -o BASE`
// wrote (resource/graph_export.h) back into a ResourceGraph, so that the
// GraphML output round-trips as the JGF one does. GRUG recipes are GraphML
// too, but a recipe describes how to generate a graph while this file *is*
// the graph, vertex by vertex; hence a format of its own rather than a
// guess inside the GRUG reader.
//
// Input: a <graphml> document whose <key> elements name the attributes
//   node: type, basename, name, id, uniq_id, rank, size, unit, status
//         (up|down), paths ("subsystem=path" joined with ';'),
//         aliases (more "subsystem=path" the by-path index registers the
//         vertex under; GRUG associations leave them),
//         properties (a JSON object of strings, empty for none),
//         removed (1: a vertex `remove` detached; it keeps its index)
//   edge: subsystem
// (key ids are free: they are looked up through attr.name). Vertices are
// created in document order (the writer writes them in id order, so vertex
// ids and uniq_ids come back), edges appended in document order (the
// writer's edge-id order, which is every vertex's out-edge order). Only
// `type` is required; the others default as in JGF (id -1, rank -1, size
// 1, up, no unit, basename = type, name = basename + id).
//
// Errors name the file, the line and the problem: "<file>:<line>: ...".
#pragma once

#include <string>
#include <string_view>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

// Loads `text` (read from `path`, for messages) into the empty `graph`.
Status read_graphml(std::string_view text, const std::string& path, ResourceGraph& graph);

}  // namespace rq
