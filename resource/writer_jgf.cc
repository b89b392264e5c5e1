#include "resource/writer_jgf.h"

#include <nlohmann/json.hpp>

#include "utilities/json_text.h"

namespace rq {

namespace {

using Json = nlohmann::ordered_json;

// A string map as a JSON object; std::map already iterates in byte order,
// which is the order the reference prints these keys in.
Json string_object(const std::map<std::string, std::string>& map) {
    Json object = Json::object();
    for (const auto& [key, value] : map) object[key] = value;
    return object;
}

// The metadata of one vertex: keys in the reference's order, each optional
// key present only under the condition of output.md §1.3.
Json vertex_metadata(const ResourceGraph& graph, const VertexEmission& v) {
    const VertexId u = v.vertex;
    const std::string& type = graph.type_name(u);
    const std::string basename(graph.basename(u));
    const std::string name(graph.name(u));

    Json metadata = Json::object();
    metadata["type"] = type;
    if (basename != type) metadata["basename"] = basename;
    // The name is left out when a reader can rebuild it from basename + id.
    if (name != basename + std::to_string(graph.id(u))) metadata["name"] = name;
    metadata["id"] = graph.id(u);
    metadata["rank"] = graph.rank(u);
    if (const PropertyMap* properties = graph.properties(u); properties && !properties->empty())
        metadata["properties"] = string_object(*properties);
    if (!graph.unit(u).empty()) metadata["unit"] = std::string(graph.unit(u));
    if (v.exclusive) metadata["exclusive"] = true;
    // The amount allocated, not the pool size: a reader of this document
    // sees the job's share of the pool.
    if (v.needs != 1) metadata["size"] = v.needs;

    Json paths = Json::object();
    graph.for_each_path(u, [&](SubsystemId s, std::string_view path) {
        paths[graph.subsystems().name(s)] = std::string(path);
    });
    if (!paths.empty()) metadata["paths"] = std::move(paths);

    if (v.ephemeral && !v.ephemeral->empty()) metadata["ephemeral"] = string_object(*v.ephemeral);
    if (v.agfilter && !v.agfilter->empty()) metadata["agfilter"] = string_object(*v.agfilter);
    return metadata;
}

}  // namespace

void JgfWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    if (shorthand_ && v.parent_exclusive) {  // inside an exclusive subtree
        suppressed_ = true;
        return;
    }
    Json node = Json::object();
    node["id"] = std::to_string(graph.uniq_id(v.vertex));
    node["metadata"] = vertex_metadata(graph, v);
    nodes_.push_back(json_text(node));
}

void JgfWriter::edge(const ResourceGraph& graph, EdgeId e, bool parent_exclusive) {
    if (shorthand_ && parent_exclusive) {  // leads into an exclusive subtree
        suppressed_ = true;
        return;
    }
    Json edge = Json::object();
    edge["source"] = std::to_string(graph.uniq_id(graph.source(e)));
    edge["target"] = std::to_string(graph.uniq_id(graph.target(e)));
    const std::string& subsystem = graph.subsystems().name(graph.subsystem(e));
    if (subsystem != "containment") edge["metadata"] = Json{{"subsystem", subsystem}};
    edges_.push_back(json_text(edge));
}

Result<std::string> JgfWriter::document() const {
    if (nodes_.empty() && edges_.empty()) return std::string();
    // A graph without edges (or without vertices) is what the reference
    // refuses to print, with ENOENT.
    if (nodes_.empty() || edges_.empty()) return make_error(Errc::kNotFound, "incomplete JGF graph");

    auto join = [](const std::vector<std::string>& items) {
        std::string text;
        for (size_t i = 0; i < items.size(); ++i) {
            if (i > 0) text += ", ";
            text += items[i];
        }
        return text;
    };
    std::string text = "{\"graph\": {\"nodes\": [" + join(nodes_) + "], \"edges\": [" + join(edges_) + "]}";
    if (suppressed_) text += ", \"writer\": \"fluxion:jgf_shorthand\"";
    text += '}';
    return text;
}

Status JgfWriter::flush(std::ostream& out) {
    auto text = document();
    if (!text.ok()) return text.error();
    if (!text->empty()) out << *text << '\n';
    reset();
    return ok_status();
}

void JgfWriter::reset() {
    nodes_.clear();
    edges_.clear();
}

}  // namespace rq
