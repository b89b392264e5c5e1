// The default recipe's lookup order (docs/install.md): the current
// directory, then beside the program, then the configured data directory.
#include "cli/default_recipe.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace rq {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the temporary directory, removed at the end.
struct TempTree {
    fs::path root;
    TempTree() {
        std::string pattern = (fs::temp_directory_path() / "rq-default-recipe.XXXXXX").string();
        root = mkdtemp(pattern.data());
    }
    ~TempTree() { fs::remove_all(root); }
    std::string put(const std::string& relative) const {
        fs::path file = root / relative;
        fs::create_directories(file.parent_path());
        std::ofstream(file) << "recipe\n";
        return file.string();
    }
};

// A name no current directory holds.
const std::string kRelative = "conf/rq-test-recipe-" + std::to_string(getpid());

TEST(DefaultRecipe, CandidatesInOrder) {
    auto c = default_recipe_candidates("conf/default", "/opt/rq/bin/resource-query", "/usr/local/share/resource-query");
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0], "conf/default");
    EXPECT_EQ(c[1], "/opt/rq/conf/default");
    EXPECT_EQ(c[2], "/opt/rq/share/resource-query/conf/default");
    EXPECT_EQ(c[3], "/usr/local/share/resource-query/conf/default");
}

TEST(DefaultRecipe, AnAbsolutePathIsOnlyItself) {
    EXPECT_EQ(default_recipe_candidates("/etc/x", "/opt/rq/bin/resource-query", "/d"),
              std::vector<std::string>{"/etc/x"});
}

TEST(DefaultRecipe, FoundBesideTheProgramBeforeTheDataDirectory) {
    TempTree installed, data;
    std::string program = (installed.root / "bin" / "resource-query").string();
    std::string shared = installed.put("share/resource-query/" + kRelative);
    data.put(kRelative);
    EXPECT_EQ(find_default_recipe(kRelative, program, data.root.string()), shared);
    // conf/ right above bin/ (a source-tree layout) comes first.
    std::string direct = installed.put(kRelative);
    EXPECT_EQ(find_default_recipe(kRelative, program, data.root.string()), direct);
}

TEST(DefaultRecipe, DataDirectoryWhenNothingIsBesideTheProgram) {
    TempTree elsewhere, data;
    std::string in_data = data.put(kRelative);
    std::string program = (elsewhere.root / "bin" / "resource-query").string();
    EXPECT_EQ(find_default_recipe(kRelative, program, data.root.string()), in_data);
}

TEST(DefaultRecipe, NotFoundKeepsTheNameTheUserKnows) {
    TempTree elsewhere;
    std::string program = (elsewhere.root / "bin" / "resource-query").string();
    EXPECT_EQ(find_default_recipe(kRelative, program, ""), kRelative);
    EXPECT_EQ(find_default_recipe(kRelative), kRelative);  // this process, its configured data directory
}

}  // namespace
}  // namespace rq
