# A full disk under --state (docs/state.md,
# Durability): a command whose commit fails prints no result, says why
# (the file and the system's words), is undone in memory (the next command
# gets the job id and resources it would have had), and the session exits
# non-zero at the end, or at once with --fail-fast; once space comes back
# the next command is saved. The disk is a 2 MiB tmpfs made here.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
mkdir full
mount -t tmpfs -o size=2m tmpfs full 2>/dev/null || { echo "skip: cannot mount a tmpfs here (needs root)"; exit 77; }
trap 'umount "$WORK/full" 2>/dev/null; rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM  # so that the EXIT trap unmounts
fill() { dd if=/dev/zero of=full/filler bs=4k 2>/dev/null; sync; }

hold_session a.out -L "$SRC/conf/tiny.graphml" -P high -d --state full/s.db
printf 'match allocate %s\n' "$J/core.yaml" >&3
wait_for a.out "JOBID=1"
fill
printf 'match allocate %s\n' "$J/core.yaml" >&3
wait_for a.out "ERROR: --state"
printf 'list\n' >&3
wait_for a.out "INFO: 1, ALLOCATED"
failed=$(cat a.out)
expect_contains "the failure names the file" "full/s.db" "$failed"
expect_contains "the failure says why" "No space left on device" "$failed"
case "$failed" in *"JOBID=2"*) fail "the unsaved command printed its result: $failed" ;; esac
case "$failed" in *"INFO: 2,"*) fail "the unsaved job stayed in memory: $failed" ;; esac
rm -f full/filler
printf 'match allocate %s\nquit\n' "$J/core.yaml" >&3
exec 3>&-
wait $holder
expect_eq "the session exits non-zero after an unsaved command" 1 "$?"
after=$(cat a.out)
expect_contains "space back: the next command works, with the undone job's id" "JOBID=2" "$after"
resumed=$(printf 'list\n' | "$RQ" -f db -L full/s.db -d 2>&1)
expect_contains "the file holds job 1" "INFO: 1, ALLOCATED" "$resumed"
expect_contains "the file holds the job saved once space came back" "INFO: 2, ALLOCATED" "$resumed"
case "$resumed" in *"INFO: 3,"*) fail "the file holds the undone command: $resumed" ;; esac
# The undone command took no resources: job 2 got what it would have got.
alone=$(printf 'match allocate %s\nmatch allocate %s\nlist\n' "$J/core.yaml" "$J/core.yaml" |
    "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d 2>&1 | grep '^INFO: [0-9]*, ' | sed 's/, [^,]*$//')
expect_eq "the same jobs as a session that never ran it" "$alone" "$(printf '%s\n' "$resumed" | grep '^INFO: [0-9]*, ' | sed 's/, [^,]*$//')"

# --fail-fast: the session stops at the unsaved command.
hold_session b.out -L "$SRC/conf/tiny.graphml" -P high -d --state full/ff.db --fail-fast
printf 'match allocate %s\n' "$J/core.yaml" >&3
wait_for b.out "JOBID=1"
fill
printf 'match allocate %s\n' "$J/core.yaml" >&3
wait_for b.out "fail-fast: stopped"
exec 3>&-
wait $holder
expect_eq "--fail-fast: exit at once" 1 "$?"
expect_contains "--fail-fast: stopped at the unsaved command" "stopped at input line 2" "$(cat b.out)"
rm -f full/filler
finish
