// The long help of `help CMD`: every argument of each command (and, for
// find, every key and operator). `help` alone keeps the reference's
// one-line list.
#include <map>
#include <string>

#include "cli/command_table.h"

namespace rq {

namespace {

const char* kMatch = R"(usage: match SUB JOBSPEC [--explain]
  SUB is one of:
    allocate                      allocate now, or report that nothing fits now
    allocate_orelse_reserve       allocate now, else reserve at the earliest time it fits
    allocate_with_satisfiability  allocate now; if it fails, also say whether it could
                                  ever fit ("Unsatisfiable request")
    satisfiability                only say whether the request could ever fit
    without_allocating            find a match now but record nothing
    without_allocating_future     find the earliest match but record nothing
  JOBSPEC  a jobspec file (RFC 14 canonical jobspec, YAML or JSON)
  A recorded job gets the next job id; see list, info, cancel.
  --explain  when nothing matches, name the first level of the jobspec that no
             vertex can hold and where the resources are instead
)";

const char* kMultiMatch = R"(usage: multi-match SUB JOBSPEC1 JOBSPEC2 [JOBSPEC...]
  SUB      as for match (allocate, allocate_orelse_reserve, ...)
  JOBSPEC  two or more jobspec files, matched in turn; stops after the first
           one that does not match (an unreadable file does not stop it)
)";

const char* kUpdate = R"(usage: update SUB READER R_FILE JOBID AT DURATION
  SUB       allocate | reserve (both record the job; AT decides which it is)
  READER    jgf | jgf_shorthand | rv1exec: the format of R_FILE
  R_FILE    the resource set the job holds (e.g. the output of -F jgf or rv1)
  JOBID     the job id to record it under (must not be allocated or reserved)
  AT        start time in seconds (0 = now: ALLOCATED; later: RESERVED)
  DURATION  length in seconds (not 0)
  The job counter continues after JOBID.
)";

const char* kAttach = R"(usage: attach JGF_FILE
  JGF_FILE  a JGF graph to add to the loaded graph; vertices already present
            (same path and rank) are reused, new ones are created
)";

const char* kRemove = R"(usage: remove TARGET true|false
  true   TARGET is a resource path (e.g. /cluster0/rack0/node1): remove that
         vertex and its whole subtree
  false  TARGET is an idset of ranks (e.g. 3, 1-3, [0,2]): remove every
         vertex of those ranks
)";

const char* kFind = R"(usage: find EXPRESSION
  EXPRESSION  terms KEY=VALUE joined by `and`, `or`, or nothing (= and),
              evaluated left to right with equal precedence
              (`a or b and c` is `(a or b) and c`); `( ... )` groups terms.
  Keys (values are case-insensitive):
    status=up|down                a resource or one of its ancestors is down
    sched-now=allocated|free      allocated now (itself or an ancestor)
    sched-future=reserved|free    reserved in the future (itself or an ancestor)
    agfilter=true|t|false|f       always true; true also prints each vertex's
                                  aggregate use (used:U, total:T) per type
    names=HOSTLIST                the vertex name is in the hostlist (node[0-3])
    property=NAME                 the vertex has a property NAME (set-property);
                                  NAME is lower-cased before the test
    jobid-alloc=JOBID             allocated to job JOBID
    jobid-reserved=JOBID          reserved for job JOBID
    jobid-tag=JOBID               tagged by job JOBID
    jobid-span=JOBID              has a planner span of job JOBID
                                  (JOBID: decimal or another Flux job-id encoding)
  Operators: and, or, ( and ) as separate words.
  Example: find status=up and ( sched-now=allocated or sched-future=reserved )
)";

const char* kCancel = R"(usage: cancel JOBID [stats]
  JOBID  an allocated or reserved job (see list)
  stats  also print the cancel's visit counts
)";

const char* kPartialCancel = R"(usage: partial-cancel JOBID READER R_FILE [stats]
  JOBID   an allocated job (reservations cannot be partially cancelled)
  READER  jgf | rv1exec: the format of R_FILE
  R_FILE  the part of the job's resources to release; releasing all of them
          cancels the job
  stats   also print the visit counts
)";

