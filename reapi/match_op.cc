// match_op_t helpers of the C API (spec/reapi.md §2): the names are the
// CLI's match subcommands.
#include "resource/policies/base/match_op.h"

#include <cstring>

#include "reapi/raw_op.h"

namespace {

const char* const kNames[] = {"error",          "allocate",           "allocate_with_satisfiability",
                              "allocate_orelse_reserve", "satisfiability", "without_allocating",
                              "without_allocating_future"};

}  // namespace

extern "C" {

bool match_op_valid(match_op_t op) { return rq::reapi::valid_match_op(rq::reapi::raw_match_op(op)); }

const char* match_op_to_string(match_op_t op) {
    const int raw = rq::reapi::raw_match_op(op);
    return rq::reapi::valid_match_op(raw) ? kNames[raw] : "error";
}

match_op_t match_op_from_string(const char* str) {
    if (str == nullptr) return MATCH_UNKNOWN;
    for (int op = MATCH_ALLOCATE; op < END_MATCH_OP_T; ++op)
        if (std::strcmp(str, kNames[op]) == 0) return static_cast<match_op_t>(op);
    return MATCH_UNKNOWN;
}

}  // extern "C"
