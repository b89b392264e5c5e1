// Count resolution shared by all policies (spec/policies.md §1).
#include "policies/match_policy.h"

namespace rq {

uint32_t calc_count(const JobResource& r, uint32_t q) {
    const Count& c = r.count;
    if (c.min > c.max || c.min > q) return 0;
    switch (c.op) {
    case '+': {
        if (c.operand == 0) return 0;  // rejected by the parser; never divide by zero
        uint32_t n = std::min(q, c.max);
        return n - (n - c.min) % c.operand;
    }
    case '*': {
        uint32_t n = 0;
        uint64_t cur = c.min;
        while (cur <= q && cur <= c.max) {
            n = static_cast<uint32_t>(cur);
            cur = static_cast<uint32_t>(cur * c.operand);  // wraps as unsigned 32-bit
            if (c.operand < 2 || cur <= n) break;          // wrap-around guard
        }
        return n;
    }
    case '^': {
        if (c.operand < 2 || c.min == 1) return c.min;
        uint32_t n = 0;
        uint64_t cur = c.min;
        while (cur <= q && cur <= c.max) {
            n = static_cast<uint32_t>(cur);
            uint32_t base = n;
            uint32_t next = n;
            for (uint32_t i = 1; i < c.operand; ++i) next = next * base;  // wraps as unsigned 32-bit
            if (next <= n) break;  // wrap-around guard
            cur = next;
        }
        return n;
    }
    default: return 0;
    }
}

bool score_greater(const EGroup& a, const EGroup& b) { return a.score > b.score; }
bool score_less(const EGroup& a, const EGroup& b) { return a.score < b.score; }

}  // namespace rq
