#!/bin/sh
# Job ids (spec/cli.md §5.1, §5.3): `update` sets the counter to its JOBID
# + 1, which may be below ids still in use; a later match must never take a
# live job's id (one cancel would then release two allocations). Checked
# on fixed sequences and on a random one against an invariant: after every
# step, `list` shows each live id once and as many allocated jobs as there
# are allocated cores (every job here holds exactly one core).
#
# usage: jobids.sh BIN_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
graph=$SRC/conf/tiny.graphml
core=$SRC/t/data/jobspecs/core.yaml
[ -x "$RQ" ] && [ -r "$graph" ] || { echo "SKIP: $RQ or $graph missing"; exit 77; }

# R documents (JGF) for the first 32 cores a one-core match takes.
for i in $(seq 32); do echo "match allocate $core"; done |
    "$RQ" -L "$graph" -F jgf -t r.out >/dev/null 2>&1
i=0
grep '^{' r.out | while IFS= read -r line; do
    i=$((i + 1))
    printf '%s\n' "$line" >"R$i.json"
done
[ -s R32.json ] || { fail "could not make the R documents"; finish; }
echo marker >mark

# check_steps OUTPUT: the invariant at every `cat mark`.
check_steps() {
    awk '
        function check() {
            if (step > 0 && cores != allocated) {
                printf "step %d: %d cores allocated but %d allocated jobs listed\n", step, cores, allocated
                bad = 1
            }
            cores = 0; allocated = 0; delete seen; step++
        }
        /^INFO: Jobspec in mark$/ { check(); finding = 1; next }
        /^INFO: EXPRESSION=/ { finding = 0 }
        finding && /core[0-9]+\[1:x\]/ { cores++ }
        /^INFO: -?[0-9]+, ALLOCATED,/ {
            id = $2; sub(",", "", id)
            if (id in seen) { printf "step %d: job id %s listed twice\n", step, id; bad = 1 }
            seen[id] = 1; allocated++
        }
        END { check(); exit bad }' "$1"
}

step() { printf '%s\ncat mark\nfind sched-now=allocated\nlist\n' "$1"; }

# 1. update with an id below the counter, then a match: not job 2 again.
{
    step "match allocate $core"              # job 1
    step "match allocate $core"              # job 2
    step "cancel 1"
    step "update allocate jgf R3.json 1 0 3600"   # counter -> 2, job 2 is live
    step "match allocate $core"              # must not be 2
    step "cancel 2"                          # releases job 2 only
    echo "cat mark"
} | "$RQ" -L "$graph" >out1 2>err1
check_steps out1 >/dev/null || fail "update below the counter: $(check_steps out1 | head -3)"
grep -q "INFO: JOBID=3" out1 || fail "next match skips the live id: no INFO: JOBID=3"
# 2. a failed update (the core is taken) sets the counter back too.
{
    step "match allocate $core"                    # job 1 takes the core of R1
    step "match allocate $core"                    # job 2
    step "update allocate jgf R1.json 1 0 3600"    # refused: existing Jobid
    step "update allocate jgf R1.json 0 0 3600"    # fails: core busy; counter -> 1
    step "match allocate $core"                    # must be 3
    step "cancel 1"
} | "$RQ" -L "$graph" >out2 2>err2
check_steps out2 >/dev/null || fail "failed update: $(check_steps out2 | head -3)"
grep -q "INFO: JOBID=3" out2 || fail "match after a failed update: no INFO: JOBID=3"
# 3. a garbage id is read as 0 (as in the reference), and 0 then is live.
{
    step "match allocate $core"                      # job 1
    step "update allocate jgf R5.json junk 0 3600"   # job 0; counter -> 1
    step "match allocate $core"                      # must be 2
    step "cancel 1"
} | "$RQ" -L "$graph" >out3 2>err3
check_steps out3 >/dev/null || fail "garbage id: $(check_steps out3 | head -3)"
grep -q "INFO: 0, ALLOCATED" out3 || fail "garbage update id is job 0: no INFO: 0, ALLOCATED"
grep -q "INFO: JOBID=2" out3 || fail "match after a garbage id: no INFO: JOBID=2"

# 4. random sequences of match / update / cancel, several seeds.
for seed in 1 2 3 4 5; do
    awk -v seed="$seed" -v core="$core" 'BEGIN {
        srand(seed)
        for (i = 0; i < 150; i++) {
            r = rand()
            if (r < 0.4) cmd = "match allocate " core
            else if (r < 0.7) cmd = sprintf("update allocate jgf R%d.json %d 0 3600", 1 + int(rand() * 32), int(rand() * 40) - 2)
            else cmd = sprintf("cancel %d", int(rand() * 40) - 2)
            printf "%s\ncat mark\nfind sched-now=allocated\nlist\n", cmd
        }
    }' | "$RQ" -L "$graph" >out4 2>err4
    check_steps out4 >/dev/null || fail "random sequence (seed $seed): $(check_steps out4 | head -3)"
done
finish
