// Jobspec parser: resource entries (spec/jobspec.md §2) and counts (§3).
#include "resource/jobspec.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

// A jobspec whose only top-level resource is the flow mapping `resource`.
std::string with_resource(const std::string& resource) {
    return "version: 1\nresources: [" + resource +
           "]\nattributes: {system: {duration: 3600}}\n"
           "tasks: [{command: [app], slot: default, count: {per_slot: 1}}]\n";
}

Result<Jobspec> parse(const std::string& text) {
    static const Interner types = make_type_interner();
    return parse_jobspec(text, types);
}

std::string error_of_resource(const std::string& resource) {
    auto result = parse(with_resource(resource));
    if (result.ok()) {
        ADD_FAILURE() << "parsed unexpectedly: " << resource;
        return "";
    }
    return result.message();
}

JobResource parse_resource(const std::string& resource) {
    auto result = parse(with_resource(resource));
    EXPECT_TRUE(result.ok()) << resource << ": " << (result.ok() ? "" : result.message());
    if (!result.ok() || result->resources.empty()) return {};
    return result->resources[0];
}

// A count written as `count: <count>` on a node resource.
std::string error_of_count(const std::string& count) {
    return error_of_resource("{type: node, count: " + count + "}");
}
Count parse_count(const std::string& count) {
    return parse_resource("{type: node, count: " + count + "}").count;
}

// Line 4 of this block document holds the count value at column 12.
std::string block_count_error(const std::string& value) {
    auto result = parse("version: 1\nresources:\n  - type: node\n    count: " + value +
                        "\nattributes:\ntasks: []\n");
    return result.ok() ? "parsed" : result.message();
}

// ---- §2 rows, in table order ------------------------------------------------------

TEST(JobspecResource, NotAMapping) {
    EXPECT_EQ(error_of_resource("node"), "resource is not a mapping");
}

TEST(JobspecResource, MissingType) {
    EXPECT_EQ(error_of_resource("{count: 1}"), "Key \"type\" missing from resource");
}

TEST(JobspecResource, TypeNotScalar) {
    EXPECT_EQ(error_of_resource("{type: [node], count: 1}"), "Value of \"type\" must be a scalar");
}

TEST(JobspecResource, UnknownType) {
    EXPECT_EQ(error_of_resource("{type: foo, count: 1}"),
              "Value of \"type\" must be a resource type known to fluxion");
    // checked before count
    EXPECT_EQ(error_of_resource("{type: foo}"),
              "Value of \"type\" must be a resource type known to fluxion");
}

TEST(JobspecResource, AllBuiltinTypesAreKnown) {
    const char* names[] = {"cluster", "core", "socket", "gpu", "node",
                           "rack", "xor_slot", "ssd", "storage_node"};
    for (const char* name : names) {
        SCOPED_TRACE(name);
        JobResource resource = parse_resource(std::string("{type: ") + name + ", count: 1}");
        EXPECT_EQ(resource.type_name, name);
        EXPECT_NE(resource.type, kNoId);
    }
}

TEST(JobspecResource, MissingCount) {
    EXPECT_EQ(error_of_resource("{type: node}"), "Key \"count\" missing from resource");
}

TEST(JobspecResource, CountErrorComesBeforeUnit) {
    EXPECT_EQ(error_of_resource("{type: node, count: [1], unit: [x]}"), "count is not a mapping");
}

TEST(JobspecResource, UnitNotScalar) {
    EXPECT_EQ(error_of_resource("{type: node, count: 1, unit: [GB]}"),
              "Value of \"unit\" must be a scalar");
    EXPECT_EQ(error_of_resource("{type: node, count: 1, unit: }"),
              "Value of \"unit\" must be a scalar");
}

TEST(JobspecResource, ExclusiveNotScalar) {
    EXPECT_EQ(error_of_resource("{type: node, count: 1, exclusive: [true]}"),
              "Value of \"exclusive\" must be a scalar");
}

TEST(JobspecResource, ExclusiveMustBeTrueOrFalse) {
    for (const char* value : {"yes", "True", "1", "TRUE"}) {
        SCOPED_TRACE(value);
        EXPECT_EQ(error_of_resource(std::string("{type: node, count: 1, exclusive: ") + value + "}"),
                  "Value of \"exclusive\" must be either \"true\" or \"false\"");
    }
    EXPECT_EQ(parse_resource("{type: node, count: 1, exclusive: true}").exclusive, Tristate::kTrue);
    EXPECT_EQ(parse_resource("{type: node, count: 1, exclusive: \"false\"}").exclusive,
              Tristate::kFalse);
    EXPECT_EQ(parse_resource("{type: node, count: 1}").exclusive, Tristate::kUnspecified);
}

