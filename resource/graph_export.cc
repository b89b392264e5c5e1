#include "resource/graph_export.h"

#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/function_property_map.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "resource/graph_boost.h"

namespace rq {

namespace {

std::string paths_of(const ResourceGraph& g, VertexId v) {
    std::string out;
    g.for_each_path(v, [&](SubsystemId s, std::string_view p) {
        if (!out.empty()) out += ';';
        out += g.subsystems().name(s);
        out += '=';
        out += p;
    });
    return out;
}

// Paths the by-path index registers `v` under besides its own: a GRUG
// association that reached a vertex from several parents overwrote its
// path each time but kept every registration. Found through the parents,
// with public lookups only (no walk of the whole index).
std::string aliases_of(const ResourceGraph& g, VertexId v) {
    std::string out;
    for (EdgeId e : g.in(v)) {
        if (!g.edge_alive(e)) continue;
        SubsystemId s = g.subsystem(e);
        if (!g.has_path(g.source(e), s)) continue;
        std::string candidate = std::string(g.path(g.source(e), s)) + "/" + std::string(g.name(v));
        if (g.has_path(v, s) && g.path(v, s) == candidate) continue;
        bool registered = false;
        g.by_path().for_each(candidate, [&](VertexId u) { registered |= u == v; });
        if (!registered) continue;
        if (!out.empty()) out += ';';
        out += g.subsystems().name(s) + "=" + candidate;
    }
    return out;
}

// A JSON object of the vertex's properties; empty when it has none.
std::string properties_of(const ResourceGraph& g, VertexId v) {
    const PropertyMap* properties = g.properties(v);
    if (properties == nullptr || properties->empty()) return {};
    return nlohmann::json(*properties).dump();
}

}  // namespace

void write_dot(const ResourceGraph& g, std::ostream& out) {
    auto vertex_label = [&](std::ostream& os, VertexId v) {
        os << "[label=" << boost::escape_dot_string(std::string(g.name(v))) << "]";
    };
    auto edge_label = [&](std::ostream& os, EdgeRef e) {
        os << "[label=" << boost::escape_dot_string(g.subsystems().name(g.subsystem(e.id))) << "]";
    };
    boost::write_graphviz(out, g, vertex_label, edge_label);
}

void write_graphml(const ResourceGraph& g, std::ostream& out) {
    boost::dynamic_properties dp;
    auto vprop = [&g](auto fn) {
        return boost::make_function_property_map<VertexId>([&g, fn](VertexId v) { return fn(g, v); });
    };
    dp.property("type", vprop([](const ResourceGraph& g, VertexId v) { return g.type_name(v); }));
    dp.property("basename", vprop([](const ResourceGraph& g, VertexId v) { return std::string(g.basename(v)); }));
    dp.property("name", vprop([](const ResourceGraph& g, VertexId v) { return std::string(g.name(v)); }));
    dp.property("id", vprop([](const ResourceGraph& g, VertexId v) { return g.id(v); }));
    dp.property("uniq_id", vprop([](const ResourceGraph& g, VertexId v) { return g.uniq_id(v); }));
    dp.property("rank", vprop([](const ResourceGraph& g, VertexId v) { return g.rank(v); }));
    dp.property("size", vprop([](const ResourceGraph& g, VertexId v) { return g.size(v); }));
    dp.property("unit", vprop([](const ResourceGraph& g, VertexId v) { return std::string(g.unit(v)); }));
    dp.property("status", vprop([](const ResourceGraph& g, VertexId v) { return std::string(g.is_up(v) ? "up" : "down"); }));
    dp.property("paths", vprop([](const ResourceGraph& g, VertexId v) { return paths_of(g, v); }));
    dp.property("properties", vprop([](const ResourceGraph& g, VertexId v) { return properties_of(g, v); }));
    dp.property("aliases", vprop([](const ResourceGraph& g, VertexId v) { return aliases_of(g, v); }));
    dp.property("removed", vprop([](const ResourceGraph& g, VertexId v) { return int64_t(g.is_removed(v) ? 1 : 0); }));
    dp.property("subsystem", boost::make_function_property_map<EdgeRef>(
                                 [&g](EdgeRef e) { return g.subsystems().name(g.subsystem(e.id)); }));
    boost::write_graphml(out, g, dp, true);
}

void write_jgf(const ResourceGraph& g, std::ostream& out) {
    using Json = nlohmann::ordered_json;
    Json nodes = Json::array();
    Json edges = Json::array();
    for (VertexId v = 0; v < g.num_vertices(); ++v) {
        if (g.is_removed(v)) continue;
        Json paths = Json::object();
        g.for_each_path(v, [&](SubsystemId s, std::string_view p) { paths[g.subsystems().name(s)] = std::string(p); });
        Json m = {{"type", g.type_name(v)},         {"basename", std::string(g.basename(v))},
                  {"name", std::string(g.name(v))}, {"id", g.id(v)},
                  {"uniq_id", g.uniq_id(v)},        {"rank", g.rank(v)},
                  {"exclusive", false},             {"unit", std::string(g.unit(v))},
                  {"size", g.size(v)},              {"status", g.is_up(v) ? 0 : 1},
                  {"paths", paths}};
        if (const PropertyMap* properties = g.properties(v)) m["properties"] = *properties;
        nodes.push_back(Json{{"id", std::to_string(v)}, {"metadata", std::move(m)}});
    }
    // Edge id order: it is each source's out-edge order too, and a reader
    // appending in document order then recreates the same edge ids.
    for (EdgeId e = 0; e < g.edge_capacity(); ++e)
        if (g.edge_alive(e))
            edges.push_back(Json{{"source", std::to_string(g.source(e))},
                                 {"target", std::to_string(g.target(e))},
                                 {"metadata", {{"subsystem", g.subsystems().name(g.subsystem(e))}}}});
    out << Json{{"graph", Json{{"nodes", std::move(nodes)}, {"edges", std::move(edges)}}}}.dump() << "\n";
}

Status export_graph(const ResourceGraph& graph, const std::string& format, const std::string& base) {
    std::string path = base + (format == "graphml" ? ".graphml" : format == "jgf" ? ".json" : ".dot");
    std::ofstream out(path);
    if (!out) return make_error(Errc::kIo, "can't open " + path + " for writing");
    if (format == "graphml")
        write_graphml(graph, out);
    else if (format == "jgf")
        write_jgf(graph, out);
    else
        write_dot(graph, out);
    out.flush();
    if (!out) return make_error(Errc::kIo, "error writing " + path);
    return ok_status();
}

}  // namespace rq
