#include "cli/json_output.h"

#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rq {
namespace {

using nlohmann::json;

std::vector<json> parse_lines(const std::string& text) {
    std::vector<json> values;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) values.push_back(json::parse(line));  // throws if not JSON
    return values;
}

const char* kRule = "INFO: =============================\n";

TEST(JsonOutput, MatchBlockWithTextOutput) {
    std::string text = std::string("      ---core0[1:x]\n      ---node0[1:s]\n") + kRule +
                       "INFO: JOBID=3\nINFO: RESOURCES=ALLOCATED\nINFO: SCHEDULED AT=Now\n" + kRule;
    auto values = parse_lines(json_lines_from_output(text));
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0]["jobid"], 3);
    EXPECT_EQ(values[0]["resources"], "ALLOCATED");
    EXPECT_EQ(values[0]["scheduled_at"], "Now");
    EXPECT_EQ(values[0]["output"], "      ---core0[1:x]\n      ---node0[1:s]");
}

TEST(JsonOutput, JsonWriterOutputBecomesAnObject) {
    std::string text = std::string("{\"graph\": {\"nodes\": [], \"edges\": []}}\n") + kRule +
                       "INFO: No matching resources found\nINFO: JOBID=2\n" + kRule;
    auto values = parse_lines(json_lines_from_output(text));
    ASSERT_EQ(values.size(), 1u);
    EXPECT_TRUE(values[0]["output"]["graph"]["nodes"].is_array());
    EXPECT_EQ(values[0]["messages"], json::array({"No matching resources found"}));
    EXPECT_EQ(values[0]["jobid"], 2);
}

TEST(JsonOutput, QuotedCountsAndExpressions) {
    std::string text = std::string(kRule) + "INFO: CANCEL PREORDER COUNT=\"17\"\n" + kRule + kRule +
                       "INFO: EXPRESSION=\"status=up and sched-now=free\"\n" + kRule;
    auto values = parse_lines(json_lines_from_output(text));
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0]["cancel_preorder_count"], 17);
    EXPECT_EQ(values[1]["expression"], "status=up and sched-now=free");
}

TEST(JsonOutput, LoneInfoLines) {
    std::string text =
        "INFO: 1, ALLOCATED, 0, /a, b.yaml, 0.25\n"
        "INFO: Num. of Jobs Matched: 1\n"
        "INFO: number of vertices with rank -1: 50\n"
        "INFO: cat (a) -- Print a jobspec file\n"
        "INFO: Jobspec in x.yaml\n"
        "INFO: PREORDER VISIT COUNT=8\n";
    auto values = parse_lines(json_lines_from_output(text));
    ASSERT_EQ(values.size(), 6u);
    EXPECT_EQ(values[5]["preorder_visit_count"], 8);
    EXPECT_EQ(values[0]["job"]["id"], 1);
    EXPECT_EQ(values[0]["job"]["state"], "ALLOCATED");
    EXPECT_EQ(values[0]["job"]["jobspec"], "/a, b.yaml");
    EXPECT_DOUBLE_EQ(values[0]["job"]["overhead"].get<double>(), 0.25);
    EXPECT_EQ(values[1]["num_of_jobs_matched"], 1);
    EXPECT_EQ(values[2]["vertices_with_rank"]["rank"], -1);
    EXPECT_EQ(values[3]["command"], "cat");
    EXPECT_EQ(values[4]["info"], "Jobspec in x.yaml");
}

TEST(JsonOutput, PlainTextAndOddCharacters) {
    auto values = parse_lines(json_lines_from_output("Could not find path /a\"b\\c in resource graph.\nk=v\n"));
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0]["output"], "Could not find path /a\"b\\c in resource graph.\nk=v");
    EXPECT_TRUE(json_lines_from_output("").empty());
}

TEST(JsonOutput, Errors) {
    auto values = parse_lines(json_lines_from_errors("ERROR: can't attach JGF subgraph \nmore\n\n\n"));
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0]["error"], "ERROR: can't attach JGF subgraph");
    EXPECT_EQ(values[1]["error"], "more");
}

TEST(JsonOutput, CaptureConvertsAndRestores) {
    std::ostringstream err, out;
    {
        JsonCapture capture({&err, &out});
        err << "ERROR: x\n";
        out << "INFO: Jobspec in y\n";
    }
    EXPECT_EQ(err.str(), "{\"error\":\"ERROR: x\"}\n");
    EXPECT_EQ(out.str(), "{\"info\":\"Jobspec in y\"}\n");
    out << "plain";  // restored: no longer captured
    EXPECT_EQ(out.str(), "{\"info\":\"Jobspec in y\"}\nplain");
}

}  // namespace
}  // namespace rq
