// Writing the resource graph as Graphviz DOT or GraphML (-g/-o). The
// reference accepts these options but never writes anything; we do.
#pragma once

#include <ostream>
#include <string>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

// DOT: one node per vertex labelled with its name, edges labelled with
// their subsystem.
void write_dot(const ResourceGraph& graph, std::ostream& out);

// GraphML with vertex attributes type, basename, name, id, uniq_id, rank,
// size, unit, status, paths ("subsystem=path" joined with ';'), properties
// (a JSON object, empty for none) and removed (1 for a detached vertex),
// and the edge attribute subsystem. Removed vertices are written too, as
// isolated vertices, so vertex indices stay stable. Loading it with
// -f graphml (resource/graphml_reader.h) rebuilds the same graph, units
// included.
void write_graphml(const ResourceGraph& graph, std::ostream& out);

// JGF (the -f jgf reader's input, spec/readers.md §1): every attached
// vertex in creation order with all its attributes (type, basename, name,
// id, uniq_id, rank, size, unit, status, paths, properties), then every
// edge, vertex by vertex in out-edge order, with its subsystem. Loading it
// with -f jgf rebuilds the same graph: vertex order, uniq_ids and each
// vertex's child order. Removed (detached) vertices are left out.
void write_jgf(const ResourceGraph& graph, std::ostream& out);

// Writes BASE.dot, BASE.graphml or BASE.json according to `format`
// ("dot"/"graphml"/"jgf").
Status export_graph(const ResourceGraph& graph, const std::string& format, const std::string& base);

}  // namespace rq
