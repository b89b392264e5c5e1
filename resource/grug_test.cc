#include "resource/grug.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <sstream>

namespace rq {
namespace {

// Builds a GraphML recipe from node and edge snippets, with the usual key
// declarations (defaults as in the reference's recipes).
std::string recipe_xml(const std::string& body) {
    return R"(<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="root" for="node" attr.name="root" attr.type="int"><default>0</default></key>
  <key id="type" for="node" attr.name="type" attr.type="string"/>
  <key id="basename" for="node" attr.name="basename" attr.type="string"/>
  <key id="unit" for="node" attr.name="unit" attr.type="string"/>
  <key id="size" for="node" attr.name="size" attr.type="long"><default>1</default></key>
  <key id="subsystem" for="node" attr.name="subsystem" attr.type="string"><default>containment</default></key>
  <key id="e_subsystem" for="edge" attr.name="e_subsystem" attr.type="string"><default>containment</default></key>
  <key id="relation" for="edge" attr.name="relation" attr.type="string"><default>contains</default></key>
  <key id="rrelation" for="edge" attr.name="rrelation" attr.type="string"><default>in</default></key>
  <key id="id_scope" for="edge" attr.name="id_scope" attr.type="int"><default>0</default></key>
  <key id="id_start" for="edge" attr.name="id_start" attr.type="int"><default>0</default></key>
  <key id="id_stride" for="edge" attr.name="id_stride" attr.type="int"><default>1</default></key>
  <key id="gen_method" for="edge" attr.name="gen_method" attr.type="string"><default>MULTIPLY</default></key>
  <key id="multi_scale" for="edge" attr.name="multi_scale" attr.type="int"><default>1</default></key>
  <key id="as_tgt_subsystem" for="edge" attr.name="as_tgt_subsystem" attr.type="string"><default>containment</default></key>
  <key id="as_tgt_uplvl" for="edge" attr.name="as_tgt_uplvl" attr.type="int"><default>1</default></key>
  <key id="as_src_uplvl" for="edge" attr.name="as_src_uplvl" attr.type="int"><default>1</default></key>
  <graph id="g" edgedefault="directed">
)" + body + R"(
  </graph>
</graphml>
)";
}

std::string node(const std::string& id, const std::string& type, const std::string& extra = "") {
    return "<node id=\"" + id + "\"><data key=\"type\">" + type + "</data><data key=\"basename\">" + type +
           "</data>" + extra + "</node>\n";
}

std::string root_node(const std::string& id, const std::string& type, const std::string& basename) {
    return "<node id=\"" + id + "\"><data key=\"root\">1</data><data key=\"type\">" + type +
           "</data><data key=\"basename\">" + basename + "</data></node>\n";
}

std::string edge(const std::string& s, const std::string& t, const std::string& extra) {
    return "<edge source=\"" + s + "\" target=\"" + t + "\">" + extra + "</edge>\n";
}

std::string scale(int n) { return "<data key=\"multi_scale\">" + std::to_string(n) + "</data>"; }
std::string scope(int n) { return "<data key=\"id_scope\">" + std::to_string(n) + "</data>"; }

ResourceGraph load(const std::string& body) {
    auto recipe = parse_grug(recipe_xml(body), "test.graphml");
    EXPECT_TRUE(recipe.ok()) << (recipe.ok() ? "" : recipe.message());
    ResourceGraph g;
    if (recipe.ok()) {
        Status valid = validate_recipe(*recipe, "test.graphml");
        EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : valid.message());
        EXPECT_TRUE(load_grug(*recipe, g).ok());
    }
    return g;
}

std::vector<std::string> names_of_type(const ResourceGraph& g, const std::string& type) {
    std::vector<std::string> out;
    for (VertexId v : g.by_type(g.types().find(type))) out.emplace_back(g.name(v));
    return out;
}

