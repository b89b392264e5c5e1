// Jobspec constraints (RFC 31 subset, spec/jobspec.md §4.1).
//
// `attributes.system.constraints` is a small boolean tree:
//
//     {}                              matches everything
//     {properties: ["ssd", "^slow"]}  has property ssd and not slow
//     {hostlist: ["node[0-3]"]}       vertex name is in the hostlist
//     {ranks: ["0-1", 5]}             vertex rank is in the idset
//     {and|or|not: [C, ...]}          all / any / not-all of the sub-constraints
//
// The matcher evaluates it on node and storage_node vertices only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "utilities/hostlist.h"
#include "utilities/idset.h"
#include "utilities/result.h"

namespace rq {

class Constraint {
public:
    enum class Kind { kEverything, kProperties, kHostlist, kRanks, kAnd, kOr, kNot };

    // A default constraint matches everything (like `constraints: {}`).
    Constraint() = default;

    // Parses a constraint node. Error messages are the spec's texts, e.g.
    // `constraint is not a mapping`; YAML conversion failures carry
    // yaml-cpp's own message. Never throws.
    static Result<Constraint> parse(const YAML::Node& node);

    // True for the empty mapping, which matches every vertex.
    bool empty() const { return kind_ == Kind::kEverything; }
    Kind kind() const { return kind_; }

    // Evaluates the constraint for a vertex. `properties` may be null
    // (no properties); only its keys matter. Rank -1 is in no idset.
    bool matches(std::string_view name, int64_t rank,
                 const std::map<std::string, std::string>* properties) const;

private:
    // One `properties` entry: the name and whether it had a leading `^`
    // (meaning "must NOT have this property").
    struct Property {
        std::string name;
        bool negated = false;
    };

    // Aliases can make a constraint cyclic (`&c {not: [*c]}`) or
    // exponentially large; these bounds turn that into an error.
    static constexpr int kMaxDepth = 512;
    static constexpr size_t kMaxNodes = size_t{1} << 16;
    struct Walk {
        int depth = 0;
        size_t nodes = 0;
    };
    // May throw YAML::Exception (conversions); parse() catches it.
    static Result<Constraint> parse_node(const YAML::Node& node, Walk& walk);
    static Status parse_properties(const YAML::Node& values, Constraint& out);
    static Status parse_hostlists(const YAML::Node& values, Constraint& out);
    static Status parse_ranks(const YAML::Node& values, Constraint& out);

    Kind kind_ = Kind::kEverything;
    std::vector<Property> properties_;  // kProperties
    std::vector<Hostlist> hostlists_;   // kHostlist: name in any of them
    std::vector<IdRange> ranks_;        // kRanks: merged ranges
    std::vector<Constraint> children_;  // kAnd, kOr, kNot
};

}  // namespace rq