TEST(JobspecResource, WithErrorsComeFromTheChild) {
    EXPECT_EQ(error_of_resource("{type: node, count: 1, with: {type: core, count: 1}}"),
              "\"resources\" is not a sequence");
    EXPECT_EQ(error_of_resource("{type: node, count: 1, with: }"), "\"resources\" is not a sequence");
    EXPECT_EQ(error_of_resource("{type: node, count: 1, with: [{type: core}]}"),
              "Key \"count\" missing from resource");
    EXPECT_EQ(error_of_resource("{type: node, count: 1, with: [{type: slot, count: 1}]}"),
              "All slots must be labeled");
}

TEST(JobspecResource, WithIsCheckedBeforeLabel) {
    EXPECT_EQ(error_of_resource("{type: node, count: 1, with: 5, label: [x]}"),
              "\"resources\" is not a sequence");
}

TEST(JobspecResource, LabelNotScalar) {
    EXPECT_EQ(error_of_resource("{type: slot, count: 1, label: [x]}"),
              "Value of \"label\" must be a scalar");
}

TEST(JobspecResource, SlotsMustBeLabeled) {
    EXPECT_EQ(error_of_resource("{type: slot, count: 1}"), "All slots must be labeled");
    EXPECT_EQ(parse_resource("{type: slot, count: 1, label: default}").label, "default");
}

TEST(JobspecResource, IdNotScalar) {
    EXPECT_EQ(error_of_resource("{type: node, count: 1, id: {a: 1}}"),
              "Value of \"id\" must be a scalar");
    EXPECT_EQ(parse_resource("{type: node, count: 1, id: n7}").id, "n7");
}

TEST(JobspecResource, UnrecognizedKey) {
    EXPECT_EQ(error_of_resource("{type: node, count: 1, color: blue}"),
              "Unrecognized key in resource mapping");
    EXPECT_EQ(error_of_resource("{type: node, count: 1, count: 2}"),
              "Unrecognized key in resource mapping");
    // The label check comes first.
    EXPECT_EQ(error_of_resource("{type: slot, count: 1, color: blue}"), "All slots must be labeled");
}

TEST(JobspecResource, EveryKnownKeyTogether) {
    JobResource resource = parse_resource(
        "{type: slot, count: 2, unit: u, exclusive: false, with: [{type: core, count: 1}], "
        "label: L, id: 3}");
    EXPECT_EQ(resource.type, types::kSlot);
    EXPECT_EQ(resource.count.min, 2u);
    EXPECT_EQ(resource.unit, "u");
    EXPECT_EQ(resource.exclusive, Tristate::kFalse);
    ASSERT_EQ(resource.with.size(), 1u);
    EXPECT_EQ(resource.with[0].type, types::kCore);
    EXPECT_EQ(resource.label, "L");
    EXPECT_EQ(resource.id, "3");
}

TEST(JobspecResource, SiblingsKeepDocumentOrder) {
    JobResource node = parse_resource(
        "{type: node, count: 1, with: [{type: socket, count: 2}, {type: gpu, count: 1}, "
        "{type: core, count: 4}]}");
    ASSERT_EQ(node.with.size(), 3u);
    EXPECT_EQ(node.with[0].type, types::kSocket);
    EXPECT_EQ(node.with[1].type, types::kGpu);
    EXPECT_EQ(node.with[2].type, types::kCore);
}

// ---- §3 count ---------------------------------------------------------------------

TEST(JobspecCount, ScalarFormIsNotValidated) {
    Count count = parse_count("4");
    EXPECT_EQ(count.min, 4u);
    EXPECT_EQ(count.max, 4u);
    EXPECT_EQ(count.op, '+');
    EXPECT_EQ(count.operand, 1u);
    EXPECT_EQ(parse_count("0").min, 0u);  // accepted, never satisfiable
}

TEST(JobspecCount, StreamConversionRules) {
    EXPECT_EQ(parse_count("0x10").min, 16u);   // hex
    EXPECT_EQ(parse_count("+3").min, 3u);
    EXPECT_EQ(parse_count("\"5\"").min, 5u);   // quoted scalars convert too
    EXPECT_EQ(parse_count("4294967295").min, 4294967295u);
    for (const char* bad : {"-1", "3.5", "4abc", "abc", "4294967296", "-0"}) {
        SCOPED_TRACE(bad);
        EXPECT_EQ(block_count_error(bad), "yaml-cpp: error at line 4, column 12: bad conversion");
    }
}

