#include "resource/jgf_reader.h"

#include "resource/jgf_check.h"
#include "resource/jgf_load.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace rq {

using Json = nlohmann::ordered_json;

namespace {

// ---- JSON text (§1.1) ---------------------------------------------------

Error json_load_error(std::string_view text, const std::string& reason, size_t offset) {
    // jansson reports 1-based line and column; json_loads names its
    // source "<string>".
    offset = std::min(offset, text.size());
    size_t line = 1, column = 0;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 0;
        } else {
            ++column;
        }
    }
    return make_error(Errc::kInvalid, "fetch_jgf: json_loads returned an error: " + reason + ": <string>@" +
                                          std::to_string(line) + ":" + std::to_string(column) + ".\n");
}

// The part of a nlohmann parse_error text after its own
// "[json.exception...] parse error at line L, column C: " preamble.
std::string parse_error_reason(const std::string& what) {
    size_t column = what.find("column ");
    size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

// Parses `text` as jansson's json_loads(text, 0) would accept it: the top
// level must be an object or an array.
Result<Json> load_json(std::string_view text) {
    Json json;
    try {
        json = Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        return json_load_error(text, parse_error_reason(e.what()), e.byte == 0 ? 0 : e.byte - 1);
    } catch (const nlohmann::json::exception& e) {
        return json_load_error(text, e.what(), text.size());
    }
    if (!json.is_object() && !json.is_array()) {
        size_t start = text.find_first_not_of(" \t\r\n");
        std::string_view token = start == std::string_view::npos ? std::string_view() : text.substr(start, 20);
        token = token.substr(0, token.find_first_of(" \t\r\n"));
        return json_load_error(text, "'[' or '{' expected near '" + std::string(token) + "'",
                               start == std::string_view::npos ? text.size() : start + token.size());
    }
    return json;
}

// ---- typed metadata fields (§1.2) ------------------------------------------

enum class Field { kAbsent, kOk, kWrongType };

const Json* member(const Json& object, const char* key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

Field read_string(const Json& object, const char* key, std::string& out) {
    const Json* value = member(object, key);
    if (value == nullptr) return Field::kAbsent;
    if (!value->is_string()) return Field::kWrongType;
    out = value->get<std::string>();
    return Field::kOk;
}

// JSON integers only (no reals), within int64 (jansson's json_int_t).
Field read_integer(const Json& object, const char* key, int64_t& out) {
    const Json* value = member(object, key);
    if (value == nullptr) return Field::kAbsent;
    if (value->is_number_unsigned()) {
        auto u = value->get<uint64_t>();
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Field::kWrongType;
        out = static_cast<int64_t>(u);
        return Field::kOk;
    }
    if (!value->is_number_integer()) return Field::kWrongType;
    out = value->get<int64_t>();
    return Field::kOk;
}

Field read_boolean(const Json& object, const char* key, bool& out) {
    const Json* value = member(object, key);
    if (value == nullptr) return Field::kAbsent;
    if (!value->is_boolean()) return Field::kWrongType;
    out = value->get<bool>();
    return Field::kOk;
}

// Every value of `object` as a string; false if one is not a string.
template <class Add>
bool read_string_members(const Json& object, Add&& add) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().is_string()) return false;
        add(it.key(), it.value().get<std::string>());
    }
    return true;
}

// std::stoll semantics: optional blanks and sign, then the leading digits.
bool leading_integer(const std::string& text, int64_t& out) {
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    long long value = std::strtoll(begin, &end, 10);
    if (end == begin || errno == ERANGE) return false;
    out = value;
    return true;
}

// The number formed by the trailing decimal digits of `name`, if any.
bool trailing_number(const std::string& name, int64_t& out) {
    size_t start = name.size();
    while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9') --start;
    if (start == name.size()) return false;
    return leading_integer(name.substr(start), out);
}

}  // namespace

