// Jobspec parser: top level, attributes, tasks, and parsed shapes.
// Resource and count validation: jobspec_resource_test.cc.
#include "resource/jobspec.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rq {
namespace {

const char* const kResources = "resources: [{type: node, count: 1}]\n";
const char* const kTasks = "tasks: [{command: [app], slot: default, count: {per_slot: 1}}]\n";
const char* const kAttributes = "attributes: {system: {duration: 3600}}\n";

Result<Jobspec> parse(const std::string& text) {
    static const Interner types = make_type_interner();
    return parse_jobspec(text, types);
}

// The error message of parsing `text`; fails the test if it parses.
std::string error_of(const std::string& text) {
    auto result = parse(text);
    if (result.ok()) {
        ADD_FAILURE() << "parsed unexpectedly:\n" << text;
        return "";
    }
    EXPECT_EQ(result.code(), Errc::kInvalid);
    return result.message();
}

std::string with_attributes(const std::string& attributes) {
    return std::string("version: 1\n") + kResources + kTasks + attributes + "\n";
}

std::string with_tasks(const std::string& tasks) {
    return std::string("version: 1\n") + kResources + kAttributes + tasks + "\n";
}

// ---- top level (§1), one test per row, in table order ---------------------------

TEST(JobspecTopLevel, MinimalDocumentParses) {
    auto result = parse(std::string("version: 1\n") + kResources + kAttributes + kTasks);
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(result->version, 1u);
    ASSERT_EQ(result->resources.size(), 1u);
    EXPECT_EQ(result->resources[0].type, types::kNode);
    EXPECT_EQ(result->duration, 3600.0);
}

TEST(JobspecTopLevel, DocumentNotAMapping) {
    EXPECT_EQ(error_of("- a\n- b\n"), "Top level of jobspec is not a mapping");
    EXPECT_EQ(error_of("just a scalar"), "Top level of jobspec is not a mapping");
    EXPECT_EQ(error_of(""), "Top level of jobspec is not a mapping");
}

TEST(JobspecTopLevel, MissingVersion) {
    EXPECT_EQ(error_of(std::string(kResources) + kTasks + kAttributes),
              "Missing key \"version\" in top level mapping");
    // version is checked first even when everything else is missing too
    EXPECT_EQ(error_of("foo: 1"), "Missing key \"version\" in top level mapping");
}

TEST(JobspecTopLevel, MissingResourcesUsesSingularKeyName) {
    EXPECT_EQ(error_of(std::string("version: 1\n") + kTasks),
              "Missing key \"resource\" in top level mapping");
}

TEST(JobspecTopLevel, MissingTasks) {
    EXPECT_EQ(error_of(std::string("version: 1\n") + kResources + kAttributes),
              "Missing key \"tasks\" in top level mapping");
}

TEST(JobspecTopLevel, MissingAttributes) {
    EXPECT_EQ(error_of(std::string("version: 1\n") + kResources + kTasks),
              "Missing key \"attributes\" in top level mapping");
}

TEST(JobspecTopLevel, ExtraKey) {
    EXPECT_EQ(error_of(std::string("version: 1\n") + kResources + kTasks + kAttributes + "x: 1\n"),
              "Top mapping in jobspec must have exactly four entries");
    // A duplicated key also makes five entries.
    EXPECT_EQ(error_of(std::string("version: 1\nversion: 1\n") + kResources + kTasks + kAttributes),
              "Top mapping in jobspec must have exactly four entries");
}

TEST(JobspecTopLevel, VersionNotScalar) {
    auto rest = std::string(kResources) + kTasks + kAttributes;
    EXPECT_EQ(error_of("version: [1]\n" + rest), "\"version\" must be an unsigned integer");
    EXPECT_EQ(error_of("version:\n" + rest), "\"version\" must be an unsigned integer");
}

TEST(JobspecTopLevel, VersionRange) {
    auto rest = std::string(kResources) + kTasks + kAttributes;
    EXPECT_EQ(error_of("version: 0\n" + rest), "Only jobspec \"version\" 1-9999 is supported");
    EXPECT_EQ(error_of("version: 10000\n" + rest), "Only jobspec \"version\" 1-9999 is supported");
    auto max = parse("version: 9999\n" + rest);
    ASSERT_TRUE(max.ok()) << max.message();
    EXPECT_EQ(max->version, 9999u);
    EXPECT_EQ(error_of("version: abc\n" + rest),
              "yaml-cpp: error at line 1, column 10: bad conversion");
}

TEST(JobspecTopLevel, AttributesAreCheckedBeforeResources) {
    EXPECT_EQ(error_of("version: 1\nresources: 5\n" + std::string(kTasks) + "attributes: [1]\n"),
              "\"attributes\" is not a map");
}

TEST(JobspecTopLevel, ResourcesMustBeASequence) {
    EXPECT_EQ(error_of("version: 1\nresources: {type: node}\n" + std::string(kTasks) + kAttributes),
              "\"resources\" is not a sequence");
}

TEST(JobspecTopLevel, ResourcesAreCheckedBeforeTasks) {
    EXPECT_EQ(error_of("version: 1\nresources: 5\ntasks: 5\n" + std::string(kAttributes)),
              "\"resources\" is not a sequence");
}

TEST(JobspecTopLevel, TasksMustBeASequence) {
    EXPECT_EQ(error_of(with_tasks("tasks: {command: [app]}")), "\"tasks\" is not a sequence");
}

TEST(JobspecTopLevel, YamlSyntaxErrorUsesYamlCppMessage) {
    EXPECT_EQ(error_of("{version: 1"), "yaml-cpp: error at line 1, column 1: end of map flow not found");
    EXPECT_EQ(error_of("version: 1\n  bad: indent\n"),
              "yaml-cpp: error at line 2, column 6: illegal map value");
}

// ---- attributes (§4) ----------------------------------------------------------------

TEST(JobspecAttributes, NullOrEmptyAttributesAreAllowed) {
    for (const char* attributes : {"attributes:", "attributes: ~", "attributes: {}"}) {
        SCOPED_TRACE(attributes);
        auto result = parse(with_attributes(attributes));
        ASSERT_TRUE(result.ok()) << result.message();
        EXPECT_EQ(result->duration, 0.0);
        EXPECT_EQ(result->queue, "");
        EXPECT_FALSE(result->constraint.has_value());
    }
}

TEST(JobspecAttributes, NotAMap) {
    EXPECT_EQ(error_of(with_attributes("attributes: [system]")), "\"attributes\" is not a map");
    EXPECT_EQ(error_of(with_attributes("attributes: \"\"")), "\"attributes\" is not a map");
}

TEST(JobspecAttributes, UnknownKey) {
    EXPECT_EQ(error_of(with_attributes("attributes: {system: {}, other: 1}")),
              "Unknown key in \"attributes\"");
}

TEST(JobspecAttributes, UserIsAcceptedAndIgnored) {
    auto result = parse(with_attributes("attributes: {user: {anything: [1, 2]}}"));
    ASSERT_TRUE(result.ok()) << result.message();
}

TEST(JobspecAttributes, SystemFields) {
    auto result = parse(with_attributes(
        "attributes:\n  system:\n    duration: 0.5\n    queue: debug\n    cwd: /tmp\n"
        "    environment: {HOME: /home/u}\n    dw: whatever\n    constraints: {}\n"));
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(result->duration, 0.5);
    EXPECT_EQ(result->queue, "debug");
    EXPECT_EQ(result->cwd, "/tmp");
    EXPECT_EQ(result->environment.at("HOME"), "/home/u");
    ASSERT_TRUE(result->constraint.has_value());
    EXPECT_TRUE(result->constraint->empty());
}

TEST(JobspecAttributes, DurationConvertsAsDouble) {
    auto duration_of = [](const std::string& value) {
        auto result = parse(with_attributes("attributes: {system: {duration: " + value + "}}"));
        EXPECT_TRUE(result.ok()) << result.message();
        return result.ok() ? result->duration : -12345.0;
    };
    EXPECT_EQ(duration_of("3600"), 3600.0);
    EXPECT_EQ(duration_of("1e3"), 1000.0);
    EXPECT_EQ(duration_of("-5"), -5.0);  // rejected only at match time (§7)
    EXPECT_TRUE(std::isinf(duration_of(".inf")));
    EXPECT_TRUE(std::isnan(duration_of(".nan")));
    EXPECT_EQ(error_of(with_attributes("attributes: {system: {duration: abc}}")),
              "yaml-cpp: error at line 4, column 33: bad conversion");
    EXPECT_EQ(error_of(with_attributes("attributes: {system: {duration: }}")),
              "yaml-cpp: error at line 4, column 33: bad conversion");
}

TEST(JobspecAttributes, SystemThatIsNotAMapIsWalkedLikeYamlCpp) {
    // A scalar has no entries; walking a sequence as a map is yaml-cpp's
    // "invalid node" error.
    EXPECT_TRUE(parse(with_attributes("attributes: {system: 5}")).ok());
    EXPECT_EQ(error_of(with_attributes("attributes: {system: [a]}")),
              "invalid node; this may result from using a map iterator as a sequence "
              "iterator, or vice-versa");
}

TEST(JobspecAttributes, ConstraintsAreParsedAndErrorsPropagate) {
    auto result = parse(with_attributes(
        "attributes: {system: {constraints: {hostlist: [\"node[0-1]\"]}}}"));
    ASSERT_TRUE(result.ok()) << result.message();
    ASSERT_TRUE(result->constraint.has_value());
    EXPECT_TRUE(result->constraint->matches("node1", -1, nullptr));
    EXPECT_FALSE(result->constraint->matches("node2", -1, nullptr));

    EXPECT_EQ(error_of(with_attributes("attributes: {system: {constraints: {ranks: [\"x\"]}}}")),
              "Invalid idset `x'");
    EXPECT_EQ(error_of(with_attributes("attributes: {system: {constraints: [a]}}")),
              "constraint is not a mapping");
}

// ---- tasks (§5), one test per row, in table order -----------------------------------

TEST(JobspecTasks, NotAMapping) {
    EXPECT_EQ(error_of(with_tasks("tasks: [app]")), "task is not a mapping");
}

TEST(JobspecTasks, MissingCommand) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{slot: default, count: {per_slot: 1}}]")),
              "Key \"command\" missing from task");
}

