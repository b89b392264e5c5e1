#include "pools/strategy.h"

#include <algorithm>
#include <numeric>

namespace rq::pools {

std::optional<Strategy> parse_strategy(std::string_view w) {
    if (w == "compact") return Strategy::kCompact;
    if (w == "compact!") return Strategy::kCompactStrict;
    if (w == "tight") return Strategy::kTight;
    if (w == "tight!") return Strategy::kTightStrict;
    if (w == "scatter") return Strategy::kScatter;
    return std::nullopt;
}

const char* strategy_name(Strategy s) {
    switch (s) {
    case Strategy::kCompact: return "compact";
    case Strategy::kCompactStrict: return "compact!";
    case Strategy::kTight: return "tight";
    case Strategy::kTightStrict: return "tight!";
    case Strategy::kScatter: return "scatter";
    }
    return "compact";
}

namespace {

// Group indexes by free amount, largest first (ties: lower index first).
std::vector<size_t> by_free_desc(const std::vector<int64_t>& free) {
    std::vector<size_t> order(free.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return free[a] > free[b]; });
    return order;
}

bool short_of(int64_t amount, const std::vector<int64_t>& free) {
    int64_t total = 0;
    for (int64_t f : free) {
        total += f;
        if (total >= amount) return false;  // stop before any overflow
    }
    return true;
}

// HyperQueue's allocator (It4innovations/hyperqueue, crates/tako/src/internal/
// worker/resources/): groups.rs:19-60 chooses the groups of a compact or
// tight request by maximizing sum(-1024 - free/32) over the chosen groups,
// so the fewest groups, and among those the least free in total (best
// fit). In 32nds: cost = 32768 per group + its free units.
using Cost = __int128;
constexpr Cost kGroupCost = 32768;

Cost cost_of(const std::vector<size_t>& set, const std::vector<int64_t>& free) {
    Cost c = 0;
    for (size_t g : set) c += kGroupCost + free[g];
    return c;
}

// Greedy best fit for many groups: the `k` groups, each the least free one
// that still lets the largest remaining groups finish.
std::vector<size_t> greedy_set(int64_t amount, const std::vector<int64_t>& free, int64_t k) {
    std::vector<size_t> order = by_free_desc(free);  // largest first
    std::vector<bool> used(free.size(), false);
    std::vector<size_t> set;
    for (int64_t step = 0; step < k && amount > 0; ++step) {
        int64_t left = k - step - 1;
        auto reach_without = [&](size_t g) {
            int64_t sum = 0, n = 0;
            for (size_t h : order) {
                if (n == left || sum >= amount) break;
                if (used[h] || h == g) continue;
                sum += free[h], ++n;
            }
            return sum;
        };
        for (auto it = order.rbegin(); it != order.rend(); ++it) {  // smallest first
            size_t g = *it;
            if (used[g] || free[g] == 0) continue;
            if (free[g] >= amount || reach_without(g) >= amount - free[g]) {
                used[g] = true;
                set.push_back(g);
                amount -= std::min(free[g], amount);
                break;
            }
        }
    }
    std::sort(set.begin(), set.end());
    return set;
}

// The groups of least cost whose free units reach `amount` (ascending
// index); `k` is the fewest groups that can. Exact up to 12 groups.
std::vector<size_t> best_set(int64_t amount, const std::vector<int64_t>& free, int64_t k) {
    if (k == 1) {  // the least free group that holds it all; first on ties
        size_t best = free.size();
        for (size_t g = 0; g < free.size(); ++g)
            if (free[g] >= amount && (best == free.size() || free[g] < free[best])) best = g;
        // Two groups cost at least 2 * 32768 + 1: one of up to 32768 wins.
        if (free[best] <= kGroupCost || free.size() > 12) return {best};
    }
    if (free.size() > 12) return greedy_set(amount, free, k);
    std::vector<size_t> best;
    Cost best_cost = 0;
    for (unsigned mask = 1; mask < (1u << free.size()); ++mask) {
        std::vector<size_t> set;
        Cost sum = 0;
        for (size_t g = 0; g < free.size(); ++g)
            if ((mask >> g & 1u) && free[g] > 0) set.push_back(g), sum += free[g];
        if (set.size() != size_t(__builtin_popcount(mask)) || sum < amount) continue;
        Cost c = cost_of(set, free);
        if (best.empty() || c < best_cost) best = set, best_cost = c;
    }
    return best;
}

// pool.rs:180-231 (claim_scatter_from_groups): one unit at a time round
// the groups in index order, skipping the empty ones; so even shares,
// the earlier groups taking the remainder. Done a round at a time.
std::vector<int64_t> round_robin(int64_t amount, const std::vector<int64_t>& free, const std::vector<size_t>& set) {
    std::vector<int64_t> take(free.size(), 0);
    while (amount > 0) {
        std::vector<size_t> open;
        int64_t least = INT64_MAX;
        for (size_t g : set)
            if (free[g] > take[g]) open.push_back(g), least = std::min(least, free[g] - take[g]);
        if (open.empty()) break;
        int64_t n = int64_t(open.size());
        if (amount < n) {
            for (int64_t i = 0; i < amount; ++i) ++take[open[size_t(i)]];
            break;
        }
        int64_t rounds = std::min(amount / n, least);
        for (size_t g : open) take[g] += rounds;
        amount -= rounds * n;
    }
    return take;
}

// pool.rs:234-303 (claim_compact_from_groups): the least free group of
// the set that holds the rest takes it; else the largest (the last of
// equals, as Rust's max_by_key) gives all it has, and again.
std::vector<int64_t> fill_tight(int64_t amount, const std::vector<int64_t>& free, const std::vector<size_t>& set) {
    std::vector<int64_t> take(free.size(), 0);
    std::vector<int64_t> left = free;
    while (amount > 0) {
        size_t fit = free.size(), big = free.size();
        for (size_t g : set) {
            if (left[g] >= amount && (fit == free.size() || left[g] < left[fit])) fit = g;
            if (big == free.size() || left[g] >= left[big]) big = g;
        }
        size_t g = fit != free.size() ? fit : big;
        if (g == free.size() || left[g] == 0) break;
        int64_t n = std::min(left[g], amount);
        take[g] += n, left[g] -= n, amount -= n;
    }
    return take;
}

std::vector<size_t> all_groups(size_t n) {
    std::vector<size_t> set(n);
    std::iota(set.begin(), set.end(), 0);
    return set;
}

}  // namespace

