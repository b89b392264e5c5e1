// CTest's own test cases, kept as data in t/data/pools/ctest-cases.tsv
// (CMake Tests/CMakeLib/testCTestResourceGroups.cxx and
// testCTestResourceSpec.cxx), run through our readers
// (docs/pools.md "Coming from CTest").
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "pools/pool_loaders.h"
#include "pools/request.h"

namespace rq::pools {
namespace {

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string f; std::getline(in, f, '\t');) out.push_back(f);
    return out;
}

std::string render(const Request& r) {
    if (r.groups.empty()) return "(none)";
    std::string out;
    for (size_t g = 0; g < r.groups.size(); ++g) {
        out += g ? ";" : "";
        if (r.groups[g].empty()) out += "{}";
        for (size_t i = 0; i < r.groups[g].size(); ++i)
            out += (i ? "," : "") + r.groups[g][i].type + ":" + std::to_string(r.groups[g][i].slots);
    }
    return out;
}

std::string render(const Machine& m) {
    std::string out;
    for (const Pool& p : m.workers.at(0).pools) {
        out += (out.empty() ? "" : " ") + p.name + "[";
        for (size_t i = 0; i < p.groups[0].size(); ++i)
            out += (i ? "," : "") + p.groups[0][i].id + ":" + std::to_string(p.groups[0][i].slots);
        out += "]";
    }
    if (out.empty()) out = "(no resources)";
    if (!m.warnings.empty()) out += " warnings:" + std::to_string(m.warnings.size());
    return out;
}

TEST(CtestCases, EveryCaseOfCtestsOwnTestsGivesCtestsVerdict) {
    std::ifstream in(RQ_SOURCE_DIR "/t/data/pools/ctest-cases.tsv");
    ASSERT_TRUE(in) << "t/data/pools/ctest-cases.tsv";
    int cases = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        auto f = fields(line);
        ASSERT_EQ(f.size(), 5u) << line;
        std::string input = f[2] == "(empty)" ? "" : f[2];
        bool ok = f[3] == "ok";
        std::string got;
        bool parsed;
        if (f[0] == "groups") {
            auto r = parse_resource_groups(input);
            parsed = r.ok();
            got = parsed ? render(*r) : r.message();
        } else {
            auto m = read_ctest_spec(input, "spec" + f[1] + ".json");
            parsed = m.ok();
            got = parsed ? render(*m) : m.message();
        }
        SCOPED_TRACE(f[0] + " at line " + f[1] + ": " + input);
        EXPECT_EQ(parsed, ok) << got;
        if (ok && parsed) {
            EXPECT_EQ(got, f[4]);
        }
        ++cases;
    }
    EXPECT_GE(cases, 70);
}

// CMake users write the property quoted, as in CMake's documentation of
// RESOURCE_GROUPS: the quotes are not part of the value.
TEST(CtestCases, QuotedRequestIsReadWithoutItsQuotes) {
    auto r = parse_request("\"2,gpus:2;gpus:4\"", Dialect::kCtest);
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(render(*r), "gpus:2;gpus:2;gpus:4");
}

// testCTestResourceGroups.cxx:56 (`2`) and :87 (`;`) are CTest requests:
// two empty groups, and none.
TEST(CtestCases, BareCountAndSemicolonAreCtestRequests) {
    auto two = parse_request("2", Dialect::kCtest);
    ASSERT_TRUE(two) << two.message();
    EXPECT_TRUE(two->ctest());
    EXPECT_EQ(render(*two), "{};{}");
    auto none = parse_request(";", Dialect::kCtest);
    ASSERT_TRUE(none) << none.message();
    EXPECT_EQ(render(*none), "(none)");
}

TEST(CtestCases, ErrorsNameTheCharacter) {
    auto r = parse_resource_groups("1,invalid :2");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.message(), "request '1,invalid :2': at character 10: white space is not allowed in RESOURCE_GROUPS");
    auto comma = parse_resource_groups(",");
    ASSERT_FALSE(comma);
    EXPECT_NE(comma.message().find("at character 1: unexpected ','"), std::string::npos) << comma.message();
}

// CTest's MapFilter skips keys that are not type names
// (CMake Source/CTest/cmCTestResourceSpec.cxx:83-89); we say so, once per key.
TEST(CtestCases, IgnoredKeysWarnNamingFileAndKey) {
    auto m = read_ctest_spec(R"({"version": {"major": 1, "minor": 0},
        "local": [{"GPUs": [{"id": "0"}], "_": [{"id": "0"}], "_x": [{"id": "1"}]}]})",
                             "s.json");
    ASSERT_TRUE(m) << m.message();
    ASSERT_EQ(m->warnings.size(), 1u);
    EXPECT_EQ(m->warnings[0],
              "s.json: local[0].GPUs: warning: ignored, not a CTest resource type name ([a-z_][a-z0-9_]*)");
    EXPECT_EQ(render(*m), "_[0:1] _x[1:1] warnings:1");
}

}  // namespace
}  // namespace rq::pools
