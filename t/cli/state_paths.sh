# Only regular files (or new paths) are state files (docs/state.md, Errors): `save`, `--state` and `-f db -L` refuse a
# device, a FIFO or a directory with one line naming it, before anything
# is created beside it (SQLite would make PATH-journal / PATH-wal).
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }
guard() { timeout 20 "$@"; }  # a FIFO must be refused, not waited on

mkdir dir
mkfifo fifo || { echo "skip: mkfifo failed"; exit 77; }
existed=""
for side in /dev/null-journal /dev/null-wal /dev/zero-journal /dev/zero-wal; do
    [ -e "$side" ] && existed="$existed $side"
done

for target in /dev/null dir fifo; do
    out=$(printf 'match allocate %s\nsave %s\n' "$J/core.yaml" "$target" | guard "$RQ" -L "$SRC/conf/tiny.graphml" -d 2>&1)
    expect_contains "save $target refused" "ERROR: save: $target: " "$out"
    expect_contains "save $target says why" "not a state file" "$out"
done

for target in /dev/zero dir fifo; do
    out=$(printf 'match allocate %s\n' "$J/core.yaml" | guard "$RQ" -L "$SRC/conf/tiny.graphml" -d --state "$target" 2>&1)
    status=$?
    expect_eq "--state $target: exit" 1 "$status"
    expect_contains "--state $target named" "$target: " "$out"
    expect_contains "--state $target says why" "not a state file" "$out"
    case "$out" in *"INFO: 1,"*|*JOBID=1*) fail "--state $target ran a command: $out" ;; esac
done

out=$(printf 'list\n' | guard "$RQ" -f db -L fifo -d 2>&1)
expect_eq "-f db -L fifo: exit" 1 "$?"
expect_contains "-f db -L fifo says why" "fifo: a FIFO, not a state file" "$out"
out=$(printf 'list\n' | guard "$RQ" -f db -L dir -d 2>&1)
expect_eq "-f db -L dir: exit" 1 "$?"
expect_contains "-f db -L dir says why" "is a directory: dir" "$out"

for side in /dev/null-journal /dev/null-wal /dev/zero-journal /dev/zero-wal; do
    case "$existed" in *"$side"*) continue ;; esac
    [ -e "$side" ] && { fail "$side was created"; rm -f "$side"; }
done
expect_eq "nothing created in the work folder" "dir fifo" "$(ls | tr '\n' ' ' | sed 's/ $//')"
finish
