// Recipe -> resource graph (spec/grug.md §2-§5).
//
// One depth-first walk over the recipe; only tree edges generate anything.
// The walker state (generated vertices per recipe vertex, the `scales`
// deque and the node-rank counter) is shared by the whole walk, and its
// quirks (FINISH pops `scales` for every recipe vertex, associate edges
// included) are reproduced literally because later ids depend on them.
#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>

#include "resource/grug.h"

namespace rq {

namespace {

// prefix(p, u) of spec/grug.md §2.1 ASSOCIATE_BY_PATH_IN.
std::string path_prefix(std::string_view p, int uplevel) {
    int64_t slashes = 0;
    for (char c : p) slashes += c == '/';
    if (uplevel >= slashes) return {};
    // keep p up to and including its (slashes - uplevel + 1)-th '/'
    int64_t want = slashes - uplevel + 1, seen = 0;
    std::string out;
    for (char c : p) {
        out.push_back(c);
        if (c == '/' && ++seen == want) break;
    }
    if (out.empty() || out.back() != '/') out.push_back('/');
    return out;
}

// Vertices each recipe vertex generates (MULTIPLY edges only): the same
// walk as the expansion, on counts only.
std::vector<double> grug_vertex_counts(const Recipe& recipe) {
    std::vector<double> count(recipe.vertices.size(), 0);
    std::vector<char> seen(recipe.vertices.size(), 0);
    std::function<void(size_t)> visit = [&](size_t r) {
        seen[r] = 1;
        for (size_t ei : recipe.out_edges[r]) {
            const RecipeEdge& e = recipe.edges[ei];
            if (seen[e.target]) continue;
            if (recipe.vertices[r].root == 1 && count[r] == 0) count[r] = 1;
            count[e.target] = e.method() == GenMethod::kMultiply ? count[r] * std::max(e.multi_scale, 0) : 0;
            visit(e.target);
        }
    };
    for (size_t r = 0; r < recipe.vertices.size(); ++r)
        if (!seen[r]) visit(r);
    return count;
}

class Expander {
public:
    Expander(const Recipe& recipe, ResourceGraph& graph, const std::function<void(size_t, size_t)>& progress)
        : recipe_(recipe), graph_(graph), gen_(recipe.vertices.size()), progress_(progress) {
        for (auto& v : recipe.vertices) {
            type_ids_.push_back(graph.types().intern(v.type));
            sub_ids_.push_back(graph.subsystems().intern(v.subsystem));
        }
        for (auto& e : recipe.edges) {
            e_sub_ids_.push_back(graph.subsystems().intern(e.e_subsystem));
            tgt_sub_ids_.push_back(graph.subsystems().intern(e.as_tgt_subsystem));
        }
    }

    void run(size_t vertices) {
        total_ = vertices;
        graph_.reserve(vertices, vertices);
        // The by-type and by-rank lists, sized once instead of doubling.
        std::vector<double> counts = grug_vertex_counts(recipe_), per_type(graph_.types().size(), 0);
        for (size_t r = 0; r < counts.size(); ++r) per_type[type_ids_[r]] += counts[r];
        for (size_t t = 0; t < per_type.size(); ++t) graph_.reserve_type(static_cast<TypeId>(t), static_cast<size_t>(per_type[t]));
        double nodes = types::kNode < per_type.size() ? per_type[types::kNode] : 0;
        graph_.reserve_rank(-1, static_cast<size_t>(static_cast<double>(vertices) - nodes));
        std::vector<char> colour(recipe_.vertices.size(), kWhite);
        for (size_t r = 0; r < recipe_.vertices.size(); ++r)
            if (colour[r] == kWhite) visit(r, colour);
    }

private:
    static constexpr char kWhite = 0, kGrey = 1, kBlack = 2;

    void visit(size_t r, std::vector<char>& colour) {
        // Iterative DFS would be longer; recipes are a handful of levels deep.
        colour[r] = kGrey;
        for (size_t ei : recipe_.out_edges[r]) {
            size_t t = recipe_.edges[ei].target;
            if (colour[t] != kWhite) continue;
            tree_edge(ei);
            visit(t, colour);
        }
        colour[r] = kBlack;
        if (!scales_.empty()) scales_.pop_front();
    }

    void tree_edge(size_t ei) {
        const RecipeEdge& e = recipe_.edges[ei];
        if (recipe_.vertices[e.source].root == 1 && gen_[e.source].empty())
            gen_[e.source].push_back(make_root(e.source));
        gen_[e.target].clear();
        switch (e.method()) {
        case GenMethod::kMultiply: multiply(ei); break;
        case GenMethod::kAssociateIn: associate(ei, false); break;
        case GenMethod::kAssociateByPathIn: associate(ei, true); break;
        case GenMethod::kUnknown: break;  // the reference generates nothing
        }
    }

    VertexId make_root(size_t r) {
        SubsystemId s = sub_ids_[r];
        if (graph_.has_root(s)) return graph_.root(s);
        parent_path_.clear();
        VertexId v = create(r, kNoVertex, 0);
        graph_.set_root(s, v);
        return v;
    }

