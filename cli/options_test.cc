#include "cli/options.h"

#include <gtest/gtest.h>

#include "cli/options_test_util.h"

#include <string>
#include <vector>

namespace rq {
namespace {

Result<Options> parse(std::vector<std::string> words, std::vector<std::string>* warnings_out = nullptr) {
    return testing::parse_words(std::move(words), warnings_out);
}

const std::string kTiny = std::string(RQ_SOURCE_DIR) + "/conf/tiny.graphml";

TEST(Options, Defaults) {
    auto o = parse({"-L", kTiny});
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->load_format, "grug");
    EXPECT_EQ(o->match_policy, "first");
    EXPECT_EQ(o->match_format, "simple");
    EXPECT_EQ(o->prune_filters, "ALL:core,ALL:node");
    EXPECT_EQ(o->subsystems, std::vector<std::string>{"containment"});
    EXPECT_EQ(o->traverser, "simple");
    EXPECT_FALSE(o->elapse_time);
}

TEST(Options, LongForms) {
    auto o = parse({"--load-file=" + kTiny, "--match-policy=high", "--match-format=jgf", "--elapse-time",
                    "--disable-prompt", "--test-output=out.txt", "--match-subsystems=C+PA"});
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->match_policy, "high");
    EXPECT_EQ(o->match_format, "jgf");
    EXPECT_TRUE(o->elapse_time);
    EXPECT_TRUE(o->disable_prompt);
    EXPECT_EQ(o->test_output, "out.txt");
    EXPECT_EQ(o->subsystems, (std::vector<std::string>{"containment", "power"}));
}

TEST(Options, PruneFiltersReplaceTheDefaultAndJoin) {
    auto o = parse({"-L", kTiny, "-p", "ALL:gpu", "--prune-filters=rack:node", "-p", "   "});
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->prune_filters, "ALL:gpu,rack:node");
}

TEST(Options, MissingLoadFile) {
    auto o = parse({"-L", "/no/such/file"});
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.message(), "[ERROR] file does not exist for --load-file: /no/such/file");
}

TEST(Options, DirectoryLoadFile) {
    auto o = parse({"-L", RQ_SOURCE_DIR});
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.message(), std::string("[ERROR] path passed to --load-file is a directory: ") + RQ_SOURCE_DIR);
}

TEST(Options, UnknownLoadFormat) {
    auto o = parse({"-L", kTiny, "-f", "xml"});
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.message(), "[ERROR] unknown format for --load-format: xml");
}

TEST(Options, EveryLoadFormatAccepted) {
    for (const char* f : {"grug", "hwloc", "jgf", "jgf_shorthand", "rv1exec", "rv1exec_force"})
        EXPECT_TRUE(parse({"-L", kTiny, "-f", f}).ok()) << f;
}

TEST(Options, UnknownMatchFormat) {
    auto o = parse({"-L", kTiny, "-F", "xml"});
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.message(), "[ERROR] unknown format for --match-format: xml");
}

TEST(Options, EveryMatchFormatAccepted) {
    for (const char* f : {"simple", "pretty_simple", "jgf", "jgf_shorthand", "rlite", "rv1", "rv1_nosched",
                          "rv1_shorthand"})
        EXPECT_TRUE(parse({"-L", kTiny, "-F", f}).ok()) << f;
}

TEST(Options, GraphFormatIsCaseInsensitive) {
    auto o = parse({"-L", kTiny, "-g", "GraphML"});
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->graph_format, "graphml");
    auto bad = parse({"-L", kTiny, "-g", "png"});
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.message(), "[ERROR] unknown format for --graph-format: png");
}

TEST(Options, UnknownTraverser) {
    EXPECT_FALSE(parse({"-L", kTiny, "-T", "fast"}).ok());
    EXPECT_TRUE(parse({"-L", kTiny, "-T", "flexible"}).ok());
}

TEST(Options, ReserveVtxVecOutOfRangeWarns) {
    std::vector<std::string> warnings;
    EXPECT_TRUE(parse({"-L", kTiny, "-r", "-5"}, &warnings).ok());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "WARN: out of range specified for --reserve-vtx-vec: -5");
    EXPECT_TRUE(parse({"-L", kTiny, "-r", "2000000"}, &warnings).ok());
    EXPECT_TRUE(warnings.empty());
}

TEST(Options, UnknownOptionAndPositionalArgumentAreUsageErrors) {
    auto unknown = parse({"-L", kTiny, "-z"});
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.message(), "");
    auto positional = parse({"-L", kTiny, "extra"});
    ASSERT_FALSE(positional.ok());
    auto missing_arg = parse({"-L"});
    ASSERT_FALSE(missing_arg.ok());
}

TEST(Options, HelpStopsParsing) {
    auto o = parse({"-h", "-f", "nonsense"});
    ASSERT_TRUE(o.ok());
    EXPECT_TRUE(o->show_help);
}

}  // namespace
}  // namespace rq