TEST(JobspecTasks, CommandNotASequence) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: app, slot: default, count: {per_slot: 1}}]")),
              "\"command\" value must be a sequence");
}

TEST(JobspecTasks, MissingSlot) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], count: {per_slot: 1}}]")),
              "Key \"slot\" missing from task");
}

TEST(JobspecTasks, SlotNotScalar) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: [a], count: {per_slot: 1}}]")),
              "Value of task \"slot\" must be a YAML scalar");
}

TEST(JobspecTasks, CountNotAMapping) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: default, count: 1}]")),
              "\"count\" in task is not a mapping");
}

TEST(JobspecTasks, CountWithTwoEntries) {
    EXPECT_EQ(error_of(with_tasks(
                  "tasks: [{command: [app], slot: default, count: {per_slot: 1, total: 2}}]")),
              "\"count\" in task must have exactly one entry");
}

TEST(JobspecTasks, DistributionNotScalar) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: default, count: {per_slot: 1}, "
                                  "distribution: [a]}]")),
              "Value of task \"distribution\" must be a YAML scalar");
}

TEST(JobspecTasks, AttributesNotAMapping) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: default, count: {per_slot: 1}, "
                                  "attributes: 5}]")),
              "\"attributes\" in task is not a mapping");
}

TEST(JobspecTasks, ImpossibleNumberOfEntries) {
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: default}]")),
              "impossible number of entries in task mapping");
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: default, count: {per_slot: 1}, "
                                  "distribution: d, attributes: {}, extra: 1}]")),
              "impossible number of entries in task mapping");
}

