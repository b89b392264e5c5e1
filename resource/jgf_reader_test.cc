#include "resource/jgf_reader.h"

#include <gtest/gtest.h>

#include "resource/loader.h"

namespace rq {
namespace {

using Json = nlohmann::ordered_json;

// A JGF `nodes` element.
Json node(const std::string& id, Json metadata) { return Json{{"id", id}, {"metadata", std::move(metadata)}}; }

// Metadata of a containment vertex of `type` at `path`, plus `extra` keys.
Json md(const std::string& type, const std::string& path, const Json& extra = Json::object()) {
    Json m = {{"type", type}, {"paths", {{"containment", path}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it) m[it.key()] = it.value();
    return m;
}

Json edge(const std::string& s, const std::string& t) { return Json{{"source", s}, {"target", t}}; }

std::string jgf(const Json& nodes, const Json& edges = Json::array()) {
    return Json{{"graph", {{"nodes", nodes}, {"edges", edges}}}}.dump();
}

// c0 -> n0 (rank 0) -> core0, core1
Json small_nodes() {
    return Json::array({node("0", md("cluster", "/c0", {{"basename", "c"}})),
                        node("1", md("node", "/c0/n0", {{"basename", "n"}, {"rank", 0}})),
                        node("2", md("core", "/c0/n0/core0", {{"rank", 0}, {"id", 0}})),
                        node("3", md("core", "/c0/n0/core1", {{"rank", 0}, {"id", 1}}))});
}
Json small_edges() { return Json::array({edge("0", "1"), edge("1", "2"), edge("1", "3")}); }

std::string error_of(std::string_view text) {
    ResourceGraph g;
    Status s = read_jgf(text, g);
    return s.ok() ? "<ok>" : s.message();
}

// The error of a one-vertex document whose node element is `element`.
std::string vertex_error(const Json& element) { return error_of(jgf(Json::array({element}))); }

std::vector<std::string> child_names(const ResourceGraph& g, VertexId v) {
    std::vector<std::string> names;
    for (EdgeId e : g.out(v)) names.emplace_back(g.name(g.target(e)));
    return names;
}

// ---- structure (§1.1) ------------------------------------------------------

TEST(JgfStructure, NotJson) {
    std::string message = error_of("{\"graph\": \n  [1,,]}");
    EXPECT_EQ(message.rfind("fetch_jgf: json_loads returned an error: ", 0), 0u) << message;
    EXPECT_NE(message.find(": <string>@2:"), std::string::npos) << message;
    EXPECT_EQ(message.substr(message.size() - 2), ".\n");
}

TEST(JgfStructure, TopLevelMustBeObjectOrArray) {
    std::string message = error_of("42");
    EXPECT_EQ(message, "fetch_jgf: json_loads returned an error: '[' or '{' expected near '42': <string>@1:2.\n");
}

TEST(JgfStructure, MissingKeys) {
    EXPECT_EQ(error_of("[]"), "fetch_jgf: JGF does not contain a required key (graph).");
    EXPECT_EQ(error_of("{\"nodes\": []}"), "fetch_jgf: JGF does not contain a required key (graph).");
    EXPECT_EQ(error_of("{\"graph\": 3}"), "fetch_jgf: JGF does not contain a required key (nodes).");
    EXPECT_EQ(error_of("{\"graph\": {\"edges\": []}}"), "fetch_jgf: JGF does not contain a required key (nodes).");
    EXPECT_EQ(error_of("{\"graph\": {\"nodes\": []}}"), "fetch_jgf: JGF does not contain a required key (edges).");
}

TEST(JgfStructure, OtherTopLevelKeysIgnoredAndEmptyGraphLoads) {
    ResourceGraph g;
    EXPECT_TRUE(read_jgf("{\"version\": 1, \"graph\": {\"nodes\": [], \"edges\": []}}", g).ok());
    EXPECT_EQ(g.num_vertices(), 0u);
}

// ---- vertex errors (§1.2) ----------------------------------------------------

TEST(JgfVertexErrors, MissingOrNonStringId) {
    const std::string want = "fill_fetcher: JGF vertex id key is not found in a node.";
    EXPECT_EQ(vertex_error(Json{{"metadata", md("node", "/n0")}}), want);
    EXPECT_EQ(vertex_error(Json{{"id", 3}, {"metadata", md("node", "/n0")}}), want);
    EXPECT_EQ(vertex_error(Json(7)), want);
}

TEST(JgfVertexErrors, MissingMetadata) {
    EXPECT_EQ(vertex_error(Json{{"id", "x1"}}), "fill_fetcher: key (metadata) is not found in an JGF node for x1.");
    EXPECT_EQ(vertex_error(Json{{"id", "x1"}, {"metadata", "no"}}),
              "fill_fetcher: key (metadata) is not found in an JGF node for x1.");
}

TEST(JgfVertexErrors, MalformedMetadata) {
    const std::string want = "fill_fetcher: malformed metadata in an JGF node for 5\n";
    EXPECT_EQ(vertex_error(node("5", Json{{"paths", {{"containment", "/a"}}}})), want);      // no type
    EXPECT_EQ(vertex_error(node("5", Json{{"type", "node"}})), want);                        // no paths
    EXPECT_EQ(vertex_error(node("5", Json{{"type", "node"}, {"paths", "/a"}})), want);       // paths not object
    EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{"paths", {{"containment", 1}}}}))), want);
    EXPECT_EQ(vertex_error(node("5", Json{{"type", 1}, {"paths", {{"containment", "/a"}}}})), want);
    for (const char* key : {"basename", "name", "unit"})
        EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{key, 1}}))), want) << key;
    for (const char* key : {"id", "uniq_id", "rank", "status", "size"}) {
        EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{key, "1"}}))), want) << key;
        EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{key, 1.5}}))), want) << key;
    }
    EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{"exclusive", 1}}))), want);
    // beyond int64
    EXPECT_EQ(error_of(R"({"graph": {"nodes": [{"id": "5", "metadata": {"type": "node", "size": 9223372036854775808,
               "paths": {"containment": "/a"}}}], "edges": []}})"),
              want);
}

