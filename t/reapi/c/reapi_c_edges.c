/* Graphs whose JGF lists containment edges in both directions (the form
 * of fluxion-go's test data: each "contains" edge listed again as "in"),
 * and random such graphs with duplicated edges: every operation must
 * return. Each call runs under a watchdog alarm that fails the program
 * (exit 3, naming the call) instead of hanging ctest. The graphs have at
 * most 14 vertices and 40 edges, so a walk of O(vertices x edges) steps
 * takes microseconds and the watchdog's WATCHDOG_S seconds (ASan
 * included) stand for "never returned", not for a timing goal. */
#define _POSIX_C_SOURCE 200809L
#include "reapi_c_test.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>

#define WATCHDOG_S 60
#define BOTH JS ("both-directions.json")

static const char *volatile watched_call = "";
static volatile unsigned watched_seed = 0;
static unsigned graphs_loaded = 0; /* random graphs initialize accepted */

static void watchdog_fired (int sig)
{
    static const char head[] = "reapi_c_edges: FAIL: watchdog: ";
    static const char tail[] = " did not return (graph seed in the source)\n";
    const char *call = watched_call;
    (void)sig;
    (void)!write (2, head, sizeof head - 1);
    (void)!write (2, call, strlen (call));
    (void)!write (2, tail, sizeof tail - 1);
    _exit (3);
}

static void watch (const char *call)
{
    watched_call = call;
    alarm (WATCHDOG_S);
}

static void unwatch (void)
{
    alarm (0);
}

static void install_watchdog (void)
{
    struct sigaction sa;
    memset (&sa, 0, sizeof sa);
    sa.sa_handler = watchdog_fired;
    sigemptyset (&sa.sa_mask);
    sigaction (SIGALRM, &sa, NULL);
}

/* One node and one core of it, as a bare JGF (no scheduling key). */
static const char *const bare_node0 =
    "{\"graph\": {\"nodes\": ["
    "{\"id\": \"2\", \"metadata\": {\"type\": \"core\", \"id\": 0, \"rank\": 0,"
    " \"exclusive\": true, \"paths\": {\"containment\": \"/cluster0/node0/core0\"}}},"
    "{\"id\": \"1\", \"metadata\": {\"type\": \"node\", \"id\": 0, \"rank\": 0,"
    " \"exclusive\": true, \"paths\": {\"containment\": \"/cluster0/node0\"}}}],"
    " \"edges\": [{\"source\": \"1\", \"target\": \"2\"}]}}";

/* The defect as filed: allocate both nodes of the 5-vertex graph, then
 * partially cancel one node and its core; then every other operation. */
static void test_both_directions (void)
{
    char *g = fixture (BOTH);
    char *two = fixture (JS ("two-nodes.yaml"));
    char *core = fixture (JOBS ("core.yaml"));
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    uint64_t id = 0;
    bool res = false, full = true;
    char *R = NULL, *mode = NULL;
    const char *Rc = NULL;
    int64_t at = 0;
    double ov = 0;
    int rc;

    watch ("initialize");
    rc = reapi_cli_initialize (ctx, g, "{\"load_format\": \"jgf\"}");
    unwatch ();
    CHECK (rc == 0, "initialize the graph with edges both ways: errno %d", errno);
    CHECK (err_contains (ctx, "initialize: WARNING: dropped 4 edge(s)"),
           "the reverse edges are dropped with a warning");

    watch ("match allocate");
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    unwatch ();
    CHECK (rc == 0 && id == 1, "two nodes allocated: errno %d", errno);
    free (R);
    R = NULL;

    watch ("partial_cancel");
    rc = reapi_cli_partial_cancel (ctx, 1, bare_node0, false, &full);
    unwatch ();
    CHECK (rc == 0 && !full, "partial cancel of node0 returns, job kept: rc %d", rc);
    rc = reapi_cli_info (ctx, 1, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "ALLOCATED") == 0, "job 1 still allocated");
    free (mode);

    /* node0 is free again: a core there fits, and nothing else does */
    watch ("match allocate core");
    rc = reapi_cli_match_allocate (ctx, false, core, &id, &res, &R, &at, &ov);
    unwatch ();
    CHECK (rc == 0 && id == 2 && R && strstr (R, "node0"), "node0 freed: %s",
           R ? R : "(null)");
    free (R);
    R = NULL;

    watch ("cancel");
    CHECK (reapi_cli_cancel (ctx, 1, false) == 0, "cancel job 1");
    CHECK (reapi_cli_cancel (ctx, 2, false) == 0, "cancel job 2");
    unwatch ();

    watch ("update_allocate");
    rc = reapi_cli_update_allocate (ctx, 7, bare_node0, &at, &ov, &Rc);
    unwatch ();
    CHECK (rc == 0, "update_allocate of a bare JGF: errno %d", errno);
    free ((void *)Rc);

    watch ("find");
    rc = reapi_cli_find (ctx, "status=up", "jgf", &R);
    unwatch ();
    CHECK (rc == 0 && R && strstr (R, "node1"), "find");
    free (R);
    R = NULL;

    watch ("remove_subgraph");
    rc = reapi_cli_remove_subgraph (ctx, "/cluster0/node1");
    unwatch ();
    CHECK (rc == 0, "remove node1: errno %d", errno);

    watch ("match after remove");
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    unwatch ();
    CHECK (rc == -1, "two nodes no longer exist");
    reapi_cli_destroy (ctx);
    free (g);
    free (two);
    free (core);
}