Result<JgfVertex> unpack_jgf_vertex(const Json& element) {
    JgfVertex v;
    const Json* outer_id = element.is_object() ? member(element, "id") : nullptr;
    if (outer_id == nullptr || !outer_id->is_string())
        return make_error(Errc::kInvalid, "fill_fetcher: JGF vertex id key is not found in a node.");
    v.jgf_id = outer_id->get<std::string>();
    const Json* metadata = member(element, "metadata");
    if (metadata == nullptr || !metadata->is_object())
        return make_error(Errc::kInvalid,
                          "fill_fetcher: key (metadata) is not found in an JGF node for " + v.jgf_id + ".");
    const Json& md = *metadata;

    // Required keys present, every present key of the right type.
    int64_t status = 0;
    Field type = read_string(md, "type", v.type);
    Field basename = read_string(md, "basename", v.basename);
    Field name = read_string(md, "name", v.name);
    Field id = read_integer(md, "id", v.id);
    Field uniq_id = read_integer(md, "uniq_id", v.uniq_id);
    Field fields[] = {type,
                      basename,
                      name,
                      id,
                      uniq_id,
                      read_integer(md, "rank", v.rank),
                      read_integer(md, "status", status),
                      read_boolean(md, "exclusive", v.exclusive),
                      read_string(md, "unit", v.unit),
                      read_integer(md, "size", v.size)};
    bool malformed = type != Field::kOk;
    for (Field f : fields) malformed |= f == Field::kWrongType;
    const Json* paths = member(md, "paths");
    malformed |= paths == nullptr || !paths->is_object() ||
                 !read_string_members(*paths, [&](const std::string& subsystem, std::string path) {
                     v.paths.emplace_back(subsystem, std::move(path));
                 });
    auto malformed_error = [&] {
        return make_error(Errc::kInvalid, "fill_fetcher: malformed metadata in an JGF node for " + v.jgf_id + "\n");
    };
    if (malformed) return malformed_error();
    if (const Json* properties = member(md, "properties"); properties != nullptr && !properties->is_null()) {
        if (!properties->is_object())
            return make_error(Errc::kInvalid,
                              "fill_fetcher: key (properties) must be an object or null for " + v.jgf_id + ".");
        bool strings = read_string_members(*properties, [&](const std::string& key, std::string value) {
            v.properties[key] = std::move(value);
        });
        if (!strings) return malformed_error();
    }
    v.up = status == 0;  // 0 up, 1 (or any other value) down

    // Defaults, in the reference's order.
    if (uniq_id == Field::kAbsent && !leading_integer(v.jgf_id, v.uniq_id))
        return make_error(Errc::kInvalid,
                          "apply_defaults: value for key (uniq_id) could not be inferred from outer 'id' field " +
                              v.jgf_id + ".");
    if (id == Field::kAbsent) {
        // A node named like `compute12` is node 12 (JGF written by flux-core
        // gives only names); a number too long for int64 keeps uniq_id.
        if (v.type != "node" || name != Field::kOk || !trailing_number(v.name, v.id)) v.id = v.uniq_id;
    }
    if (basename == Field::kAbsent) v.basename = v.type;
    if (name == Field::kAbsent) v.name = v.basename + std::to_string(v.id);
    return v;
}

Result<JgfEdge> unpack_jgf_edge(const Json& element) {
    auto malformed = [] { return make_error(Errc::kInvalid, "unpack_edge: encountered a malformed edge."); };
    if (!element.is_object()) return malformed();
    JgfEdge e;
    if (read_string(element, "source", e.source) != Field::kOk) return malformed();
    if (read_string(element, "target", e.target) != Field::kOk) return malformed();
    if (const Json* metadata = member(element, "metadata")) {
        if (!metadata->is_object()) return malformed();
        if (read_string(*metadata, "subsystem", e.subsystem) == Field::kWrongType) return malformed();
    }
    return e;
}

Result<JgfDocument> JgfDocument::parse(std::string_view text) {
    auto json = load_json(text);
    if (!json) return json.error();
    auto missing = [](const char* key) {
        return make_error(Errc::kInvalid,
                          std::string("fetch_jgf: JGF does not contain a required key (") + key + ").");
    };
    auto graph = json->is_object() ? json->find("graph") : json->end();
    if (!json->is_object() || graph == json->end()) return missing("graph");
    auto nodes = graph->is_object() ? graph->find("nodes") : graph->end();
    if (!graph->is_object() || nodes == graph->end()) return missing("nodes");
    auto edges = graph->find("edges");
    if (edges == graph->end()) return missing("edges");
    JgfDocument doc;
    doc.nodes_ = std::move(*nodes);
    doc.edges_ = std::move(*edges);
    return doc;
}