TEST(JgfVertexErrors, Properties) {
    EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{"properties", "x"}}))),
              "fill_fetcher: key (properties) must be an object or null for 5.");
    EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{"properties", Json::array()}}))),
              "fill_fetcher: key (properties) must be an object or null for 5.");
    EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{"properties", {{"k", 1}}}}))),
              "fill_fetcher: malformed metadata in an JGF node for 5\n");
    EXPECT_EQ(vertex_error(node("5", md("node", "/a", {{"properties", nullptr}}))), "<ok>");
}

TEST(JgfVertexErrors, UniqIdCannotBeInferred) {
    EXPECT_EQ(vertex_error(node("core-a", md("core", "/a"))),
              "apply_defaults: value for key (uniq_id) could not be inferred from outer 'id' field core-a.");
    EXPECT_EQ(vertex_error(node("99999999999999999999", md("core", "/a"))),
              "apply_defaults: value for key (uniq_id) could not be inferred from outer 'id' field "
              "99999999999999999999.");
}

TEST(JgfVertexErrors, NegativeSizeRefused) {
    EXPECT_EQ(vertex_error(node("5", md("core", "/a", {{"size", -2}}))), "create_vtx: invalid size -2 for 5.");
}

// ---- defaults (§1.2) -----------------------------------------------------------

JgfVertex unpack(const Json& element) {
    auto v = unpack_jgf_vertex(element);
    EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.message());
    return v.ok() ? *v : JgfVertex{};
}

TEST(JgfDefaults, Minimal) {
    JgfVertex v = unpack(node("17", md("core", "/c/core17")));
    EXPECT_EQ(v.jgf_id, "17");
    EXPECT_EQ(v.uniq_id, 17);  // from the outer id
    EXPECT_EQ(v.id, 17);       // from uniq_id
    EXPECT_EQ(v.basename, "core");
    EXPECT_EQ(v.name, "core17");
    EXPECT_EQ(v.unit, "");
    EXPECT_EQ(v.rank, -1);
    EXPECT_EQ(v.size, 1);
    EXPECT_FALSE(v.exclusive);
    EXPECT_TRUE(v.up);
    EXPECT_TRUE(v.properties.empty());
    ASSERT_EQ(v.paths.size(), 1u);
    EXPECT_EQ(v.paths[0], std::make_pair(std::string("containment"), std::string("/c/core17")));
}