TEST(JobspecTasks, ChecksFollowTableOrder) {
    // Missing command wins over a bad slot; a bad count wins over the size.
    EXPECT_EQ(error_of(with_tasks("tasks: [{slot: [a]}]")), "Key \"command\" missing from task");
    EXPECT_EQ(error_of(with_tasks("tasks: [{command: [app], slot: s, count: 1, a: 1, b: 2, c: 3}]")),
              "\"count\" in task is not a mapping");
}

TEST(JobspecTasks, CommandWordsMustBeScalars) {
    EXPECT_EQ(error_of(with_tasks("tasks:\n  - command: [app, {a: b}]\n    slot: default\n"
                                  "    count: {per_slot: 1}")),
              "yaml-cpp: error at line 5, column 20: bad conversion");
}

TEST(JobspecTasks, FullTaskIsKept) {
    auto result = parse(with_tasks(
        "tasks: [{command: [flux, start], slot: s, count: {total: 4}, distribution: cyclic, "
        "attributes: {a: b}}]"));
    ASSERT_TRUE(result.ok()) << result.message();
    ASSERT_EQ(result->tasks.size(), 1u);
    const JobTask& task = result->tasks[0];
    EXPECT_EQ(task.command, (std::vector<std::string>{"flux", "start"}));
    EXPECT_EQ(task.slot, "s");
    ASSERT_EQ(task.count.size(), 1u);
    EXPECT_EQ(task.count[0], (std::pair<std::string, std::string>{"total", "4"}));
    EXPECT_EQ(task.distribution, "cyclic");
    ASSERT_EQ(task.attributes.size(), 1u);
    EXPECT_EQ(task.attributes[0].first, "a");
}