int64_t fewest_groups(int64_t amount, const std::vector<int64_t>& amounts) {
    int64_t n = 0;
    for (size_t g : by_free_desc(amounts)) {
        if (amount <= 0) break;
        if (amounts[g] <= 0) break;
        amount -= std::min(amount, amounts[g]);
        ++n;
    }
    return amount > 0 ? -1 : n;
}

std::optional<std::vector<int64_t>> choose_groups(Strategy strategy, int64_t amount, const std::vector<int64_t>& free,
                                                  const std::vector<int64_t>& capacity) {
    if (amount <= 0 || short_of(amount, free)) return std::nullopt;
    // pool.rs:437-440: scatter takes no group set, all groups round robin.
    if (strategy == Strategy::kScatter) return round_robin(amount, free, all_groups(free.size()));
    int64_t now = fewest_groups(amount, free);
    std::vector<size_t> set = best_set(amount, free, now);
    if (strategy == Strategy::kCompactStrict || strategy == Strategy::kTightStrict) {
        // allocator.rs:145-166: only as good as the best set on the idle
        // worker (its objective less 0.1, i.e. 3.2 in 32nds).
        int64_t idle = fewest_groups(amount, capacity);
        if (idle < 0 || cost_of(set, free) > cost_of(best_set(amount, capacity, idle), capacity) + 3) return std::nullopt;
    }
    // pool.rs:390-397: compact splits evenly over its groups, tight fills them.
    bool even = strategy == Strategy::kCompact || strategy == Strategy::kCompactStrict;
    return even ? round_robin(amount, free, set) : fill_tight(amount, free, set);
}

}  // namespace rq::pools