TEST(JgfDefaults, OuterIdLeadingIntegerPrefix) {
    EXPECT_EQ(unpack(node(" 42abc", md("core", "/a"))).uniq_id, 42);
    EXPECT_EQ(unpack(node("-3", md("core", "/a"))).uniq_id, -3);
    EXPECT_EQ(unpack(node("x", md("core", "/a", {{"uniq_id", 9}}))).uniq_id, 9);
}

TEST(JgfDefaults, NodeIdFromTrailingDigitsOfName) {
    EXPECT_EQ(unpack(node("4", md("node", "/c/compute12", {{"name", "compute12"}}))).id, 12);
    EXPECT_EQ(unpack(node("4", md("node", "/c/n007", {{"name", "n007"}}))).id, 7);
    // no trailing digits, not a node, or an explicit id: id stays uniq_id / given
    EXPECT_EQ(unpack(node("4", md("node", "/c/login", {{"name", "login"}}))).id, 4);
    EXPECT_EQ(unpack(node("4", md("core", "/c/core9", {{"name", "core9"}}))).id, 4);
    EXPECT_EQ(unpack(node("4", md("node", "/c/n9", {{"name", "n9"}, {"id", 2}}))).id, 2);
    // a trailing number too long for int64 keeps uniq_id
    EXPECT_EQ(unpack(node("4", md("node", "/c/x", {{"name", "n99999999999999999999"}}))).id, 4);
}

TEST(JgfDefaults, NameFromBasenameAndId) {
    JgfVertex v = unpack(node("4", md("socket", "/a", {{"basename", "sock"}, {"id", 3}})));
    EXPECT_EQ(v.name, "sock3");
    EXPECT_EQ(unpack(node("4", md("socket", "/a", {{"id", -1}}))).name, "socket-1");
}

TEST(JgfDefaults, ExplicitValues) {
    JgfVertex v = unpack(node("4", md("memory", "/a", {{"basename", "mem"}, {"name", "m"}, {"id", 8},
                                                        {"uniq_id", 100}, {"rank", 3}, {"status", 1},
                                                        {"exclusive", true}, {"unit", "GB"}, {"size", 16},
                                                        {"properties", {{"b", "2"}, {"a", "1"}}}})));
    EXPECT_EQ(v.basename, "mem");
    EXPECT_EQ(v.name, "m");
    EXPECT_EQ(v.id, 8);
    EXPECT_EQ(v.uniq_id, 100);
    EXPECT_EQ(v.rank, 3);
    EXPECT_FALSE(v.up);
    EXPECT_TRUE(v.exclusive);
    EXPECT_EQ(v.unit, "GB");
    EXPECT_EQ(v.size, 16);
    EXPECT_EQ(v.properties, (PropertyMap{{"a", "1"}, {"b", "2"}}));
}

// ---- loading -----------------------------------------------------------------

TEST(JgfLoad, SmallClusterAttributesAndEdges) {
    ResourceGraph g;
    JgfReadResult result;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g, &result).ok());
    ASSERT_EQ(g.num_vertices(), 4u);
    EXPECT_EQ(g.num_edges(), 3u);
    EXPECT_EQ(result.created, (std::vector<VertexId>{0, 1, 2, 3}));
    EXPECT_TRUE(result.reused.empty());
    EXPECT_EQ(result.vertex_of.at("2"), 2u);
    EXPECT_EQ(g.root(kContainment), 0u);
    EXPECT_EQ(g.name(0), "c0");
    EXPECT_EQ(g.name(1), "n1");
    EXPECT_EQ(g.rank(1), 0);
    EXPECT_EQ(g.type(1), types::kNode);
    EXPECT_EQ(g.path(2, kContainment), "/c0/n0/core0");
    EXPECT_EQ(g.at_path("/c0/n0/core1"), (std::vector<VertexId>{3}));
    EXPECT_EQ(child_names(g, 1), (std::vector<std::string>{"core0", "core1"}));
    EXPECT_EQ(g.subsystem(0), kContainment);
}

