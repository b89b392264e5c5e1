// JGF reader: JSON Graph Format documents into a ResourceGraph
// (spec/readers.md §1; `jgf_shorthand` loads identically, §3).
//
// The reader works in three layers, each usable on its own:
//
//  * JgfDocument checks the document structure (§1.1) and unpacks one
//    `nodes` / `edges` element at a time into a JgfVertex / JgfEdge with
//    the defaults of §1.2 applied. It never touches a graph, so `update`
//    and `partial-cancel` use it to read an allocation.
//  * the lookup helpers find the graph vertex a JgfVertex denotes: by path
//    and rank when loading (§1.2), or with every attribute checked when
//    applying an allocation (traversal.md §12).
//  * read_jgf() loads a document into a graph, empty (start-up) or not
//    (`attach`, traversal.md §17): vertices found by path+rank are reused,
//    the others created, and an edge is added only if one of its ends is
//    new.
//
// Errors carry the reference's message texts:
//
//   fetch_jgf: json_loads returned an error: <text>: <string>@<line>:<col>.\n
//   fetch_jgf: JGF does not contain a required key (graph|nodes|edges).
//   fill_fetcher: JGF vertex id key is not found in a node.
//   fill_fetcher: key (metadata) is not found in an JGF node for <id>.
//   fill_fetcher: malformed metadata in an JGF node for <id>\n
//   fill_fetcher: key (properties) must be an object or null for <id>.
//   apply_defaults: value for key (uniq_id) could not be inferred from outer 'id' field <id>.
//   add_vtx: found duplicate JGF node id for <id>.
//   update_vmap: can't insert into vmap for <id>.
//   add_graph_metadata: failed to add root metadata for <subsystem> subsystem. Possible duplicate root.
//   unpack_edge: encountered a malformed edge.
//   unpack_edge: source and/or target vertex not found<src> -> <tgt>.
//   error inserting an edge to outedge metadata map: <src name> -> <dst name>;<space>
//
// Where the reference would crash or misbehave, this reader refuses the
// input instead: `paths`/`properties` values that are not strings and
// integers beyond int64 are malformed metadata; a negative `size` gives
// `create_vtx: invalid size <size> for <id>.`; more than 65534 distinct
// type or subsystem names give `fill_fetcher: too many ...`. Not JSON:
// the <text> of the first message is the JSON library's own wording.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

// One element of the JGF `nodes` array, defaults applied (§1.2).
struct JgfVertex {
    std::string jgf_id;  // the element's outer "id" string
    std::string type;
    std::string basename;
    std::string name;
    std::string unit;
    int64_t id = -1;
    int64_t uniq_id = -1;
    int64_t rank = -1;
    int64_t size = 1;
    bool exclusive = false;
    bool up = true;
    // subsystem name -> path, in document order
    std::vector<std::pair<std::string, std::string>> paths;
    PropertyMap properties;
};

// One element of the JGF `edges` array.
struct JgfEdge {
    std::string source;                    // JGF vertex ids
    std::string target;
    std::string subsystem = "containment";  // metadata.subsystem if given
};

// A JGF document whose structure (§1.1) has been checked. Elements are
// unpacked on demand so that an error in element k is reported only after
// elements 0..k-1 were applied, as the reference does.
class JgfDocument {
public:
    static Result<JgfDocument> parse(std::string_view text);

    size_t vertex_count() const { return nodes_.is_array() ? nodes_.size() : 0; }
    size_t edge_count() const { return edges_.is_array() ? edges_.size() : 0; }
    // Unpacks nodes[i] / edges[i] (i < the count).
    Result<JgfVertex> vertex(size_t i) const;
    Result<JgfEdge> edge(size_t i) const;

private:
    // A `nodes`/`edges` value that is not an array holds no elements (the
    // reference iterates json_array_size(), which is 0 for those).
    nlohmann::ordered_json nodes_;
    nlohmann::ordered_json edges_;
};

// Unpacks one `nodes` element (exposed for tests and other readers).
Result<JgfVertex> unpack_jgf_vertex(const nlohmann::ordered_json& element);
Result<JgfEdge> unpack_jgf_edge(const nlohmann::ordered_json& element);

// ---- lookups -----------------------------------------------------------

// True if `path` makes its vertex a subsystem root (exactly one '/').
bool is_root_path(std::string_view path);

// The first vertex registered at `path` whose rank is `rank`, or kNoVertex.
VertexId find_vertex_at_path(const ResourceGraph& graph, std::string_view path, int64_t rank);

// The load-time lookup (§1.2): for each path of `v` in subsystem order, the
// first vertex registered there with `v`'s rank; kNoVertex if none.
VertexId find_existing_vertex(const ResourceGraph& graph, const JgfVertex& v);

// The allocation-time lookup (traversal.md §12): every path of `v` must
// lead to a vertex of `v`'s rank —
//   exist: inconsistent input vertex: nonexistent path (<path>) <id>.
// — and that vertex's type, basename, size, rank, id, name and paths must
// equal `v`'s —
//   find_vtx: inconsistent input vertex for <id>.\n<differences>\n
Result<VertexId> find_consistent_vertex(const ResourceGraph& graph, const JgfVertex& v);

// The attributes in which graph vertex `u` differs from `v`, one
// `<attribute>=(<graph value>, <jgf value>)` item per difference, separated
// by spaces; empty if they agree.
std::string vertex_differences(const ResourceGraph& graph, VertexId u, const JgfVertex& v);

// ---- loading ---------------------------------------------------------------

// What a read did, for callers that need to follow up (attach).
struct JgfReadResult {
    std::unordered_map<std::string, VertexId> vertex_of;  // JGF id -> graph vertex
    std::vector<VertexId> created;                         // in creation order
    std::vector<VertexId> reused;                          // in document order
    std::vector<EdgeId> edges;                             // edges added, in document order
    // Edges not added because they point up their subsystem's tree (the
    // target's path is a prefix of the source's: a "contains" edge listed
    // again as "in"). docs/differences.md, the library table.
    size_t reverse_edges_dropped = 0;
    std::string first_reverse_edge;  // "<source name> -> <target name>"
};

// The warning line for a read that dropped reverse edges ("" if none).
std::string reverse_edges_warning(const JgfReadResult& result);

// Loads `text` into `graph` (§1.2-§1.3). On error into a loaded graph
// (`attach`) nothing changes: the whole document is checked first
// (jgf_check.h). Into an empty graph (start-up, which ends on an error) the
// graph keeps what was done before the failing element, as the reference's
// does, and `out`, if given, describes it. Type names are interned even when the type
// interner is frozen (a grown graph may bring new types). Does not touch
// `nodes_up`: the start-up loader recounts it, `attach` leaves it alone.
Status read_jgf(std::string_view text, ResourceGraph& graph, JgfReadResult* out = nullptr);

// read_jgf's element-by-element load of a parsed document, unchecked: on
// error the graph keeps what was done before the failing element.
Status load_jgf_document(const JgfDocument& doc, ResourceGraph& graph, JgfReadResult* out = nullptr);

}  // namespace rq
