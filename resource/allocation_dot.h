// The allocation picture: the resource graph as Graphviz DOT with each
// job's vertices coloured and labelled by job id (docs/formats.md
// "A picture of the allocations"). Written by the `dump FILE` command and,
// with `-g dot -o BASE`, as BASE.final.dot when the session ends.
//
// The writer knows nothing of jobs beyond what it is given: the session
// builds the allocation map from its schedule records (session/
// allocation_picture.h) and passes it down, as with every other writer.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

// The jobs that hold one vertex now (allocated) or later (reserved), in
// ascending job id.
struct VertexHolders {
    std::vector<int64_t> allocated;
    std::vector<int64_t> reserved;
};

// Vertex -> its holders; vertices no job holds are absent.
using AllocationMap = std::map<VertexId, VertexHolders>;

struct AllocationDotOptions {
    // Only the held vertices and their ancestors: a picture Graphviz can
    // lay out when the whole graph is too large.
    bool held_only = false;
};

// Past this many vertices `dot` takes minutes to lay a picture out: the
// writer still writes it (never refuses, never waits) and the callers warn.
inline constexpr size_t kDotLayoutVertexLimit = 2000;

// The fill colour of job `jobid`: a fixed palette of 12, cycling by job id
// (job 1 takes the first colour, job 13 the first again).
const std::string& job_colour(int64_t jobid);
const std::vector<std::string>& job_palette();

// Writes the picture; returns the number of resource vertices drawn.
// Each vertex is a box with the DOT id and SVG id "v<index>" and its
// containment path as tooltip. Free vertices are labelled with their name; a held vertex is
// filled with its allocated jobs' colours (stripes when several) and has
// a line per holder under its name ("job 3", "job 4 (reserved)"); a vertex
// some job has reserved is drawn dashed, outlined in that job's colour.
// A legend cluster gives each job present its colour.
size_t write_allocation_dot(const ResourceGraph& graph, const AllocationMap& holders, std::ostream& out,
                            const AllocationDotOptions& options = {});

// Writes the picture to `path`; a file that cannot be opened or written (a
// bad path, a full disk) is one error naming it. `vertices_drawn`, if
// given, receives the count write_allocation_dot returned.
Status export_allocation_dot(const ResourceGraph& graph, const AllocationMap& holders, const std::string& path,
                             const AllocationDotOptions& options = {}, size_t* vertices_drawn = nullptr);

// The warning for a picture of `vertices` vertices written to `path`; ""
// at or below kDotLayoutVertexLimit.
std::string large_picture_warning(const std::string& path, size_t vertices, bool held_only);

}  // namespace rq