TEST(JobspecTasks, EmptyTaskListIsAllowed) {
    EXPECT_TRUE(parse(with_tasks("tasks: []")).ok());
}

// ---- JSON syntax and real-world shapes -----------------------------------------------

TEST(JobspecJson, JsonDocumentParses) {
    auto result = parse(R"({
  "resources": [
    {"type": "slot", "count": 1, "label": "rabbit",
     "with": [{"type": "node", "count": 1,
               "with": [{"type": "slot", "count": 1, "with": [{"type": "core", "count": 1}],
                         "label": "task"}]},
              {"type": "ssd", "count": 10245, "exclusive": true}]}],
  "tasks": [{"command": ["hostname"], "slot": "task", "count": {"per_slot": 1}}],
  "attributes": {"system": {"duration": 0, "cwd": "/home/user/", "dw": "#DW jobdw"}},
  "version": 1
})");
    ASSERT_TRUE(result.ok()) << result.message();
    ASSERT_EQ(result->resources.size(), 1u);
    const JobResource& slot = result->resources[0];
    EXPECT_EQ(slot.type, types::kSlot);
    EXPECT_EQ(slot.label, "rabbit");
    ASSERT_EQ(slot.with.size(), 2u);
    EXPECT_EQ(slot.with[0].type_name, "node");
    EXPECT_EQ(slot.with[0].with[0].label, "task");
    EXPECT_EQ(slot.with[1].type, types::kSsd);
    EXPECT_EQ(slot.with[1].count.min, 10245u);
    EXPECT_EQ(slot.with[1].exclusive, Tristate::kTrue);
    EXPECT_EQ(result->cwd, "/home/user/");
}

TEST(JobspecJson, JsonErrorsMatchYamlErrors) {
    EXPECT_EQ(error_of(R"({"version": 1, "resources": [], "tasks": []})"),
              "Missing key \"attributes\" in top level mapping");
    EXPECT_EQ(error_of(R"({"version": 1, "resources": [{"type": "slot", "count": 1}],
                          "tasks": [], "attributes": {}})"),
              "All slots must be labeled");
}

