// Resource pools as HyperQueue, canary and CTest describe them: a machine
// is a list of workers, a worker a list of named pools, a pool a list of
// groups of instances (an index of HyperQueue, an `{id, slots}` of canary
// and CTest) or one sum pool of a given size.
//
//   parse_pool_definition("cpus", "2x4")     4 cpus in each of 2 groups
//   parse_pool_definition("mem", "sum(64)")  one sum pool of 64 units
//
// Amounts are int64_t throughout: memory in bytes exceeds 32 bits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "utilities/result.h"

namespace rq::pools {

// One allocatable instance: an index (slots 1) or a canary/CTest resource
// instance with several slots.
struct PoolItem {
    std::string id;
    int64_t slots = 1;
};

struct Pool {
    std::string name;
    bool sum = false;   // sum(N): one instance of `size` units, no identity
    int64_t size = 0;   // sum pools only
    bool grouped = false;  // groups become a graph level (NUMA/socket)
    std::vector<std::vector<PoolItem>> groups;  // one group when not grouped
};

// `count` workers alike: named `name` when count is 1 and not numbered,
// else name0, name1, ... (the hq loader's `count`).
struct Worker {
    std::string name;
    std::vector<Pool> pools;
    int64_t count = 1;
    bool numbered = false;
};

struct Machine {
    std::vector<Worker> workers;
    // Lines for stderr about input read but ignored, each naming the file
    // and the place (CTest's ignored keys, docs/pools.md "Coming from CTest").
    std::vector<std::string> warnings;
};

// Largest amount anywhere: sizes, slots and requests are at most 2^63-1.
inline constexpr int64_t kMaxAmount = INT64_MAX;

// HyperQueue's five definition forms: `[a, "b c"]`, `range(S-E)`,
// `[[a, b], [c]]`, `NxM`, `sum(N)`. Errors name the pool and the problem.
Result<Pool> parse_pool_definition(std::string_view name, std::string_view definition);

// "NAME=DEF" of `--resource`.
Result<Pool> parse_resource_argument(std::string_view argument);

// Pool names: non-empty, no whitespace, no '=', no quotes.
Status check_pool_name(std::string_view name);

// HyperQueue's stricter rule for the names it defines (`--resource`, the hq
// loader): a letter, then letters, digits and '/' (docs/pools.md).
Status check_hq_pool_name(std::string_view name);

// The pool in HyperQueue's syntax (hwdetect output): compact forms where
// they apply (`range(0-3)`, `2x4`, `sum(N)`), lists otherwise.
std::string format_pool_definition(const Pool& pool);

// A non-negative decimal integer up to 2^63-1; false on anything else.
bool parse_amount(std::string_view text, int64_t& out);

}  // namespace rq::pools
