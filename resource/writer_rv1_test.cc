#include "resource/writer_rv1.h"
#include "resource/writer_test_util.h"

#include <gtest/gtest.h>

#include <sstream>

#include "resource/writer_jgf.h"

namespace rq {
namespace {

// cluster0 -> node0 (rank 0), node1 (rank 1); each node -> core0, core1.
class Rv1WriterTest : public ::testing::Test {
protected:
    void SetUp() override {
        cluster = add("cluster", 0, -1);
        for (int64_t n = 0; n < 2; ++n) {
            nodes[n] = add("node", n, n);
            node_edges[n] = graph.add_edge(cluster, nodes[n], kContainment);
            for (int64_t c = 0; c < 2; ++c) {
                cores[n][c] = add("core", c, -1);
                core_edges[n][c] = graph.add_edge(nodes[n], cores[n][c], kContainment);
            }
        }
    }

    VertexId add(const std::string& type, int64_t id, int64_t rank) {
        return testing::add_vertex(graph, type, type, id, rank);
    }

    void emit(MatchWriter& writer, VertexId v, bool exclusive, bool parent_exclusive) {
        testing::emit_vertex(writer, graph, v, 1, exclusive, parent_exclusive);
    }

    // The update walk of a job taking node `n` (and so both its cores)
    // exclusively, or only its core 1 when `whole_node` is false.
    void emit_job(MatchWriter& writer, int n, bool whole_node) {
        if (whole_node) {
            for (int c = 0; c < 2; ++c) {
                emit(writer, cores[n][c], true, true);
                writer.edge(graph, core_edges[n][c], true);
            }
        } else {
            emit(writer, cores[n][1], true, false);
            writer.edge(graph, core_edges[n][1], false);
        }
        emit(writer, nodes[n], whole_node, false);
        writer.edge(graph, node_edges[n], false);
        emit(writer, cluster, false, false);
    }

    std::string flushed(MatchWriter& writer, Errc expected = Errc::kOk) {
        std::ostringstream out;
        Status status = writer.flush(out);
        EXPECT_EQ(status.code(), expected);
        return out.str();
    }

    // The JGF text the jgf writer prints for the same emissions.
    std::string jgf_of_job(int n, bool whole_node, bool shorthand) {
        JgfWriter jgf(shorthand);
        emit_job(jgf, n, whole_node);
        std::string text = flushed(jgf);
        return text.substr(0, text.size() - 1);  // without the newline
    }

