// -g graphml round trip: every recipe of conf/ and of the conformance
// suite (GRUG recipes, JGF graphs, hwloc XML; read where they are), loaded,
// written as GraphML and loaded back with -f graphml, is the same graph:
// writing both as GraphML and as JGF gives the same text (vertex order,
// uniq_ids, every attribute including units, paths, properties, status,
// removed vertices, edges and their order). Plus the reader's errors.
#include "resource/graphml_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "resource/graph_export.h"
#include "resource/graph_text_test_util.h"
#include "resource/loader.h"
#include "utilities/file.h"
#include "utilities/sanitized.h"

namespace rq {
namespace {

namespace fs = std::filesystem;

struct Source {
    fs::path path;
    std::string format;
};

void add_files(std::vector<Source>& out, const fs::path& dir, const std::string& format, bool recursive,
               bool (*wanted)(const fs::path&)) {
    std::error_code ec;
    if (recursive) {
        for (auto& e : fs::recursive_directory_iterator(dir, ec))
            if (e.is_regular_file() && wanted(e.path())) out.push_back({e.path(), format});
    } else {
        for (auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file() && wanted(e.path())) out.push_back({e.path(), format});
    }
}

std::vector<Source> sources() {
    std::vector<Source> out;
    const fs::path data = RQ_SHARED_DIR "/conformance/data";
    auto grug = [](const fs::path& p) { return p.extension() == ".graphml" || p.filename() == "default"; };
    add_files(out, RQ_SOURCE_DIR "/conf", "grug", false, grug);
    add_files(out, data / "grugs", "grug", true, grug);
    add_files(out, data / "jgfs", "jgf", true, [](const fs::path& p) { return p.extension() == ".json"; });
    add_files(out, data / "hwloc-data", "hwloc", true, [](const fs::path& p) { return p.extension() == ".xml"; });
    std::sort(out.begin(), out.end(), [](const Source& a, const Source& b) { return a.path < b.path; });
    return out;
}

Status reload(const std::string& text, ResourceGraph& g) {
    LoadRequest request;
    request.format = "graphml";
    request.path = "exported.graphml";
    request.text = text;
    return load_graph(request, g);
}

// The graph as the last vertex would leave it after a session's changes: a
// property with characters GraphML and JSON escape, a vertex down, a leaf
// removed.
void change(ResourceGraph& g) {
    g.set_property(0, "class", "fast <&> \"quoted\";x=y");
    g.set_property(0, "empty", "");
    if (g.num_vertices() > 2) {
        g.set_up(1, false);
        VertexId last = static_cast<VertexId>(g.num_vertices() - 1);
        if (g.is_leaf(last) && last != g.root(0)) g.detach_vertex(last);
    }
    g.recount_nodes_up();
}

TEST(GraphmlReader, EveryRecipeRoundTrips) {
    auto all = sources();
    size_t loaded_count = 0;
    for (const Source& source : all) {
        LoadRequest request;
        request.format = source.format;
        request.path = source.path.string();
        ASSERT_TRUE(read_file(request.path, request.text)) << source.path;
        ResourceGraph original;
        if (!load_graph(request, original).ok()) continue;  // inputs of error cases
        ++loaded_count;
        if (original.num_vertices() > kSanitizedMaxTestVertices) continue;
        change(original);
        std::string text = graphml_of(original);
        ResourceGraph reloaded;
        Status again = reload(text, reloaded);
        ASSERT_TRUE(again.ok()) << source.path << ": " << again.message();
        EXPECT_EQ(original.num_vertices(), reloaded.num_vertices()) << source.path;
        EXPECT_EQ(original.num_edges(), reloaded.num_edges()) << source.path;
        EXPECT_EQ(original.nodes_up, reloaded.nodes_up) << source.path;
        EXPECT_EQ(original.by_path().key_count(), reloaded.by_path().key_count()) << source.path;
        EXPECT_EQ(original.distinct_names(), reloaded.distinct_names()) << source.path;
        for (SubsystemId s = 0; s < original.subsystems().size(); ++s) {
            SubsystemId r = reloaded.subsystems().find(original.subsystems().name(s));
            ASSERT_NE(r, kNoId) << source.path;
            EXPECT_EQ(original.root(s), reloaded.root(r)) << source.path;
        }
        EXPECT_EQ("", difference(text, graphml_of(reloaded))) << source.path;
        // JGF as a second view (skipped on the Sierra-sized recipe, whose
        // JGF round trip graph_export_test.cc already covers: time).
        if (original.num_vertices() < 100000) {
            EXPECT_EQ("", difference(jgf_of(original), jgf_of(reloaded))) << source.path;
        }
    }
    // The handed-out inputs lie beside the checkout only where ../shared
    // exists; without them, our own six recipes (conf/).
    EXPECT_GE(loaded_count, fs::exists(RQ_SHARED_DIR "/conformance/data") ? 20u : 6u) << "of " << all.size() << " sources";
}

const char* kHead = R"(<?xml version="1.0"?>
<graphml>
  <key id="k0" for="node" attr.name="type" attr.type="string"/>
  <key id="k1" for="node" attr.name="paths" attr.type="string"/>
  <key id="k2" for="node" attr.name="size" attr.type="long"/>
  <key id="k3" for="edge" attr.name="subsystem" attr.type="string"/>
  <graph id="G" edgedefault="directed">
)";

Status read(const std::string& body, ResourceGraph& g) {
    return read_graphml(std::string(kHead) + body + "  </graph>\n</graphml>\n", "g.graphml", g);
}

TEST(GraphmlReader, DefaultsLikeJgf) {
    ResourceGraph g;
    ASSERT_TRUE(read(R"(<node id="a"><data key="k0">cluster</data><data key="k1">containment=/c</data></node>
<node id="b"><data key="k0">node</data><data key="k1">containment=/c/n</data></node>
<edge source="a" target="b"/>
)",
                     g)
                    .ok());
    ASSERT_EQ(g.num_vertices(), 2u);
    EXPECT_EQ(g.num_edges(), 1u);
    EXPECT_EQ(g.name(1), "node");
    EXPECT_EQ(g.size(1), 1);
    EXPECT_EQ(g.uniq_id(1), 1);
    EXPECT_EQ(g.root(0), 0u);
    EXPECT_EQ(g.subsystems().name(g.subsystem(0)), "containment");
}

