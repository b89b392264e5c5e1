// GRUG: GraphML resource-generation recipes (spec/grug.md).
//
// parse_grug() turns the GraphML text into a Recipe (used by the loader and
// by grug2dot); load_grug() expands a Recipe into a ResourceGraph, creating
// vertices, ids, names, paths and uniq_ids in exactly the reference's order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

struct RecipeVertex {
    std::string xml_id;  // the GraphML node id, for messages
    int root = 0;
    std::string type, basename, unit, subsystem;
    int64_t size = 0;
};

enum class GenMethod { kMultiply, kAssociateIn, kAssociateByPathIn, kUnknown };

struct RecipeEdge {
    std::string xml_id;  // the GraphML edge id (may be empty), for messages
    size_t source = 0, target = 0;
    std::string e_subsystem, relation, rrelation, gen_method, as_tgt_subsystem;
    int id_scope = 0, id_start = 0, id_stride = 0, multi_scale = 0;
    int as_tgt_uplvl = 0, as_src_uplvl = 0;

    GenMethod method() const;
};

struct Recipe {
    std::vector<RecipeVertex> vertices;         // document order
    std::vector<RecipeEdge> edges;              // document order
    std::vector<std::vector<size_t>> out_edges;  // per vertex, document order
};

// Parses GraphML text. `source` names the file in error messages. Errors:
// malformed XML or a malformed attribute value give the reference's text
// ("error in reading grug string; "); the checks the reference lacks (an
// undeclared key, an edge to an unknown node) name the file and element.
Result<Recipe> parse_grug(std::string_view text, std::string_view source);

// Checks the reference does not make, so that a broken recipe is reported
// instead of silently generating a partial graph: at least one root, a
// known gen_method on every edge, and a forest (no recipe vertex reached by
// two edges, no cycle).
Status validate_recipe(const Recipe& recipe, std::string_view source);

// Vertex ids are 32-bit: a recipe may not generate more than this.
inline constexpr double kMaxGrugVertices = 2.0e9;

// Memory one generated vertex costs, all included (graph, indexes, schedule
// and pruning planners), measured with t/bench/load_bench.py and GNU time:
// 296 bytes on conf/sierra.graphml, 363 on one vertex with 10^6 children;
// rounded up.
inline constexpr double kBytesPerVertex = 400;

struct GrugLimits {
    double max_vertices = kMaxGrugVertices;
    // Usable memory in bytes (utilities/memory.h); a recipe may take at
    // most half of it, leaving room for matching. 0: not checked.
    uint64_t memory_bytes = 0;
    // Called about every 2^16 vertices with (generated, total), e.g. to
    // show progress on a terminal.
    std::function<void(size_t, size_t)> progress;
};

// How many vertices expanding `recipe` would create (MULTIPLY edges only;
// associations create none), computed without generating anything.
double estimate_grug_vertices(const Recipe& recipe);

// Refuses `vertices` beyond the id space or half the usable memory, with
// the count and the memory estimate in the message.
// `source` names what is loaded in the message ("the recipe" for GRUG).
Status check_grug_size(double vertices, const GrugLimits& limits, const std::string& source = "the recipe");

// Expands `recipe` into `graph` (spec/grug.md §2-§5). Type and subsystem
// names are interned in document order first. Fails, before creating
// anything, if check_grug_size() refuses the recipe.
Status load_grug(const Recipe& recipe, ResourceGraph& graph, const GrugLimits& limits = {});

// The message the reference prints for any GRUG read failure.
inline constexpr const char* kGrugReadError = "error in reading grug string; ";

}  // namespace rq