// cluster -> node x2 -> socket x2 -> core x3, cores with the given id scope.
std::string three_level(int core_scope, const std::string& core_extra = "") {
    return root_node("c", "cluster", "c") + node("n", "node") + node("s", "socket") + node("k", "core") +
           edge("c", "n", scale(2) + scope(1)) + edge("n", "s", scale(2)) +
           edge("s", "k", scale(3) + scope(core_scope) + core_extra);
}

TEST(GrugIds, ScopeZeroRestartsPerParent) {
    ResourceGraph g = load(three_level(0));
    EXPECT_EQ(names_of_type(g, "core"),
              (std::vector<std::string>{"core0", "core1", "core2", "core0", "core1", "core2", "core0", "core1",
                                        "core2", "core0", "core1", "core2"}));
}

TEST(GrugIds, ScopeOneIsLocalToGrandparent) {
    ResourceGraph g = load(three_level(1));
    EXPECT_EQ(names_of_type(g, "core"),
              (std::vector<std::string>{"core0", "core1", "core2", "core3", "core4", "core5", "core0", "core1",
                                        "core2", "core3", "core4", "core5"}));
}

TEST(GrugIds, ScopeBeyondTheRootIsGlobal) {
    ResourceGraph g = load(three_level(9));
    std::vector<std::string> want;
    for (int i = 0; i < 12; ++i) want.push_back("core" + std::to_string(i));
    EXPECT_EQ(names_of_type(g, "core"), want);
}

TEST(GrugIds, NegativeScopeGivesNoId) {
    ResourceGraph g = load(three_level(-1));
    for (VertexId v : g.by_type(types::kCore)) {
        EXPECT_EQ(g.id(v), -1);
        EXPECT_EQ(g.name(v), "core");
    }
}

TEST(GrugIds, StartAndStrideWithScope) {
    ResourceGraph g = load(three_level(1, "<data key=\"id_start\">100</data><data key=\"id_stride\">2</data>"));
    // id = start + (j mod 2) * 3 * stride + i * stride
    EXPECT_EQ(names_of_type(g, "core"),
              (std::vector<std::string>{"core100", "core102", "core104", "core106", "core108", "core110",
                                        "core100", "core102", "core104", "core106", "core108", "core110"}));
}

TEST(GrugIds, ScopeZeroIgnoresStride) {
    ResourceGraph g = load(three_level(0, "<data key=\"id_start\">5</data><data key=\"id_stride\">4</data>"));
    EXPECT_EQ(names_of_type(g, "core")[0], "core5");
    EXPECT_EQ(names_of_type(g, "core")[1], "core6");
    EXPECT_EQ(names_of_type(g, "core")[2], "core7");
}

TEST(GrugGraph, PathsRanksUniqIdsAndEdges) {
    ResourceGraph g = load(three_level(1));
    ASSERT_EQ(g.num_vertices(), 1u + 2 + 4 + 12);
    EXPECT_EQ(g.num_edges(), g.num_vertices() - 1);
    VertexId root = g.root(kContainment);
    EXPECT_EQ(g.name(root), "c0");
    EXPECT_EQ(g.path(root, kContainment), "/c0");
    auto nodes = g.by_type(types::kNode);
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(g.rank(nodes[0]), 0);
    EXPECT_EQ(g.rank(nodes[1]), 1);
    EXPECT_EQ(g.nodes_up, 2);
    // creation order = uniq_id; depth-first by recipe edge, breadth within
    EXPECT_EQ(g.uniq_id(nodes[1]), 2);
    auto at = g.at_path("/c0/node1/socket1/core5");
    ASSERT_EQ(at.size(), 1u);
    EXPECT_EQ(g.rank(at[0]), -1);
    EXPECT_EQ(g.uniq_id(at[0]), 18);
    // out-edge order of a socket = its cores in creation order
    VertexId socket = g.at_path("/c0/node0/socket1")[0];
    std::vector<std::string> kids;
    for (EdgeId e : g.out(socket)) kids.emplace_back(g.name(g.target(e)));
    EXPECT_EQ(kids, (std::vector<std::string>{"core3", "core4", "core5"}));
}

