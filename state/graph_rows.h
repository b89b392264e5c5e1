// The state file's graph rows (schema 4): the resource graph itself, so
// that a resumed session is built from them instead of re-parsing the
// saved source (and a session that attached or removed resources resumes
// without replaying its journal).
//
//   graph_type(id INTEGER PRIMARY KEY, name TEXT, digest)
//       the type interner, every entry in id order (built-ins included).
//   graph_subsystem(id INTEGER PRIMARY KEY, name TEXT, root INTEGER, digest)
//       the subsystem interner in id order, with each subsystem's root
//       vertex (NULL: none).
//   graph_kind(id INTEGER PRIMARY KEY, basename TEXT, unit TEXT, digest)
//       the (basename, unit) pairs vertices share (a few per recipe).
//   graph_count(id INTEGER PRIMARY KEY CHECK (id = 0), vertices, edges, digest)
//       how many vertex ids and edge ids the graph has handed out (edge ids
//       no row names were removed: they stay dead, so later ids match).
//   graph_vertex(v INTEGER PRIMARY KEY, count, type, kind, id, id_step,
//                rank, rank_step, size, parent, edge, subsystem, name,
//                uniq_id, removed, paths, indexed, digest)
//       every vertex ever created, in rows of consecutive ids: a row holds
//       vertex v alone (count NULL), or a run of `count` vertices v, v+1,
//       ... (at most 1,024) alike but for their ids and ranks (id + k *
//       id_step, rank + k * rank_step; NULL steps are 0) whose columns
//       from edge on are all NULL: the siblings a recipe generates take
//       one row, not one each. type: graph_type id; kind:
//       graph_kind id. parent: the source of v's first in-edge (NULL: no
//       in-edge), edge: that edge's id (NULL: v - 1), subsystem: its
//       subsystem (or, for a vertex without in-edge, the subsystem of its
//       path; NULL: 0). The columns below are NULL when derivable:
//       name (basename + id, or basename when id is -1), uniq_id (v),
//       removed (0; 1: detached by `remove`), paths (one path, in
//       `subsystem`: the parent's path there + "/" + name, or "/" + name
//       without parent; else the length-prefixed pairs subsystem id,
//       path text, possibly none), indexed (every distinct non-empty path
//       text of v is a by-path key holding only v; else the subsystem ids,
//       space separated, of the paths whose text is such a key).
//   graph_edge(e INTEGER PRIMARY KEY, src, dst, subsystem, digest)
//       every live edge that is not a vertex row's parent edge.
//   graph_index(key TEXT PRIMARY KEY, vertices TEXT, digest)
//       every by-path key that is not one vertex's own path: aliases and
//       keys several vertices share, with their vertices in order.
//
// Status, properties and ordered-child weights stay in the vertex table
// (state/rows.h). Every row's digest adds into meta rows_digest.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "resource/graph.h"
#include "state/sqlite_db.h"
#include "utilities/result.h"

namespace rq::state {

extern const char* const kGraphRowSchema;

// The graph rows a change rewrites (from the graph's change log).
struct GraphDirty {
    std::set<VertexId> vertices;
    std::set<EdgeId> edges;
    std::set<std::string> keys;
    bool empty() const { return vertices.empty() && edges.empty() && keys.empty(); }
    void add(const GraphChangeLog& log) {
        vertices.insert(log.vertices.begin(), log.vertices.end());
        edges.insert(log.edges.begin(), log.edges.end());
        keys.insert(log.keys.begin(), log.keys.end());
    }
    void merge(const GraphDirty& o) {
        vertices.insert(o.vertices.begin(), o.vertices.end());
        edges.insert(o.edges.begin(), o.edges.end());
        keys.insert(o.keys.begin(), o.keys.end());
    }
    void clear() {
        vertices.clear();
        edges.clear();
        keys.clear();
    }
};

// Deletes every graph row.
Status clear_graph_rows(Database& db);
// Writes every graph row (the tables must be empty); returns `digest`
// plus their digests.
Result<uint64_t> write_graph_rows(Database& db, const ResourceGraph& g, uint64_t digest);
// Rewrites the rows `dirty` names (and the small tables); returns the new
// rows digest.
Result<uint64_t> write_graph_changes(Database& db, const ResourceGraph& g, const GraphDirty& dirty, uint64_t digest);

// Whether the file holds graph rows (graph_count has its row).
Result<bool> has_graph_rows(Database& db);
// Builds the graph from the rows, adding their digests to `sum`; a row
// that does not fit is refused with one error naming the file and the row.
Result<std::unique_ptr<ResourceGraph>> read_graph_rows(Database& db, uint64_t& sum);

}  // namespace rq::state
