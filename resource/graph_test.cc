#include "resource/graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace rq {
namespace {

VertexId add(ResourceGraph& g, TypeId type, int64_t id, int64_t rank) {
    std::string name = "v" + std::to_string(id);
    VertexSpec spec;
    spec.type = type;
    spec.basename = "v";
    spec.name = name;
    spec.id = id;
    spec.rank = rank;
    return g.add_vertex(spec);
}

std::vector<VertexId> children(const ResourceGraph& g, VertexId v) {
    std::vector<VertexId> out;
    for (EdgeId e : g.out(v)) out.push_back(g.target(e));
    return out;
}

// A node with `width` sockets, each holding one core; node rank 0 and
// socket i rank i+1.
struct Fan {
    ResourceGraph g;
    VertexId node;
    std::vector<VertexId> sockets, cores;
    explicit Fan(int width) {
        node = add(g, types::kNode, 0, 0);
        for (int i = 0; i < width; ++i) {
            sockets.push_back(add(g, types::kSocket, i, i + 1));
            g.add_or_reuse_edge(node, sockets.back(), kContainment);
            cores.push_back(add(g, types::kCore, i, i + 1));
            g.add_or_reuse_edge(sockets.back(), cores.back(), kContainment);
        }
    }
};

TEST(Graph, WideFanOutLoadsInLinearSteps) {
    const int width = 50000;
    Fan f(width);
    EXPECT_EQ(children(f.g, f.node), f.sockets);
    EXPECT_EQ(f.g.num_edges(), 2u * width);
    // A quadratic scan would take ~width^2/2 steps.
    EXPECT_LE(f.g.list_steps(), uint64_t(2 * width));
}

TEST(Graph, ReuseFindsTheExistingEdgeAndOverwritesItsSubsystem) {
    Fan f(1000);
    uint64_t before = f.g.list_steps();
    EdgeId e = f.g.add_or_reuse_edge(f.node, f.sockets[700], 3);
    EXPECT_EQ(f.g.target(e), f.sockets[700]);
    EXPECT_EQ(f.g.source(e), f.node);
    EXPECT_EQ(f.g.subsystem(e), 3u);
    EXPECT_EQ(f.g.num_edges(), 2000u);
    EXPECT_LE(f.g.list_steps() - before, 1u);  // found from the socket's side
    // A second parent: a new edge, appended last.
    VertexId other = add(f.g, types::kNode, 1, 0);
    EdgeId fresh = f.g.add_or_reuse_edge(other, f.sockets[5], kContainment);
    EXPECT_NE(fresh, e);
    EXPECT_EQ(f.g.add_or_reuse_edge(other, f.sockets[5], 2), fresh);
    EXPECT_EQ(f.g.subsystem(fresh), 2u);
    EXPECT_EQ(f.g.source(f.g.parent_edge(f.sockets[5], kContainment)), f.node);
}

TEST(Graph, MassRemovalIsLinearAndKeepsOrderAndIndexes) {
    const int width = 40000;
    Fan f(width);
    std::vector<VertexId> doomed, kept_sockets;
    for (int i = 0; i < width; ++i) {
        if (i % 4 == 0) {
            kept_sockets.push_back(f.sockets[i]);
        } else {
            doomed.push_back(f.sockets[i]);
            doomed.push_back(f.cores[i]);
        }
    }
    uint64_t before = f.g.list_steps();
    f.g.detach_vertices(doomed);
    EXPECT_LE(f.g.list_steps() - before, uint64_t(2 * width));
    EXPECT_EQ(children(f.g, f.node), kept_sockets);
    EXPECT_EQ(f.g.num_edges(), 2u * kept_sockets.size());
    EXPECT_EQ(f.g.by_type(types::kSocket), kept_sockets);
    EXPECT_EQ(f.g.by_type(types::kCore).size(), kept_sockets.size());
    for (VertexId v : doomed) {
        EXPECT_TRUE(f.g.is_removed(v));
        EXPECT_TRUE(f.g.is_leaf(v));
        EXPECT_EQ(f.g.in(v).begin(), f.g.in(v).end());
    }
    EXPECT_EQ(f.g.by_rank().count(2), 0u);  // socket 1 and core 1 went
    ASSERT_EQ(f.g.by_rank().count(1), 1u);  // socket 0 and core 0 stayed
    EXPECT_EQ(f.g.by_rank().at(1).size(), 2u);
    // Removing again changes nothing; the survivors can still grow.
    f.g.detach_vertices(doomed);
    EXPECT_EQ(f.g.num_edges(), 2u * kept_sockets.size());
    VertexId late = add(f.g, types::kSocket, width, -1);
    f.g.add_or_reuse_edge(f.node, late, kContainment);
    EXPECT_EQ(children(f.g, f.node).back(), late);
}

TEST(Graph, DetachOneVertexUnlinksItFromBothSides) {
    Fan f(3);
    f.g.detach_vertex(f.sockets[1]);
    EXPECT_EQ(children(f.g, f.node), (std::vector<VertexId>{f.sockets[0], f.sockets[2]}));
    EXPECT_EQ(f.g.parent_edge(f.cores[1], kContainment), kNoEdge);
    EXPECT_FALSE(f.g.is_removed(f.cores[1]));
    EXPECT_EQ(f.g.num_edges(), 4u);
}

}  // namespace
}  // namespace rq
