#!/bin/sh
# find (spec/cli.md §5.6, traversal.md §16, output.md §3): allocate, mark
# resources down, then check the exact lines find prints for sched-now,
# status, names, compound expressions, agfilter, and the error texts.
#
# usage: find.sh BIN_DIR SOURCE_DIR
set -u

bin=${1:?usage: find.sh BIN_DIR SOURCE_DIR}/resource-query
src=${2:?usage: find.sh BIN_DIR SOURCE_DIR}
graph=$src/conf/tiny.graphml
data=$src/t/data/find
[ -x "$bin" ] && [ -r "$graph" ] || { echo "SKIP: $bin or $graph missing"; exit 77; }

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
failures=0

# check NAME EXPECTED-FILE ACTUAL-FILE
check() {
    if cmp -s "$2" "$3"; then
        echo "ok: $1"
    else
        echo "FAIL: $1"
        diff "$2" "$3" | sed 's/^/    /'
        failures=$((failures + 1))
    fi
}

# run FORMAT: the commands on stdin; out -> $work/out, stderr -> $work/err
run() {
    "$bin" -L "$graph" -S CA -P high -F "$1" -t "$work/out" 2>"$work/err" >"$work/stdout"
}

info() {
    printf 'INFO: =============================\nINFO: EXPRESSION="%s"\nINFO: =============================\n' "$1"
}

# ---- 1. simple writer: allocations, status, names, compound expressions -----
run simple <<EOF
match allocate $data/one-core.yaml
find sched-now=allocated
set-status /tiny0/rack0/node1 down
find status=down and names=node1,socket0,core[0-1]
find names=NODE0
find   status=up sched-now=allocated   or names=node1
find (sched-now=free) and (names=socket1)
find sched-future=reserved
find
find status=maybe
find (status=up
find status=up and
quit
EOF

{
    cat <<'EOF'
      ---------------core15[1:x]
      ------------socket1[1:s]
      ---------node0[1:s]
      ------rack0[1:s]
      ---tiny0[1:s]
INFO: =============================
INFO: JOBID=1
INFO: RESOURCES=ALLOCATED
INFO: SCHEDULED AT=Now
INFO: =============================
      ---------------core15[1:x]
      ------------socket1[1:x]
      ---------node0[1:x]
      ------rack0[1:x]
      ---tiny0[1:x]
EOF
    info "sched-now=allocated"
    cat <<'EOF'
      ---------------core0[1:x]
      ---------------core1[1:x]
      ------------socket0[1:x]
      ---------node1[1:x]
      ------rack0[1:x]
      ---tiny0[1:x]
EOF
    info "status=down and names=node1,socket0,core[0-1]"
    cat <<'EOF'
      ---------node0[1:x]
      ------rack0[1:x]
      ---tiny0[1:x]
EOF
    info "names=NODE0"
    cat <<'EOF'
      ---------------core15[1:x]
      ------------socket1[1:x]
      ---------node0[1:x]
      ---------node1[1:x]
      ------rack0[1:x]
      ---tiny0[1:x]
EOF
    info "status=up sched-now=allocated or names=node1"
    cat <<'EOF'
      ------------socket1[1:x]
      ---------node0[1:x]
      ------------socket1[1:x]
      ---------node1[1:x]
      ------rack0[1:x]
      ---tiny0[1:x]
EOF
    info "(sched-now=free) and (names=socket1)"
    info "sched-future=reserved"
} >"$work/expected"
check "simple: find output" "$work/expected" "$work/out"

cat >"$work/expected" <<'EOF'
ERROR: malformed command: 
findfind: invalid criteria: status=maybe.
  invalid value 'maybe' for status (valid: down, up)
findfind: invalid criteria: (status=up.
  missing ')'
findfind: invalid criteria: status=up and.
  operator without a right operand
EOF
check "simple: find errors on stderr" "$work/expected" "$work/err"

# ---- 2. jgf writer: agfilter with a job id ------------------------------------
run jgf <<EOF
match allocate $data/one-socket.yaml
find jobid-alloc=1 agfilter=t
find jobid-alloc=2 agfilter=t
quit
EOF
# the JGF lines are the match's, then the first find's (the second find
# matches nothing and prints no JGF)
grep -v '^INFO' "$work/out" | sed -n 2p >"$work/agfilter.json"
if grep -q '"paths": {"containment": "/tiny0/rack0/node0/socket1"}, "agfilter": {"core": "used:8, total:8"' \
        "$work/agfilter.json"; then
    echo "ok: jgf: agfilter data of the job"
else
    echo "FAIL: jgf: agfilter data of the job"
    sed 's/^/    /' "$work/agfilter.json"
    failures=$((failures + 1))
fi
if grep -q '"core"' "$work/agfilter.json" && ! grep -q '"type": "core"' "$work/agfilter.json"; then
    echo "ok: jgf: agfilter leaves out vertices without a subtree plan"
else
    echo "FAIL: jgf: agfilter leaves out vertices without a subtree plan"
    failures=$((failures + 1))
fi
printf 'INFO: EXPRESSION="%s"\n' "jobid-alloc=1 agfilter=t" "jobid-alloc=2 agfilter=t" >"$work/expected"
grep '^INFO: EXPRESSION=' "$work/out" >"$work/actual"
check "jgf: one EXPRESSION block per find" "$work/expected" "$work/actual"
: >"$work/expected"
check "jgf: no errors" "$work/expected" "$work/err"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all find checks passed"
