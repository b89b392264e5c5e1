#include "cli/completion.h"

#include <gtest/gtest.h>

#include <map>

#include "cli/command_table.h"
#include "traversers/dfu.h"
#include "traversers/find.h"

namespace rq {
namespace {

using Words = std::vector<std::string>;

Completion complete(const std::string& before, const std::string& word, Words jobids = {}) {
    CompletionContext context;
    context.live_jobids = std::move(jobids);
    return complete_command_line(before, word, context);
}

TEST(Completion, CommandNames) {
    EXPECT_EQ(complete("", "ma").words, (Words{"match"}));
    EXPECT_EQ(complete("", "get-").words, (Words{"get-property", "get-status"}));
    EXPECT_EQ(complete("  ", "").words.size(), command_table().size());
    EXPECT_FALSE(complete("", "ma").files);
}

TEST(Completion, MatchOpsThenFiles) {
    EXPECT_EQ(complete("match ", "allocate_").words,
              (Words{"allocate_orelse_reserve", "allocate_with_satisfiability"}));
    EXPECT_EQ(complete("m ", "sat").words, (Words{"satisfiability"}));  // abbreviation
    Completion file = complete("match allocate ", "jo");
    EXPECT_TRUE(file.files);
    EXPECT_TRUE(file.words.empty());
    EXPECT_FALSE(complete("match allocate job.yaml ", "").files);  // match takes one file
    EXPECT_TRUE(complete("multi-match allocate a.yaml b.yaml ", "").files);
}

TEST(Completion, EveryOfferedMatchOpParses) {
    for (auto& op_name : complete("match ", "").words) {
        MatchOp op;
        EXPECT_TRUE(parse_match_op(op_name, op)) << op_name;
    }
    EXPECT_EQ(complete("match ", "").words.size(), 6u);
}

TEST(Completion, UpdateAndPartialCancelReaders) {
    EXPECT_EQ(complete("update ", "").words, (Words{"allocate", "reserve"}));
    EXPECT_EQ(complete("update allocate ", "").words, (Words{"jgf", "jgf_shorthand", "rv1exec"}));
    EXPECT_TRUE(complete("update allocate jgf ", "R").files);
    EXPECT_EQ(complete("partial-cancel 1 ", "").words, (Words{"jgf", "rv1exec"}));
    EXPECT_TRUE(complete("pc 1 rv1exec ", "").files);
    EXPECT_EQ(complete("partial-cancel 1 rv1exec R.json ", "").words, (Words{"stats"}));
}

TEST(Completion, FixedWordsAndJobids) {
    EXPECT_EQ(complete("remove /tiny0/rack0 ", "").words, (Words{"true", "false"}));
    EXPECT_EQ(complete("set-status /tiny0 ", "d").words, (Words{"down"}));
    EXPECT_EQ(complete("cancel ", "1", {"1", "12", "3"}).words, (Words{"1", "12"}));
    EXPECT_EQ(complete("cancel 1 ", "").words, (Words{"stats"}));
    EXPECT_EQ(complete("info ", "", {"4"}).words, (Words{"4"}));
    EXPECT_EQ(complete("help ", "part").words, (Words{"partial-cancel"}));
    EXPECT_TRUE(complete("cat ", "").files);
    EXPECT_TRUE(complete("list ", "").words.empty());
    EXPECT_TRUE(complete("nosuchcommand ", "").words.empty());
}

TEST(Completion, FindKeysValuesAndOperators) {
    EXPECT_EQ(complete("find ", "sched").words, (Words{"sched-now=", "sched-future="}));
    EXPECT_EQ(complete("find ", "status=").words, (Words{"status=up", "status=down"}));
    EXPECT_EQ(complete("find status=up ", "o").words, (Words{"or"}));
    EXPECT_EQ(complete("find ", "jobid-alloc=", {"7"}).words, (Words{"jobid-alloc=7"}));
    EXPECT_EQ(complete("f ( ", "(").words, (Words{"("}));
    EXPECT_TRUE(complete("find ", "names=no").words.empty());
}

TEST(Completion, HelpFindDocumentsEveryKey) {
    std::string details = command_details("find");
    for (auto& key : find_keys()) EXPECT_NE(details.find(key + "="), std::string::npos) << key;
    for (const char* op : {"and", "or", "( "}) EXPECT_NE(details.find(op), std::string::npos) << op;
}

TEST(Completion, ResourcePathsWithoutTrailingSpace) {
    CompletionContext context;
    std::string asked;
    context.paths = [&asked](const std::string& word) {
        asked = word;
        return Words{"/c0/n0", "/c0/n1", "/c0/m0"};
    };
    Completion c = complete_command_line("set-status ", "/c0/n", context);
    EXPECT_EQ(c.words, (Words{"/c0/n0", "/c0/n1"}));
    EXPECT_EQ(asked, "/c0/n");
    EXPECT_TRUE(c.no_space);
    EXPECT_FALSE(c.files);
    EXPECT_EQ(complete_command_line("remove ", "/c0/m", context).words, (Words{"/c0/m0"}));
    EXPECT_FALSE(complete_command_line("set-status /c0/n0 ", "u", context).no_space);
    EXPECT_TRUE(complete("get-status ", "/x").words.empty());  // no graph: nothing
}

TEST(Completion, FindKeysAreTheParsersKeys) {
    // Each offered key with a valid value parses; a made-up key does not.
    const std::map<std::string, std::string> value = {
        {"status", "up"}, {"sched-now", "free"}, {"sched-future", "free"}, {"agfilter", "t"},
        {"names", "node[0-1]"}, {"property", "class"}};
    for (auto& key : find_keys()) {
        std::string v = value.count(key) ? value.at(key) : "12";
        EXPECT_TRUE(FindExpression::parse(key + "=" + v).ok()) << key;
    }
    EXPECT_FALSE(FindExpression::parse("name=node0").ok());
}

TEST(Completion, EveryCommandHasDetails) {
    for (auto& c : command_table()) EXPECT_NE(std::string(command_details(c.name)), "") << c.name;
}

}  // namespace
}  // namespace rq