    // `parent_path_` holds the parent's path in the vertex's subsystem
    // (read_path(parent, s)); callers read it once per parent.
    VertexId create(size_t r, VertexId parent, int64_t id) {
        const RecipeVertex& rv = recipe_.vertices[r];
        std::string& name = name_buffer_;
        name = rv.basename;
        if (id != -1) name += std::to_string(id);
        VertexSpec spec;
        spec.type = type_ids_[r];
        spec.basename = rv.basename;
        spec.name = name;
        spec.id = id;
        spec.rank = spec.type == types::kNode ? ++node_rank_ : -1;
        spec.size = rv.size;
        spec.unit = rv.unit;
        VertexId v = graph_.add_vertex(spec);
        if (progress_ && (v & 0xffff) == 0) progress_(v, total_);
        SubsystemId s = sub_ids_[r];
        std::string& path = path_buffer_;
        path = parent_path_;
        path += "/";
        path += name;
        graph_.set_path_below(v, s, parent, s);
        graph_.index_path(v, path);
        return v;
    }

    int64_t gen_id(const RecipeEdge& e, int64_t i, int64_t sz, int64_t j) const {
        if (e.id_scope < 0) return -1;
        if (e.id_scope == 0) return e.id_start + i;  // stride ignored, as in the reference
        size_t scope = std::min<size_t>(static_cast<size_t>(e.id_scope), scales_.size());
        int64_t wrap = 1;
        for (size_t k = 0; k < scope; ++k) wrap *= scales_[k];
        int64_t jm = wrap > 0 ? j % wrap : 0;
        return e.id_start + jm * sz * e.id_stride + i * e.id_stride;
    }

    void multiply(size_t ei) {
        const RecipeEdge& e = recipe_.edges[ei];
        const std::vector<VertexId> sources = gen_[e.source];
        int64_t j = 0;
        SubsystemId s = sub_ids_[e.target];
        for (VertexId src : sources) {
            if (e.multi_scale > 0) parent_path_ = read_path(src, s);
            for (int64_t i = 0; i < e.multi_scale; ++i) {
                VertexId v = create(e.target, src, gen_id(e, i, e.multi_scale, j));
                graph_.add_edge(src, v, e_sub_ids_[ei]);  // v is new: no edge to reuse
                gen_[e.target].push_back(v);
            }
            ++j;
        }
        scales_.push_front(e.multi_scale);
    }

    // Reads a path as the reference's map operator[] does: a missing entry
    // is created empty.
    std::string read_path(VertexId v, SubsystemId s) {
        if (!graph_.has_path(v, s)) graph_.set_path(v, s, "");
        return graph_.path(v, s);
    }

    void associate(size_t ei, bool by_path) {
        const RecipeEdge& e = recipe_.edges[ei];
        SubsystemId es = e_sub_ids_[ei], as = tgt_sub_ids_[ei];
        const std::vector<VertexId> sources = gen_[e.source];
        const std::vector<VertexId> candidates = graph_.by_type(type_ids_[e.target]);
        for (VertexId src : sources) {
            for (VertexId v : candidates) {
                if (by_path && path_prefix(read_path(v, as), e.as_tgt_uplvl) !=
                                   path_prefix(read_path(src, as), e.as_src_uplvl))
                    continue;
                std::string path = read_path(src, es) + "/" + std::string(graph_.name(v));
                graph_.set_path_below(v, es, src, es);
                graph_.index_path(v, path);
                graph_.add_or_reuse_edge(src, v, es);
                gen_[e.target].push_back(v);
            }
        }
    }

    const Recipe& recipe_;
    ResourceGraph& graph_;
    std::vector<TypeId> type_ids_;
    std::vector<SubsystemId> sub_ids_, e_sub_ids_, tgt_sub_ids_;
    std::vector<std::vector<VertexId>> gen_;
    std::deque<int64_t> scales_;
    int64_t node_rank_ = -1;
    std::string name_buffer_, path_buffer_, parent_path_;  // reused: no allocation per vertex
    const std::function<void(size_t, size_t)>& progress_;
    size_t total_ = 0;
};

}  // namespace

double estimate_grug_vertices(const Recipe& recipe) {
    double vertices = 0;
    for (double n : grug_vertex_counts(recipe)) vertices += n;
    return vertices;
}

namespace {

std::string with_commas(double value) {
    std::string digits = std::to_string(static_cast<unsigned long long>(value));
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
    return digits;
}

std::string gib(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    return text;
}

}  // namespace

Status check_grug_size(double vertices, const GrugLimits& limits, const std::string& source) {
    const double bytes = vertices * kBytesPerVertex;
    const std::string what = source + " would generate " + with_commas(vertices) + " vertices, about " + gib(bytes) +
                             " of memory (" + std::to_string(static_cast<int>(kBytesPerVertex)) +
                             " bytes per vertex)";
    if (vertices > limits.max_vertices)
        return make_error(Errc::kRange, what + ": more than the limit of " + with_commas(limits.max_vertices) +
                                            " vertices");
    if (limits.memory_bytes > 0 && bytes > limits.memory_bytes / 2.0)
        return make_error(Errc::kNoMemory, what + ": more than half of the " + gib(limits.memory_bytes) +
                                               " this machine has");
    return ok_status();
}

Status load_grug(const Recipe& recipe, ResourceGraph& graph, const GrugLimits& limits) {
    double vertices = estimate_grug_vertices(recipe);
    RQ_TRY(check_grug_size(vertices, limits));
    Expander(recipe, graph, limits.progress).run(static_cast<size_t>(vertices));
    graph.recount_nodes_up();
    return ok_status();
}

}  // namespace rq
