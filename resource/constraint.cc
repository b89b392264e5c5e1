#include "resource/constraint.h"

#include <algorithm>

namespace rq {
namespace {

Error invalid(std::string message) { return make_error(Errc::kInvalid, std::move(message)); }

// Characters RFC 31 forbids in a property name (they are operators in the
// constraint query language).
constexpr std::string_view kForbiddenPropertyChars = "!&'\"^`|()";

// yaml-cpp tags a quoted scalar "!" and a plain one "?"; properties must be
// written as (quoted) strings.
bool is_quoted_string(const YAML::Node& node) { return node.IsScalar() && node.Tag() == "!"; }

}  // namespace

Result<Constraint> Constraint::parse(const YAML::Node& node) {
    try {
        Walk walk;
        return parse_node(node, walk);
    } catch (const YAML::Exception& e) {
        return invalid(e.what());
    }
}

Result<Constraint> Constraint::parse_node(const YAML::Node& node, Walk& walk) {
    if (++walk.nodes > kMaxNodes)
        return invalid("constraint has more than " + std::to_string(kMaxNodes) + " operations");
    if (!node.IsMap()) return invalid("constraint is not a mapping");
    if (node.size() > 1) return invalid("constraint map may not contain > 1 operation");

    Constraint constraint;
    if (node.size() == 0) return constraint;  // matches everything

    auto entry = *node.begin();
    const std::string op = entry.first.as<std::string>();
    const YAML::Node& values = entry.second;
    if (!values.IsSequence()) return invalid(op + " operator value must be an array");

    if (op == "properties") {
        constraint.kind_ = Kind::kProperties;
        RQ_TRY(parse_properties(values, constraint));
    } else if (op == "hostlist") {
        constraint.kind_ = Kind::kHostlist;
        RQ_TRY(parse_hostlists(values, constraint));
    } else if (op == "ranks") {
        constraint.kind_ = Kind::kRanks;
        RQ_TRY(parse_ranks(values, constraint));
    } else if (op == "and" || op == "or" || op == "not") {
        constraint.kind_ = op == "and" ? Kind::kAnd : op == "or" ? Kind::kOr : Kind::kNot;
        if (walk.depth >= kMaxDepth)
            return invalid("constraint nested more than " + std::to_string(kMaxDepth) +
                           " levels deep");
        ++walk.depth;
        for (const YAML::Node& child : values) {
            auto parsed = parse_node(child, walk);
            if (!parsed) return parsed.error();
            constraint.children_.push_back(std::move(*parsed));
        }
        --walk.depth;
    } else {
        return invalid("unknown constraint operator: " + op);
    }
    return constraint;
}

Status Constraint::parse_properties(const YAML::Node& values, Constraint& out) {
    for (const YAML::Node& value : values) {
        if (!is_quoted_string(value)) return invalid("non-string property specified");
        const std::string& written = value.Scalar();
        Property property{written, false};
        if (!property.name.empty() && property.name.front() == '^') {
            property.negated = true;
            property.name.erase(0, 1);
        }
        if (property.name.find_first_of(kForbiddenPropertyChars) != std::string::npos)
            return invalid(written + " is invalid");
        out.properties_.push_back(std::move(property));
    }
    return ok_status();
}

Status Constraint::parse_hostlists(const YAML::Node& values, Constraint& out) {
    for (const YAML::Node& value : values) {
        auto hostlist = Hostlist::parse(value.as<std::string>());
        if (!hostlist) return hostlist.error();  // "Invalid hostlist `<s>'"
        out.hostlists_.push_back(std::move(*hostlist));
    }
    return ok_status();
}

Status Constraint::parse_ranks(const YAML::Node& values, Constraint& out) {
    std::vector<IdRange> all;
    for (const YAML::Node& value : values) {
        auto ranges = decode_idset_ranges(value.as<std::string>());
        if (!ranges) return ranges.error();  // "Invalid idset `<s>'"
        all.insert(all.end(), ranges->begin(), ranges->end());
    }
    // Keep the union sorted and disjoint so lookups can binary-search.
    std::sort(all.begin(), all.end(),
              [](const IdRange& a, const IdRange& b) { return a.lo < b.lo; });
    for (const IdRange& range : all) {
        if (!out.ranks_.empty() && range.lo <= out.ranks_.back().hi + 1)
            out.ranks_.back().hi = std::max(out.ranks_.back().hi, range.hi);
        else
            out.ranks_.push_back(range);
    }
    return ok_status();
}

bool Constraint::matches(std::string_view name, int64_t rank,
                         const std::map<std::string, std::string>* properties) const {
    auto child_matches = [&](const Constraint& child) {
        return child.matches(name, rank, properties);
    };
    switch (kind_) {
    case Kind::kEverything:
        return true;
    case Kind::kProperties:
        for (const Property& property : properties_) {
            bool present = properties && properties->count(property.name) > 0;
            if (present == property.negated) return false;
        }
        return true;
    case Kind::kHostlist:
        return std::any_of(hostlists_.begin(), hostlists_.end(),
                           [&](const Hostlist& list) { return list.contains(name); });
    case Kind::kRanks:
        return rank >= 0 && idset_ranges_contain(ranks_, rank);
    case Kind::kAnd:
        return std::all_of(children_.begin(), children_.end(), child_matches);
    case Kind::kOr:
        return std::any_of(children_.begin(), children_.end(), child_matches);
    case Kind::kNot:
        return !std::all_of(children_.begin(), children_.end(), child_matches);
    }
    return false;
}

}  // namespace rq
