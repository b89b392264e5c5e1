// Group strategies of HyperQueue's resource requests: how many units of an
// indexed pool to take from each group (NUMA node, socket) of a worker.
//
//   compact   fewest groups in the current state, taking the emptiest
//             (most free) groups first
//   tight     fewest groups in the current state, taking the fullest
//             groups that still make it (leaves whole groups free)
//   compact!  / tight!  as above, but only when the request fits in as few
//             groups as it would on an idle worker; otherwise it waits
//   scatter   as many groups as possible, spread evenly
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
