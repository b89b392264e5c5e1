// One dialect per request (docs/pools.md "request"): the same text means
// what its tool says, and a request in another tool's syntax is refused
// with a hint instead of guessed.
#include <gtest/gtest.h>

#include "pools/request.h"

namespace rq::pools {
namespace {

TEST(RequestDialect, TheLoadedFormatChoosesIt) {
    EXPECT_EQ(dialect_of_format("ctest"), Dialect::kCtest);
    EXPECT_EQ(dialect_of_format("canary"), Dialect::kCanary);
    for (const char* other : {"hq", "local", "resource", "grug", "hwloc", ""})
        EXPECT_EQ(dialect_of_format(other), Dialect::kHq) << other;
    for (Dialect d : {Dialect::kHq, Dialect::kCanary, Dialect::kCtest}) EXPECT_EQ(parse_dialect(dialect_name(d)), d);
    EXPECT_FALSE(parse_dialect("HQ"));
}

// A comma separates canary's items; HyperQueue takes one NAME=AMOUNT per
// `--resource` (crates/hyperqueue/src/client/commands/submit/command.rs).
TEST(RequestDialect, CommasAreCanarys) {
    auto hq = parse_request("cpus=1,gpus=1", Dialect::kHq);
    ASSERT_FALSE(hq);
    EXPECT_NE(hq.message().find("request --as canary"), std::string::npos) << hq.message();
    auto canary = parse_request("cpus=1,gpus=1", Dialect::kCanary);
    ASSERT_TRUE(canary) << canary.message();
    EXPECT_EQ(canary->dialect, Dialect::kCanary);
    EXPECT_EQ(canary->pools.size(), 2u);
}

// canary's counts are ints (src/_canary/jobspec.py:252-256), 0 allowed;
// `gpus=2` alone is a canary request too.
TEST(RequestDialect, CanaryCountsAreWholeNumbers) {
    auto two = parse_request("gpus=2", Dialect::kCanary);
    ASSERT_TRUE(two) << two.message();
    EXPECT_EQ(two->dialect, Dialect::kCanary);
    EXPECT_TRUE(parse_request("gpus=0", Dialect::kCanary));
    EXPECT_FALSE(parse_request("gpus=0", Dialect::kHq));
    for (const char* bad : {"cpus=all", "cpus=\"4 scatter\"", "cpus=-1"})
        EXPECT_FALSE(parse_request(bad, Dialect::kCanary)) << bad;
}

// CMake Source/LexerParser/cmCTestResourceGroupsLexer.in.l:34 (IDENTIFIER).
TEST(RequestDialect, CtestTypesFollowCtestsRule) {
    auto upper = parse_request("1,GPUs:1", Dialect::kCtest);
    ASSERT_FALSE(upper);
    EXPECT_NE(upper.message().find("'GPUs' is not a CTest resource type name (^[a-z_][a-z0-9_]*$)"), std::string::npos)
        << upper.message();
    auto dash = parse_request("gpu-x:1", Dialect::kCtest);
    ASSERT_FALSE(dash);
    EXPECT_NE(dash.message().find("'gpu-x'"), std::string::npos) << dash.message();
    EXPECT_TRUE(parse_request("_:1,_x:2", Dialect::kCtest));
    // HyperQueue text under CTest, and the reverse, say which dialect fits.
    auto hq = parse_request("gpus=1", Dialect::kCtest);
    ASSERT_FALSE(hq);
    EXPECT_NE(hq.message().find("request --as hq"), std::string::npos) << hq.message();
    auto ctest = parse_request("1,gpus:1", Dialect::kHq);
    ASSERT_FALSE(ctest);
    EXPECT_NE(ctest.message().find("request --as ctest"), std::string::npos) << ctest.message();
    // An empty RESOURCE_GROUPS asks for nothing (testCTestResourceGroups.cxx:88).
    auto none = parse_request("", Dialect::kCtest);
    ASSERT_TRUE(none) << none.message();
    EXPECT_TRUE(none->groups.empty());
    EXPECT_FALSE(parse_request("", Dialect::kHq));
}

// A saved source or replay template names its dialect unless HyperQueue's.
TEST(RequestDialect, SavedTextReadsBackInItsDialect) {
    for (Dialect d : {Dialect::kHq, Dialect::kCanary, Dialect::kCtest}) {
        std::string items = d == Dialect::kCtest ? "2,gpus:1" : d == Dialect::kCanary ? "gpus=1,cpus=0" : "cpus=2";
        auto back = parse_request_text(request_text(d, items), Dialect::kHq);
        ASSERT_TRUE(back) << request_text(d, items) << ": " << back.message();
        EXPECT_EQ(back->dialect, d);
    }
    EXPECT_EQ(request_text(Dialect::kHq, "cpus=1"), "cpus=1");
    EXPECT_EQ(request_text(Dialect::kCtest, "1,gpus:1"), "--as ctest 1,gpus:1");
    auto bad = parse_request_text("--as cobol cpus=1", Dialect::kHq);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.message(), "request --as cobol: expected hq, canary or ctest");
}

}  // namespace
}  // namespace rq::pools