const char* kSetProperty = R"(usage: set-property PATH KEY=VALUE
  PATH       a resource path (e.g. /cluster0/rack0/node1)
  KEY=VALUE  split at the first '='; replaces an existing KEY. Jobspec
             constraints ("properties") and find property=KEY use it.
)";

const char* kGetProperty = R"(usage: get-property PATH
  PATH  a resource path; prints its properties as KEY=VALUE, sorted by key
)";

const char* kSetStatus = R"(usage: set-status PATH up|down
  PATH     a resource path
  up|down  a down resource and its subtree are never matched
)";

const char* kGetStatus = R"(usage: get-status PATH
  PATH  a resource path; prints "PATH is up" or "PATH is down"
)";

const char* kList = R"(usage: list
  One line per job: JOBID, ALLOCATED|RESERVED|CANCELED, start time,
  jobspec file, seconds spent matching
)";

const char* kInfo = R"(usage: info JOBID
  JOBID  any job ever recorded; prints its line as list does
)";

const char* kStat = R"(usage: stat
  Number of jobs recorded and the min/max/average match time of update
)";

const char* kSave = R"(usage: save FILE [changes]
  FILE     an SQLite file to hold the whole session (resume it with -f db -L FILE)
  changes  only what changed since this session last saved FILE whole
)";

const char* kDump = R"(usage: dump FILE [held]
  FILE  a Graphviz DOT file to write (replaced if it exists): the resource graph
        with each job's vertices filled in its colour (a palette of 12, cycling
        by job id) and labelled "job N" under their name; a reserved vertex is
        dashed and outlined in its job's colour; a legend names each job's
        colour. Render it with: dot -Tsvg -o FILE.svg FILE
  held  only the vertices some job holds and their ancestors (for graphs of
        more than 2000 vertices, which dot lays out slowly)
)";

const char* kAllocated = R"(usage: allocated [JOBID] [--summary]
  JOBID      the job whose resources to print (default: every job's)
  --summary  counts of the printed vertices by type instead of the -F output
)";

const char* kAvailable = R"(usage: available [--at T] [--summary]
  --at T     what is free at time T (default: now)
  --summary  counts of the printed vertices by type instead of the -F output
)";

const char* kRequest = R"(usage: request [-F FORMAT] [--as DIALECT] [--env NAME=TEMPLATE] [--duration S] SUBCMD REQUEST...
  SUBCMD      allocate | allocate_orelse_reserve | satisfiability
  REQUEST     in the dialect of the loaded pool format (-f ctest: CTest,
              -f canary: canary, else HyperQueue) or of --as:
              HyperQueue: NAME=AMOUNT or NAME="AMOUNT STRATEGY", AMOUNT a
              positive integer or all, STRATEGY compact (default), compact!,
              tight, tight! or scatter (the ! forms wait rather than fall back)
              canary:     NAME=N,NAME=N (1 cpu when unspecified)
              CTest:      RESOURCE_GROUPS, e.g. 2,gpus:2;gpus:4
  -F FORMAT   the match format for this request only (env, env_export, simple, ...);
              env prints the request's own tool's variables
  --as DIALECT
              hq, canary or ctest: read this request in that tool's syntax
  --env NAME=TEMPLATE
              also print NAME with canary's %(name_ids)s placeholders filled in
  --duration S
              how long the allocation lasts in seconds (default 3600)
)";

const char* kHwdetect = R"(usage: hwdetect
  Prints the resource pools detected on this machine, in HyperQueue's
  definition syntax, as HyperQueue detects them: cpus of the affinity mask
  grouped by NUMA node, gpus/nvidia, gpus/amd, mem (MemTotal, in bytes).
)";

