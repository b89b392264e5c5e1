#include "resource/constraint.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

Result<Constraint> parse(const std::string& yaml) {
    return Constraint::parse(YAML::Load(yaml));
}

Constraint parse_ok(const std::string& yaml) {
    auto result = parse(yaml);
    EXPECT_TRUE(result.ok()) << yaml << ": " << (result.ok() ? "" : result.message());
    return result.ok() ? *result : Constraint();
}

std::string error_of(const std::string& yaml) {
    auto result = parse(yaml);
    if (result.ok()) {
        ADD_FAILURE() << "parsed unexpectedly: " << yaml;
        return "";
    }
    EXPECT_EQ(result.code(), Errc::kInvalid);
    return result.message();
}

using Properties = std::map<std::string, std::string>;

// ---- structure errors, in table order -------------------------------------------

TEST(ConstraintParse, NotAMapping) {
    EXPECT_EQ(error_of("[a]"), "constraint is not a mapping");
    EXPECT_EQ(error_of("foo"), "constraint is not a mapping");
    EXPECT_EQ(error_of("~"), "constraint is not a mapping");
}

TEST(ConstraintParse, MoreThanOneOperation) {
    EXPECT_EQ(error_of("{hostlist: [a], ranks: [0]}"),
              "constraint map may not contain > 1 operation");
}

TEST(ConstraintParse, EmptyMappingMatchesEverything) {
    Constraint constraint = parse_ok("{}");
    EXPECT_TRUE(constraint.empty());
    EXPECT_TRUE(constraint.matches("anything", -1, nullptr));
    EXPECT_TRUE(Constraint().empty());
    EXPECT_TRUE(Constraint().matches("x", 3, nullptr));
}

TEST(ConstraintParse, ValueMustBeAnArray) {
    EXPECT_EQ(error_of("{properties: foo}"), "properties operator value must be an array");
    EXPECT_EQ(error_of("{hostlist: {a: 1}}"), "hostlist operator value must be an array");
    EXPECT_EQ(error_of("{and: }"), "and operator value must be an array");
    // checked before the operator name
    EXPECT_EQ(error_of("{bogus: 1}"), "bogus operator value must be an array");
}

TEST(ConstraintParse, UnknownOperator) {
    EXPECT_EQ(error_of("{bogus: [1]}"), "unknown constraint operator: bogus");
    EXPECT_EQ(error_of("{Properties: []}"), "unknown constraint operator: Properties");
}

// ---- properties ---------------------------------------------------------------------

TEST(ConstraintProperties, MustBeQuotedStrings) {
    EXPECT_EQ(error_of("{properties: [foo]}"), "non-string property specified");
    EXPECT_EQ(error_of("{properties: [\"ok\", 5]}"), "non-string property specified");
    EXPECT_EQ(error_of("{properties: [[\"a\"]]}"), "non-string property specified");
    EXPECT_FALSE(parse_ok("{properties: [\"foo\", 'bar']}").empty());
    // JSON syntax quotes every string
    EXPECT_FALSE(parse_ok(R"({"properties": ["foo"]})").empty());
}

TEST(ConstraintProperties, ForbiddenCharacters) {
    for (std::string bad : {"a!b", "a&b", "a'b", "a\\\"b", "a^b", "a`b", "a|b", "a(b", "a)b",
                            "^^a", "^a|b"}) {
        SCOPED_TRACE(bad);
        std::string written = bad;
        if (written == "a\\\"b") written = "a\"b";  // YAML escape inside double quotes
        EXPECT_EQ(error_of("{properties: [\"" + bad + "\"]}"), written + " is invalid");
    }
    EXPECT_FALSE(parse_ok("{properties: [\"a-b_c.d:e=f\"]}").empty());
}

TEST(ConstraintProperties, EveryListedPropertyMustBePresent) {
    Constraint constraint = parse_ok("{properties: [\"ssd\", \"gpu\"]}");
    Properties both{{"gpu", "x"}, {"ssd", ""}};
    Properties one{{"ssd", "1"}};
    EXPECT_TRUE(constraint.matches("n", 0, &both));
    EXPECT_FALSE(constraint.matches("n", 0, &one));
    EXPECT_FALSE(constraint.matches("n", 0, nullptr));
}

TEST(ConstraintProperties, CaretNegates) {
    Constraint constraint = parse_ok("{properties: [\"^slow\"]}");
    Properties slow{{"slow", "yes"}};
    Properties fast{{"fast", "yes"}};
    EXPECT_FALSE(constraint.matches("n", 0, &slow));
    EXPECT_TRUE(constraint.matches("n", 0, &fast));
    EXPECT_TRUE(constraint.matches("n", 0, nullptr));
}

TEST(ConstraintProperties, EmptyListMatchesEverything) {
    Constraint constraint = parse_ok("{properties: []}");
    EXPECT_FALSE(constraint.empty());
    EXPECT_TRUE(constraint.matches("n", 0, nullptr));
}

// ---- hostlist and ranks -------------------------------------------------------------

TEST(ConstraintHostlist, NameMembership) {
    Constraint constraint = parse_ok("{hostlist: [\"node[0-1]\", \"foo[08-10]\", bar]}");
    EXPECT_TRUE(constraint.matches("node0", -1, nullptr));
    EXPECT_TRUE(constraint.matches("node1", -1, nullptr));
    EXPECT_FALSE(constraint.matches("node2", -1, nullptr));
    EXPECT_TRUE(constraint.matches("foo09", -1, nullptr));
    EXPECT_FALSE(constraint.matches("foo9", -1, nullptr));
    EXPECT_TRUE(constraint.matches("bar", -1, nullptr));
    EXPECT_FALSE(parse_ok("{hostlist: []}").matches("node0", 0, nullptr));
}

