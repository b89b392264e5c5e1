// The option table: getopt_long knows every option it lists, --help lists
// every one but --state, each in its own blank-line separated paragraph.
#include "cli/option_table.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/options_test_util.h"

namespace rq {
namespace {

using testing::parse_words;

TEST(OptionTable, NamesAndCodesAreUnique) {
    std::set<std::string> names;
    std::set<int> codes;
    for (const OptionSpec& o : option_table()) {
        EXPECT_TRUE(names.insert(o.name).second) << o.name;
        EXPECT_TRUE(codes.insert(o.code).second) << o.name;
    }
}

TEST(OptionTable, GetoptKnowsEveryOptionByItsLongAndShortName) {
    // An unknown option is an error without a message; a known one parses
    // or fails with its own message (a missing file, a bad count).
    for (const OptionSpec& o : option_table()) {
        std::vector<std::vector<std::string>> spellings = {{std::string("--") + o.name}};
        if (o.code < kOptResource) spellings.push_back({std::string("-") + static_cast<char>(o.code)});
        for (auto words : spellings) {
            if (o.has_arg) words.push_back("x");
            auto r = parse_words(words);
            EXPECT_TRUE(r.ok() || !r.message().empty()) << words[0] << " not recognised";
        }
    }
    auto unknown = parse_words({"--no-such-option"});
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.message(), "");
}

TEST(OptionTable, HelpListsEveryOptionButStateInItsOwnParagraph) {
    const std::string usage = usage_text();
    for (const OptionSpec& o : option_table()) {
        const std::string header = std::string("--") + o.name + (o.value ? std::string("=") + o.value : "") + "\n";
        if (o.help == nullptr) {
            EXPECT_EQ(usage.find("--" + std::string(o.name)), std::string::npos) << o.name;
            EXPECT_EQ(std::string(o.name), "state");
        } else {
            EXPECT_NE(usage.find(header), std::string::npos) << o.name;
        }
    }
    // Every option header follows a blank line or a section heading.
    std::istringstream lines(usage);
    std::string previous, line;
    while (std::getline(lines, line)) {
        if (line.rfind("    -", 0) == 0) {
            EXPECT_TRUE(previous.empty() || previous.back() == ':') << "no blank line before: " << line;
        }
        previous = line;
    }
}

}  // namespace
}  // namespace rq