    ResourceGraph graph;
    VertexId cluster;
    VertexId nodes[2];
    VertexId cores[2][2];
    EdgeId node_edges[2];
    EdgeId core_edges[2][2];
};

TEST_F(Rv1WriterTest, NoschedPrintsOnlyTheExecutionPart) {
    Rv1Writer writer(Rv1Writer::Scheduling::kNone);
    emit_job(writer, 1, true);
    writer.time(0, 3600);
    EXPECT_EQ(flushed(writer),
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"1\", \"children\": {\"core\": \"0-1\"}}], "
              "\"nodelist\": [\"node1\"], \"starttime\": 0, \"expiration\": 3600}}\n");
}

TEST_F(Rv1WriterTest, NodelistFollowsRanksAcrossEntries) {
    Rv1Writer writer(Rv1Writer::Scheduling::kNone);
    emit_job(writer, 1, true);  // {"core": "0-1"}
    emit_job(writer, 0, false);  // {"core": "1"}, sorted after the first
    writer.time(100, 200);
    EXPECT_EQ(flushed(writer),
              "{\"version\": 1, \"execution\": {\"R_lite\": ["
              "{\"rank\": \"1\", \"children\": {\"core\": \"0-1\"}}, "
              "{\"rank\": \"0\", \"children\": {\"core\": \"1\"}}], "
              "\"nodelist\": [\"node[0-1]\"], \"starttime\": 100, \"expiration\": 200}}\n");
}

TEST_F(Rv1WriterTest, PropertiesOnlyWhenARecordedNodeHasThem) {
    graph.set_property(nodes[0], "arm-v9@core", "");
    graph.set_property(nodes[0], "class", "1");
    Rv1Writer writer(Rv1Writer::Scheduling::kNone);
    emit_job(writer, 0, false);
    EXPECT_EQ(flushed(writer),
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\": \"1\"}}], "
              "\"nodelist\": [\"node0\"], \"properties\": {\"arm-v9@core\": \"0\", \"class=1\": \"0\"}, "
              "\"starttime\": 0, \"expiration\": 0}}\n");
}

TEST_F(Rv1WriterTest, Rv1AddsSchedulingAndTheQueue) {
    Rv1Writer writer(Rv1Writer::Scheduling::kJgf);
    emit_job(writer, 0, true);
    writer.time(0, 60);
    writer.attribute("queue", "debug");
    EXPECT_EQ(flushed(writer),
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\": \"0-1\"}}], "
              "\"nodelist\": [\"node0\"], \"starttime\": 0, \"expiration\": 60}, "
              "\"scheduling\": " +
                  jgf_of_job(0, true, false) +
                  ", \"attributes\": {\"system\": {\"scheduler\": {\"queue\": \"debug\"}}}}\n");
}

TEST_F(Rv1WriterTest, ShorthandSchedulingIsTheJgfShorthandDocument) {
    Rv1Writer writer(Rv1Writer::Scheduling::kJgfShorthand);
    emit_job(writer, 0, true);
    std::string expected_jgf = jgf_of_job(0, true, true);
    EXPECT_EQ(expected_jgf.find("\"type\": \"core\""), std::string::npos);
    EXPECT_NE(expected_jgf.find("\"writer\": \"fluxion:jgf_shorthand\""), std::string::npos);
    EXPECT_EQ(flushed(writer),
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\": \"0-1\"}}], "
              "\"nodelist\": [\"node0\"], \"starttime\": 0, \"expiration\": 0}, \"scheduling\": " +
                  expected_jgf + "}\n");
}

TEST_F(Rv1WriterTest, EmptyRliteForgetsTheJobBeforeTheNextOutput) {
    // The reference keeps what such a job emitted and puts it into the
    // next job's R; we do not (docs/differences.md).
    // A job that emits no node: only the cluster and a core below it.
    EdgeId stray = graph.add_edge(cluster, cores[0][0], kContainment);
    for (auto scheduling : {Rv1Writer::Scheduling::kJgf, Rv1Writer::Scheduling::kNone}) {
        Rv1Writer writer(scheduling);
        emit(writer, cores[0][0], true, false);
        writer.edge(graph, stray, false);
        emit(writer, cluster, false, false);
        writer.time(5, 50);
        EXPECT_EQ(flushed(writer), "");

        emit_job(writer, 1, false);
        std::string text = flushed(writer);
        EXPECT_NE(text.find("\"R_lite\": [{\"rank\": \"1\", \"children\": {\"core\": \"1\"}}]"),
                  std::string::npos)
            << text;
        EXPECT_NE(text.find("\"starttime\": 0, \"expiration\": 0"), std::string::npos) << text;
        if (scheduling == Rv1Writer::Scheduling::kJgf) {
            std::string alone_jgf = jgf_of_job(1, false, false);
            EXPECT_NE(text.find("\"scheduling\": " + alone_jgf + "}"), std::string::npos) << text;
        }
    }
}

TEST_F(Rv1WriterTest, NothingEmittedPrintsNothing) {
    for (auto scheduling :
         {Rv1Writer::Scheduling::kJgf, Rv1Writer::Scheduling::kNone, Rv1Writer::Scheduling::kJgfShorthand}) {
        Rv1Writer writer(scheduling);
        EXPECT_EQ(flushed(writer), "");
    }
}

TEST_F(Rv1WriterTest, ResetForgetsTimeAndQueue) {
    Rv1Writer writer(Rv1Writer::Scheduling::kNone);
    emit_job(writer, 0, false);
    writer.time(10, 20);
    writer.attribute("queue", "batch");
    writer.reset();
    emit_job(writer, 0, false);
    EXPECT_EQ(flushed(writer),
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\": \"1\"}}], "
              "\"nodelist\": [\"node0\"], \"starttime\": 0, \"expiration\": 0}}\n");
}

TEST_F(Rv1WriterTest, FactoryKnowsEveryFormat) {
    for (const char* format :
         {"simple", "pretty_simple", "jgf", "jgf_shorthand", "rlite", "rv1", "rv1_nosched", "rv1_shorthand"}) {
        auto writer = make_writer(format);
        EXPECT_TRUE(writer.ok()) << format;
    }
    auto unknown = make_writer("yaml");
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.code(), Errc::kInvalid);
}

}  // namespace
}  // namespace rq