TEST(JgfLoad, UniqIdIsTheJsonValue) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(Json::array({node("a", md("cluster", "/c0", {{"uniq_id", 500}})),
                                          node("7", md("core", "/c0/core0"))})),
                         g)
                    .ok());
    EXPECT_EQ(g.uniq_id(0), 500);
    EXPECT_EQ(g.uniq_id(1), 7);
}

TEST(JgfLoad, StatusPropertiesSizeAndUnitDropped) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(Json::array({node("0", md("node", "/n0", {{"status", 1},
                                                                     {"properties", {{"arm", ""}}}})),
                                          node("1", md("memory", "/n0/m", {{"size", 4}, {"unit", "GB"}}))})),
                         g)
                    .ok());
    EXPECT_FALSE(g.is_up(0));
    ASSERT_NE(g.properties(0), nullptr);
    EXPECT_EQ(*g.properties(0), (PropertyMap{{"arm", ""}}));
    EXPECT_EQ(g.size(1), 4);
    EXPECT_EQ(g.unit(1), "");  // read, validated, but not kept (as the reference)
}

TEST(JgfLoad, EdgeOrderIsTheChildOrder) {
    // Children listed 3, 2 in the edges although created 2, 3.
    ResourceGraph g;
    Json edges = Json::array({edge("0", "1"), edge("1", "3"), edge("1", "2")});
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), edges), g).ok());
    EXPECT_EQ(child_names(g, 1), (std::vector<std::string>{"core1", "core0"}));
}

TEST(JgfLoad, NodesInAnyOrder) {
    // Children before their parent, as in the reference's elastic tests.
    Json nodes = small_nodes();
    Json reversed = Json::array({nodes[3], nodes[2], nodes[1], nodes[0]});
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(reversed, small_edges()), g).ok());
    EXPECT_EQ(g.name(0), "core1");
    EXPECT_EQ(g.root(kContainment), 3u);
    EXPECT_EQ(child_names(g, 2), (std::vector<std::string>{"core0", "core1"}));
}

TEST(JgfLoad, EdgeSubsystem) {
    Json nodes = Json::array({node("0", Json{{"type", "cluster"}, {"paths", {{"containment", "/c0"}, {"power", "/p0"}}}}),
                              node("1", md("rack", "/c0/rack1")),
                              node("2", Json{{"type", "pdu"}, {"paths", {{"power", "/p0/pdu2"}}}})});
    Json edges = Json::array({edge("0", "1"), Json{{"source", "0"}, {"target", "2"}, {"metadata", {{"subsystem", "power"}}}}});
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(nodes, edges), g).ok());
    SubsystemId power = g.subsystems().find("power");
    ASSERT_NE(power, kNoId);
    std::vector<SubsystemId> subs;
    for (EdgeId e : g.out(0)) subs.push_back(g.subsystem(e));
    EXPECT_EQ(subs, (std::vector<SubsystemId>{kContainment, power}));
    EXPECT_EQ(g.root(power), 0u);
    EXPECT_EQ(g.root(kContainment), 0u);
    EXPECT_EQ(g.path(2, power), "/p0/pdu2");
    EXPECT_FALSE(g.has_path(2, kContainment));
}

TEST(JgfLoad, InterningOrderTypesThenPathKeysThenEdgeSubsystems) {
    Json nodes = Json::array({node("0", Json{{"type", "zeta"}, {"paths", {{"sub_b", "/z0"}, {"sub_a", "/y0"}}}}),
                              node("1", Json{{"type", "alpha"}, {"paths", {{"sub_c", "/z0/a1"}}}})});
    Json edges = Json::array({Json{{"source", "0"}, {"target", "1"}, {"metadata", {{"subsystem", "sub_e"}}}}});
    ResourceGraph g;
    size_t types_before = g.types().size(), subs_before = g.subsystems().size();
    ASSERT_TRUE(read_jgf(jgf(nodes, edges), g).ok());
    EXPECT_EQ(g.types().name(types_before), "zeta");
    EXPECT_EQ(g.types().name(types_before + 1), "alpha");
    EXPECT_EQ(g.subsystems().name(subs_before), "sub_b");
    EXPECT_EQ(g.subsystems().name(subs_before + 1), "sub_a");
    EXPECT_EQ(g.subsystems().name(subs_before + 2), "sub_c");
    EXPECT_EQ(g.subsystems().name(subs_before + 3), "sub_e");
}

