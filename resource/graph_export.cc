#include "resource/graph_export.h"

#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/function_property_map.hpp>

#include <fstream>

namespace rq {

namespace {

using Topology = std::decay_t<decltype(std::declval<ResourceGraph>().topology())>;
using VertexDesc = boost::graph_traits<Topology>::vertex_descriptor;
using EdgeDesc = boost::graph_traits<Topology>::edge_descriptor;

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

}  // namespace

void write_dot(const ResourceGraph& g, std::ostream& out) {
    const Topology& topo = g.topology();
    auto vertex_label = [&](std::ostream& os, VertexDesc v) {
        os << "[label=" << boost::escape_dot_string(std::string(g.name(static_cast<VertexId>(v)))) << "]";
    };
    auto edge_label = [&](std::ostream& os, EdgeDesc e) {
        os << "[label=" << boost::escape_dot_string(g.subsystems().name(g.subsystem(topo[e]))) << "]";
    };
    boost::write_graphviz(out, topo, vertex_label, edge_label);
}

void write_graphml(const ResourceGraph& g, std::ostream& out) {
    const Topology& topo = g.topology();
    boost::dynamic_properties dp;
    auto vprop = [&](auto fn) {
        return boost::make_function_property_map<VertexDesc>(
            [&g, fn](VertexDesc v) { return fn(static_cast<VertexId>(v)); });
    };
    dp.property("type", vprop([&g](VertexId v) { return g.type_name(v); }));
    dp.property("basename", vprop([&g](VertexId v) { return std::string(g.basename(v)); }));
    dp.property("name", vprop([&g](VertexId v) { return std::string(g.name(v)); }));
    dp.property("id", vprop([&g](VertexId v) { return g.id(v); }));
    dp.property("uniq_id", vprop([&g](VertexId v) { return g.uniq_id(v); }));
    dp.property("rank", vprop([&g](VertexId v) { return g.rank(v); }));
    dp.property("size", vprop([&g](VertexId v) { return g.size(v); }));
    dp.property("unit", vprop([&g](VertexId v) { return std::string(g.unit(v)); }));
    dp.property("status", vprop([&g](VertexId v) { return std::string(g.is_up(v) ? "up" : "down"); }));
    dp.property("paths", vprop([&g](VertexId v) { return paths_of(g, v); }));
    dp.property("subsystem", boost::make_function_property_map<EdgeDesc>([&g, &topo](EdgeDesc e) {
                    return g.subsystems().name(g.subsystem(topo[e]));
                }));
    boost::write_graphml(out, topo, dp, true);
}

Status export_graph(const ResourceGraph& graph, const std::string& format, const std::string& base) {
    std::string path = base + (format == "graphml" ? ".graphml" : ".dot");
    std::ofstream out(path);
    if (!out) return make_error(Errc::kIo, "can't open " + path + " for writing");
    if (format == "graphml")
        write_graphml(graph, out);
    else
        write_dot(graph, out);
    out.flush();
    if (!out) return make_error(Errc::kIo, "error writing " + path);
    return ok_status();
}

}  // namespace rq
