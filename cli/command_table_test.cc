#include "cli/command_table.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

// One list of command words (session/command_words.h) serves the REPL and
// state/: the table must give every word a handler, in the same order.
TEST(CommandTable, HandlesEachCommandWordInOrder) {
    const auto& table = command_table();
    const auto& words = command_words();
    ASSERT_EQ(table.size(), words.size());
    for (size_t i = 0; i < table.size(); ++i) {
        EXPECT_STREQ(table[i].name, words[i].name) << i;
        EXPECT_STREQ(table[i].abbreviation, words[i].abbreviation) << table[i].name;
        EXPECT_NE(table[i].run, nullptr) << table[i].name;
    }
}

TEST(CommandTable, FindsByNameOrAbbreviation) {
    for (auto& c : command_table()) {
        EXPECT_EQ(find_command(c.name), &c) << c.name;
        EXPECT_EQ(find_command(c.abbreviation), &c) << c.abbreviation;
    }
    EXPECT_EQ(find_command("nosuch"), nullptr);
    EXPECT_EQ(find_command(""), nullptr);
}

}  // namespace
}  // namespace rq
