#include "resource/jgf_check.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>

namespace rq {
namespace {

using Json = nlohmann::ordered_json;

Json node(const std::string& id, Json metadata) { return Json{{"id", id}, {"metadata", std::move(metadata)}}; }
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
void load_small(ResourceGraph& g) {
    Json nodes = Json::array({node("0", md("cluster", "/c0", {{"basename", "c"}})),
                              node("1", md("node", "/c0/n0", {{"basename", "n"}, {"rank", 0}})),
                              node("2", md("core", "/c0/n0/core0", {{"rank", 0}, {"id", 0}})),
                              node("3", md("core", "/c0/n0/core1", {{"rank", 0}, {"id", 1}}))});
    Json edges = Json::array({edge("0", "1"), edge("1", "2"), edge("1", "3")});
    ASSERT_TRUE(read_jgf(jgf(nodes, edges), g).ok());
    g.types().freeze();
}

// Everything a load can change: vertices with their attributes, paths and
// out-edges, the roots, the path/type/rank indexes and the interners.
std::string fingerprint(const ResourceGraph& g) {
    std::ostringstream out;
    out << g.num_vertices() << " vertices " << g.num_edges() << " edges " << g.types().size() << " types "
        << g.subsystems().size() << " subsystems " << g.by_path().key_count() << " paths\n";
    for (SubsystemId s = 0; s < g.subsystems().size(); ++s) out << "root " << g.root(s) << "\n";
    for (VertexId v = 0; v < g.num_vertices(); ++v) {
        out << v << " " << g.type_name(v) << " " << g.name(v) << " r" << g.rank(v) << " u" << g.uniq_id(v) << " s"
            << g.size(v) << (g.is_up(v) ? " up" : " down");
        g.for_each_path(v, [&](SubsystemId s, std::string_view path) {
            out << " " << s << ":" << path << "=";
            for (VertexId u : g.at_path(path)) out << u << ",";
        });
        for (EdgeId e : g.out(v)) out << " ->" << g.target(e) << "/" << g.subsystem(e);
        out << "\n";
    }
    for (TypeId t = 0; t < g.types().size(); ++t) out << "type " << t << ":" << g.by_type(t).size() << "\n";
    for (auto& [rank, vertices] : g.by_rank()) out << "rank " << rank << ":" << vertices.size() << "\n";
    return out.str();
}

std::string outcome(const Status& s) {
    return s.ok() ? "<ok>" : std::to_string(static_cast<int>(s.code())) + " " + s.message();
}

TEST(JgfAttachCheck, FailedAttachChangesNothing) {
    ResourceGraph g;
    load_small(g);
    std::string before = fingerprint(g);
    // A new node with a core and a new type under n0, its edges, then an
    // edge to an unknown vertex: the load would stop at the last edge with
    // the node, the core, their paths and two edges in the graph.
    Json nodes = Json::array({node("1", md("node", "/c0/n0", {{"rank", 0}})),
                              node("10", md("node", "/c0/n9", {{"rank", 9}})),
                              node("11", md("nvme", "/c0/n9/nvme0", {{"rank", 9}})), node("12", md("gpu", "/c0/n9/gpu0", {{"rank", 9}}))});
    nodes[2]["metadata"]["paths"]["net"] = "/net0/n9";  // and a new subsystem
    Json edges = Json::array({edge("1", "10"), edge("10", "11"), edge("10", "99")});
    Status s = read_jgf(jgf(nodes, edges), g);
    EXPECT_EQ(s.message(), "unpack_edge: source and/or target vertex not found10 -> 99.");
    EXPECT_EQ(fingerprint(g), before);

    // The fuzzer's finding: a vertex at an orphan path, then a child key
    // clash (its uniq_id 3 equals core1's under n0).
    nodes = Json::array({node("1", md("node", "/c0/n0", {{"rank", 0}})),
                         node("3", md("core", "/c0/nX/core1", {{"rank", 0}}))});
    s = read_jgf(jgf(nodes, Json::array({edge("1", "3")})), g);
    EXPECT_EQ(s.message(), "error inserting an edge to outedge metadata map: n1 -> core3; ");
    EXPECT_EQ(fingerprint(g), before);

    // A second root after a new vertex.
    s = read_jgf(jgf(Json::array({node("20", md("core", "/c0/n0/core7", {{"rank", 0}})),
                                  node("21", md("cluster", "/d0"))})),
                 g);
    EXPECT_EQ(s.code(), Errc::kExists);
    EXPECT_EQ(fingerprint(g), before);

    // Fine documents still load.
    ASSERT_TRUE(read_jgf(jgf(Json::array({node("1", md("node", "/c0/n0", {{"rank", 0}})),
                                          node("12", md("core", "/c0/n0/core2", {{"rank", 0}}))}),
                             Json::array({edge("1", "12")})),
                         g)
                    .ok());
    EXPECT_EQ(g.num_vertices(), 5u);
}

// One random `nodes` element from a small pool of ids, types, paths,
// ranks, uniq_ids and sizes that meet the loader's every rule.
Json random_node(std::mt19937& rng) {
    auto pick = [&](const std::vector<std::string>& from) { return from[rng() % from.size()]; };
    static const std::vector<std::string> ids = {"0", "1", "2", "3", "4", "5", "6", "7"};
    static const std::vector<std::string> types = {"cluster", "node", "core", "gpu", "nvme"};
    static const std::vector<std::string> paths = {"/c0/n0", "/c0/n0/core0", "/c0/n0/core2", "/c0/n1",
                                                   "/c0/n1/core0", "/c0/n0/core1", "c0"};
    static const std::vector<std::string> roots = {"/c0", "/d0"};
    static const std::vector<std::string> others = {"/net0", "/net0/sw0", "/c0/n0"};
    Json m = {{"type", pick(types)}};
    Json p = Json::object();
    bool other_first = rng() % 4 == 0;
    std::string other = rng() % 2 ? "net" : "power";
    if (other_first) p[other] = pick(others);
    if (rng() % 8) p["containment"] = rng() % 10 ? pick(paths) : pick(roots);
    if (!other_first && rng() % 3 == 0) p[rng() % 2 ? "power" : "net"] = pick(others);
    m["paths"] = p;
    int r = static_cast<int>(rng() % 4);
    if (r < 3) m["rank"] = r - 1;
    if (rng() % 2 == 0) m["uniq_id"] = static_cast<int>(rng() % 5) - 1;
    if (rng() % 6 == 0) m["size"] = static_cast<int>(rng() % 3) - 1;
    if (rng() % 4 == 0) m["id"] = static_cast<int>(rng() % 3);
    return node(rng() % 30 ? pick(ids) : "x", m);
}

// Mostly between vertices of the document, sometimes to an unknown one.
Json random_edge(std::mt19937& rng, const Json& nodes) {
    auto end = [&]() -> std::string { return rng() % 12 ? nodes[rng() % nodes.size()]["id"] : "99"; };
    Json e = edge(end(), end());
    if (rng() % 5 == 0) e["metadata"] = {{"subsystem", rng() % 2 ? "net" : "containment"}};
    return e;
}

// The check must return exactly what the element-by-element load returns
// (same code, same message), for random documents against a loaded graph;
// and read_jgf must leave the graph untouched whenever it fails.
TEST(JgfAttachCheck, AgreesWithTheLoaderOnRandomDocuments) {
    std::mt19937 rng(12);
    std::map<std::string, int> seen;  // outcome kinds, to show both sides were exercised
    for (int round = 0; round < 3000; ++round) {
        Json nodes = Json::array();
        Json edges = Json::array();
        for (size_t n = 1 + rng() % 5; n > 0; --n) nodes.push_back(random_node(rng));
        for (size_t n = rng() % 6; n > 0; --n) edges.push_back(random_edge(rng, nodes));
        std::string text = jgf(nodes, edges);
        auto doc = JgfDocument::parse(text);
        ASSERT_TRUE(doc.ok());

        ResourceGraph model;
        load_small(model);
        std::string loaded = outcome(load_jgf_document(*doc, model));
        ResourceGraph checked;
        load_small(checked);
        std::string before = fingerprint(checked);
        ASSERT_EQ(outcome(check_jgf_attach(*doc, checked)), loaded) << text;
        ASSERT_EQ(fingerprint(checked), before) << text;

        Status read = read_jgf(text, checked);
        ASSERT_EQ(outcome(read), loaded) << text;
        ASSERT_EQ(fingerprint(checked), read.ok() ? fingerprint(model) : before) << text;
        seen[loaded.substr(0, loaded.find_first_of(":.", 3))]++;
    }
    EXPECT_GE(seen["<ok>"], 100);
    for (auto& [kind, n] : seen) EXPECT_GE(n, 30) << kind;
    EXPECT_GE(seen.size(), 8u) << "outcome kinds";
}

}  // namespace
}  // namespace rq
