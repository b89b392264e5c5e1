# partial-cancel (docs/differences.md, the
# `partial-cancel` rows): a later cancel releases everything the job
# still holds; a partial cancel given the job's own printed R (rv1exec or
# jgf) succeeds; a failed one changes nothing; randomized against a model.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found"; exit 77; }
G="$SRC/conf/tiny.graphml"
WN="$SRC/t/data/jobspecs/whole-node.yaml"
CORE="$SRC/t/data/jobspecs/core.yaml"

printf 'match allocate %s\nquit\n' "$WN" | "$RQ" -L "$G" -F rv1_nosched 2>/dev/null | grep '^{' >R.json
printf 'match allocate %s\nquit\n' "$WN" | "$RQ" -L "$G" -F jgf 2>/dev/null | grep '^{' >J.json
expect_contains "rv1exec R of a whole node" '"rank": "1"' "$(cat R.json)"

# vertices listed by the first `find sched-now=allocated` (printed above its header)
held_after() {
    awk '/EXPRESSION="sched-now=allocated"/ { print saved; exit }
         /^INFO: =+$/ { saved = n } /^INFO/ { n = 0; next } { n++ }'
}

# rv1exec on a GRUG graph: only node1 carries rank 1; the whole node goes.
out=$(printf 'match allocate %s\npartial-cancel 1 rv1exec R.json\ninfo 1\nfind sched-now=allocated\nquit\n' "$WN" |
    "$RQ" -L "$G" 2>/dev/null)
expect_contains "rv1exec partial cancel of the whole R cancels the job" "1, CANCELED" "$out"
expect_eq "nothing allocated after it" 0 "$(printf '%s\n' "$out" | held_after)"

# A second job on the other node keeps its resources; a later cancel frees all.
out=$(printf 'match allocate %s\nmatch allocate %s\npartial-cancel 1 rv1exec R.json\ncancel 1\ncancel 2\nfind sched-now=allocated\nmatch allocate %s\nmatch allocate %s\nquit\n' \
    "$WN" "$WN" "$WN" "$WN" | "$RQ" -L "$G" 2>/dev/null)
expect_eq "nothing allocated after cancelling every job" 0 "$(printf '%s\n' "$out" | held_after)"
expect_eq "both nodes allocatable again" 2 "$(printf '%s\n' "$out" | grep -c 'RESOURCES=ALLOCATED' | awk '{print $1 - 2}')"

# The JGF we print for the job is accepted (shared cluster/rack skipped).
out=$(printf 'match allocate %s\npartial-cancel 1 jgf J.json\ninfo 1\nfind sched-now=allocated\nquit\n' "$WN" |
    "$RQ" -L "$G" 2>/dev/null)
expect_contains "printed JGF partial cancel cancels the job" "1, CANCELED" "$out"
expect_eq "nothing allocated after the JGF partial cancel" 0 "$(printf '%s\n' "$out" | held_after)"

# A failing partial cancel changes nothing: a JGF naming a vertex the job
# does not hold (node0's, for a job on node1) is refused before any release.
sed 's/node1/node0/g' J.json >J0.json
base=$(printf 'match allocate %s\nfind sched-now=allocated\nquit\n' "$WN" | "$RQ" -L "$G" 2>/dev/null | sed -n '/JOBID=1/,$p')
out=$(printf 'match allocate %s\npartial-cancel 1 jgf J0.json\nfind sched-now=allocated\nquit\n' "$WN" | "$RQ" -L "$G" 2>err)
expect_contains "foreign JGF refused" "error encountered while removing job 1" "$(cat err)"
expect_eq "the refused one lists something held" 28 "$(printf '%s\n' "$out" | held_after)"
expect_eq "refused partial cancel changes nothing" "$base" "$(printf '%s\n' "$out" | grep -v '^partial_cancel:' | sed -n '/JOBID=1/,$p')"

# Randomized: jobs, partial cancels with printed R subsets, cancels; model check.
for seed in 1 2 3 4 5 6 7 8; do
    mkdir -p "r$seed"
    python3 "$SRC/t/cli/partial_cancel_random.py" "$RQ" "$G" "$WORK/r$seed" "$seed" 24 ||
        fail "randomized partial cancel, seed $seed (commands in r$seed/cmds.$seed)"
done
finish