TEST(ConstraintHostlist, InvalidHostlist) {
    EXPECT_EQ(error_of("{hostlist: [\"node[0-\"]}"), "Invalid hostlist `node[0-'");
    EXPECT_EQ(error_of("{hostlist: [\"ok\", \"node[3-1]\"]}"), "Invalid hostlist `node[3-1]'");
    EXPECT_EQ(error_of("{hostlist: [\"a]b\"]}"), "Invalid hostlist `a]b'");
}

TEST(ConstraintRanks, RankMembership) {
    Constraint constraint = parse_ok("{ranks: [\"0-2\", 5, \"[7,9]\"]}");
    for (int64_t rank : {0, 1, 2, 5, 7, 9}) EXPECT_TRUE(constraint.matches("n", rank, nullptr)) << rank;
    for (int64_t rank : {3, 4, 6, 8, 10}) EXPECT_FALSE(constraint.matches("n", rank, nullptr)) << rank;
    EXPECT_FALSE(constraint.matches("n", -1, nullptr));
}

TEST(ConstraintRanks, InvalidIdset) {
    EXPECT_EQ(error_of("{ranks: [\"1-\"]}"), "Invalid idset `1-'");
    EXPECT_EQ(error_of("{ranks: [0, \"x\"]}"), "Invalid idset `x'");
    EXPECT_EQ(error_of("{ranks: [-1]}"), "Invalid idset `-1'");
}

TEST(ConstraintRanks, NonScalarElementIsABadConversion) {
    EXPECT_EQ(error_of("{ranks: [[1]]}"), "yaml-cpp: error at line 1, column 10: bad conversion");
}

// ---- and / or / not -----------------------------------------------------------------

TEST(ConstraintLogic, And) {
    Constraint constraint = parse_ok("{and: [{hostlist: [\"n[0-3]\"]}, {ranks: [\"2-9\"]}]}");
    EXPECT_TRUE(constraint.matches("n2", 2, nullptr));
    EXPECT_FALSE(constraint.matches("n1", 1, nullptr));
    EXPECT_FALSE(constraint.matches("n7", 7, nullptr));
    EXPECT_TRUE(parse_ok("{and: []}").matches("x", 0, nullptr));
}

TEST(ConstraintLogic, Or) {
    Constraint constraint = parse_ok("{or: [{hostlist: [\"n1\"]}, {ranks: [7]}]}");
    EXPECT_TRUE(constraint.matches("n1", 0, nullptr));
    EXPECT_TRUE(constraint.matches("n9", 7, nullptr));
    EXPECT_FALSE(constraint.matches("n9", 8, nullptr));
    EXPECT_FALSE(parse_ok("{or: []}").matches("x", 0, nullptr));
}

TEST(ConstraintLogic, NotIsNotAll) {
    Constraint constraint = parse_ok("{not: [{hostlist: [\"n1\"]}, {ranks: [1]}]}");
    EXPECT_FALSE(constraint.matches("n1", 1, nullptr));  // both hold
    EXPECT_TRUE(constraint.matches("n1", 2, nullptr));   // only one holds
    EXPECT_TRUE(constraint.matches("n2", 2, nullptr));
    EXPECT_FALSE(parse_ok("{not: []}").matches("x", 0, nullptr));
}

TEST(ConstraintLogic, Nesting) {
    Constraint constraint = parse_ok(
        "{or: [{and: [{properties: [\"gpu\"]}, {not: [{ranks: [0]}]}]}, {hostlist: [\"login\"]}]}");
    Properties gpu{{"gpu", ""}};
    EXPECT_TRUE(constraint.matches("n3", 3, &gpu));
    EXPECT_FALSE(constraint.matches("n0", 0, &gpu));
    EXPECT_FALSE(constraint.matches("n3", 3, nullptr));
    EXPECT_TRUE(constraint.matches("login", 0, nullptr));
}

TEST(ConstraintLogic, ChildErrorsPropagate) {
    EXPECT_EQ(error_of("{and: [{}, {or: [5]}]}"), "constraint is not a mapping");
    EXPECT_EQ(error_of("{not: [{properties: [x]}]}"), "non-string property specified");
    EXPECT_EQ(error_of("{or: [{nope: []}]}"), "unknown constraint operator: nope");
}

TEST(ConstraintLogic, DeepNestingIsFine) {
    std::string text;
    const int depth = 200;
    for (int i = 0; i < depth; ++i) text += "{not: [";
    text += "{}";
    for (int i = 0; i < depth; ++i) text += "]}";
    Constraint constraint = parse_ok(text);
    EXPECT_TRUE(constraint.matches("x", 0, nullptr));  // an even number of nots
}

TEST(ConstraintLogic, AliasCycleAndExplosionAreErrors) {
    EXPECT_EQ(error_of("&c {not: [*c]}"), "constraint nested more than 512 levels deep");
    // Each level references the previous one twice: 2^30 nodes if expanded.
    std::string text = "{or: [&c0 {ranks: [1]}";
    for (int i = 1; i <= 30; ++i)
        text += ", &c" + std::to_string(i) + " {and: [*c" + std::to_string(i - 1) + ", *c" +
                std::to_string(i - 1) + "]}";
    text += "]}";
    EXPECT_EQ(error_of(text), "constraint has more than 65536 operations");
}

}  // namespace
}  // namespace rq
