// Early stop of spec/traversal.md §4.4: a walk over a vertex's children in
// the policy's order (first-family policies) stops once every type of the
// request has `multiplier` shares among the children scored so far, and a
// child of a type already satisfied is skipped. Shared by the ordinary
// child walk (dfu_select.cc) and the slot filled from below the node
// (dfu_slot_below.cc), which must stop at the same child.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "policies/match_policy.h"
#include "policies/scoring.h"

namespace rq {

class EarlyStop {
public:
    EarlyStop(const std::vector<JobResource>& request, int64_t multiplier) : multiplier_(multiplier) {
        for (const JobResource& r : request) tallies_.push_back({r.type, effective_max(r)});
    }

    // A child of this type adds nothing the walk still needs.
    bool satisfied(TypeId type) const {
        for (const Tally& tally : tallies_)
            if (tally.type == type && tally.satisfied) return true;
        return false;
    }

    // After a child was scored into `scores`: counts the shares it added;
    // true once every type is satisfied (the walk stops).
    bool update(const ScoreSet& scores, SubsystemId s) {
        bool all = true;
        for (Tally& tally : tallies_) {
            int64_t total = scores.total_count(s, tally.type);
            last_added_ = std::max<int64_t>(0, total - tally.prev);
            if (total > tally.prev) {
                tally.acc += total - tally.prev;
                tally.prev = total;
                if (tally.per_share > 0 && tally.acc >= tally.per_share) {
                    tally.shares += 1;
                    tally.acc = 0;
                }
            }
            if (tally.per_share == 0 || tally.shares >= multiplier_) tally.satisfied = true;
            all = all && tally.satisfied;
        }
        return all;
    }

    // For a request of one type: how much the last child scored added to
    // its tally, the units a share takes, and the shares that stop the
    // walk. A keep proof replays the tally over another child order
    // (queue/kept_reservations.cc).
    bool single() const { return tallies_.size() == 1; }
    int64_t last_added() const { return last_added_; }
    int64_t per_share() const { return tallies_.front().per_share; }
    int64_t multiplier() const { return multiplier_; }

private:
    int64_t last_added_ = 0;
    struct Tally {
        TypeId type;
        int64_t per_share, prev = 0, acc = 0, shares = 0;
        bool satisfied = false;
    };
    std::vector<Tally> tallies_;
    int64_t multiplier_;
};

}  // namespace rq