Result<JgfVertex> JgfDocument::vertex(size_t i) const { return unpack_jgf_vertex(nodes_.at(i)); }

Result<JgfEdge> JgfDocument::edge(size_t i) const { return unpack_jgf_edge(edges_.at(i)); }

// ---- lookups ---------------------------------------------------------------

bool is_root_path(std::string_view path) { return std::count(path.begin(), path.end(), '/') == 1; }

VertexId find_vertex_at_path(const ResourceGraph& graph, std::string_view path, int64_t rank) {
    VertexId found = kNoVertex;
    graph.by_path().for_each(path, [&](VertexId u) {
        if (found == kNoVertex && graph.rank(u) == rank) found = u;
    });
    return found;
}

namespace {

// Indexes into v.paths in subsystem interning order; subsystems the graph
// has never seen sort last, in document order.
std::vector<size_t> paths_in_subsystem_order(const ResourceGraph& graph, const JgfVertex& v) {
    std::vector<size_t> order(v.paths.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return graph.subsystems().find(v.paths[a].first) < graph.subsystems().find(v.paths[b].first);
    });
    return order;
}

}  // namespace

VertexId find_existing_vertex(const ResourceGraph& graph, const JgfVertex& v) {
    for (size_t i : paths_in_subsystem_order(graph, v)) {
        VertexId u = find_vertex_at_path(graph, v.paths[i].second, v.rank);
        if (u != kNoVertex) return u;
    }
    return kNoVertex;
}

std::string vertex_differences(const ResourceGraph& graph, VertexId u, const JgfVertex& v) {
    std::string out;
    auto differ = [&out](const char* attribute, const std::string& ours, const std::string& theirs) {
        if (ours == theirs) return;
        if (!out.empty()) out += ' ';
        out += std::string(attribute) + "=(" + ours + ", " + theirs + ")";
    };
    differ("type", graph.type_name(u), v.type);
    differ("basename", std::string(graph.basename(u)), v.basename);
    differ("size", std::to_string(graph.size(u)), std::to_string(v.size));
    differ("rank", std::to_string(graph.rank(u)), std::to_string(v.rank));
    differ("id", std::to_string(graph.id(u)), std::to_string(v.id));
    differ("name", std::string(graph.name(u)), v.name);
    // Paths as `subsystem:path` lists, both in subsystem order.
    std::string ours, theirs;
    graph.for_each_path(u, [&](SubsystemId s, std::string_view path) {
        ours += (ours.empty() ? "" : ",") + graph.subsystems().name(s) + ":" + std::string(path);
    });
    for (size_t i : paths_in_subsystem_order(graph, v))
        theirs += (theirs.empty() ? "" : ",") + v.paths[i].first + ":" + v.paths[i].second;
    differ("paths", ours, theirs);
    return out;
}

Result<VertexId> find_consistent_vertex(const ResourceGraph& graph, const JgfVertex& v) {
    auto nonexistent = [&](const std::string& path) {
        return make_error(Errc::kNotFound,
                          "exist: inconsistent input vertex: nonexistent path (" + path + ") " + v.jgf_id + ".");
    };
    if (v.paths.empty()) return nonexistent("");
    VertexId found = kNoVertex;
    for (size_t i : paths_in_subsystem_order(graph, v)) {
        VertexId u = find_vertex_at_path(graph, v.paths[i].second, v.rank);
        if (u == kNoVertex) return nonexistent(v.paths[i].second);
        if (found == kNoVertex) found = u;
    }
    std::string differences = vertex_differences(graph, found, v);
    if (!differences.empty())
        return make_error(Errc::kInvalid,
                          "find_vtx: inconsistent input vertex for " + v.jgf_id + ".\n" + differences + "\n");
    return found;
}

// ---- loading ---------------------------------------------------------------

namespace {

// JgfLoad's target for a real load: the graph, and what the read did.
class GraphTarget {
public:
    GraphTarget(ResourceGraph& graph, JgfReadResult& out) : graph_(graph), out_(out) {}

