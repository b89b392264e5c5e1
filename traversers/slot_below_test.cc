// A slot under a resource whose members sit deeper in the graph
// (`node[1]->slot[1]->core[N]` on node -> socket -> core, as hwloc loads
// real machines): it matches and chooses what the same request chooses on
// the flat node -> core graph, whatever the policy (traversal.md §7 corner
// case; the original reports "No matching resources"). hwloc machines:
// slot_below_hwloc_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "resource/writer_jgf.h"
#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::jobspec_yaml;
using testing::machine_recipe;
using testing::Matcher;

// cluster -> rack -> node[nodes] -> [levels...] -> core[cores] (+ gpu[gpus]
// beside the cores); ids of cores and gpus numbered per node, as hwloc
// and `-W node,core,gpu` number them.
std::string chain_recipe(int nodes, const std::vector<std::pair<std::string, int>>& levels, int cores, int gpus) {
    std::string x = "<graphml>\n";
    for (const char* k : {"root", "type", "basename", "size", "subsystem"}) {
        std::string type = std::string(k) == "root" ? "int" : std::string(k) == "size" ? "long" : "string";
        std::string dflt = std::string(k) == "root" ? "0" : std::string(k) == "size" ? "1"
                           : std::string(k) == "subsystem" ? "containment" : "";
        x += std::string("<key id=\"") + k + "\" for=\"node\" attr.name=\"" + k + "\" attr.type=\"" + type + "\"" +
             (dflt.empty() ? "/>\n" : "><default>" + dflt + "</default></key>\n");
    }
    x += "<key id=\"e_subsystem\" for=\"edge\" attr.name=\"e_subsystem\" attr.type=\"string\"><default>containment"
         "</default></key>\n<key id=\"id_scope\" for=\"edge\" attr.name=\"id_scope\" attr.type=\"int\"><default>0"
         "</default></key>\n<key id=\"id_start\" for=\"edge\" attr.name=\"id_start\" attr.type=\"int\"><default>0"
         "</default></key>\n<key id=\"id_stride\" for=\"edge\" attr.name=\"id_stride\" attr.type=\"int\"><default>1"
         "</default></key>\n<key id=\"gen_method\" for=\"edge\" attr.name=\"gen_method\" attr.type=\"string\">"
         "<default>MULTIPLY</default></key>\n<key id=\"multi_scale\" for=\"edge\" attr.name=\"multi_scale\" "
         "attr.type=\"int\"><default>1</default></key>\n<graph>\n";
    auto vertex = [](const std::string& t, bool root = false) {
        return "<node id=\"" + t + "\">" + (root ? "<data key=\"root\">1</data>" : "") + "<data key=\"type\">" + t +
               "</data><data key=\"basename\">" + t + "</data></node>\n";
    };
    auto edge = [](const std::string& s, const std::string& t, int n, int scope) {
        return "<edge source=\"" + s + "\" target=\"" + t + "\"><data key=\"multi_scale\">" + std::to_string(n) +
               "</data><data key=\"id_scope\">" + std::to_string(scope) + "</data></edge>\n";
    };
    x += vertex("cluster", true) + vertex("rack") + vertex("node") + vertex("core") + vertex("gpu");
    x += edge("cluster", "rack", 1, 0) + edge("rack", "node", nodes, 0);
    std::string above = "node";
    int scope = 1;  // core and gpu ids restart at every node
    for (auto& [type, count] : levels) {
        x += vertex(type) + edge(above, type, count, 0);
        above = type;
        ++scope;
    }
    x += edge(above, "core", cores, scope);
    if (gpus > 0) x += edge(above, "gpu", gpus, scope);
    return x + "</graph>\n</graphml>\n";
}

// node[1] -> slot[1] -> (core[n], gpu[g])
std::string node_slot(int n, int g) {
    std::string members;
    if (n > 0) members += "          - type: core\n            count: " + std::to_string(n) + "\n";
    if (g > 0) members += "          - type: gpu\n            count: " + std::to_string(g) + "\n";
    return jobspec_yaml("  - type: node\n    count: 1\n    with:\n      - type: slot\n        count: 1\n"
                        "        label: s\n        with:\n" +
                        members);
}

// The exclusive cores and gpus each request of `requests` gets, one line
// per request ("" for no match).
std::vector<std::string> choices(Matcher& m, const std::vector<std::pair<int, int>>& requests) {
    std::vector<std::string> out;
    for (auto [n, g] : requests) {
        std::vector<std::string> names = Matcher::exclusive_names(m.match(node_slot(n, g)));
        std::sort(names.begin(), names.end());  // the update walk's order differs between the graphs
        std::string line;
        for (const std::string& name : names)
            if (name.rfind("core", 0) == 0 || name.rfind("gpu", 0) == 0) line += name + " ";  // not *nodex's rest
        out.push_back(line);
    }
    return out;
}

