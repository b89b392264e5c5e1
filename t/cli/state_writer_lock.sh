# One writer per state file (docs/state.md,
# Durability): while one resource-query holds `--state s.db`, a second one
# on the same file is refused at start-up with one line naming the file and
# the holder's pid; `-f db -L s.db` resumes read-only beside it, and its
# `save s.db` is refused the same way.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }

hold_session first.out -L "$SRC/conf/tiny.graphml" -P high -d --state s.db
printf 'match allocate %s\n' "$J/core.yaml" >&3
wait_for first.out "JOBID=1"
expect_contains "the holder answered" "JOBID=1" "$(cat first.out)"

out=$(printf 'match allocate %s\n' "$J/core.yaml" | run --state s.db)
status=$?
expect_eq "a second writer is refused" 1 "$status"
expect_contains "the refusal names the file" "s.db: in use by another resource-query" "$out"
expect_contains "the refusal names the holder's pid" "pid $holder" "$out"
expect_eq "the refusal is one line" 1 "$(printf '%s\n' "$out" | wc -l)"
case "$out" in *"JOBID=2"*) fail "the refused process allocated: $out" ;; esac

# A read-only resume takes no lock: it sees the committed job.
out=$(printf 'list\n' | run -f db -L s.db)
expect_eq "read-only resume beside the writer: exit" 0 "$?"
expect_contains "read-only resume sees the holder's job" "INFO: 1, ALLOCATED" "$out"
# ... but writing the file from it is refused.
out=$(printf 'save s.db changes\n' | run -f db -L s.db)
expect_contains "save into a held file is refused" "in use by another resource-query (pid $holder)" "$out"

# The holder goes on, and ends cleanly; then the file is free again.
printf 'match allocate %s\nquit\n' "$J/core.yaml" >&3
exec 3>&-
wait $holder
expect_eq "the holder exits 0" 0 "$?"
expect_contains "the holder's second job" "JOBID=2" "$(cat first.out)"
out=$(printf 'match allocate %s\n' "$J/core.yaml" | run --state s.db)
expect_eq "the file is free once the holder ended" 0 "$?"
expect_contains "the next writer goes on from the holder's jobs" "JOBID=3" "$out"
finish
