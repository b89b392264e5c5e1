/* match_op_t: the match operations of the reapi_cli C API (spec/reapi.md
 * §2). Values 0 to 7 in this order are part of the ABI: clients pass raw
 * integers. C99 and C++. */
#ifndef RQ_REAPI_MATCH_OP_H
#define RQ_REAPI_MATCH_OP_H

#ifdef __cplusplus
extern "C" {
#else
#include <stdbool.h>
#endif

typedef enum match_op_t {
    MATCH_UNKNOWN = 0,
    MATCH_ALLOCATE = 1,
    MATCH_ALLOCATE_W_SATISFIABILITY = 2,
    MATCH_ALLOCATE_ORELSE_RESERVE = 3,
    MATCH_SATISFIABILITY = 4,
    MATCH_WITHOUT_ALLOCATING = 5,
    MATCH_WITHOUT_ALLOCATING_FUTURE = 6,
    END_MATCH_OP_T = 7
} match_op_t;

/* The resource-query subcommand name ("allocate", ...); "error" for an
 * invalid value. Static storage: never free it. */
const char *match_op_to_string (match_op_t match_op);

/* The op named by a subcommand name; MATCH_UNKNOWN for NULL or an
 * unknown name. */
match_op_t match_op_from_string (const char *str);

/* True for MATCH_ALLOCATE ... MATCH_WITHOUT_ALLOCATING_FUTURE. */
bool match_op_valid (match_op_t match_op);

#ifdef __cplusplus
}
#endif

#endif /* RQ_REAPI_MATCH_OP_H */