const char* kSubmit = R"(usage: submit [--queue Q] [--priority P] [--name DEF] [--runtime S] [--rm KEY=N] FILE
       submit [...same options...] [--duration S] request ITEMS
  FILE          a jobspec; its duration is the requested time
  request ITEMS a pool request, as the request command takes it
                (cpus=8 gpus/nvidia=1; --as canary cpus=4,gpus=4;
                --as ctest 2,gpus:2;gpus:4)
  --duration S  a pool request's requested time (default 3600)
  --queue Q     the queue (default: the default queue)
  --priority P  1-10, higher first (default 5)
  --name DEF    the job definition name (highlander managers use it)
  --runtime S   the real run time (default: the requested time); a longer
                run time is killed at the requested time
  --rm KEY=N    what this job takes from resource manager KEY
)";

const char* kSetPriority = R"(usage: set-priority ID P
  ID  a pending job
  P   its new priority, 1-10
)";

const char* kDequeue = R"(usage: dequeue ID
  ID  a pending job to withdraw
)";

const char* kQueue = R"(usage: queue
  Prints the pending jobs in scheduling order, each with its state
  (pending or reserved) and why it is not running.
)";

const char* kTime = R"(usage: time
  Prints the simulated time in seconds.
)";

const char* kAdvance = R"(usage: advance SECONDS
  SECONDS  how far to move the simulated clock; every job ending on the way
           is released and the queue is scheduled once per instant
)";

const char* kRun = R"(usage: run
  Moves the simulated clock from event to event until nothing is pending
  or running.
)";

const char* kQueueAdd = R"(usage: queue-add NAME [--policy P] [--queue-depth N] [--reservation-depth N]
  NAME                  a new queue (submit --queue NAME)
  --policy P            fcfs, easy, conservative, hybrid, jqm or jqm-skip
                        (default: --queue-policy); JQM's two and the
                        planner's four do not mix in one session
  --queue-depth N       pending jobs of this queue one pass considers (0 = all)
  --reservation-depth N hybrid: reservations this queue makes per pass
  With two queues or more and one naming its own policy or depth, each pass
  walks the queues in declaration order, each over its own jobs.
)";

const char* kQueueManager = R"(usage: queue-manager QUEUE quantity KEY N
       queue-manager QUEUE discrete KEY ITEM...
       queue-manager QUEUE highlander KEY
  Adds a JQM resource manager (used by the jqm and jqm-skip policies) to a
  queue that has no jobs yet, checked as in -Q.
)";

const char* kCat = R"(usage: cat FILE
  FILE  a file (typically a jobspec) to print
)";

const char* kHelp = R"(usage: help [COMMAND]
  COMMAND  a command name or abbreviation; without it, list all commands
)";

const char* kQuit = R"(usage: quit
  End the session (so does Ctrl-D at the prompt; Ctrl-C only cancels the
  line being typed)
)";

}  // namespace

const char* command_details(const std::string& name) {
    static const std::map<std::string, const char*> details = {
        {"match", kMatch},
        {"multi-match", kMultiMatch},
        {"update", kUpdate},
        {"attach", kAttach},
        {"remove", kRemove},
        {"find", kFind},
        {"cancel", kCancel},
        {"partial-cancel", kPartialCancel},
        {"set-property", kSetProperty},
        {"get-property", kGetProperty},
        {"set-status", kSetStatus},
        {"get-status", kGetStatus},
        {"list", kList},
        {"info", kInfo},
        {"stat", kStat},
        {"request", kRequest},
        {"hwdetect", kHwdetect},
        {"save", kSave},
        {"dump", kDump},
        {"allocated", kAllocated},
        {"available", kAvailable},
        {"submit", kSubmit},
        {"set-priority", kSetPriority},
        {"dequeue", kDequeue},
        {"queue", kQueue},
        {"time", kTime},
        {"advance", kAdvance},
        {"run", kRun},
        {"queue-add", kQueueAdd},
        {"queue-manager", kQueueManager},
        {"cat", kCat},
        {"help", kHelp},
        {"quit", kQuit},
    };
    auto it = details.find(name);
    return it == details.end() ? "" : it->second;
}

}  // namespace rq
