#include "policies/match_policy.h"

#include <gtest/gtest.h>

#include "policies/multilevel.h"

namespace rq {
namespace {

JobResource counted(uint32_t min, uint32_t max, char op, uint32_t operand) {
    JobResource r;
    r.count = Count{min, max, op, operand};
    return r;
}

TEST(CalcCount, PlainCount) {
    JobResource r = counted(4, 4, '+', 1);
    EXPECT_EQ(calc_count(r, 10), 4u);
    EXPECT_EQ(calc_count(r, 4), 4u);
    EXPECT_EQ(calc_count(r, 3), 0u);
    EXPECT_EQ(effective_max(r), 4u);
}

TEST(CalcCount, MinOnlyTakesAllAvailable) {
    JobResource r = counted(2, UINT32_MAX, '+', 1);
    EXPECT_EQ(calc_count(r, 7), 7u);
    EXPECT_EQ(calc_count(r, 1), 0u);
    EXPECT_EQ(effective_max(r), UINT32_MAX);
}

TEST(CalcCount, Addition) {
    JobResource r = counted(2, 10, '+', 3);  // 2, 5, 8
    EXPECT_EQ(calc_count(r, 9), 8u);
    EXPECT_EQ(calc_count(r, 7), 5u);
    EXPECT_EQ(calc_count(r, 20), 8u);
    EXPECT_EQ(calc_count(r, 2), 2u);
}

TEST(CalcCount, Multiplication) {
    JobResource r = counted(3, 100, '*', 2);  // 3, 6, 12, 24, 48, 96
    EXPECT_EQ(calc_count(r, 50), 48u);
    EXPECT_EQ(calc_count(r, 1000), 96u);
    EXPECT_EQ(calc_count(r, 5), 3u);
    EXPECT_EQ(calc_count(counted(1, UINT32_MAX, '*', 2), UINT32_MAX), 2147483648u);  // no wrap-around loop
}

TEST(CalcCount, Exponentiation) {
    JobResource r = counted(2, 300, '^', 2);  // 2, 4, 16, 256
    EXPECT_EQ(calc_count(r, 100), 16u);
    EXPECT_EQ(calc_count(r, 256), 256u);
    EXPECT_EQ(calc_count(counted(3, 100, '^', 3), 100), 27u);  // 3, 27
    EXPECT_EQ(calc_count(counted(1, 100, '^', 2), 50), 1u);     // min 1: just min
}

TEST(CalcCount, MinAboveMaxOrUnknownOperator) {
    EXPECT_EQ(calc_count(counted(5, 4, '+', 1), 10), 0u);
    EXPECT_EQ(calc_count(counted(1, 4, '/', 1), 10), 0u);
}

// The reference keeps what came before a bad token and drops the rest
// silently; we refuse the string and name the token.
TEST(CustomPolicy, ABadTokenIsAnErrorNamingIt) {
    const std::string settings =
        " (key=value settings: policy=high|low, node_centric=true|false, node_exclusive=true|false, "
        "stop_on_1_matches=true|false)";
    auto c = parse_custom_policy("policy=low node_centric=true bogus=1 node_exclusive=true");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.message(),
              "-P \"policy=low node_centric=true bogus=1 node_exclusive=true\": unknown key in \"bogus=1\"" + settings);
    EXPECT_EQ(parse_custom_policy("policy=medium").message(),
              "-P \"policy=medium\": policy must be high or low, not \"policy=medium\"" + settings);
    EXPECT_EQ(parse_custom_policy("policy=high node_centric=yes").message(),
              "-P \"policy=high node_centric=yes\": value must be true or false in \"node_centric=yes\"" + settings);
    EXPECT_EQ(parse_custom_policy("policy=high node_centric").message(),
              "-P \"policy=high node_centric\": not key=value: \"node_centric\"" + settings);
    EXPECT_NE(parse_custom_policy("policy=high  node_centric=true").message().find("empty setting"),
              std::string::npos);
    EXPECT_EQ(parse_custom_policy("node_centric=true").message(),
              "-P \"node_centric=true\": no policy=high or policy=low");
    EXPECT_FALSE(parse_custom_policy("").ok());
    auto stop = parse_custom_policy("policy=high stop_on_1_matches=true");
    ASSERT_TRUE(stop.ok());
    EXPECT_TRUE(stop->stop_on_first);
    auto all = parse_custom_policy("policy=low node_centric=true node_exclusive=true");
    ASSERT_TRUE(all.ok());
    EXPECT_FALSE(all->high);
    EXPECT_TRUE(all->node_centric);
    EXPECT_TRUE(all->node_exclusive);
}

TEST(Policies, AnUnknownNameListsTheValidOnes) {
    auto p = make_policy("hig");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.message(),
              "-P \"hig\": unknown policy (valid: first, firstnodex, high, hinode, hinodex, locality, lonode, lonodex, "
              "low, variation, or key=value settings such as \"policy=high node_centric=true\")");
}

TEST(Policies, RegistryNamesAndCustomStrings) {
    for (const char* name : {"first", "firstnodex", "high", "low", "hinode", "lonode", "hinodex", "lonodex",
                             "locality", "variation", "policy=high node_exclusive=true"})
        EXPECT_TRUE(make_policy(name).ok()) << name;
    EXPECT_FALSE(make_policy("fastest").ok());
    EXPECT_TRUE((*make_policy("first"))->stop_on_first);
    EXPECT_TRUE((*make_policy("lonodex"))->node_exclusive);
    EXPECT_FALSE((*make_policy("high"))->node_exclusive);
}

}  // namespace
}  // namespace rq
