// Jobspec parsing. Every check follows spec/jobspec.md in its order; the
// first failing check's message is the result.
//
// Value conversions deliberately go through yaml-cpp's own Node::as<T>()
// (unsigned, char, double, std::string): the reference does the same, so
// its acceptance rules (octal/hex auto-detection, `-1` and `3.5` rejected,
// `.inf`/`.nan`, null read as "null") and its failure text
// (`yaml-cpp: error at line L, column C: bad conversion`) come for free.
// Those calls throw YAML::Exception, which parse_jobspec() turns into an
// Error; nothing escapes the API.
#include "resource/jobspec.h"

#include <yaml-cpp/yaml.h>

namespace rq {
namespace {

Error invalid(std::string message, std::string detail = {}) {
    return make_error(Errc::kInvalid, std::move(message), std::move(detail));
}

// All lookups use the const operator[]: on a non-const Node it may insert
// keys or even turn a sequence into a map.
using Node = const YAML::Node;

// "line L: " for a node (1-based, as editors count).
std::string where(Node& node) {
    const YAML::Mark mark = node.Mark();
    return mark.is_null() ? std::string() : "line " + std::to_string(mark.line + 1) + ": ";
}

// A count field (`count`, `min`, `max`, `operand`) as an unsigned. The
// reference converts with C++ stream rules, where `010` is octal 8: we
// refuse a leading zero rather than silently read a different number. A
// value the reference cannot convert keeps its message ("bad conversion")
// and gains a detail saying which key and what value.
Result<unsigned> read_count_field(Node& node, const char* key) {
    const std::string& text = node.Scalar();
    size_t digits = text.find_first_not_of("+");
    if (digits != std::string::npos && text.size() - digits > 1 && text[digits] == '0' &&
        text.find_first_not_of("0123456789", digits) == std::string::npos)
        return invalid(std::string("\"") + key + "\" has a leading zero (" + text +
                           "), which the original reads as an octal number",
                       where(node) + "write the count in decimal without the leading zero");
    try {
        return node.as<unsigned>();
    } catch (const YAML::Exception& e) {
        return invalid(e.what(), where(node) + "\"" + key + "\" must be a whole number from 0 to " +
                                     std::to_string(kCountMax) + ", not \"" + text + "\"");
    }
}

// ---- count (§3) ---------------------------------------------------------------

Status parse_count(Node& node, Count& count) {
    if (node.IsScalar()) {  // `count: N`, not validated further (0 is fine)
        auto n = read_count_field(node, "count");
        if (!n) return n.error();
        count.min = count.max = *n;
        count.op = '+';
        count.operand = 1;
        return ok_status();
    }
    if (!node.IsMap()) return invalid("count is not a mapping");

    Node min = node["min"];
    if (!min) return invalid("Key \"min\" missing from count");
    if (!min.IsScalar()) return invalid("Value of \"min\" must be a scalar");

    Node max = node["max"];
    Node op = node["operator"];
    Node operand = node["operand"];
    bool has_range = max || op || operand;
    if (has_range) {
        if (!max || !op || !operand)
            return invalid("All or none of \"max\", \"operator\", and \"operand\" must be specified");
        if (!max.IsScalar()) return invalid("Value of \"max\" must be a scalar");
        if (!op.IsScalar()) return invalid("Value of \"operator\" must be a scalar");
        if (!operand.IsScalar()) return invalid("Value of \"operand\" must be a scalar");
    }

    auto min_value = read_count_field(min, "min");
    if (!min_value) return min_value.error();
    count.min = *min_value;
    if (count.min < 1) return invalid("\"min\" must be greater than zero");
    if (!has_range) {
        count.max = kCountMax;
        count.op = '+';
        count.operand = 1;
        return ok_status();
    }

    auto max_value = read_count_field(max, "max");
    if (!max_value) return max_value.error();
    count.max = *max_value;
    if (count.max < count.min) return invalid("\"max\" must be greater than or equal to \"min\"");
    count.op = op.as<char>();
    auto operand_value = read_count_field(operand, "operand");
    if (!operand_value) return operand_value.error();
    count.operand = *operand_value;
    switch (count.op) {
    case '+':
        if (count.operand < 1)
            return invalid("\"operand\" must be greater than zero for addition '+'");
        break;
    case '*':
        if (count.operand < 2)
            return invalid("\"operand\" must be greater than one for multiplication '*'");
        break;
    case '^':
        if (count.operand < 2)
            return invalid("\"operand\" must be greater than one for exponentiation '^'");
        if (count.min < 2)
            return invalid("\"min\" must be greater than one for exponentiation '^'");
        break;
    default:
        return invalid("Invalid count operator");
    }
    return ok_status();
}

// ---- resources (§2) -----------------------------------------------------------

// Plain YAML cannot nest resources deeper than about 250 levels (yaml-cpp's
// depth guard), but aliases can: `&a [{..., with: *a}]` is a cycle and
// repeated aliases grow a tree exponentially. These limits turn both into
// errors instead of a stack overflow or an exhausted memory.
constexpr int kMaxResourceDepth = 512;
constexpr size_t kMaxResources = size_t{1} << 16;

struct ResourceWalk {
    const Interner& types;
    int depth = 0;
    size_t resources = 0;
};

Status parse_resources(Node& node, ResourceWalk& walk, std::vector<JobResource>& out);

// An optional scalar field: absent leaves `value` alone; present but not a
// scalar fails with `Value of "<key>" must be a scalar`. Counts the key.
Status optional_scalar(Node& resource, const char* key, std::string& value, size_t& fields) {
    Node field = resource[key];
    if (!field) return ok_status();
    if (!field.IsScalar()) return invalid(std::string("Value of \"") + key + "\" must be a scalar");
    value = field.as<std::string>();
    ++fields;
    return ok_status();
}

Status parse_resource(Node& node, ResourceWalk& walk, JobResource& resource) {
    if (!node.IsMap()) return invalid("resource is not a mapping");

    Node type = node["type"];
    if (!type) return invalid("Key \"type\" missing from resource");
    if (!type.IsScalar()) return invalid("Value of \"type\" must be a scalar");
    resource.type_name = type.as<std::string>();
    resource.type = walk.types.find(resource.type_name);
    if (resource.type == kNoId) {
        std::string known;
        for (size_t t = 0; t < walk.types.size(); ++t)
            known += (t == 0 ? "" : ", ") + walk.types.name(static_cast<TypeId>(t));
        return invalid("Value of \"type\" must be a resource type known to fluxion",
                       where(type) + "unknown resource type \"" + resource.type_name + "\" (known: " + known + ")");
    }

    Node count = node["count"];
    if (!count) return invalid("Key \"count\" missing from resource");
    RQ_TRY(parse_count(count, resource.count));
    size_t fields = 2;  // type and count

    RQ_TRY(optional_scalar(node, "unit", resource.unit, fields));

    if (Node exclusive = node["exclusive"]) {
        if (!exclusive.IsScalar()) return invalid("Value of \"exclusive\" must be a scalar");
        std::string value = exclusive.as<std::string>();
        if (value == "true")
            resource.exclusive = Tristate::kTrue;
        else if (value == "false")
            resource.exclusive = Tristate::kFalse;
        else
            return invalid("Value of \"exclusive\" must be either \"true\" or \"false\"");
        ++fields;
    }

    if (Node with = node["with"]) {
        RQ_TRY(parse_resources(with, walk, resource.with));
        ++fields;
    }

    RQ_TRY(optional_scalar(node, "label", resource.label, fields));
    if (resource.type_name == "slot" && !node["label"]) return invalid("All slots must be labeled");

    RQ_TRY(optional_scalar(node, "id", resource.id, fields));

    // Duplicate keys count too: yaml-cpp keeps them, lookups see the first.
    if (fields != node.size()) {
        static const char* const kKeys[] = {"type", "count", "unit", "exclusive", "with", "label", "id"};
        std::string unknown;
        for (const auto& entry : node) {
            std::string key = entry.first.Scalar();
            bool listed = false;
            for (const char* k : kKeys) listed |= key == k;
            if (!listed) unknown = key;
        }
        return invalid("Unrecognized key in resource mapping",
                       unknown.empty() ? where(node) + "a key appears twice in this resource"
                                       : where(node) + "unknown key \"" + unknown +
                                             "\" (known: type, count, unit, exclusive, with, label, id)");
    }
    // Unreachable after the check above (2 <= fields <= 7), kept as the
    // reference has it.
    if (node.size() < 2 || node.size() > 10)
        return invalid("impossible number of entries in resource mapping");
    return ok_status();
}

// `resources` and every `with`.
Status parse_resources(Node& node, ResourceWalk& walk, std::vector<JobResource>& out) {
    if (!node.IsSequence()) return invalid("\"resources\" is not a sequence");
    if (walk.depth >= kMaxResourceDepth)
        return invalid("resources nested more than " + std::to_string(kMaxResourceDepth) +
                       " levels deep");
    ++walk.depth;
    for (Node& element : node) {
        if (++walk.resources > kMaxResources)
            return invalid("more than " + std::to_string(kMaxResources) + " resources");
        JobResource resource;
        RQ_TRY(parse_resource(element, walk, resource));
        out.push_back(std::move(resource));
    }
    --walk.depth;
    return ok_status();
}

// ---- attributes (§4) ----------------------------------------------------------

// Iterates like the reference: a scalar or null `system` has no entries;
// walking a sequence as a map makes yaml-cpp throw its "invalid node" error.
Status parse_system_attributes(Node& system, Jobspec& jobspec) {
    for (const auto& entry : system) {
        const std::string key = entry.first.as<std::string>();
        Node& value = entry.second;
        if (key == "duration") {
            jobspec.duration = value.as<double>();
        } else if (key == "queue") {
            jobspec.queue = value.as<std::string>();
        } else if (key == "cwd") {
            jobspec.cwd = value.as<std::string>();
        } else if (key == "environment") {
            for (const auto& variable : value)
                jobspec.environment[variable.first.as<std::string>()] =
                    variable.second.as<std::string>();
        } else if (key == "constraints") {
            auto constraint = Constraint::parse(value);
            if (!constraint) return constraint.error();
            jobspec.constraint = std::move(*constraint);
        }
        // Anything else is accepted and ignored.
    }
    return ok_status();
}

Status parse_attributes(Node& attributes, Jobspec& jobspec) {
    if (attributes.IsNull()) return ok_status();
    if (!attributes.IsMap()) return invalid("\"attributes\" is not a map");
    for (const auto& entry : attributes) {
        const std::string key = entry.first.as<std::string>();
        if (key == "user") continue;  // kept by the reference, never used
        if (key != "system") return invalid("Unknown key in \"attributes\"");
        RQ_TRY(parse_system_attributes(entry.second, jobspec));
    }
    return ok_status();
}

// ---- tasks (§5) ---------------------------------------------------------------

// Copies a mapping's entries as strings, in document order.
void read_string_map(Node& map, std::vector<std::pair<std::string, std::string>>& out) {
    for (const auto& entry : map)
        out.emplace_back(entry.first.as<std::string>(), entry.second.as<std::string>());
}

Status parse_task(Node& node, JobTask& task) {
    if (!node.IsMap()) return invalid("task is not a mapping");

    Node command = node["command"];
    if (!command) return invalid("Key \"command\" missing from task");
    if (!command.IsSequence()) return invalid("\"command\" value must be a sequence");
    for (Node& word : command) task.command.push_back(word.as<std::string>());

    Node slot = node["slot"];
    if (!slot) return invalid("Key \"slot\" missing from task");
    if (!slot.IsScalar()) return invalid("Value of task \"slot\" must be a YAML scalar");
    task.slot = slot.as<std::string>();

    if (Node count = node["count"]) {
        if (!count.IsMap()) return invalid("\"count\" in task is not a mapping");
        if (count.size() != 1) return invalid("\"count\" in task must have exactly one entry");
        read_string_map(count, task.count);
    }

    if (Node distribution = node["distribution"]) {
        if (!distribution.IsScalar())
            return invalid("Value of task \"distribution\" must be a YAML scalar");
        task.distribution = distribution.as<std::string>();
    }

    if (Node attributes = node["attributes"]) {
        if (!attributes.IsMap()) return invalid("\"attributes\" in task is not a mapping");
        read_string_map(attributes, task.attributes);
    }

    if (node.size() < 3 || node.size() > 5)
        return invalid("impossible number of entries in task mapping");
    return ok_status();
}

Status parse_tasks(Node& node, std::vector<JobTask>& out) {
    if (!node.IsSequence()) return invalid("\"tasks\" is not a sequence");
    for (Node& element : node) {
        JobTask task;
        RQ_TRY(parse_task(element, task));
        out.push_back(std::move(task));
    }
    return ok_status();
}

// ---- top level (§1) -----------------------------------------------------------

Status parse_top(Node& top, const Interner& types, Jobspec& jobspec) {
    if (!top.IsMap()) return invalid("Top level of jobspec is not a mapping");
    if (!top["version"]) return invalid("Missing key \"version\" in top level mapping");
    if (!top["resources"]) return invalid("Missing key \"resource\" in top level mapping");
    if (!top["tasks"]) return invalid("Missing key \"tasks\" in top level mapping");
    if (!top["attributes"]) return invalid("Missing key \"attributes\" in top level mapping");
    if (top.size() != 4) return invalid("Top mapping in jobspec must have exactly four entries");

    Node version = top["version"];
    if (!version.IsScalar()) return invalid("\"version\" must be an unsigned integer");
    jobspec.version = version.as<unsigned>();
    if (jobspec.version < 1 || jobspec.version > 9999)
        return invalid("Only jobspec \"version\" 1-9999 is supported");

    // Order matters: attributes, then resources, then tasks.
    RQ_TRY(parse_attributes(top["attributes"], jobspec));
    ResourceWalk walk{types};
    RQ_TRY(parse_resources(top["resources"], walk, jobspec.resources));
    RQ_TRY(parse_tasks(top["tasks"], jobspec.tasks));
    return ok_status();
}

}  // namespace

Result<Jobspec> parse_jobspec(std::string_view text, const Interner& types) {
    Jobspec jobspec;
    try {
        const YAML::Node top = YAML::Load(std::string(text));
        RQ_TRY(parse_top(top, types, jobspec));
    } catch (const YAML::Exception& e) {
        return invalid(e.what());
    } catch (const std::exception& e) {  // e.g. std::bad_alloc from a huge document
        return invalid(e.what());
    }
    return jobspec;
}

}  // namespace rq