TEST(JobspecShapes, BlockStyleJobspecWithCommentsAndRangeCount) {
    auto result = parse(R"(version: 9999
resources:
  - type: node
    count: 1
    with:
    - type: slot
      label: default
      count: 1
      with:
        - type: socket
          count: 1
          with:
            - type: core
              count:
                min: 1
                max: 18
                operator: "+"
                operand: 1

# a comment
attributes:
  system:
    duration: 57600
tasks:
  - command: [ "default" ]
    slot: socketlevel
    count:
      per_slot: 1
)");
    ASSERT_TRUE(result.ok()) << result.message();
    const JobResource& core = result->resources[0].with[0].with[0].with[0];
    EXPECT_EQ(core.type, types::kCore);
    EXPECT_EQ(core.count.min, 1u);
    EXPECT_EQ(core.count.max, 18u);
    EXPECT_EQ(core.count.op, '+');
    EXPECT_EQ(core.count.operand, 1u);
    EXPECT_TRUE(core.aggregate.empty());
}

TEST(JobspecShapes, TypesInternedByTheGraphAreKnown) {
    Interner types = make_type_interner();
    std::string text = "version: 1\nresources: [{type: zone, count: 1}]\n" +
                       std::string(kAttributes) + kTasks;
    auto unknown = parse_jobspec(text, types);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.message(), "Value of \"type\" must be a resource type known to fluxion");

    TypeId zone = types.intern("zone");
    auto known = parse_jobspec(text, types);
    ASSERT_TRUE(known.ok()) << known.message();
    EXPECT_EQ(known->resources[0].type, zone);
    EXPECT_EQ(known->resources[0].type_name, "zone");
}

TEST(JobspecShapes, DeeplyNestedDocumentDoesNotCrash) {
    // yaml-cpp refuses documents nested too deeply (its depth guard
    // stops at 2000 and counts several steps per resource level); below that limit the
    // parser's own recursion must cope.
    std::string resources;
    const int depth = 200;
    for (int i = 0; i < depth; ++i) resources += "[{type: node, count: 1, with: ";
    resources += "[]";
    for (int i = 0; i < depth; ++i) resources += "}]";
    auto result = parse("version: 1\nresources: " + resources + "\n" + kAttributes + kTasks);
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(result->resources[0].with[0].with.size(), 1u);

    std::string too_deep(2100, '[');
    EXPECT_EQ(error_of(too_deep), "yaml-cpp: error at line 1, column 1: bad file");
}

TEST(JobspecShapes, SelfReferencingAliasIsAnErrorNotACrash) {
    EXPECT_EQ(error_of("version: 1\nresources: &a [{type: node, count: 1, with: *a}]\n"
                       "attributes:\ntasks: []\n"),
              "resources nested more than 512 levels deep");
    EXPECT_EQ(error_of("version: 1\nresources: []\ntasks: []\n"
                       "attributes: {system: {constraints: &c {not: [*c]}}}\n"),
              "constraint nested more than 512 levels deep");
}

TEST(JobspecShapes, AliasExplosionIsBounded) {
    // Level i holds two aliases of level i-1: expanded, the last level
    // would be 2^40 resources.
    std::string text =
        "version: 1\nattributes:\ntasks: []\nresources: [{type: rack, count: 1, with: [\n"
        "{type: cluster, count: 1, with: &l0 [{type: core, count: 1}]}";
    for (int i = 1; i <= 40; ++i) {
        std::string previous = "*l" + std::to_string(i - 1);
        text += ",\n{type: cluster, count: 1, with: &l" + std::to_string(i) +
                " [{type: node, count: 1, with: " + previous +
                "}, {type: node, count: 1, with: " + previous + "}]}";
    }
    text += "]}]\n";
    EXPECT_EQ(error_of(text), "more than 65536 resources");
}

}  // namespace
}  // namespace rq