    const ResourceGraph& graph() const { return graph_; }
    // The type set is frozen for jobspecs once the graph is loaded, but an
    // attached subgraph may bring new types.
    TypeId intern_type(const std::string& name) { return graph_.types().intern_always(name); }
    SubsystemId intern_subsystem(const std::string& name) { return graph_.subsystems().intern(name); }
    VertexId at_path(const std::string& path, int64_t rank) const { return find_vertex_at_path(graph_, path, rank); }
    void reuse(VertexId u) { out_.reused.push_back(u); }
    VertexId create(const JgfVertex& v, TypeId type, const std::vector<SubsystemId>& subsystems) {
        VertexSpec spec;
        spec.type = type;
        spec.basename = v.basename;
        spec.name = v.name;
        spec.id = v.id;
        spec.uniq_id = v.uniq_id;  // the JSON value, not the creation index
        spec.rank = v.rank;
        spec.size = v.size;
        // The unit is validated but not kept: the reference's JGF reader
        // drops it (its match output never shows a unit for a JGF-loaded
        // vertex, e.g. expected/remove/007.R.out).
        spec.up = v.up;
        VertexId u = graph_.add_vertex(spec);
        out_.created.push_back(u);
        for (size_t i = 0; i < v.paths.size(); ++i) graph_.set_path(u, subsystems[i], v.paths[i].second);
        for (auto& [key, value] : v.properties) graph_.set_property(u, key, value);
        return u;
    }
    bool has_root(SubsystemId s) const { return graph_.has_root(s); }
    void set_root(SubsystemId s, VertexId u) { graph_.set_root(s, u); }
    void index_path(VertexId u, const std::string& path) { graph_.index_path(u, path); }
    void add_edge(VertexId src, VertexId dst, SubsystemId s) {
        if (points_up(src, dst, s)) {
            if (out_.reverse_edges_dropped++ == 0)
                out_.first_reverse_edge = std::string(graph_.name(src)) + " -> " + std::string(graph_.name(dst));
            return;
        }
        out_.edges.push_back(graph_.add_edge(src, dst, s));
    }
    int64_t uniq_id(VertexId u) const { return graph_.uniq_id(u); }
    std::string name(VertexId u) const { return std::string(graph_.name(u)); }

private:
    // An edge into an ancestor in its own subsystem (or into itself):
    // every walk that follows edges down a tree would loop on it.
    bool points_up(VertexId src, VertexId dst, SubsystemId s) const {
        if (src == dst) return true;
        if (!graph_.has_path(src, s) || !graph_.has_path(dst, s)) return false;
        const std::string below = graph_.path(src, s), above = graph_.path(dst, s);
        return below.size() > above.size() && below.compare(0, above.size(), above) == 0 &&
               below[above.size()] == '/';
    }

    ResourceGraph& graph_;
    JgfReadResult& out_;
};

}  // namespace

Status load_jgf_document(const JgfDocument& doc, ResourceGraph& graph, JgfReadResult* out) {
    JgfReadResult local;
    JgfReadResult& result = out != nullptr ? *out : local;
    result = JgfReadResult{};
    if (graph.num_vertices() == 0) graph.reserve(doc.vertex_count(), doc.edge_count());
    GraphTarget target(graph, result);
    JgfLoad<GraphTarget> load(target);
    Status status = load.load(doc);
    result.vertex_of = std::move(load.vertex_of);
    return status;
}

std::string reverse_edges_warning(const JgfReadResult& result) {
    if (result.reverse_edges_dropped == 0) return "";
    return "dropped " + std::to_string(result.reverse_edges_dropped) +
           " edge(s) pointing up the containment tree (first: " + result.first_reverse_edge +
           "); each is the reverse of a tree edge";
}

Status read_jgf(std::string_view text, ResourceGraph& graph, JgfReadResult* out) {
    if (out != nullptr) *out = JgfReadResult{};
    auto doc = JgfDocument::parse(text);
    if (!doc) return doc.error();
    // Into a loaded graph, a document that would fail changes nothing.
    if (graph.num_vertices() > 0) RQ_TRY(check_jgf_attach(*doc, graph));
    return load_jgf_document(*doc, graph, out);
}

}  // namespace rq
