// Group strategies of HyperQueue's resource requests, as its allocator
// (crates/tako/src/internal/worker/resources/) implements them: how many
// units of an indexed pool to take from each group (NUMA node, socket).
//
//   compact   the groups HyperQueue's solver picks (fewest, then least
//             free: best fit), the amount split evenly round robin
//   tight     the same groups, filled best fit, else the largest emptied
//   compact!  / tight!  as above, but only when those groups are as good as
//             on an idle worker (docs/pools.md); otherwise it waits
//   scatter   one unit at a time round all groups, from the first
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace rq::pools {

enum class Strategy { kCompact, kCompactStrict, kTight, kTightStrict, kScatter };

// Parses compact, compact!, tight, tight!, scatter.
std::optional<Strategy> parse_strategy(std::string_view word);
const char* strategy_name(Strategy s);

// Amount to take from each group, or nullopt when `amount` units cannot be
// taken under the strategy. `free[g]` is what group g has now,
// `capacity[g]` what it has when idle (for the strict forms).
std::optional<std::vector<int64_t>> choose_groups(Strategy strategy, int64_t amount,
                                                  const std::vector<int64_t>& free,
                                                  const std::vector<int64_t>& capacity);

// Fewest groups whose `amounts` reach `amount` (greedy on the largest),
// or -1 if the total is short.
int64_t fewest_groups(int64_t amount, const std::vector<int64_t>& amounts);

}  // namespace rq::pools
