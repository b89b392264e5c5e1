// The option table: getopt_long knows every option it lists, --help lists
// every one (--state included), each in its own blank-line separated
// paragraph, and the -f / -F placeholders name every accepted format.
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

TEST(OptionTable, HelpListsEveryOptionInItsOwnParagraph) {
    const std::string usage = usage_text();
    for (const OptionSpec& o : option_table()) {
        const std::string header = std::string("--") + o.name + (o.value ? std::string("=") + o.value : "") + "\n";
        EXPECT_NE(o.help, nullptr) << o.name;
        EXPECT_NE(usage.find(header), std::string::npos) << o.name;
    }
    EXPECT_NE(usage.find("    --state=<filename>\n"), std::string::npos);
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

// The `a|b|c` items of an option's <...> placeholder.
std::vector<std::string> placeholder_items(const char* name) {
    std::vector<std::string> items;
    for (const OptionSpec& o : option_table()) {
        if (std::string(o.name) != name) continue;
        std::string value = o.value;
        std::istringstream in(value.substr(1, value.size() - 2));
        for (std::string item; std::getline(in, item, '|');) items.push_back(item);
    }
    return items;
}

TEST(OptionTable, LoadAndMatchFormatPlaceholdersNameEveryAcceptedFormat) {
    const std::set<std::string> load(load_formats().begin(), load_formats().end());
    const std::vector<std::string> listed_load = placeholder_items("load-format");
    EXPECT_EQ(std::set<std::string>(listed_load.begin(), listed_load.end()), load);
    EXPECT_EQ(listed_load.size(), load.size()) << "a format listed twice";
    EXPECT_TRUE(load.count("db"));
    const std::set<std::string> match(match_formats().begin(), match_formats().end());
    const std::vector<std::string> listed_match = placeholder_items("match-format");
    EXPECT_EQ(std::set<std::string>(listed_match.begin(), listed_match.end()), match);
    // And parse_options takes each listed one.
    for (const std::string& f : listed_load) {
        auto r = parse_words({"-f", f, "-L", "/no/such/file"});
        EXPECT_EQ(r.message().find("unknown format"), std::string::npos) << f;
    }
}

}  // namespace
}  // namespace rq