TEST(SlotBelow, MatchesThroughSocketsLikeTheFlatGraph) {
    // Requests that fit in one socket's free cores and requests that need
    // two sockets: the slot is packed from all the node's cores.
    const std::vector<std::pair<int, int>> requests = {{2, 0}, {1, 0}, {3, 0}, {0, 1}, {1, 1}, {1, 0}};
    for (const char* policy : {"first", "firstnodex", "high", "low", "hinode", "lonode", "hinodex", "lonodex",
                               "locality", "variation"}) {
        Matcher flat(chain_recipe(1, {}, 8, 2), policy);
        Matcher sockets(chain_recipe(1, {{"socket", 2}}, 4, 1), policy);
        std::vector<std::string> expected = choices(flat, requests);
        EXPECT_EQ(choices(sockets, requests), expected) << policy;
        EXPECT_NE(expected[0], "") << policy;
        // Full: both refuse the next request.
        EXPECT_EQ(choices(flat, {{1, 0}}), (std::vector<std::string>{""})) << policy;
        EXPECT_EQ(choices(sockets, {{1, 0}}), (std::vector<std::string>{""})) << policy;
    }
}

TEST(SlotBelow, MatchesThroughSeveralLevels) {
    // node -> socket -> cache -> core, as hwloc loads AMD machines.
    Matcher m(chain_recipe(1, {{"socket", 2}, {"cache", 2}}, 2, 0), "low");
    EXPECT_EQ(choices(m, {{2, 0}, {1, 0}}), (std::vector<std::string>{"core0 core1 ", "core2 "}));
    // The socket and cache above the chosen cores are shared, not exclusive.
    std::string out = m.match(node_slot(1, 0));
    EXPECT_NE(out.find("socket0[1:s]"), std::string::npos) << out;
    EXPECT_NE(out.find("cache1[1:s]"), std::string::npos) << out;
}

TEST(SlotBelow, CancelFreesTheCores) {
    Matcher m(machine_recipe(1, 1, 2, 2), "low");
    MatchResult r;
    ASSERT_NE(m.match(node_slot(2, 0), MatchOp::kAllocate, &r), "");
    ASSERT_NE(m.match(node_slot(2, 0)), "");
    EXPECT_EQ(m.match(node_slot(1, 0)), "");
    ASSERT_TRUE(m.traverser->cancel(1).ok());
    EXPECT_EQ(choices(m, {{2, 0}}), (std::vector<std::string>{"core0 core1 "}));
}

TEST(SlotBelow, ASlotSpansSockets) {
    // 3 cores on 2-core sockets: one slot from both sockets, as on the
    // flat node (the original packs a slot from one socket's cores, and
    // then fails to allocate it anyway).
    Matcher m(machine_recipe(1, 1, 2, 2), "low");
    EXPECT_EQ(choices(m, {{3, 0}, {1, 0}, {1, 0}}), (std::vector<std::string>{"core0 core1 core2 ", "core3 ", ""}));
}

// The JGF a match prints (`-F jgf`), handed back to partial-cancel: the
// shared cluster, rack and node on the way are skipped, and the cores of
// both sockets count on their own socket.
TEST(SlotBelow, PartialCancelWithThePrintedJgfReleasesEverything) {
    Matcher m(machine_recipe(1, 1, 2, 2), "low");
    auto js = parse_jobspec(node_slot(3, 0), m.graph.types());
    ASSERT_TRUE(js.ok());
    JgfWriter jgf(false);
    ASSERT_TRUE(m.traverser->run(*js, MatchOp::kAllocate, 1, jgf).ok());
    std::ostringstream printed;
    ASSERT_TRUE(jgf.flush(printed).ok());
    ASSERT_NE(printed.str().find("\"containment\": \"/c0\""), std::string::npos) << printed.str();  // shared

    auto released = m.traverser->partial_cancel(1, "jgf", printed.str());
    ASSERT_TRUE(released.ok()) << released.message();
    EXPECT_TRUE(*released);  // nothing of job 1 left
    EXPECT_EQ(m.store.describe().find("tags{1"), std::string::npos) << m.store.describe();
    m.next = 2;
    EXPECT_EQ(choices(m, {{4, 0}}), (std::vector<std::string>{"core0 core1 core2 core3 "}));
}

}  // namespace
}  // namespace rq