// A second subsystem associated with existing containment vertices.
std::string power_recipe() {
    std::string power_keys = "<data key=\"subsystem\">power</data>";
    std::string power_edge = "<data key=\"e_subsystem\">power</data>";
    return root_node("c", "cluster", "c") + node("r", "rack") + node("p", "pdu") + node("n", "node") +
           "<node id=\"panel\"><data key=\"root\">1</data><data key=\"type\">panel</data>"
           "<data key=\"basename\">panel</data>" + power_keys + "</node>\n" +
           "<node id=\"pdu_p\"><data key=\"type\">pdu</data><data key=\"basename\">pdu</data>" + power_keys +
           "</node>\n" +
           "<node id=\"node_p\"><data key=\"type\">node</data><data key=\"basename\">node</data>" + power_keys +
           "</node>\n" +
           edge("c", "r", scale(2)) + edge("r", "p", scale(1) + scope(1)) + edge("r", "n", scale(2) + scope(1)) +
           edge("panel", "pdu_p", power_edge + "<data key=\"gen_method\">ASSOCIATE_IN</data>") +
           edge("pdu_p", "node_p", power_edge + "<data key=\"gen_method\">ASSOCIATE_BY_PATH_IN</data>");
}

TEST(GrugAssociate, AssociateInAndByPath) {
    ResourceGraph g = load(power_recipe());
    SubsystemId power = g.subsystems().find("power");
    ASSERT_NE(power, kNoId);
    VertexId panel = g.root(power);
    ASSERT_NE(panel, kNoVertex);
    EXPECT_EQ(g.path(panel, power), "/panel0");
    // ASSOCIATE_IN: every pdu gets a power path and a power edge from the panel
    auto pdus = g.by_type(g.types().find("pdu"));
    ASSERT_EQ(pdus.size(), 2u);
    EXPECT_EQ(g.path(pdus[0], power), "/panel0/pdu0");
    EXPECT_EQ(g.path(pdus[1], power), "/panel0/pdu1");
    // ASSOCIATE_BY_PATH_IN: each pdu powers only the nodes of its own rack
    std::vector<std::string> fed;
    for (EdgeId e : g.out(pdus[1]))
        if (g.subsystem(e) == power) fed.emplace_back(g.path(g.target(e), kContainment));
    EXPECT_EQ(fed, (std::vector<std::string>{"/c0/rack1/node2", "/c0/rack1/node3"}));
    EXPECT_EQ(g.at_path("/panel0/pdu1/node3").size(), 1u);
    // JGF-visible side effect: pdus got an (empty) power path read... and
    // nodes keep their containment path
    EXPECT_EQ(g.path(g.by_type(types::kNode)[0], kContainment), "/c0/rack0/node0");
}

