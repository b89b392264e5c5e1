# Read-only copies (docs/state.md, Read-only
# copies): `-f db -L` resumes a state file on a read-only mount (immutable,
# no -wal/-shm made) and says so; a copy made without its -wal file while
# its session ran is refused saying the write-ahead log is missing.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }

mkdir ro
if mount -t tmpfs -o size=4m tmpfs ro 2>/dev/null; then
    trap 'umount "$WORK/ro" 2>/dev/null; rm -rf "$WORK"' EXIT
    trap 'exit 1' INT TERM  # so that the EXIT trap unmounts
    printf 'match allocate %s\nmatch allocate %s\n' "$J/core.yaml" "$J/core.yaml" | run --state ro/s.db >/dev/null
    mount -o remount,ro ro || fail "remount read-only"
    out=$(printf 'list\n' | run -f db -L ro/s.db)
    expect_eq "resume from a read-only mount: exit" 0 "$?"
    expect_contains "resume from a read-only mount: the jobs" "INFO: 2, ALLOCATED" "$out"
    expect_contains "resume from a read-only mount: says so" "ro/s.db: resumed read-only" "$out"
    expect_eq "no -wal or -shm beside it" "s.db" "$(ls ro)"
    out=$(printf 'save ro/s.db changes\n' | run -f db -L ro/s.db)
    expect_contains "saving onto the read-only mount is refused" "ERROR: save: ro/s.db" "$out"
    umount ro
else
    echo "note: cannot mount a tmpfs here (needs root): the read-only mount part is left out"
fi

# A copy taken while the session runs, without its -wal file.
hold_session live.out -L "$SRC/conf/tiny.graphml" -P high -d --state live.db
printf 'match allocate %s\n' "$J/core.yaml" >&3
wait_for live.out "JOBID=1"
cp live.db copy.db
out=$(printf 'list\n' | run -f db -L copy.db)
expect_eq "a copy without its -wal: exit" 1 "$?"
expect_contains "a copy without its -wal: says so" "copy.db: its write-ahead log copy.db-wal is missing" "$out"
cp live.db-wal copy.db-wal
out=$(printf 'list\n' | run -f db -L copy.db)
expect_contains "the copy with its -wal resumes" "INFO: 1, ALLOCATED" "$out"
exec 3>&-
wait $holder
finish
