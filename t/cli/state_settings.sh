# Settings given with a resume (docs/state.md,
# Settings given with a resume): -F applies; a setting that shapes the
# saved session (-L, -f, -P, ...) with another value than the saved one is
# refused with one line naming the saved value; the same value is fine.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
G="$SRC/conf/tiny.graphml"
rq() { "$RQ" -d "$@" 2>&1; }

printf 'match allocate %s\n' "$J/core.yaml" | rq -L "$G" -P high --state s.db >/dev/null
cp s.db saved.db

refused() {  # refused WHAT EXPECTED-TEXT ARGS...
    what=$1 text=$2
    shift 2
    out=$(printf 'match allocate %s\n' "$J/core.yaml" | rq "$@")
    status=$?
    expect_eq "$what: exit" 1 "$status"
    expect_contains "$what: says why" "$text" "$out"
    case "$out" in *JOBID=*) fail "$what: a command ran: $out" ;; esac
}
cp "$G" other.graphml
refused "--state with another -L" "s.db: saved with -L $G; -L other.graphml" --state s.db -L other.graphml
refused "--state with another -P" "s.db: saved with -P high; -P low cannot change a saved session" --state s.db -P low
refused "--state with another -f" "s.db: saved with -f grug; -f jgf" --state s.db -f jgf -L "$G"
refused "-f db with another -P" "saved.db: saved with -P high; -P lonodex" -f db -L saved.db -P lonodex
# A setting written on the command line counts even at its default value:
# -P first (the default) beside a session saved with -P high is refused,
# not silently dropped.
refused "--state with the default -P written out" "s.db: saved with -P high; -P first cannot change a saved session" --state s.db -P first
refused "-f db with the default -T written out" "saved.db: saved with -T simple" -f db -L saved.db -T flexible
refused "-f canary on a state file" "saved.db: a resource-query state file, not canary input" -f canary -L saved.db
refused "-f local with -L" "--load-format=local detects the machine and reads no --load-file ($G)" -f local -L "$G"

# The saved values again: fine. -F applies, with --state and with -f db.
out=$(printf 'match allocate %s\n' "$J/core.yaml" | rq --state s.db -L "$G" -P high -F jgf)
expect_eq "--state with the saved -L/-P and -F jgf: exit" 0 "$?"
expect_contains "--state -F jgf applies" '"graph"' "$out"
out=$(printf 'match allocate %s\n' "$J/core.yaml" | rq -f db -L saved.db -F jgf)
expect_contains "-f db -F jgf applies" '"graph"' "$out"
# -F at its default value applies too (a session saved with -F jgf).
printf 'match allocate %s\n' "$J/core.yaml" | rq -L "$G" -F jgf --state j.db >/dev/null
out=$(printf 'match allocate %s\n' "$J/core.yaml" | rq --state j.db -F simple)
expect_eq "--state with -F simple: exit" 0 "$?"
case "$out" in *'"graph"'*) fail "-F simple was ignored: $out" ;; esac
expect_contains "-F simple applies" "JOBID=" "$out"
finish