// The reference reads `010` as octal 8: a silent surprise, refused here.
TEST(JobspecCount, LeadingZeroIsRefusedNotReadAsOctal) {
    for (const char* count : {"010", "08", "00", "+010"}) {
        SCOPED_TRACE(count);
        auto result = parse(with_resource(std::string("{type: node, count: ") + count + "}"));
        ASSERT_FALSE(result.ok());
        EXPECT_EQ(result.message(), std::string("\"count\" has a leading zero (") + count +
                                        "), which the original reads as an octal number");
        EXPECT_EQ(result.error().detail, "line 2: write the count in decimal without the leading zero");
    }
    for (const char* count : {"{min: 010}", "{min: 1, max: 010, operator: '+', operand: 1}",
                              "{min: 1, max: 10, operator: '+', operand: 01}"})
        EXPECT_NE(error_of_count(count).find("has a leading zero"), std::string::npos) << count;
    EXPECT_EQ(parse_count("0").min, 0u);
    EXPECT_EQ(parse_count("10").min, 10u);
}

TEST(JobspecCount, BadConversionDetailNamesKeyAndValue) {
    auto result = parse("version: 1\nresources:\n  - type: node\n    count: abc\nattributes:\ntasks: []\n");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.message(), "yaml-cpp: error at line 4, column 12: bad conversion");  // the reference's words
    EXPECT_EQ(result.error().detail, "line 4: \"count\" must be a whole number from 0 to 4294967295, not \"abc\"");
    auto operand = parse(with_resource("{type: node, count: {min: 1, max: 2, operator: '+', operand: -1}}"));
    ASSERT_FALSE(operand.ok());
    EXPECT_EQ(operand.error().detail,
              "line 2: \"operand\" must be a whole number from 0 to 4294967295, not \"-1\"");
}

