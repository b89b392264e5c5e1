#include "resource/writer_jgf.h"
#include "resource/writer_test_util.h"

#include <gtest/gtest.h>

#include <sstream>

namespace rq {
namespace {

// A hand-built graph: vertices are created with add() and emitted in the
// order a test chooses (the traverser emits in post-order).
class JgfWriterTest : public ::testing::Test {
protected:
    // `name` defaults to basename + id, the usual GRUG naming.
    VertexId add(const std::string& type, const std::string& basename, int64_t id, int64_t rank = -1,
                 std::string name = "", int64_t size = 1, const std::string& unit = "") {
        return testing::add_vertex(graph, type, basename, id, rank, std::move(name), size, unit);
    }

    void emit(MatchWriter& writer, VertexId v, int64_t needs, bool exclusive, bool parent_exclusive = false) {
        testing::emit_vertex(writer, graph, v, needs, exclusive, parent_exclusive);
    }

    std::string flushed(MatchWriter& writer, Errc expected = Errc::kOk) {
        std::ostringstream out;
        Status status = writer.flush(out);
        EXPECT_EQ(status.code(), expected);
        return out.str();
    }

    ResourceGraph graph;
};

TEST_F(JgfWriterTest, MinimalVertexHasOnlyTheAlwaysPresentKeys) {
    VertexId node = add("node", "node", 0, 0);
    VertexId core = add("core", "core", 3);
    EdgeId e = graph.add_edge(node, core, kContainment);
    JgfWriter writer(false);
    emit(writer, core, 1, false);
    writer.edge(graph, e, false);
    emit(writer, node, 1, false);
    EXPECT_EQ(flushed(writer),
              "{\"graph\": {\"nodes\": ["
              "{\"id\": \"1\", \"metadata\": {\"type\": \"core\", \"id\": 3, \"rank\": -1}}, "
              "{\"id\": \"0\", \"metadata\": {\"type\": \"node\", \"id\": 0, \"rank\": 0}}], "
              "\"edges\": [{\"source\": \"0\", \"target\": \"1\"}]}}\n");
}

TEST_F(JgfWriterTest, EveryOptionalKeyInItsPlace) {
    SubsystemId ibnet = graph.subsystems().intern("ibnet");
    VertexId root = add("cluster", "tiny", 0);
    VertexId pool = add("memory", "mem", 2, 5, "fast-memory", 4, "GB");
    graph.set_property(pool, "zeta", "1");
    graph.set_property(pool, "alpha", "");
    // Set out of order on purpose: paths print in subsystem interning order.
    graph.set_path(pool, ibnet, "/ib0/mem2");
    graph.set_path(pool, kContainment, "/tiny0/mem2");
    EdgeId e = graph.add_edge(root, pool, kContainment);

    std::map<std::string, std::string> labels = {{"label", "charlie"}};
    std::map<std::string, std::string> agfilter = {{"memory", "used:2, total:4"}, {"core", "used:0, total:0"}};
    VertexEmission emission;
    emission.vertex = pool;
    emission.needs = 2;  // size prints the amount allocated, not the pool size
    emission.exclusive = true;
    emission.ephemeral = &labels;
    emission.agfilter = &agfilter;

    JgfWriter writer(false);
    writer.vertex(graph, emission);
    writer.edge(graph, e, false);
    emit(writer, root, 1, false);
    EXPECT_EQ(flushed(writer),
              "{\"graph\": {\"nodes\": [{\"id\": \"1\", \"metadata\": {\"type\": \"memory\", \"basename\": \"mem\", "
              "\"name\": \"fast-memory\", \"id\": 2, \"rank\": 5, \"properties\": {\"alpha\": \"\", \"zeta\": \"1\"}, "
              "\"unit\": \"GB\", \"exclusive\": true, \"size\": 2, "
              "\"paths\": {\"containment\": \"/tiny0/mem2\", \"ibnet\": \"/ib0/mem2\"}, "
              "\"ephemeral\": {\"label\": \"charlie\"}, "
              "\"agfilter\": {\"core\": \"used:0, total:0\", \"memory\": \"used:2, total:4\"}}}, "
              "{\"id\": \"0\", \"metadata\": {\"type\": \"cluster\", \"basename\": \"tiny\", \"id\": 0, \"rank\": -1}}], "
              "\"edges\": [{\"source\": \"0\", \"target\": \"1\"}]}}\n");
}

TEST_F(JgfWriterTest, SizeIsTheNeedsAndOmittedWhenOne) {
    VertexId root = add("cluster", "cluster", 0);
    VertexId pool = add("memory", "memory", 0, -1, "", 16);
    EdgeId e = graph.add_edge(root, pool, kContainment);
    JgfWriter writer(false);
    emit(writer, pool, 1, true);  // one unit of a 16-unit pool: no size key
    writer.edge(graph, e, false);
    emit(writer, root, 0, false);  // needs 0 is printed
    EXPECT_EQ(flushed(writer),
              "{\"graph\": {\"nodes\": ["
              "{\"id\": \"1\", \"metadata\": {\"type\": \"memory\", \"id\": 0, \"rank\": -1, \"exclusive\": true}}, "
              "{\"id\": \"0\", \"metadata\": {\"type\": \"cluster\", \"id\": 0, \"rank\": -1, \"size\": 0}}], "
              "\"edges\": [{\"source\": \"0\", \"target\": \"1\"}]}}\n");
}

TEST_F(JgfWriterTest, NameShownWhenItIsNotBasenamePlusId) {
    VertexId a = add("node", "compute", 5, 0, "compute05");
    VertexId b = add("node", "compute", -1, 1);  // "compute-1" is basename + "-1"
    EdgeId e = graph.add_edge(a, b, kContainment);
    JgfWriter writer(false);
    emit(writer, b, 1, false);
    writer.edge(graph, e, false);
    emit(writer, a, 1, false);
    EXPECT_EQ(flushed(writer),
              "{\"graph\": {\"nodes\": ["
              "{\"id\": \"1\", \"metadata\": {\"type\": \"node\", \"basename\": \"compute\", \"id\": -1, \"rank\": 1}}, "
              "{\"id\": \"0\", \"metadata\": {\"type\": \"node\", \"basename\": \"compute\", \"name\": \"compute05\", "
              "\"id\": 5, \"rank\": 0}}], "
              "\"edges\": [{\"source\": \"0\", \"target\": \"1\"}]}}\n");
}

TEST_F(JgfWriterTest, UsesUniqIdsAndNamesNonContainmentSubsystems) {
    SubsystemId power = graph.subsystems().intern("power");
    VertexSpec spec;
    spec.type = graph.types().intern("pdu");
    spec.basename = "pdu";
    spec.name = "pdu0";
    spec.id = 0;
    spec.uniq_id = 3602;
    VertexId pdu = graph.add_vertex(spec);
    VertexId node = add("node", "node", 1, 1);
    EdgeId e = graph.add_edge(pdu, node, power);
    JgfWriter writer(false);
    emit(writer, node, 1, true);
    writer.edge(graph, e, false);
    emit(writer, pdu, 1, false);
    std::string text = flushed(writer);
    EXPECT_NE(text.find("{\"id\": \"3602\", \"metadata\": {\"type\": \"pdu\", \"id\": 0, \"rank\": -1}}"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\"edges\": [{\"source\": \"3602\", \"target\": \"1\", "
                        "\"metadata\": {\"subsystem\": \"power\"}}]"),
              std::string::npos)
        << text;
}

TEST_F(JgfWriterTest, NothingEmittedPrintsNothing) {
    JgfWriter writer(false);
    EXPECT_EQ(flushed(writer), "");
}

TEST_F(JgfWriterTest, VerticesWithoutEdgesIsNotFound) {
    VertexId core = add("core", "core", 0);
    JgfWriter writer(false);
    emit(writer, core, 1, true);
    EXPECT_EQ(flushed(writer, Errc::kNotFound), "");
    writer.reset();
    EXPECT_EQ(flushed(writer), "");
}

TEST_F(JgfWriterTest, EdgesWithoutVerticesIsNotFound) {
    VertexId node = add("node", "node", 0);
    VertexId core = add("core", "core", 0);
    EdgeId e = graph.add_edge(node, core, kContainment);
    JgfWriter writer(false);
    writer.edge(graph, e, false);
    EXPECT_EQ(flushed(writer, Errc::kNotFound), "");
}

TEST_F(JgfWriterTest, FlushResets) {
    VertexId node = add("node", "node", 0);
    VertexId core = add("core", "core", 0);
    EdgeId e = graph.add_edge(node, core, kContainment);
    JgfWriter writer(false);
    emit(writer, core, 1, true);
    writer.edge(graph, e, false);
    emit(writer, node, 1, false);
    EXPECT_FALSE(flushed(writer).empty());
    EXPECT_EQ(flushed(writer), "");
}

TEST_F(JgfWriterTest, PlainJgfIgnoresParentExclusivity) {
    VertexId node = add("node", "node", 0);
    VertexId core = add("core", "core", 0);
    EdgeId e = graph.add_edge(node, core, kContainment);
    JgfWriter writer(false);
    emit(writer, core, 1, true, true);
    writer.edge(graph, e, true);
    emit(writer, node, 1, true);
    std::string text = flushed(writer);
    EXPECT_NE(text.find("\"type\": \"core\""), std::string::npos);
    EXPECT_EQ(text.find("writer"), std::string::npos);
}

// cluster -> node (exclusive) -> core (exclusive), and a shared job.
class JgfShorthandTest : public JgfWriterTest {
protected:
    void SetUp() override {
        cluster = add("cluster", "cluster", 0);
        node = add("node", "node", 0, 0);
        core = add("core", "core", 0);
        cluster_node = graph.add_edge(cluster, node, kContainment);
        node_core = graph.add_edge(node, core, kContainment);
    }

