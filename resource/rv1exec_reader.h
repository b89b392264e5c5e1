// rv1exec reader: an RFC 20 R object ("R version 1") into a ResourceGraph
// (spec/readers.md §2; `rv1exec_force` loads identically).
//
// parse_rv1exec() only reads the document into an Rv1Exec (rank table,
// host table, per-rank node properties and the R_lite entries); `update`
// and `partial-cancel` reuse it to find the vertices an allocation names.
// read_rv1exec() builds the graph:
//
//   cluster0 (root, /cluster0)
//     <host of rank r>      one node per rank of each R_lite entry
//       <type><id>          one vertex per id of each `children` idset
//
// with uniq_id = creation index, every vertex of size 1 and the node's
// rank. Any error fails the load; the messages name the offending part.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

// One element of `execution.R_lite`.
struct Rv1Entry {
    std::vector<int64_t> ranks;  // the `rank` idset, ascending
    // `children`: resource type -> ids (ascending), in document order
    std::vector<std::pair<std::string, std::vector<int64_t>>> children;
};

struct Rv1Exec {
    std::vector<Rv1Entry> entries;  // R_lite, in array order
    std::vector<int64_t> ranks;     // union of all entries' ranks, ascending
    std::vector<std::string> hosts; // `nodelist` expanded, in order
    // rank -> node properties (`execution.properties`, each value "")
    std::map<int64_t, PropertyMap> properties;

    // The host of `rank`: the k-th host for the k-th smallest rank; nullptr
    // if `rank` is not in the rank table.
    const std::string* host_of(int64_t rank) const;
    // The node properties of `rank` (empty if none).
    const PropertyMap& properties_of(int64_t rank) const;
};

// Reads and checks an R object: `version` must be the integer 1;
// `execution.R_lite` an array of {rank: idset string, children: {type:
// idset string}}; `execution.nodelist` an array of hostlist strings naming
// at least one host per rank; `execution.properties`, if present, an
// object of idset strings. Other keys are ignored. Without `need_hosts`
// (a partial cancel names ranks only, spec/traversal.md §13) the nodelist
// may be absent; when present it is checked as usual.
Result<Rv1Exec> parse_rv1exec(std::string_view text, bool need_hosts = true);

// A host name split into basename and numeric id (readers.md §2 step 5):
// the id is the maximal run of trailing digits (leading zeros ignored, all
// zeros = 0); without trailing digits the id is -1 and the basename the
// whole name; an all-digit name keeps the whole name as basename. A number
// beyond int64 is an error.
struct HostName {
    std::string basename;
    int64_t id = -1;
};
Result<HostName> split_hostname(std::string_view host);

// Adds the vertices and edges `r` describes to `graph` (normally empty).
// A vertex whose path already holds one with the same rank, id, size and
// type is refused: `add_or_update: found duplicate vertex in graph for <name>.`
Status build_rv1exec_graph(const Rv1Exec& r, ResourceGraph& graph);

// An upper bound on the vertices build_rv1exec_graph() creates: a few
// bytes of R can name billions of resources ("0-16777215" on each of a
// million ranks).
double rv1exec_vertex_count(const Rv1Exec& r);

// parse_rv1exec() + build_rv1exec_graph(). Does not recount `nodes_up`.
// Refuses, before building anything, an R of more than `max_vertices`.
Status read_rv1exec(std::string_view text, ResourceGraph& graph, double max_vertices = 2.0e9);

}  // namespace rq
