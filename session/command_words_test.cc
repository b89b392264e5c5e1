#include "session/command_words.h"

#include <gtest/gtest.h>

#include <set>

namespace rq {
namespace {

TEST(CommandWords, EachWordNamesOneCommand) {
    std::set<std::string> seen;
    for (auto& w : command_words()) {
        EXPECT_TRUE(seen.insert(w.name).second) << w.name;
        EXPECT_TRUE(seen.insert(w.abbreviation).second) << w.abbreviation;
        EXPECT_EQ(find_command_word(w.name), &w) << w.name;
        EXPECT_EQ(find_command_word(w.abbreviation), &w) << w.abbreviation;
    }
}

TEST(CommandWords, OtherWordsNameNone) {
    for (const char* word : {"", "#", "# match", "mat", "Match", "match ", "x", "sav"})
        EXPECT_EQ(find_command_word(word), nullptr) << word;
    // The reference's second abbreviation of remove is attach's.
    EXPECT_STREQ(find_command_word("j")->name, "attach");
    EXPECT_STREQ(find_command_word("r")->name, "remove");
}

TEST(CommandWords, IsCommandMatchesByNameOrAbbreviation) {
    EXPECT_TRUE(is_command("cancel", {"cancel", "partial-cancel"}));
    EXPECT_TRUE(is_command("pc", {"cancel", "partial-cancel"}));
    EXPECT_FALSE(is_command("c", {"partial-cancel"}));
    EXPECT_FALSE(is_command("partial-cancel", {"cancel"}));
    EXPECT_FALSE(is_command("j", {"remove"}));  // attach's abbreviation
    EXPECT_FALSE(is_command("mat", {"match"}));
    EXPECT_FALSE(is_command("match", {}));
}

}  // namespace
}  // namespace rq