    // The update walk of a job taking the node exclusively.
    void emit_exclusive_node(MatchWriter& writer) {
        emit(writer, core, 1, true, true);
        writer.edge(graph, node_core, true);
        emit(writer, node, 1, true, false);
        writer.edge(graph, cluster_node, false);
        emit(writer, cluster, 1, false, false);
    }

    // The update walk of a job taking only the core exclusively.
    void emit_exclusive_core(MatchWriter& writer) {
        emit(writer, core, 1, true, false);
        writer.edge(graph, node_core, false);
        emit(writer, node, 1, false, false);
        writer.edge(graph, cluster_node, false);
        emit(writer, cluster, 1, false, false);
    }

    VertexId cluster, node, core;
    EdgeId cluster_node, node_core;
};

TEST_F(JgfShorthandTest, NothingSuppressedMeansNoWriterKey) {
    JgfWriter writer(true);
    emit_exclusive_core(writer);
    std::string text = flushed(writer);
    EXPECT_NE(text.find("\"type\": \"core\""), std::string::npos);
    EXPECT_EQ(text.find("writer"), std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 4), "]}}\n");
}

TEST_F(JgfShorthandTest, ExclusiveSubtreeIsRepresentedByItsTop) {
    JgfWriter writer(true);
    emit_exclusive_node(writer);
    EXPECT_EQ(flushed(writer),
              "{\"graph\": {\"nodes\": ["
              "{\"id\": \"1\", \"metadata\": {\"type\": \"node\", \"id\": 0, \"rank\": 0, \"exclusive\": true}}, "
              "{\"id\": \"0\", \"metadata\": {\"type\": \"cluster\", \"id\": 0, \"rank\": -1}}], "
              "\"edges\": [{\"source\": \"0\", \"target\": \"1\"}]}, "
              "\"writer\": \"fluxion:jgf_shorthand\"}\n");
}

TEST_F(JgfShorthandTest, WriterKeySticksForTheSession) {
    JgfWriter writer(true);
    emit_exclusive_node(writer);
    flushed(writer);
    writer.reset();
    emit_exclusive_core(writer);  // nothing suppressed this time
    std::string text = flushed(writer);
    EXPECT_NE(text.find("\"type\": \"core\""), std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 37), ", \"writer\": \"fluxion:jgf_shorthand\"}\n");
}

}  // namespace
}  // namespace rq