TEST(GraphmlReader, ErrorsNameTheFileAndLine) {
    struct Case {
        const char* body;
        const char* message;
    };
    const Case cases[] = {
        {"<node id=\"a\"><data key=\"k1\">containment=/c</data></node>\n", "g.graphml:8: node a has no type"},
        {"<node id=\"a\"><data key=\"k0\">x</data><data key=\"k2\">big</data></node>\n",
         "g.graphml:8: node a: size is not an integer: \"big\""},
        {"<node id=\"a\"><data key=\"k0\">x</data><data key=\"k1\">containment</data></node>\n",
         "g.graphml:8: node a: malformed paths item \"containment\" (subsystem=/path)"},
        {"<node id=\"a\"><data key=\"k0\">x</data></node>\n<node id=\"a\"><data key=\"k0\">x</data></node>\n",
         "g.graphml:9: duplicate node id a"},
        {"<node><data key=\"k0\">x</data></node>\n", "g.graphml:8: a <node> without an id"},
        {"<node id=\"a\"><node id=\"b\"/></node>\n", "g.graphml:8: a <node> inside a <node> or <edge>"},
        {"<node id=\"a\"><data key=\"k0\">x</data></node>\n<edge source=\"a\" target=\"b\"/>\n",
         "g.graphml:9: edge a -> b: unknown node"},
        {"<node id=\"a\"><data key=\"k0\">x</data><data key=\"k1\">c=/r</data></node>\n"
         "<node id=\"b\"><data key=\"k0\">x</data><data key=\"k1\">c=/s</data></node>\n",
         "g.graphml:9: node b: a second root of subsystem c"},
    };
    for (const Case& c : cases) {
        ResourceGraph g;
        Status s = read(c.body, g);
        ASSERT_FALSE(s.ok()) << c.body;
        EXPECT_EQ(s.message().rfind(c.message, 0), 0u) << s.message();
    }
    ResourceGraph g;
    Status unclosed = read("<node id=\"a\"><data key=\"k0\">x</data>\n", g);
    ASSERT_FALSE(unclosed.ok());
    EXPECT_NE(unclosed.message().find("malformed XML: mismatched tag"), std::string::npos) << unclosed.message();
    EXPECT_EQ(unclosed.message().rfind("g.graphml:", 0), 0u) << unclosed.message();
    ResourceGraph g2;
    Status not_xml = read_graphml("{\"graph\": {}}", "j.json", g2);
    ASSERT_FALSE(not_xml.ok());
    EXPECT_EQ(not_xml.message().rfind("j.json:1: malformed XML", 0), 0u) << not_xml.message();
    ResourceGraph empty;
    Status no_root = read_graphml("<?xml version=\"1.0\"?><svg/>", "x.svg", empty);
    ASSERT_FALSE(no_root.ok());
    EXPECT_EQ(no_root.message(), "x.svg: not GraphML (no <graphml> element)");
}

}  // namespace
}  // namespace rq
