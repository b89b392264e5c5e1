#include "resource/writer_rlite.h"
#include "resource/writer_test_util.h"

#include <gtest/gtest.h>

#include <sstream>

namespace rq {
namespace {

class RliteWriterTest : public ::testing::Test {
protected:
    VertexId add(const std::string& type, int64_t id, int64_t rank = -1, std::string name = "") {
        return testing::add_vertex(graph, type, type, id, rank, std::move(name));
    }

    // Emits a vertex; edges do not matter to R_lite.
    void emit(VertexId v) { testing::emit_vertex(writer, graph, v, 1, true); }

    // A node of rank `rank` with cores `first..last` emitted below it.
    void emit_node(int64_t rank, int64_t first_core, int64_t last_core) {
        for (int64_t c = first_core; c <= last_core; ++c) emit(add("core", c));
        emit(add("node", rank, rank));
    }

    std::string flushed(Errc expected = Errc::kOk) {
        std::ostringstream out;
        Status status = writer.flush(out);
        EXPECT_EQ(status.code(), expected);
        return out.str();
    }

    ResourceGraph graph;
    RliteWriter writer;
};

TEST_F(RliteWriterTest, NodesWithTheSameChildrenShareAnEntry) {
    emit_node(0, 0, 35);
    emit_node(1, 0, 35);
    emit_node(3, 0, 35);
    EXPECT_EQ(flushed(), "[{\"rank\": \"0-1,3\", \"children\": {\"core\": \"0-35\"}}]\n");
}

TEST_F(RliteWriterTest, ChildrenListCoreBeforeGpuAndIdsSorted) {
    emit(add("gpu", 1));
    emit(add("core", 7));
    emit(add("gpu", 0));
    emit(add("core", 3));
    emit(add("core", 4));
    emit(add("node", 2, 2));
    EXPECT_EQ(flushed(), "[{\"rank\": \"2\", \"children\": {\"core\": \"3-4,7\", \"gpu\": \"0-1\"}}]\n");
}

TEST_F(RliteWriterTest, EntriesSortedByTheirChildrenText) {
    emit_node(0, 2, 2);                // {"core": "2"}
    emit_node(1, 0, 1);                // {"core": "0-1"}
    emit(add("core", 0));
    emit(add("core", 1));
    emit(add("gpu", 0));
    emit(add("node", 2, 2));           // {"core": "0-1", "gpu": "0"}: ',' sorts before '}'
    emit(add("gpu", 0));
    emit(add("node", 3, 3));           // {"gpu": "0"}
    EXPECT_EQ(flushed(),
              "[{\"rank\": \"2\", \"children\": {\"core\": \"0-1\", \"gpu\": \"0\"}}, "
              "{\"rank\": \"1\", \"children\": {\"core\": \"0-1\"}}, "
              "{\"rank\": \"0\", \"children\": {\"core\": \"2\"}}, "
              "{\"rank\": \"3\", \"children\": {\"gpu\": \"0\"}}]\n");
}

TEST_F(RliteWriterTest, StorageNodesAreRecordedToo) {
    emit(add("core", 0));
    emit(add("storage_node", 0, 9));
    EXPECT_EQ(flushed(), "[{\"rank\": \"9\", \"children\": {\"core\": \"0\"}}]\n");
}

TEST_F(RliteWriterTest, NothingRecordedIsInvalid) {
    emit(add("node", 0, 0));  // a node without cores or gpus is not recorded
    emit(add("socket", 0));
    EXPECT_TRUE(writer.empty());
    EXPECT_EQ(flushed(Errc::kInvalid), "");
}

TEST_F(RliteWriterTest, FlushResetsTheRecordedNodes) {
    emit_node(0, 0, 1);
    EXPECT_FALSE(flushed().empty());
    EXPECT_TRUE(writer.empty());
    EXPECT_EQ(flushed(Errc::kInvalid), "");
}

TEST_F(RliteWriterTest, UnclaimedIdsCarryOverToTheNextNodeEvenAfterReset) {
    emit(add("core", 5));  // no node above it in this job
    writer.reset();
    emit_node(4, 0, 0);
    EXPECT_EQ(flushed(), "[{\"rank\": \"4\", \"children\": {\"core\": \"0,5\"}}]\n");
}

TEST_F(RliteWriterTest, NodelistIsOrderedByRank) {
    emit_node(3, 0, 0);
    emit_node(1, 0, 1);
    emit_node(0, 0, 0);
    emit_node(2, 0, 1);
    EXPECT_EQ(writer.nodelist(), "node[0-3]");
}

TEST_F(RliteWriterTest, NodelistKeepsForeignNamesAndDuplicates) {
    emit(add("core", 0));
    emit(add("node", 0, 1, "fluke82"));
    emit(add("core", 0));
    emit(add("node", 1, 0, "fluke82"));
    emit(add("core", 0));
    emit(add("node", 2, 2, "login"));
    EXPECT_EQ(writer.nodelist(), "fluke[82,82],login");
}

TEST_F(RliteWriterTest, PropertiesGroupRanksByNameOrNameValue) {
    VertexId n0 = add("node", 0, 0);
    VertexId n1 = add("node", 1, 1);
    VertexId n2 = add("node", 2, 2);  // recorded nowhere: no cores below it
    graph.set_property(n0, "arm-v9@core", "");
    graph.set_property(n1, "arm-v9@core", "");
    graph.set_property(n1, "class", "1");
    graph.set_property(n2, "class", "1");
    emit(add("core", 0));
    emit(n0);
    emit(add("core", 0));
    emit(n1);
    emit(n2);
    EXPECT_EQ(writer.properties().dump(), "{\"arm-v9@core\":\"0-1\",\"class=1\":\"1\"}");
}

}  // namespace
}  // namespace rq
