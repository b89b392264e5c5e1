#include "resource/rv1exec_reader.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "resource/loader.h"

namespace rq {
namespace {

using Json = nlohmann::ordered_json;

// An R object with the given R_lite entries and nodelist.
std::string r_text(const Json& rlite, const Json& nodelist, const Json& properties = nullptr) {
    Json r = {{"version", 1},
              {"execution", {{"R_lite", rlite}, {"starttime", 0}, {"expiration", 0}, {"nodelist", nodelist}}}};
    if (!properties.is_null()) r["execution"]["properties"] = properties;
    return r.dump();
}

Json entry(const std::string& ranks, const Json& children) { return Json{{"rank", ranks}, {"children", children}}; }

std::string error_of(const std::string& text) {
    ResourceGraph g;
    Status s = read_rv1exec(text, g);
    return s.ok() ? "<ok>" : s.message();
}

std::vector<std::string> child_names(const ResourceGraph& g, VertexId v) {
    std::vector<std::string> names;
    for (EdgeId e : g.out(v)) names.emplace_back(g.name(g.target(e)));
    return names;
}

// ---- host names ------------------------------------------------------------

TEST(Rv1HostName, Split) {
    auto check = [](const char* host, const char* basename, int64_t id) {
        auto split = split_hostname(host);
        ASSERT_TRUE(split.ok()) << host;
        EXPECT_EQ(split->basename, basename) << host;
        EXPECT_EQ(split->id, id) << host;
    };
    check("fluke12", "fluke", 12);
    check("node0", "node", 0);
    check("login", "login", -1);            // no trailing digits
    check("123", "123", 123);               // all digits: whole name
    check("n007", "n", 7);                  // leading zeros ignored
    check("n000", "n", 0);                  // all zeros
    check("rack2-node04", "rack2-node", 4);
    check("fluke9223372036854775807", "fluke", INT64_MAX);
    check("x00000000000000000000000001", "x", 1);  // long but small
}

TEST(Rv1HostName, BeyondInt64Fails) {
    auto split = split_hostname("fluke9223372036854775808");
    ASSERT_FALSE(split.ok());
    EXPECT_EQ(split.message(), "split_hostname: the number of host fluke9223372036854775808 does not fit in int64.");
    EXPECT_FALSE(split_hostname("99999999999999999999").ok());
}

// ---- parsing -------------------------------------------------------------------

TEST(Rv1Parse, TablesAndEntries) {
    auto r = parse_rv1exec(r_text(Json::array({entry("4", {{"gpu", "0"}, {"core", "0-1"}}), entry("0-1", Json::object())}),
                                  Json::array({"a[1-2]", "b7"}), {{"arm", "0,4"}, {"fast", "1"}}));
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->ranks, (std::vector<int64_t>{0, 1, 4}));
    EXPECT_EQ(r->hosts, (std::vector<std::string>{"a1", "a2", "b7"}));
    ASSERT_EQ(r->entries.size(), 2u);
    EXPECT_EQ(r->entries[0].ranks, (std::vector<int64_t>{4}));
    ASSERT_EQ(r->entries[0].children.size(), 2u);
    EXPECT_EQ(r->entries[0].children[0].first, "gpu");  // document order
    EXPECT_EQ(r->entries[0].children[1].second, (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(*r->host_of(0), "a1");
    EXPECT_EQ(*r->host_of(1), "a2");
    EXPECT_EQ(*r->host_of(4), "b7");
    EXPECT_EQ(r->host_of(2), nullptr);
    EXPECT_EQ(r->properties_of(0), (PropertyMap{{"arm", ""}}));
    EXPECT_EQ(r->properties_of(1), (PropertyMap{{"fast", ""}}));
    EXPECT_TRUE(r->properties_of(3).empty());
}

TEST(Rv1Parse, Errors) {
    Json ok_lite = Json::array({entry("0", {{"core", "0"}})});
    Json ok_nodes = Json::array({"n0"});
    EXPECT_EQ(error_of(r_text(ok_lite, ok_nodes)), "<ok>");
    EXPECT_NE(error_of("").find("parse_rv1exec: R is not JSON: "), std::string::npos);
    EXPECT_EQ(error_of("{}"), "parse_rv1exec: R has no integer version.");
    EXPECT_EQ(error_of(R"({"version": "1"})"), "parse_rv1exec: R has no integer version.");
    EXPECT_EQ(error_of(R"({"version": 2})"), "parse_rv1exec: R version 2 is not supported (must be 1).");
    EXPECT_EQ(error_of(R"({"version": 1})"), "parse_rv1exec: execution.R_lite is missing or not an array.");
    EXPECT_EQ(error_of(R"({"version": 1, "execution": {"R_lite": []}})"),
              "parse_rv1exec: execution.nodelist is missing or not an array.");
    // rank as an integer (flux's "misconfigured R" test)
    EXPECT_EQ(error_of(r_text(Json::array({Json{{"rank", 0}, {"children", {{"core", "0"}}}}}), ok_nodes)),
              "parse_rv1exec: R_lite[0].rank is not an idset string.");
    EXPECT_EQ(error_of(r_text(Json::array({entry("0-", {{"core", "0"}})}), ok_nodes)),
              "parse_rv1exec: R_lite[0].rank: Invalid idset `0-'.");
    EXPECT_EQ(error_of(r_text(Json::array({Json{{"rank", "0"}}}), ok_nodes)),
              "parse_rv1exec: R_lite[0].children is not an object.");
    EXPECT_EQ(error_of(r_text(Json::array({entry("0", {{"core", 3}})}), ok_nodes)),
              "parse_rv1exec: R_lite[0].children.core is not an idset string.");
    EXPECT_EQ(error_of(r_text(ok_lite, Json::array({1}))), "parse_rv1exec: nodelist holds a non-string.");
    EXPECT_EQ(error_of(r_text(ok_lite, Json::array({"n[1-"}))), "parse_rv1exec: nodelist: Invalid hostlist `n[1-'.");
    EXPECT_EQ(error_of(r_text(Json::array({entry("0-2", {{"core", "0"}})}), Json::array({"n[0-1]"}))),
              "parse_rv1exec: nodelist names 2 hosts for 3 ranks.");
    EXPECT_EQ(error_of(r_text(ok_lite, ok_nodes, {{"arm", 1}})), "parse_rv1exec: properties.arm is not an idset string.");
    EXPECT_EQ(error_of(r_text(ok_lite, ok_nodes, Json::array())), "parse_rv1exec: properties is not an object.");
}

// ---- building ----------------------------------------------------------------------

TEST(Rv1Build, TreeIdsNamesPathsAndUniqIds) {
    ResourceGraph g;
    ASSERT_TRUE(read_rv1exec(r_text(Json::array({entry("0-1", {{"core", "0-1"}, {"gpu", "0"}})}),
                                    Json::array({"node[0-1]"})),
                             g)
                    .ok());
    // cluster0, node0, core0, core1, gpu0, node1, core0, core1, gpu0
    ASSERT_EQ(g.num_vertices(), 9u);
    EXPECT_EQ(g.num_edges(), 8u);
    EXPECT_EQ(g.root(kContainment), 0u);
    EXPECT_EQ(g.name(0), "cluster0");
    EXPECT_EQ(g.basename(0), "cluster");
    EXPECT_EQ(g.type(0), types::kCluster);
    EXPECT_EQ(g.path(0, kContainment), "/cluster0");
    EXPECT_EQ(g.rank(0), -1);
    EXPECT_EQ(g.id(0), 0);
    EXPECT_EQ(child_names(g, 0), (std::vector<std::string>{"node0", "node1"}));
    EXPECT_EQ(child_names(g, 1), (std::vector<std::string>{"core0", "core1", "gpu0"}));
    EXPECT_EQ(g.name(5), "node1");
    EXPECT_EQ(g.basename(5), "node");
    EXPECT_EQ(g.id(5), 1);
    EXPECT_EQ(g.rank(5), 1);
    EXPECT_EQ(g.rank(7), 1);
    EXPECT_EQ(g.path(7, kContainment), "/cluster0/node1/core1");
    EXPECT_EQ(g.name(8), "gpu0");
    EXPECT_EQ(g.type(8), types::kGpu);
    for (VertexId v = 0; v < g.num_vertices(); ++v) {
        EXPECT_EQ(g.uniq_id(v), static_cast<int64_t>(v));
        EXPECT_EQ(g.size(v), 1);
        EXPECT_TRUE(g.is_up(v));
    }
}

TEST(Rv1Build, ChildrenInDocumentOrderAndNewTypesInterned) {
    ResourceGraph g;
    ASSERT_TRUE(read_rv1exec(r_text(Json::array({entry("0", {{"gpu", "1"}, {"fpga", "0"}, {"core", "3"}})}),
                                    Json::array({"x5"})),
                             g)
                    .ok());
    EXPECT_EQ(child_names(g, 1), (std::vector<std::string>{"gpu1", "fpga0", "core3"}));
    EXPECT_NE(g.types().find("fpga"), kNoId);
    EXPECT_EQ(g.id(1), 5);
}

TEST(Rv1Build, RanksMapToHostsInSortedOrder) {
    // Entries list rank 2 before ranks 0-1; the host table follows rank order.
    ResourceGraph g;
    ASSERT_TRUE(read_rv1exec(r_text(Json::array({entry("2", {{"core", "0"}}), entry("0-1", {{"core", "0"}})}),
                                    Json::array({"h[10-12]"})),
                             g)
                    .ok());
    EXPECT_EQ(child_names(g, 0), (std::vector<std::string>{"h12", "h10", "h11"}));
    EXPECT_EQ(g.rank(1), 2);
    EXPECT_EQ(g.id(1), 12);
}

TEST(Rv1Build, HostsWithoutNumbersAndAllDigits) {
    ResourceGraph g;
    ASSERT_TRUE(read_rv1exec(r_text(Json::array({entry("0-1", Json::object())}), Json::array({"login,007"})), g).ok());
    EXPECT_EQ(g.name(1), "login");
    EXPECT_EQ(g.basename(1), "login");
    EXPECT_EQ(g.id(1), -1);
    EXPECT_EQ(g.name(2), "007");
    EXPECT_EQ(g.basename(2), "007");
    EXPECT_EQ(g.id(2), 7);
}

TEST(Rv1Build, NodeProperties) {
    ResourceGraph g;
    ASSERT_TRUE(read_rv1exec(r_text(Json::array({entry("0-1", {{"core", "0"}})}), Json::array({"n[0-1]"}),
                                    {{"arm-v9@core", "1"}, {"big", "0-1"}}),
                             g)
                    .ok());
    ASSERT_NE(g.properties(1), nullptr);
    EXPECT_EQ(*g.properties(1), (PropertyMap{{"big", ""}}));
    EXPECT_EQ(*g.properties(3), (PropertyMap{{"arm-v9@core", ""}, {"big", ""}}));
    EXPECT_EQ(g.properties(2), nullptr);  // cores get none
}

TEST(Rv1Build, SameHostForTwoRanks) {
    ResourceGraph g;
    ASSERT_TRUE(read_rv1exec(r_text(Json::array({entry("0-1", {{"core", "0-1"}})}), Json::array({"fluke,fluke"})), g)
                    .ok());
    EXPECT_EQ(g.at_path("/cluster0/fluke"), (std::vector<VertexId>{1, 4}));
    EXPECT_EQ(g.at_path("/cluster0/fluke/core1").size(), 2u);
}

TEST(Rv1Build, DuplicateVertexFails) {
    // Rank 0 listed by two entries: its node would be created twice.
    EXPECT_EQ(error_of(r_text(Json::array({entry("0", {{"core", "0"}}), entry("0", {{"gpu", "0"}})}),
                              Json::array({"n0"}))),
              "add_or_update: found duplicate vertex in graph for n0.");
}

TEST(Rv1Build, HostNumberBeyondInt64FailsTheLoad) {
    EXPECT_EQ(error_of(r_text(Json::array({entry("0", {{"core", "0-3"}})}), Json::array({"fluke9223372036854775808"}))),
              "split_hostname: the number of host fluke9223372036854775808 does not fit in int64.");
}

TEST(Rv1Loader, BothFormatNamesLoadAndCountNodes) {
    for (const char* format : {"rv1exec", "rv1exec_force"}) {
        LoadRequest request;
        request.format = format;
        request.text = r_text(Json::array({entry("0-2", {{"core", "0-3"}})}), Json::array({"n[1-3]"}));
        ResourceGraph g;
        Status s = load_graph(request, g);
        ASSERT_TRUE(s.ok()) << format << ": " << s.message();
        EXPECT_EQ(g.num_vertices(), 1u + 3u * 5u);
        EXPECT_EQ(g.nodes_up, 3);
        EXPECT_TRUE(g.types().frozen());
    }
}

// ---- size limits: a few bytes of R may name billions of resources ------------

TEST(Rv1Limits, VertexCountIsBoundedBeforeBuilding) {
    std::string text = r_text(Json::array({entry("0-999", {{"core", "0-999"}})}), Json::array({"n[0-999]"}));
    auto r = parse_rv1exec(text);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(rv1exec_vertex_count(*r), 1 + 1000 * 1001.0);
    ResourceGraph g;
    Status s = read_rv1exec(text, g, 100000);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "parse_rv1exec: R names 1001001 resources, more than the limit of 100000.");
    EXPECT_EQ(g.num_vertices(), 0u);
    ResourceGraph whole;
    EXPECT_TRUE(read_rv1exec(text, whole, 2000000).ok());
    EXPECT_EQ(whole.num_vertices(), 1001001u);
}

TEST(Rv1Limits, ExpandedIdsAreBoundedAcrossEntries) {
    // Each idset alone is within decode_idset's 2^24, the document is not.
    Json rlite = Json::array();
    for (int i = 0; i < 3; ++i) rlite.push_back(entry(std::to_string(i), {{"core", "0-8000000"}}));
    auto r = parse_rv1exec(r_text(rlite, Json::array({"n[0-2]"})));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), "parse_rv1exec: R_lite names more than 16777216 ranks and resources.");
}

}  // namespace
}  // namespace rq
