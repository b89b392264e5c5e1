// IdOrder: how an ID-based policy (high, low, hinode, lonode, hinodex,
// lonodex and custom strings without early stop) ranks candidates
// (spec/policies.md §4). A policy states it (MatchPolicy::id_order()); the
// traverser builds its ordered child index from it
// (traversers/select_order.h).
#pragma once

namespace rq {

struct IdOrder {
    bool high = true;          // greater scores first (else lower first)
    bool node_centric = false; // node factor on
    bool operator==(const IdOrder& o) const { return high == o.high && node_centric == o.node_centric; }
};

}  // namespace rq
