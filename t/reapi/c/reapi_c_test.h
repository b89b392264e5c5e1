/* Shared by the translation units of reapi_c_test (a C99 client of
 * libreapi_cli): fixtures, the machine, and the test groups. */
#ifndef REAPI_C_TEST_H
#define REAPI_C_TEST_H

#include <resource/reapi/bindings/c/reapi_cli.h>

#include "check.h"

#define JGF_MACHINE "t/reapi/data/four-nodes.json"
#define TINY "conf/tiny.graphml"
#define JS(name) "t/reapi/data/" name
#define JOBS(name) "t/data/jobspecs/" name

extern const char *src_dir; /* the source tree */
extern const char *rq_bin;  /* resource-query, for comparisons */

/* Text of SRC_DIR/rel (malloc'd; exits on a missing fixture). */
char *fixture (const char *rel);
/* A context on the four-node JGF machine with these options. */
reapi_cli_ctx_t *jgf_ctx (const char *options);
/* get_err_msg contains needle (the owned result is freed). */
int err_contains (reapi_cli_ctx_t *ctx, const char *needle);

/* reapi_c_test.c */
void test_match_op_helpers (void);
void test_null_context (void);
void test_initialize (void);
void test_match (void);
/* reapi_c_cli.c: R against resource-query, find */
void test_r_matches_cli (void);
void test_find (void);
/* reapi_c_jobs.c */
void test_cancel_info (void);
void test_bare_r (void);
void test_update_allocate (void);
void test_subgraph (void);
void test_status (void);
void test_clone (void);
void test_stat (void);
void test_err_msg (void);
/* reapi_c_edges.c: edges in both directions, random graphs, watchdog */
void test_edges_both_ways (void);
/* reapi_c_contract.c: out-parameters, errno classes, formats */
void test_contract (void);
/* reapi_c_extras.c */
void test_extras (void);
void leak_cycles (long n);

#endif