TEST(JgfLoad, DuplicateRootKeepsTheVertex) {
    ResourceGraph g;
    Status s = read_jgf(jgf(Json::array({node("0", md("cluster", "/c0")), node("1", md("cluster", "/d0"))})), g);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(),
              "add_graph_metadata: failed to add root metadata for containment subsystem. Possible duplicate root.");
    EXPECT_EQ(g.num_vertices(), 2u);
    EXPECT_EQ(g.root(kContainment), 0u);
    EXPECT_FALSE(g.by_path().contains("/d0"));
}

TEST(JgfLoad, DuplicateJgfIds) {
    // Two new vertices with one id.
    EXPECT_EQ(error_of(jgf(Json::array({node("0", md("cluster", "/c0")), node("0", md("core", "/c0/core0"))}))),
              "add_vtx: found duplicate JGF node id for 0.");
    // The second element names the vertex the first created (same path and rank).
    EXPECT_EQ(error_of(jgf(Json::array({node("0", md("cluster", "/c0")), node("0", md("cluster", "/c0"))}))),
              "update_vmap: can't insert into vmap for 0.");
}

TEST(JgfLoad, EdgeErrors) {
    Json nodes = small_nodes();
    EXPECT_EQ(error_of(jgf(nodes, Json::array({Json{{"source", "0"}}}))), "unpack_edge: encountered a malformed edge.");
    EXPECT_EQ(error_of(jgf(nodes, Json::array({Json{{"source", 0}, {"target", "1"}}}))),
              "unpack_edge: encountered a malformed edge.");
    EXPECT_EQ(error_of(jgf(nodes, Json::array({5}))), "unpack_edge: encountered a malformed edge.");
    EXPECT_EQ(error_of(jgf(nodes, Json::array({Json{{"source", "0"}, {"target", "1"}, {"metadata", {{"subsystem", 2}}}}}))),
              "unpack_edge: encountered a malformed edge.");
    EXPECT_EQ(error_of(jgf(nodes, Json::array({edge("0", "9")}))),
              "unpack_edge: source and/or target vertex not found0 -> 9.");
}

TEST(JgfLoad, SecondChildWithSameUniqIdIsRefused) {
    Json nodes = Json::array({node("0", md("cluster", "/c0")), node("1", md("core", "/c0/core0", {{"uniq_id", 5}})),
                              node("2", md("core", "/c0/core1", {{"uniq_id", 5}}))});
    ResourceGraph g;
    Status s = read_jgf(jgf(nodes, Json::array({edge("0", "1"), edge("0", "2")})), g);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "error inserting an edge to outedge metadata map: cluster0 -> core5; ");
    // A repeated edge to the same child is the same key.
    EXPECT_EQ(error_of(jgf(small_nodes(), Json::array({edge("0", "1"), edge("0", "1")}))),
              "error inserting an edge to outedge metadata map: c0 -> n1; ");
}

TEST(JgfLoad, ErrorsStopAtTheFirstBadElement) {
    // Node 1 is fine, node 2 is malformed: node 1 was created already.
    ResourceGraph g;
    JgfReadResult result;
    Status s = read_jgf(jgf(Json::array({node("1", md("cluster", "/c0")), node("2", Json{{"type", "core"}})})), g,
                        &result);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(g.num_vertices(), 1u);
    EXPECT_EQ(result.created.size(), 1u);
}

TEST(JgfLoad, NonArrayNodesAndEdgesHoldNothing) {
    ResourceGraph g;
    EXPECT_TRUE(read_jgf("{\"graph\": {\"nodes\": {}, \"edges\": 3}}", g).ok());
    EXPECT_EQ(g.num_vertices(), 0u);
}

// ---- loading into an existing graph (attach) --------------------------------------