TEST(GrugErrors, MalformedXmlGivesTheReferenceMessage) {
    auto r = parse_grug("<graphml><graph>", "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), kGrugReadError);
}

TEST(GrugErrors, NonNumericSizeGivesTheReferenceMessage) {
    auto r = parse_grug(recipe_xml(root_node("c", "cluster", "c") +
                                   node("n", "node", "<data key=\"size\">big</data>")),
                        "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), kGrugReadError);
}

// Line of `needle` in the recipe built from `body` (1-based).
int line_of(const std::string& body, const std::string& needle) {
    std::string text = recipe_xml(body);
    size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

TEST(GrugErrors, MalformedXmlDetailNamesFileAndLine) {
    auto r = parse_grug("<graphml>\n<graph>\n<node id=\"x></graph>", "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), kGrugReadError);
    EXPECT_EQ(r.error().detail.rfind("bad.graphml:3: malformed XML: ", 0), 0u) << r.error().detail;
    auto no_graphml = parse_grug("<graph/>", "bad.graphml");
    ASSERT_FALSE(no_graphml.ok());
    EXPECT_EQ(no_graphml.error().detail, "bad.graphml: no <graphml> element at the top");
}

TEST(GrugErrors, BadValueDetailNamesFileLineElementAndKey) {
    std::string body = root_node("c", "cluster", "c") + node("n", "node", "<data key=\"size\">big</data>") +
                       node("m", "memory") + edge("c", "n", "") + edge("n", "m", "<data key=\"multi_scale\">2x</data>");
    auto r = parse_grug(recipe_xml(body), "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), kGrugReadError);  // the reference's words
    EXPECT_EQ(r.error().detail, "bad.graphml:" + std::to_string(line_of(body, "<data key=\"size\">big")) +
                                    ": node \"n\": key \"size\": \"big\" is not a whole number");

    body = root_node("c", "cluster", "c") + node("n", "node") + edge("c", "n", "") +
           "<edge id=\"e7\" source=\"n\" target=\"c\"><data key=\"multi_scale\">2x</data></edge>\n";
    r = parse_grug(recipe_xml(body), "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().detail, "bad.graphml:" + std::to_string(line_of(body, "<data key=\"multi_scale\">2x")) +
                                    ": edge \"e7\": key \"multi_scale\": \"2x\" is not an integer");

    // An edge without id is found by its source and target.
    body = root_node("c", "cluster", "c") + node("n", "node") + edge("c", "n", "<data key=\"id_start\">x</data>");
    r = parse_grug(recipe_xml(body), "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().detail, "bad.graphml:" + std::to_string(line_of(body, "<data key=\"id_start\">x")) +
                                    ": edge \"c->n\": key \"id_start\": \"x\" is not an integer");
}

TEST(GrugErrors, BadKeyDefaultNamesTheKeyDeclaration) {
    std::string text = recipe_xml(root_node("c", "cluster", "c"));
    size_t at = text.find("<default>1</default>");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 20, "<default>one</default>");
    auto r = parse_grug(text, "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().detail, "bad.graphml:" + std::to_string(1 + std::count(text.begin(), text.begin() + at, '\n')) +
                                    ": default of <key id=\"size\">: key \"size\": \"one\" is not a whole number");
}

// The reference accepts it and builds a resource nothing can use.
TEST(GrugErrors, NegativeSizeIsRefusedWithFileLineAndKey) {
    std::string body = root_node("c", "cluster", "c") + node("m", "memory", "<data key=\"size\">-4</data>") +
                       edge("c", "m", "");
    auto r = parse_grug(recipe_xml(body), "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), "bad.graphml:" + std::to_string(line_of(body, "<data key=\"size\">-4")) +
                               ": node \"m\": key \"size\": -4 is negative; a size is 0 or more");
    EXPECT_TRUE(parse_grug(recipe_xml(root_node("c", "cluster", "c") + node("m", "memory", "<data key=\"size\">0</data>")),
                           "ok.graphml")
                    .ok());
}

TEST(GrugErrors, UndeclaredKeyNamesFileAndElement) {
    auto r = parse_grug(recipe_xml(node("n", "node", "<data key=\"colour\">red</data>")), "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), "bad.graphml: node \"n\": <data key=\"colour\"> refers to an undeclared key");
}

TEST(GrugErrors, EdgeToUnknownNode) {
    auto r = parse_grug(recipe_xml(root_node("c", "cluster", "c") + edge("c", "zz", "")), "bad.graphml");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message().find("connects an unknown node"), std::string::npos);
}

Status validate(const std::string& body) {
    auto r = parse_grug(recipe_xml(body), "bad.graphml");
    EXPECT_TRUE(r.ok());
    return r.ok() ? validate_recipe(*r, "bad.graphml") : Status(r.error());
}

TEST(GrugErrors, NoRoot) {
    Status s = validate(node("n", "node"));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "bad.graphml: no node is marked root (data key \"root\" = 1)");
}