/* ---- random graphs ------------------------------------------------------ */

static uint64_t rng_state;

static unsigned rnd (unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % n);
}

struct text {
    char buf[32768];
    size_t len;
};

static void put (struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start (ap, fmt);
    t->len += (size_t)vsnprintf (t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end (ap);
}

#define MAXV 14

/* A cluster, 1-3 nodes (rank = node index), each with 0-2 sockets of 1-3
 * cores (or cores right under the node). Each tree edge is listed forward,
 * backward, or both (either order); some are listed twice (the reader
 * refuses a repeated edge, as the original's does: spec/readers.md §1.3). */
static void random_jgf (struct text *t, unsigned *nodes)
{
    char path[MAXV][96];
    int parent[MAXV], rank[MAXV];
    const char *type[MAXV];
    int id[MAXV], n = 0, i, first = 1;
    unsigned k, s, c, nsock, ncore;

    type[0] = "cluster", id[0] = 0, parent[0] = -1, rank[0] = -1;
    snprintf (path[0], sizeof path[0], "/cluster0");
    n = 1;
    *nodes = 1 + rnd (3);
    for (k = 0; k < *nodes; k++) {
        int node = n++;
        type[node] = "node", id[node] = (int)k, parent[node] = 0, rank[node] = (int)k;
        snprintf (path[node], sizeof path[node], "/cluster0/node%u", k);
        nsock = rnd (3);
        for (s = 0; s < (nsock ? nsock : 1); s++) {
            int above = node;
            if (nsock) {
                above = n++;
                type[above] = "socket", id[above] = (int)s, parent[above] = node;
                rank[above] = (int)k;
                snprintf (path[above], sizeof path[above], "/cluster0/node%u/socket%u", k, s);
            }
            ncore = 1 + rnd (3);
            for (c = 0; c < ncore && n < MAXV; c++) {
                int v = n++;
                type[v] = "core", id[v] = (int)(s * 3 + c), parent[v] = above;
                rank[v] = (int)k;
                if (nsock)
                    snprintf (path[v], sizeof path[v], "/cluster0/node%u/socket%u/core%d", k, s,
                              id[v]);
                else
                    snprintf (path[v], sizeof path[v], "/cluster0/node%u/core%d", k, id[v]);
            }
            if (n >= MAXV - 2)
                break;
        }
        if (n >= MAXV - 4)
            break;
    }
    put (t, "{\"graph\": {\"nodes\": [");
    for (i = 0; i < n; i++)
        put (t, "%s{\"id\": \"%d\", \"metadata\": {\"type\": \"%s\", \"id\": %d, \"rank\": %d,"
             " \"paths\": {\"containment\": \"%s\"}}}", i ? ", " : "", i, type[i], id[i],
             rank[i], path[i]);
    put (t, "], \"edges\": [");
    for (i = 1; i < n; i++) {
        /* 0: forward, 1: backward, 2: forward then backward, 3: backward
         * then forward; one in forty listed twice */
        unsigned how = rnd (4), copies = rnd (40) == 0 ? 2 : 1;
        while (copies--) {
            if (how == 1 || how == 3)
                put (t, "%s{\"source\": \"%d\", \"target\": \"%d\", \"metadata\":"
                     " {\"name\": {\"containment\": \"in\"}}}", first ? "" : ", ", i,
                     parent[i]), first = 0;
            if (how != 1)
                put (t, "%s{\"source\": \"%d\", \"target\": \"%d\"}", first ? "" : ", ",
                     parent[i], i), first = 0;
            if (how == 2)
                put (t, ", {\"source\": \"%d\", \"target\": \"%d\", \"metadata\":"
                     " {\"name\": {\"containment\": \"in\"}}}", i, parent[i]);
        }
    }
    put (t, "]}}");
}

static void run_random_graph (unsigned seed)
{
    static const char *const specs[] = {JOBS ("core.yaml"), JOBS ("node-socket-core.yaml"),
                                        JOBS ("whole-node.yaml")};
    static const char rv1_rank0[] =
        "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\","
        " \"children\": {\"core\": \"0\"}}]}}";
    struct text t;
    unsigned nodes, i;
    char *spec = fixture (JOBS ("core.yaml"));
    char *other = fixture (specs[seed % 3]);
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    uint64_t id = 0;
    bool res = false, full = false, sat = false;
    char *R = NULL, *found = NULL;
    const char *Rc = NULL;
    int64_t at = 0;
    double ov = 0;

    rng_state = seed;
    t.len = 0;
    random_jgf (&t, &nodes);
    watched_seed = seed;
    watch ("initialize (random graph)");
    if (reapi_cli_initialize (ctx, t.buf, "{\"load_format\": \"jgf\"}") != 0) {
        unwatch ();
        reapi_cli_destroy (ctx); /* e.g. a duplicated edge: refused, fine */
        free (spec);
        free (other);
        return;
    }
    graphs_loaded++;
    for (i = 0; i < 3; i++) {
        watch ("match allocate (random graph)");
        if (reapi_cli_match_allocate (ctx, i == 2, i ? other : spec, &id, &res, &R, &at, &ov) == 0) {
            watch ("partial_cancel jgf (random graph)");
            (void)reapi_cli_partial_cancel (ctx, id, R, true, &full);
            watch ("update_allocate (random graph)");
            if (reapi_cli_update_allocate (ctx, 100 + i, R, &at, &ov, &Rc) == 0)
                free ((void *)Rc);
            watch ("partial_cancel rv1exec (random graph)");
            (void)reapi_cli_partial_cancel (ctx, 100 + i, rv1_rank0, true, &full);
            free (R);
            R = NULL;
        }
        watch ("find (random graph)");
        if (reapi_cli_find (ctx, "status=up", "jgf", &found) == 0)
            free (found);
        watch ("satisfiability (random graph)");
        (void)reapi_cli_match_satisfy (ctx, other, &sat, &ov);
    }
    watch ("cancel (random graph)");
    for (i = 1; i <= 3; i++)
        (void)reapi_cli_cancel (ctx, i, true);
    (void)reapi_cli_cancel (ctx, 100, true);
    watch ("remove_subgraph (random graph)");
    (void)reapi_cli_remove_subgraph (ctx, "/cluster0/node0");
    watch ("match after remove (random graph)");
    if (reapi_cli_match_allocate (ctx, false, spec, &id, &res, &R, &at, &ov) == 0)
        free (R);
    unwatch ();
    reapi_cli_destroy (ctx);
    free (spec);
    free (other);
}

void test_edges_both_ways (void)
{
    unsigned seed;
    install_watchdog ();
    test_both_directions ();
    for (seed = 1; seed <= 150; seed++)
        run_random_graph (seed);
    CHECK (watched_seed == 150, "every random graph ran");
    /* most graphs load (a repeated edge is refused): the calls ran on them */
    fprintf (stderr, "reapi_c_edges: %u of 150 random graphs loaded\n", graphs_loaded);
    CHECK (graphs_loaded >= 75, "only %u random graphs loaded", graphs_loaded);
}
