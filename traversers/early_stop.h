// Early stop of spec/traversal.md §4.4: a walk over a vertex's children in
// the policy's order (first-family policies) stops once every type of the
// request has `multiplier` shares among the children scored so far, and a
// child of a type already satisfied is skipped. Shared by the ordinary
// child walk (dfu_select.cc) and the slot filled from below the node
// (dfu_slot_below.cc), which must stop at the same child.
#pragma once

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "policies/match_policy.h"
#include "policies/scoring.h"

namespace rq {

class EarlyStop {
public:
    // The shares of one requested type: units found add up, one share per
    // `per_share` of them (the excess dropped), `multiplier` shares satisfy
    // it. A keep proof replays it over another child order
    // (queue/kept_reservations.cc).
    struct Shares {
        int64_t per_share = 0, multiplier = 0, acc = 0, count = 0;
        void add(int64_t units) {
            if (units <= 0) return;
            acc += units;
            if (per_share > 0 && acc >= per_share) {
                count += 1;
                acc = 0;
            }
        }
        bool satisfied() const { return per_share == 0 || count >= multiplier; }
    };

    EarlyStop(const std::vector<JobResource>& request, int64_t multiplier) {
        for (const JobResource& r : request) tallies_.push_back({r.type, 0, {effective_max(r), multiplier}});
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
            tally.prev = std::max(tally.prev, total);
            tally.shares.add(last_added_);
            if (tally.shares.satisfied()) tally.satisfied = true;
            all = all && tally.satisfied;
        }
        return all;
    }

    // For a request of one type: how much the last child scored added to
    // its tally, and its shares before any child.
    bool single() const { return tallies_.size() == 1; }
    int64_t last_added() const { return last_added_; }
    Shares unstarted() const { return {tallies_.front().shares.per_share, tallies_.front().shares.multiplier}; }

private:
    int64_t last_added_ = 0;
    struct Tally {
        TypeId type;
        int64_t prev = 0;
        Shares shares;
        bool satisfied = false;
    };
    // Inline: a walk makes one per vertex whose children it walks, and a
    // request lists one or two types (a heap vector was a tenth of a busy
    // replay's allocations, docs/replay-performance.md "Third round").
    boost::container::small_vector<Tally, 2> tallies_;
};

}  // namespace rq
