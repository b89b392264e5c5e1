// Jobspec: the resource request of a `match` command (RFC 14 subset,
// spec/jobspec.md).
//
//     version: 9999
//     resources:
//       - type: node
//         count: 1
//         with:
//           - type: slot
//             count: {min: 1, max: 4, operator: "+", operand: 1}
//             label: default
//             with: [{type: core, count: 2}]
//     attributes: {system: {duration: 3600}}
//     tasks: [{command: [app], slot: default, count: {per_slot: 1}}]
//
// parse_jobspec() validates in the reference's order and reports the
// reference's exact texts; JSON jobspecs are YAML too.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "resource/constraint.h"
#include "resource/interner.h"
#include "utilities/result.h"

namespace rq {

// How many units of a resource are requested: any value in [min, max]
// reachable from min by repeatedly applying `op operand` (policies.md §1).
struct Count {
    uint32_t min = 1;
    uint32_t max = 1;
    char op = '+';  // '+', '*' or '^'
    uint32_t operand = 1;
};

// Largest count a jobspec can ask for; the max of a min-only count.
inline constexpr uint32_t kCountMax = UINT32_MAX;

enum class Tristate { kUnspecified, kTrue, kFalse };

struct JobResource {
    TypeId type = kNoId;  // id from the type Interner
    std::string type_name;
    Count count;
    std::string unit;   // unused by matching
    std::string label;  // slots: required
    std::string id;     // unused by matching
    Tristate exclusive = Tristate::kUnspecified;
    std::vector<JobResource> with;  // children, in document order
    // Scratch filled by the matcher before each traversal (spec/jobspec.md
    // §8): minimum units of each tracked type beneath one unit of this
    // resource. The parser leaves it empty.
    std::vector<std::pair<TypeId, int64_t>> aggregate;
};

// A task entry. Tasks do not influence matching; they are validated and
// kept for completeness.
struct JobTask {
    std::vector<std::string> command;
    std::string slot;
    std::vector<std::pair<std::string, std::string>> count;  // e.g. {"per_slot", "1"}
    std::string distribution;
    std::vector<std::pair<std::string, std::string>> attributes;
};

struct Jobspec {
    unsigned version = 1;
    std::vector<JobResource> resources;
    std::vector<JobTask> tasks;
    // attributes.system.duration as written (0 when absent); validated at
    // match time (spec/jobspec.md §7), so NaN, inf and negatives get here.
    double duration = 0;
    std::string queue;  // attributes.system.queue
    std::string cwd;    // attributes.system.cwd, unused
    std::map<std::string, std::string> environment;  // attributes.system.environment, unused
    std::optional<Constraint> constraint;            // attributes.system.constraints
};

// Parses YAML or JSON text. On failure the error (Errc::kInvalid) carries
// exactly the spec's message, e.g. `Missing key "tasks" in top level
// mapping`, or yaml-cpp's own `yaml-cpp: error at line L, column C: bad
// conversion`, without any "Jobspec error" prefix. Resource types must be
// known to `types` (Interner::find); unknown ones fail with `Value of
// "type" must be a resource type known to fluxion`. Never throws.
Result<Jobspec> parse_jobspec(std::string_view text, const Interner& types);

}  // namespace rq
