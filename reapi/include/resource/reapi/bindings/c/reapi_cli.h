/* reapi_cli: the matcher as a library, a drop-in for Fluxion's flat C API
 * of the same name (spec/reapi.md). C99 and C++.
 *
 * Include it as "resource/reapi/bindings/c/reapi_cli.h" (install root's
 * include/ on the include path) or as <reapi_cli.h> (with
 * include/resource/reapi/bindings/c on the include path); both work from
 * the build tree (reapi/include) and after `cmake --install`. Link with
 * -lreapi_cli (in $prefix/lib and $prefix/lib/flux; `pkg-config reapi_cli`
 * prints both flags). No flux-core is needed: the extra libraries of the
 * original's link line (-lflux-core, -lflux-idset, -ljansson, ...) are
 * not needed and may be omitted.
 *
 * Conventions: every int function returns 0 on success, -1 with errno set
 * on failure. Strings returned through char ** (and the two const char *
 * results marked "owned") are malloc'd: release them with free () (or
 * reapi_cli_free () from a foreign-function caller). On failure no output
 * string is written.
 *
 * Threads: every function may be called from any thread. Independent
 * contexts share no mutable state (graph, job table, error messages, name
 * tables are all per context) and run concurrently. Calls on one context
 * are serialized by a mutex inside the context: several threads may share
 * one context without a lock of their own (they then take turns).
 * reapi_cli_destroy must not race with other calls on the same context.
 *
 * Environment: REAPI_CLI_LEGACY_MATCH=1 (read by reapi_cli_new) restores
 * the behaviour of flux-sched before v0.52 for that context: a match that
 * does not fit (EBUSY) or can never fit (ENODEV) returns 0 with an empty
 * R ("") instead of -1.
 */
#ifndef RQ_REAPI_CLI_H
#define RQ_REAPI_CLI_H

/* <stdlib.h> too: clients release results with free () (Go's C.free),
 * and the original's header brings it in through <flux/core.h>. */
#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#endif

/* Relative paths, so that both include styles find them. */
#include "../../../policies/base/match_op.h"
#include "resource_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct reapi_cli_ctx reapi_cli_ctx_t;

/* ---- the original's functions (same names, prototypes, semantics) ---- */

/* An empty context; NULL (errno ENOMEM) when out of memory. */
reapi_cli_ctx_t *reapi_cli_new (void);

/* Frees ctx and everything it holds; keeps errno. NULL is a no-op. */
void reapi_cli_destroy (reapi_cli_ctx_t *ctx);

/* Builds the graph from the text rgraph (not a file name) with the JSON
 * object options: load_format (grug, jgf, jgf_shorthand, rv1exec, hwloc;
 * a JGF given with the grug default is recognised), load_allowlist,
 * matcher_name, matcher_policy, traverser_policy, match_format (default
 * jgf), prune_filters, reserve_vtx_vec, elapse_time. Unknown keys are
 * ignored; "" or non-JSON options, an unknown load_format, matcher_name or
 * matcher_policy, a negative reserve_vtx_vec fail with EPROTO, as reader
 * errors do. A second initialize fails with EINVAL. */
int reapi_cli_initialize (reapi_cli_ctx_t *ctx, const char *rgraph, const char *options);

/* An independent deep copy; NULL with EINVAL for NULL or an uninitialised
 * ctx. The copy is made by replaying, on a fresh context, every
 * state-changing call of ctx that succeeded (and every attach, remove,
 * cancel, update and status change): a context keeps that history, so its
 * memory and clone's cost grow with the number of such calls. */
reapi_cli_ctx_t *reapi_cli_clone (reapi_cli_ctx_t *ctx);

/* Matches jobspec (text, YAML or JSON) with the next job id (first: 1;
 * MATCH_WITHOUT_ALLOCATING* use UINT64_MAX and consume none). errno: EINVAL
 * (bad op, jobspec error), EBUSY (does not fit now), ENODEV (can never
 * fit). *R is the CLI writer's text in the context's match_format. On
 * entry *at = 0, *reserved = false, *ov = 0; *reserved is true only for a
 * reservation (MATCH_WITHOUT_ALLOCATING_FUTURE: at > 0, not reserved).
 * match_with_jobid refuses UINT64_MAX (EINVAL). */
int reapi_cli_match (reapi_cli_ctx_t *ctx, match_op_t match_op, const char *jobspec, uint64_t *jobid,
                     bool *reserved, char **R, int64_t *at, double *ov);

int reapi_cli_match_with_jobid (reapi_cli_ctx_t *ctx, match_op_t match_op, const char *jobspec,
                                uint64_t jobid, bool *reserved, char **R, int64_t *at, double *ov);