TEST(GrugErrors, UnknownGenMethod) {
    Status s = validate(root_node("c", "cluster", "c") + node("n", "node") +
                        edge("c", "n", "<data key=\"gen_method\">CLONE</data>"));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "bad.graphml: edge \"c->n\": unknown gen_method \"CLONE\"");
}

TEST(GrugErrors, NotAForest) {
    Status two_parents = validate(root_node("c", "cluster", "c") + node("a", "rack") + node("n", "node") +
                                  edge("c", "a", "") + edge("c", "n", "") + edge("a", "n", ""));
    ASSERT_FALSE(two_parents.ok());
    EXPECT_NE(two_parents.message().find("not a forest"), std::string::npos);
    Status cycle = validate(root_node("c", "cluster", "c") + node("a", "rack") + node("n", "node") +
                            edge("a", "n", "") + edge("n", "a", ""));
    ASSERT_FALSE(cycle.ok());
    EXPECT_NE(cycle.message().find("cycle"), std::string::npos);
}

TEST(GrugErrors, NegativeMultiScale) {
    Status s = validate(root_node("c", "cluster", "c") + node("n", "node") + edge("c", "n", scale(-2)));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("negative multi_scale"), std::string::npos);
}

// ---- resource limits -----------------------------------------------------------

TEST(GrugLimits, TooBigForMemoryIsRefusedWithCountAndEstimate) {
    GrugLimits limits;
    limits.memory_bytes = uint64_t{8} << 30;  // 8 GiB: half is 4 GiB, about 10.7 million vertices
    EXPECT_TRUE(check_grug_size(10'000'000, limits).ok());
    Status s = check_grug_size(50'000'001, limits);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), Errc::kNoMemory);
    EXPECT_EQ(s.message(),
              "the recipe would generate 50,000,001 vertices, about 18.6 GiB of memory (400 bytes per vertex): "
              "more than half of the 8.0 GiB this machine has");
    limits.memory_bytes = 0;  // unknown: only the id space limits
    EXPECT_TRUE(check_grug_size(50'000'001, limits).ok());
    Status ids = check_grug_size(1e12, limits);
    ASSERT_FALSE(ids.ok());
    EXPECT_EQ(ids.code(), Errc::kRange);
    EXPECT_EQ(ids.message(),
              "the recipe would generate 1,000,000,000,000 vertices, about 372529.0 GiB of memory (400 bytes per "
              "vertex): more than the limit of 2,000,000,000 vertices");
}

TEST(GrugLimits, RefusedBeforeGeneratingAnything) {
    auto recipe = parse_grug(recipe_xml(root_node("c", "cluster", "c") + node("n", "node") + edge("c", "n", scale(50'000'000))),
                             "big.graphml");
    ASSERT_TRUE(recipe.ok());
    GrugLimits limits;
    limits.memory_bytes = uint64_t{1} << 30;
    ResourceGraph g;
    Status s = load_grug(*recipe, g, limits);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("50,000,001 vertices"), std::string::npos) << s.message();
    EXPECT_EQ(g.num_vertices(), 0u);
}

TEST(GrugLimits, ProgressIsReportedWhileGenerating) {
    auto recipe = parse_grug(recipe_xml(root_node("c", "cluster", "c") + node("n", "core") + edge("c", "n", scale(200'000))),
                             "wide.graphml");
    ASSERT_TRUE(recipe.ok());
    std::vector<std::pair<size_t, size_t>> calls;
    GrugLimits limits;
    limits.progress = [&](size_t done, size_t total) { calls.emplace_back(done, total); };
    ResourceGraph g;
    ASSERT_TRUE(load_grug(*recipe, g, limits).ok());
    EXPECT_EQ(g.num_vertices(), 200'001u);
    ASSERT_EQ(calls.size(), 4u);  // every 2^16 vertices: 0, 65536, 131072, 196608
    EXPECT_EQ(calls.back(), (std::pair<size_t, size_t>{196'608, 200'001}));
}

}  // namespace
}  // namespace rq
