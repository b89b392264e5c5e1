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

std::vector<int64_t> compact(int64_t amount, const std::vector<int64_t>& free) {
    std::vector<int64_t> take(free.size(), 0);
    for (size_t g : by_free_desc(free)) {
        if (amount == 0) break;
        take[g] = std::min(free[g], amount);
        amount -= take[g];
    }
    return take;
}

// k groups (k minimal): at each step the group with the least free that
// still lets the remaining steps finish with the largest groups left.
std::vector<int64_t> tight(int64_t amount, const std::vector<int64_t>& free, int64_t k) {
    std::vector<int64_t> take(free.size(), 0);
    std::vector<size_t> order = by_free_desc(free);  // largest first
    std::vector<bool> used(free.size(), false);
    for (int64_t step = 0; step < k && amount > 0; ++step) {
        int64_t left = k - step - 1;
        // What the `left` largest unused groups can hold, excluding g.
        auto reach_without = [&](size_t g) {
            int64_t sum = 0, n = 0;
            for (size_t h : order) {
                if (n == left) break;
                if (used[h] || h == g) continue;
                sum += free[h];
                ++n;
                if (sum >= amount) break;
            }
            return sum;
        };
        size_t best = free.size();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {  // smallest first
            size_t g = *it;
            if (used[g] || free[g] == 0) continue;
            if (free[g] >= amount || reach_without(g) >= amount - free[g]) {
                best = g;
                break;
            }
        }
        if (best == free.size()) return compact(amount, free);  // cannot happen with k minimal
        used[best] = true;
        take[best] = std::min(free[best], amount);
        amount -= take[best];
    }
    return take;
}

std::vector<int64_t> scatter(int64_t amount, const std::vector<int64_t>& free) {
    std::vector<int64_t> take(free.size(), 0);
    int64_t nonempty = 0;
    for (int64_t f : free) nonempty += f > 0;
    if (amount <= nonempty) {  // one each from the groups with most free
        for (size_t g : by_free_desc(free)) {
            if (amount == 0) break;
            take[g] = 1;
            --amount;
        }
        return take;
    }
    // Water-filling: raise a common level until the amount is placed; the
    // groups that cannot reach the level give all they have.
    std::vector<size_t> order = by_free_desc(free);
    std::reverse(order.begin(), order.end());  // smallest first
    size_t open = 0;
    for (size_t g : order) open += free[g] > 0;
    int64_t left = amount;
    for (size_t g : order) {
        if (free[g] == 0) continue;
        int64_t share = left / int64_t(open) + (left % int64_t(open) != 0);
        take[g] = std::min(free[g], share);
        left -= take[g];
        --open;
    }
    // Rounding may leave a remainder that a larger group can still take.
    for (size_t g : order) {
        if (left == 0) break;
        int64_t more = std::min(free[g] - take[g], left);
        take[g] += more;
        left -= more;
    }
    return take;
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
    int64_t now = fewest_groups(amount, free);
    switch (strategy) {
    case Strategy::kCompact: return compact(amount, free);
    case Strategy::kTight: return tight(amount, free, now);
    case Strategy::kCompactStrict:
    case Strategy::kTightStrict: {
        int64_t idle = fewest_groups(amount, capacity);
        if (idle < 0 || now > idle) return std::nullopt;
        return strategy == Strategy::kCompactStrict ? compact(amount, free) : tight(amount, free, now);
    }
    case Strategy::kScatter: return scatter(amount, free);
    }
    return std::nullopt;
}

}  // namespace rq::pools