int reapi_cli_match_allocate (reapi_cli_ctx_t *ctx, bool orelse_reserve, const char *jobspec,
                              uint64_t *jobid, bool *reserved, char **R, int64_t *at, double *ov);

int reapi_cli_match_satisfy (reapi_cli_ctx_t *ctx, const char *jobspec, bool *sat, double *ov);

/* Records an allocation made elsewhere, as ALLOCATED (a future starttime
 * too). EEXIST if jobid is live. *R_out (owned) is the R as recorded. */
int reapi_cli_update_allocate (reapi_cli_ctx_t *ctx, const uint64_t jobid, const char *R, int64_t *at,
                               double *ov, const char **R_out);

/* Grows the graph from JGF text, as `attach`. */
int reapi_cli_add_subgraph (reapi_cli_ctx_t *ctx, const char *R_subgraph);

/* Shrinks it by containment path, as `remove PATH true`. */
int reapi_cli_remove_subgraph (reapi_cli_ctx_t *ctx, const char *subgraph_path);

/* Full cancel; an unknown job is ENOENT unless noent_ok. */
int reapi_cli_cancel (reapi_cli_ctx_t *ctx, const uint64_t jobid, bool noent_ok);

/* Releases the part of jobid described by R (rv1exec, read by the ranks
 * of R_lite, execution.nodelist optional; or JGF: with a scheduling key
 * or bare). *full_removal: nothing of the job is left (false on entry). */
int reapi_cli_partial_cancel (reapi_cli_ctx_t *ctx, const uint64_t jobid, const char *R, bool noent_ok,
                              bool *full_removal);

/* The job's state: *mode (owned) is INIT, ALLOCATED, RESERVED, CANCELED
 * or ERROR. Unknown job: ENOENT (*reserved, *at, *ov are then false and 0). */
int reapi_cli_info (reapi_cli_ctx_t *ctx, const uint64_t jobid, char **mode, bool *reserved, int64_t *at,
                    double *ov);

/* Resources matching a find expression, as compact JSON in format (NULL:
 * the context's match_format); nothing matched: *R = NULL, success. */
int reapi_cli_find (reapi_cli_ctx_t *ctx, const char *criteria, const char *format, char **R);

/* Vertices, edges, jobs, graph load time and min/max/avg match time (the
 * original: always ENOSYS). */
int reapi_cli_stat (reapi_cli_ctx_t *ctx, int64_t *V, int64_t *E, int64_t *J, double *load, double *min,
                    double *max, double *avg);

/* Every message since the last clear, concatenated (owned; never NULL). */
const char *reapi_cli_get_err_msg (reapi_cli_ctx_t *ctx);

void reapi_cli_clear_err_msg (reapi_cli_ctx_t *ctx);

/* Up/down by containment path; unknown path: EINVAL. */
int reapi_cli_set_status (reapi_cli_ctx_t *ctx, const char *resource_path, resource_status_t status);
int reapi_cli_get_status (reapi_cli_ctx_t *ctx, const char *resource_path, resource_status_t *status);

/* Up/down by broker rank: ranks is an RFC 22 idset or "all" (unknown
 * ranks ignored); get takes exactly one rank. Invalid or unknown: EINVAL. */
int reapi_cli_set_rank_status (reapi_cli_ctx_t *ctx, const char *ranks, resource_status_t status);
int reapi_cli_get_rank_status (reapi_cli_ctx_t *ctx, const char *rank, resource_status_t *status);

/* ---- extras of ours (not in the original) ---------------------------- */

/* The message and errno of the last failed call on ctx only (not
 * accumulated; "" and 0 after a success). The string is malloc'd (never
 * NULL unless out of memory); *errnum may be NULL. */
char *reapi_cli_last_error (reapi_cli_ctx_t *ctx, int *errnum);

/* free (p), for callers that cannot reach the C library's free. */
void reapi_cli_free (void *p);

/* The library's version, e.g. "0.1.0" (static storage). */
const char *reapi_cli_version (void);

/* All or nothing: matches the n jobspecs in order with consecutive job
 * ids; if one fails, the ones before it are cancelled, no id is consumed
 * and errno is that of the failure (*failed_index, if given, says which).
 * On success jobids[i], reserved[i], R[i] (malloc'd) and at[i] are
 * written for each i; any of the arrays may be NULL. *ov is the wall time
 * of the whole call. */
int reapi_cli_match_all (reapi_cli_ctx_t *ctx, match_op_t match_op, const char *const *jobspecs, size_t n,
                         uint64_t *jobids, bool *reserved, char **R, int64_t *at, double *ov,
                         size_t *failed_index);

#ifdef __cplusplus
}
#endif

#endif /* RQ_REAPI_CLI_H */