TEST(JobspecResource, UnknownTypeDetailNamesTheTypeAndTheKnownOnes) {
    auto result = parse(with_resource("{type: nodes, count: 1}"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.message(), "Value of \"type\" must be a resource type known to fluxion");
    EXPECT_EQ(result.error().detail.rfind("line 2: unknown resource type \"nodes\" (known: cluster, core, socket,", 0),
              0u)
        << result.error().detail;
}

TEST(JobspecResource, UnrecognizedKeyDetailNamesTheKey) {
    auto result = parse(with_resource("{type: node, count: 1, colour: blue}"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().detail,
              "line 2: unknown key \"colour\" (known: type, count, unit, exclusive, with, label, id)");
    auto twice = parse(with_resource("{type: node, count: 1, count: 2}"));
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error().detail, "line 2: a key appears twice in this resource");
}

TEST(JobspecCount, NotAMapping) {
    EXPECT_EQ(error_of_count("[1]"), "count is not a mapping");
    EXPECT_EQ(error_of_count(""), "count is not a mapping");  // null
}

TEST(JobspecCount, MissingMin) {
    EXPECT_EQ(error_of_count("{max: 2}"), "Key \"min\" missing from count");
}

TEST(JobspecCount, MinNotScalar) {
    EXPECT_EQ(error_of_count("{min: [1]}"), "Value of \"min\" must be a scalar");
}

TEST(JobspecCount, AllOrNoneOfMaxOperatorOperand) {
    const char* partial[] = {"{min: 1, max: 2}", "{min: 1, operator: '+'}", "{min: 1, operand: 1}",
                             "{min: 1, max: 2, operator: '+'}", "{min: 1, max: 2, operand: 1}",
                             "{min: 1, operator: '+', operand: 1}"};
    for (const char* count : partial) {
        SCOPED_TRACE(count);
        EXPECT_EQ(error_of_count(count),
                  "All or none of \"max\", \"operator\", and \"operand\" must be specified");
    }
}

TEST(JobspecCount, MaxOperatorOperandNotScalar) {
    EXPECT_EQ(error_of_count("{min: 1, max: [2], operator: '+', operand: 1}"),
              "Value of \"max\" must be a scalar");
    EXPECT_EQ(error_of_count("{min: 1, max: 2, operator: ['+'], operand: 1}"),
              "Value of \"operator\" must be a scalar");
    EXPECT_EQ(error_of_count("{min: 1, max: 2, operator: '+', operand: {a: 1}}"),
              "Value of \"operand\" must be a scalar");
}

TEST(JobspecCount, MinMustBePositive) {
    EXPECT_EQ(error_of_count("{min: 0}"), "\"min\" must be greater than zero");
    // the scalar checks of max/operator/operand come first
    EXPECT_EQ(error_of_count("{min: 0, max: [1], operator: '+', operand: 1}"),
              "Value of \"max\" must be a scalar");
}

TEST(JobspecCount, MaxAtLeastMin) {
    EXPECT_EQ(error_of_count("{min: 3, max: 2, operator: '+', operand: 1}"),
              "\"max\" must be greater than or equal to \"min\"");
    EXPECT_EQ(parse_count("{min: 3, max: 3, operator: '+', operand: 1}").max, 3u);
}

TEST(JobspecCount, AdditionOperand) {
    EXPECT_EQ(error_of_count("{min: 1, max: 4, operator: '+', operand: 0}"),
              "\"operand\" must be greater than zero for addition '+'");
    Count count = parse_count("{min: 1, max: 4, operator: '+', operand: 3}");
    EXPECT_EQ(count.op, '+');
    EXPECT_EQ(count.operand, 3u);
}

TEST(JobspecCount, MultiplicationOperand) {
    EXPECT_EQ(error_of_count("{min: 1, max: 8, operator: '*', operand: 1}"),
              "\"operand\" must be greater than one for multiplication '*'");
    Count count = parse_count("{min: 1, max: 8, operator: '*', operand: 2}");
    EXPECT_EQ(count.op, '*');
    EXPECT_EQ(count.operand, 2u);
    EXPECT_EQ(count.max, 8u);
}

TEST(JobspecCount, ExponentiationOperandThenMin) {
    EXPECT_EQ(error_of_count("{min: 2, max: 16, operator: '^', operand: 1}"),
              "\"operand\" must be greater than one for exponentiation '^'");
    EXPECT_EQ(error_of_count("{min: 1, max: 16, operator: '^', operand: 1}"),
              "\"operand\" must be greater than one for exponentiation '^'");
    EXPECT_EQ(error_of_count("{min: 1, max: 16, operator: '^', operand: 2}"),
              "\"min\" must be greater than one for exponentiation '^'");
    Count count = parse_count("{min: 2, max: 16, operator: '^', operand: 2}");
    EXPECT_EQ(count.op, '^');
    EXPECT_EQ(count.min, 2u);
}

TEST(JobspecCount, InvalidOperator) {
    EXPECT_EQ(error_of_count("{min: 1, max: 2, operator: '-', operand: 1}"), "Invalid count operator");
    EXPECT_EQ(error_of_count("{min: 1, max: 2, operator: '/', operand: 1}"), "Invalid count operator");
}

TEST(JobspecCount, OperatorIsExactlyOneCharacter) {
    auto result = parse("version: 1\nresources:\n  - type: node\n    count: {min: 1, max: 2, "
                        "operator: '++', operand: 1}\nattributes:\ntasks: []\n");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.message(), "yaml-cpp: error at line 4, column 39: bad conversion");
    EXPECT_EQ(error_of_count("{min: 1, max: 2, operator: '', operand: 1}"),
              "yaml-cpp: error at line 2, column 60: bad conversion");
}

TEST(JobspecCount, MinOnlyMeansUnbounded) {
    Count count = parse_count("{min: 2}");
    EXPECT_EQ(count.min, 2u);
    EXPECT_EQ(count.max, 4294967295u);
    EXPECT_EQ(count.op, '+');
    EXPECT_EQ(count.operand, 1u);
}

TEST(JobspecCount, ValuesConvertWhenChecked) {
    // min is converted (and fails) before max is looked at
    EXPECT_EQ(error_of_count("{min: x, max: y, operator: '+', operand: 1}"),
              "yaml-cpp: error at line 2, column 39: bad conversion");
    // max >= min is checked before the operand is converted
    EXPECT_EQ(error_of_count("{min: 2, max: 1, operator: '+', operand: z}"),
              "\"max\" must be greater than or equal to \"min\"");
    EXPECT_EQ(error_of_count("{min: 1, max: 2, operator: '+', operand: -1}"),
              "yaml-cpp: error at line 2, column 74: bad conversion");
}

}  // namespace
}  // namespace rq
