# `node[1]->slot[1]->core[N]` on conf/tiny (node -> socket -> 8 cores, two
# sockets): "satisfiable" exactly when an idle graph allocates it, for every
# policy and N up to a whole node; queued under easy such jobs all run
# and nothing stays pending; and partial-cancel takes back the JGF that
# `-F jgf` printed for a whole-node job (its shared cluster and rack
# included).
. "$(dirname "$0")/lib.sh"

TINY="$SRC/conf/tiny.graphml"
WHOLE="$SRC/t/data/jobspecs/whole-node.yaml"

slot_cores() {  # FILE N
    cat >"$1" <<YAML
version: 9999
resources:
  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: $2
attributes:
  system:
    duration: 3600
tasks:
  - command: [ "app" ]
    slot: default
    count:
      per_slot: 1
YAML
}

for n in 1 8 9 16 17; do
    slot_cores "cores$n.yaml" "$n"
    if [ "$n" -le 16 ]; then want="INFO: Satisfiable request INFO: RESOURCES=ALLOCATED "
    else want="INFO: Unsatisfiable request INFO: No matching resources found "; fi
    for policy in first firstnodex high low hinode lonode hinodex lonodex locality variation; do
        got=$(printf 'match satisfiability cores%s.yaml\nmatch allocate cores%s.yaml\nquit\n' "$n" "$n" |
            "$RQ" -L "$TINY" -P "$policy" 2>&1 | grep -E 'Satisf|Unsat|ALLOCATED|No matching' | tr '\n' ' ')
        expect_eq "core[$n] -P $policy: satisfiable iff it allocates" "$want" "$got"
    done
    [ "$n" -le 16 ] || continue
    queue=$( (for i in 1 2 3 4 5; do echo "submit cores$n.yaml"; done; echo run; echo queue; echo quit) |
        "$RQ" -L "$TINY" --queue-policy easy 2>&1 | grep -c '^EVENT .* start ')
    expect_eq "core[$n]: five queued jobs all start under easy" 5 "$queue"
done

# partial-cancel with the printed JGF of a whole-node job.
printf 'match allocate %s\nquit\n' "$WHOLE" | "$RQ" -L "$TINY" -F jgf 2>/dev/null | grep -v '^INFO' >job1.json
expect_contains "the printed JGF holds the shared rack" '"/tiny0/rack0"' "$(cat job1.json)"
out=$(printf 'match allocate %s\nmatch allocate %s\npartial-cancel 1 jgf job1.json\ninfo 1\nmatch allocate %s\nquit\n' \
    "$WHOLE" "$WHOLE" "$WHOLE" | "$RQ" -L "$TINY" 2>&1)
case "$out" in *ERROR*|*partial_cancel:*) fail "partial-cancel refused the printed JGF: $out" ;; esac
expect_contains "job 1 released" "INFO: 1, CANCELED" "$out"
expect_contains "its node is free again" "JOBID=3
INFO: RESOURCES=ALLOCATED" "$out"
finish
