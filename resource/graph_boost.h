// ResourceGraph as a Boost Graph Library graph.
//
// The graph keeps its own compact storage (resource/graph.h); this header
// adapts it to the BGL concepts IncidenceGraph, VertexListGraph and
// EdgeListGraph, with the vertex_index property, the way BGL adapts LEDA
// or Stanford GraphBase graphs. Any BGL algorithm or writer
// (depth_first_search, write_graphviz, write_graphml...) then runs on it
// with no copy.
#pragma once

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/filter_iterator.hpp>
#include <boost/iterator/transform_iterator.hpp>
#include <boost/property_map/property_map.hpp>

#include <functional>

#include "resource/graph.h"

namespace rq {

// A BGL edge descriptor: an edge id, typed apart from vertex ids so that
// BGL can tell vertex properties from edge properties.
struct EdgeRef {
    EdgeId id = kNoEdge;
    bool operator==(const EdgeRef& o) const { return id == o.id; }
    bool operator!=(const EdgeRef& o) const { return id != o.id; }
    bool operator<(const EdgeRef& o) const { return id < o.id; }
};

struct ToEdgeRef {
    EdgeRef operator()(EdgeId e) const { return EdgeRef{e}; }
};

struct LiveEdge {
    const ResourceGraph* graph = nullptr;
    bool operator()(EdgeId e) const { return graph->edge_alive(e); }
};

struct ResourceGraphTraversal : boost::incidence_graph_tag,
                                boost::vertex_list_graph_tag,
                                boost::edge_list_graph_tag {};

}  // namespace rq

namespace std {
template <>
struct hash<rq::EdgeRef> {
    size_t operator()(const rq::EdgeRef& e) const { return std::hash<rq::EdgeId>()(e.id); }
};
}  // namespace std

namespace boost {

template <>
struct graph_traits<rq::ResourceGraph> {
    using vertex_descriptor = rq::VertexId;
    using edge_descriptor = rq::EdgeRef;
    using directed_category = directed_tag;
    using edge_parallel_category = allow_parallel_edge_tag;
    using traversal_category = rq::ResourceGraphTraversal;
    using vertex_iterator = counting_iterator<rq::VertexId>;
    using out_edge_iterator = transform_iterator<rq::ToEdgeRef, rq::ResourceGraph::EdgeList::iterator>;
    using edge_iterator =
        transform_iterator<rq::ToEdgeRef, filter_iterator<rq::LiveEdge, counting_iterator<rq::EdgeId>>>;
    using adjacency_iterator = void;
    using in_edge_iterator = void;
    using vertices_size_type = std::size_t;
    using edges_size_type = std::size_t;
    using degree_size_type = std::size_t;
    static vertex_descriptor null_vertex() { return rq::kNoVertex; }
};

template <>
struct property_map<rq::ResourceGraph, vertex_index_t> {
    using type = typed_identity_property_map<rq::VertexId>;
    using const_type = type;
};

}  // namespace boost

namespace rq {

// The BGL free functions, found by argument-dependent lookup.
using BglTraits = boost::graph_traits<ResourceGraph>;

inline std::pair<BglTraits::vertex_iterator, BglTraits::vertex_iterator> vertices(const ResourceGraph& g) {
    return {BglTraits::vertex_iterator(0), BglTraits::vertex_iterator(static_cast<VertexId>(g.num_vertices()))};
}
inline std::size_t num_vertices(const ResourceGraph& g) { return g.num_vertices(); }

inline std::pair<BglTraits::edge_iterator, BglTraits::edge_iterator> edges(const ResourceGraph& g) {
    using Counting = boost::counting_iterator<EdgeId>;
    using Filtered = boost::filter_iterator<LiveEdge, Counting>;
    auto end = static_cast<EdgeId>(g.edge_capacity());
    Filtered first(LiveEdge{&g}, Counting(0), Counting(end));
    Filtered last(LiveEdge{&g}, Counting(end), Counting(end));
    return {BglTraits::edge_iterator(first, ToEdgeRef{}), BglTraits::edge_iterator(last, ToEdgeRef{})};
}
inline std::size_t num_edges(const ResourceGraph& g) { return g.num_edges(); }

inline std::pair<BglTraits::out_edge_iterator, BglTraits::out_edge_iterator> out_edges(VertexId v,
                                                                                     const ResourceGraph& g) {
    auto list = g.out(v);
    return {BglTraits::out_edge_iterator(list.begin(), ToEdgeRef{}),
            BglTraits::out_edge_iterator(list.end(), ToEdgeRef{})};
}
inline std::size_t out_degree(VertexId v, const ResourceGraph& g) { return g.out_degree(v); }
inline VertexId source(EdgeRef e, const ResourceGraph& g) { return g.source(e.id); }
inline VertexId target(EdgeRef e, const ResourceGraph& g) { return g.target(e.id); }

inline boost::typed_identity_property_map<VertexId> get(boost::vertex_index_t, const ResourceGraph&) { return {}; }

}  // namespace rq
