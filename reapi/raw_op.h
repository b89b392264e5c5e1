// Clients pass match ops as raw integers (spec/reapi.md §2, Go's cgo), and
// an integer outside match_op_t's values is undefined to load as the enum
// (UBSan's enum check stops there). Entry points read the parameter's bytes
// as an int instead and validate that.
#pragma once

#include <cstring>

#include "resource/policies/base/match_op.h"
#include "resource/reapi/bindings/c/resource_status.h"

namespace rq::reapi {

inline int raw_match_op(const match_op_t& op) {
    static_assert(sizeof(int) == sizeof(match_op_t), "match_op_t is int-sized in C");
    int value;
    std::memcpy(&value, &op, sizeof value);
    return value;
}

inline bool valid_match_op(int op) { return op > MATCH_UNKNOWN && op < END_MATCH_OP_T; }

// resource_status_t likewise: clients pass any int (set_status(ctx, p, 5)
// must be EINVAL, not undefined behaviour).
inline int raw_status(const resource_status_t& status) {
    static_assert(sizeof(int) == sizeof(resource_status_t), "resource_status_t is int-sized in C");
    int value;
    std::memcpy(&value, &status, sizeof value);
    return value;
}

}  // namespace rq::reapi
