// Resource requests in the syntax of each tool:
//
//   HyperQueue  cpus=8 "gpus/nvidia=2" mem=1024 cpus="8 scatter" cpus=all
//   canary      cpus=4,gpus=4          (1 cpu when cpus is not named)
//   CTest       2,gpus:2;gpus:4        (RESOURCE_GROUPS: groups of
//               requirements, each served by the slots of one instance)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pools/strategy.h"
#include "utilities/result.h"

namespace rq::pools {

struct PoolRequest {
    std::string name;
    int64_t amount = 0;  // ignored when `all`; 0 only in canary's form
    bool all = false;
    Strategy strategy = Strategy::kCompact;
};

struct CtestRequirement {
    std::string type;
    int64_t slots = 1;
};

struct Request {
    std::vector<PoolRequest> pools;                   // HyperQueue / canary
    std::vector<std::vector<CtestRequirement>> groups;  // CTest (pools empty)
    bool ctest = false;
    bool canary = false;  // comma form: 1 cpu unless cpus is named
};

// `text` is everything after the sub-command, as typed. Errors say which
// item is wrong and why.
Result<Request> parse_request(std::string_view text);

// CTest's RESOURCE_GROUPS property, read as CTest's lexer reads it: `N,`
// counts (0 allowed), empty parts, `;` alone and "" (no groups) as CTest
// has them; one pair of enclosing double quotes is dropped
// (docs/pools.md "Coming from CTest").
Result<Request> parse_resource_groups(std::string_view text);

// CTest's resource type names: ^[a-z_][a-z0-9_]*$
// (CMake Source/CTest/cmCTestResourceSpec.cxx:21).
bool is_ctest_type_name(std::string_view name);

}  // namespace rq::pools
