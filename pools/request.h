// Resource requests in the syntax of each tool, one tool per request
// (its dialect: the loaded pool format's, or `request --as`, docs/pools.md):
//
//   HyperQueue  cpus=8 "gpus/nvidia=2" mem=1024 cpus="8 scatter" cpus=all
//   canary      cpus=4,gpus=4          (1 cpu when cpus is not named)
//   CTest       2,gpus:2;gpus:4        (RESOURCE_GROUPS: groups of
//               requirements, each served by the slots of one instance)
#pragma once

#include <cstdint>
#include <optional>
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

// The tool whose syntax a request is written in, and whose variables
// -F env prints for it.
enum class Dialect { kHq, kCanary, kCtest };

// "hq", "canary", "ctest".
const char* dialect_name(Dialect d);
// `--as` values: hq, canary, ctest.
std::optional<Dialect> parse_dialect(std::string_view word);
// The dialect of a loaded pool format (-f ctest -> CTest, -f canary ->
// canary, anything else HyperQueue).
Dialect dialect_of_format(const std::string& load_format);

struct Request {
    std::vector<PoolRequest> pools;                   // HyperQueue / canary
    std::vector<std::vector<CtestRequirement>> groups;  // CTest (pools empty)
    Dialect dialect = Dialect::kHq;
    bool ctest() const { return dialect == Dialect::kCtest; }
};

// `text` is everything after the sub-command, as typed, read in
// `dialect`. Errors say which item is wrong and why.
Result<Request> parse_request(std::string_view text, Dialect dialect);

// `[--as DIALECT] ITEMS`, as a saved source or a replay template holds a
// request: without `--as` the text is read in `dialect`.
Result<Request> parse_request_text(std::string_view text, Dialect dialect);

// The text parse_request_text reads back as `items` in `dialect`.
std::string request_text(Dialect dialect, const std::string& items);

// CTest's RESOURCE_GROUPS property, read as CTest's lexer reads it: `N,`
// counts (0 allowed), empty parts, `;` alone and "" (no groups) as CTest
// has them; one pair of enclosing double quotes is dropped
// (docs/pools.md "Coming from CTest").
Result<Request> parse_resource_groups(std::string_view text);

// CTest's resource type names: ^[a-z_][a-z0-9_]*$
// (CMake Source/CTest/cmCTestResourceSpec.cxx:21).
bool is_ctest_type_name(std::string_view name);

}  // namespace rq::pools