TEST(JgfAttach, ReusesVerticesByPathAndRankAndAddsEdgesTouchingNewOnes) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    // The same cluster and node, plus a new core2; and an edge between the
    // two known vertices, which must not be duplicated.
    Json nodes = Json::array({node("10", md("cluster", "/c0")), node("11", md("node", "/c0/n0", {{"rank", 0}})),
                              node("12", md("core", "/c0/n0/core2", {{"rank", 0}, {"id", 2}}))});
    JgfReadResult result;
    ASSERT_TRUE(read_jgf(jgf(nodes, Json::array({edge("10", "11"), edge("11", "12")})), g, &result).ok());
    EXPECT_EQ(g.num_vertices(), 5u);
    EXPECT_EQ(g.num_edges(), 4u);
    EXPECT_EQ(result.reused, (std::vector<VertexId>{0, 1}));
    EXPECT_EQ(result.created, (std::vector<VertexId>{4}));
    EXPECT_EQ(result.vertex_of.at("11"), 1u);
    EXPECT_EQ(result.edges.size(), 1u);
    EXPECT_EQ(child_names(g, 1), (std::vector<std::string>{"core0", "core1", "core2"}));
    EXPECT_EQ(g.uniq_id(4), 12);
}

TEST(JgfAttach, SamePathOtherRankIsANewVertex) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    ASSERT_TRUE(read_jgf(jgf(Json::array({node("20", md("core", "/c0/n0/core0", {{"rank", 7}}))})), g).ok());
    EXPECT_EQ(g.num_vertices(), 5u);
    EXPECT_EQ(g.at_path("/c0/n0/core0"), (std::vector<VertexId>{2, 4}));
}

TEST(JgfAttach, SecondRootFails) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    Status s = read_jgf(jgf(Json::array({node("0", md("cluster", "/other0"))})), g);
    EXPECT_EQ(s.message(),
              "add_graph_metadata: failed to add root metadata for containment subsystem. Possible duplicate root.");
}

TEST(JgfAttach, NewTypesWhileFrozen) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    g.types().freeze();
    ASSERT_TRUE(read_jgf(jgf(Json::array({node("30", md("nvme", "/c0/n0/nvme0", {{"rank", 0}}))})), g).ok());
    EXPECT_NE(g.types().find("nvme"), kNoId);
    EXPECT_TRUE(g.types().frozen());
}

TEST(JgfAttach, RepeatedChildKeyAgainstExistingEdges) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    // A new core whose uniq_id (2) equals the existing core0's.
    Status s = read_jgf(jgf(Json::array({node("1", md("node", "/c0/n0", {{"rank", 0}})),
                                         node("2", md("core", "/c0/n0/coreX", {{"rank", 0}}))}),
                            Json::array({edge("1", "2")})),
                        g);
    EXPECT_EQ(s.message(), "error inserting an edge to outedge metadata map: n1 -> core2; ");
}

// ---- lookups used by update / partial-cancel ---------------------------------

TEST(JgfLookup, FindConsistentVertex) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    JgfVertex v = unpack(node("3", md("core", "/c0/n0/core1", {{"rank", 0}, {"id", 1}})));
    auto found = find_consistent_vertex(g, v);
    ASSERT_TRUE(found.ok()) << found.message();
    EXPECT_EQ(*found, 3u);

    JgfVertex missing = unpack(node("9", md("core", "/c0/n0/core9", {{"rank", 0}})));
    EXPECT_EQ(find_consistent_vertex(g, missing).message(),
              "exist: inconsistent input vertex: nonexistent path (/c0/n0/core9) 9.");
    JgfVertex other_rank = unpack(node("9", md("core", "/c0/n0/core1", {{"rank", 4}})));
    EXPECT_EQ(find_consistent_vertex(g, other_rank).message(),
              "exist: inconsistent input vertex: nonexistent path (/c0/n0/core1) 9.");

    JgfVertex differs = unpack(node("3", md("core", "/c0/n0/core1", {{"rank", 0}, {"id", 1}, {"size", 2}})));
    EXPECT_EQ(find_consistent_vertex(g, differs).message(),
              "find_vtx: inconsistent input vertex for 3.\nsize=(1, 2)\n");
    EXPECT_EQ(vertex_differences(g, 2, v), "id=(0, 1) name=(core0, core1) paths=(containment:/c0/n0/core0, "
                                           "containment:/c0/n0/core1)");
}

TEST(JgfLookup, FindExistingVertexAndRootPaths) {
    ResourceGraph g;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), small_edges()), g).ok());
    EXPECT_EQ(find_vertex_at_path(g, "/c0/n0", 0), 1u);
    EXPECT_EQ(find_vertex_at_path(g, "/c0/n0", 1), kNoVertex);
    EXPECT_EQ(find_vertex_at_path(g, "/nowhere", 0), kNoVertex);
    EXPECT_EQ(find_existing_vertex(g, unpack(node("7", md("cluster", "/c0")))), 0u);
    EXPECT_TRUE(is_root_path("/c0"));
    EXPECT_FALSE(is_root_path("/c0/n0"));
    EXPECT_FALSE(is_root_path("c0"));
}

TEST(JgfDocument, UnpacksOnDemand) {
    auto doc = JgfDocument::parse(jgf(small_nodes(), small_edges()));
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ(doc->vertex_count(), 4u);
    EXPECT_EQ(doc->edge_count(), 3u);
    EXPECT_EQ(doc->vertex(1)->name, "n1");
    EXPECT_EQ(doc->edge(2)->target, "3");
    EXPECT_EQ(doc->edge(2)->subsystem, "containment");
}

// ---- the start-up loader ---------------------------------------------------------

TEST(JgfLoader, FormatsAndNodesUp) {
    Json nodes = Json::array({node("0", md("cluster", "/c0")), node("1", md("node", "/c0/n0", {{"rank", 0}})),
                              node("2", md("node", "/c0/n1", {{"rank", 1}, {"status", 1}})),
                              node("3", md("node", "/c0/n2", {{"rank", 2}}))});
    for (const char* format : {"jgf", "jgf_shorthand"}) {
        LoadRequest request;
        request.format = format;
        request.text = jgf(nodes, Json::array({edge("0", "1"), edge("0", "2"), edge("0", "3")}));
        ResourceGraph g;
        ASSERT_TRUE(load_graph(request, g).ok()) << format;
        EXPECT_EQ(g.nodes_up, 1);  // two up, one down
        EXPECT_TRUE(g.types().frozen());
    }
}

TEST(JgfLoader, ErrorIsTheReaderMessage) {
    LoadRequest request;
    request.format = "jgf";
    request.text = "{}";
    ResourceGraph g;
    Status s = load_graph(request, g);
    EXPECT_EQ(s.message(), "fetch_jgf: JGF does not contain a required key (graph).");
}


// ---- edges in both directions ---------------------------------------------

// Each containment edge listed again from child to parent (fluxion-go's
// test data): the reverse ones are dropped and counted, the tree stays.
TEST(JgfEdges, ReverseEdgesAreDroppedWithAWarning) {
    Json edges = Json::array({edge("1", "0"), edge("0", "1"), edge("1", "2"), edge("2", "1"), edge("1", "3"),
                              edge("3", "1"), edge("3", "3")});
    ResourceGraph g;
    JgfReadResult read;
    ASSERT_TRUE(read_jgf(jgf(small_nodes(), edges), g, &read).ok());
    EXPECT_EQ(g.num_edges(), 3u);
    EXPECT_EQ(read.reverse_edges_dropped, 4u);
    EXPECT_EQ(read.first_reverse_edge, "n1 -> c0");  // (its name: basename + id = uniq_id)
    EXPECT_EQ(child_names(g, 0), std::vector<std::string>{"n1"});
    EXPECT_EQ(child_names(g, 1), (std::vector<std::string>{"core0", "core1"}));
    EXPECT_TRUE(child_names(g, 2).empty());
    EXPECT_EQ(g.parent_edge(0, kContainment), kNoEdge);
    EXPECT_NE(reverse_edges_warning(read).find("dropped 4 edge(s)"), std::string::npos);

    // The loader hands the line to its caller (the CLI prints it).
    LoadRequest request;
    request.format = "jgf";
    request.text = jgf(small_nodes(), edges);
    ResourceGraph h;
    std::vector<std::string> warnings;
    ASSERT_TRUE(load_graph(request, h, &warnings).ok());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("first: n1 -> c0"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace rq
