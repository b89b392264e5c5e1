# The timings a state file keeps (journal.timing, meta match_time): a
# resume reads them back exactly, and refuses one in any other spelling
# with an error naming the file, the place and the text.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }
edit() {  # edit FILE SQL
    python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.execute(sys.argv[2]); db.commit()' "$1" "$2"
}
query() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2"; }

# set-status keeps the rows from holding the state: a resume replays the
# journal and takes each entry's timing.
printf 'match allocate %s\nset-status /tiny0/rack0/node1 down\nmatch allocate %s\nstat\n' \
    "$J/core.yaml" "$J/core.yaml" | run --state s.db >saved.out
resumed=$(printf 'stat\n' | run -f db -L s.db)
expect_eq "match times read back exactly" "$(grep 'Match Time' saved.out)" "$(printf '%s\n' "$resumed" | grep 'Match Time')"

timing=$(query s.db "SELECT timing FROM journal WHERE seq = 0")
case "$timing" in
0x*" 1:0x"*) ;;
*) fail "journal timing is hex floats and the job's overhead: $timing" ;;
esac

# Another spelling of the same numbers (a trailing zero) is refused.
cp s.db respelled.db
respelled=$(printf '%s\n' "$timing" | sed -E 's/p([-+][0-9]+)$/0p\1/')
edit respelled.db "UPDATE journal SET timing = '$respelled' WHERE seq = 0"
out=$(printf 'stat\n' | run -f db -L respelled.db)
expect_eq "respelled timing: exit" 1 "$?"
expect_contains "respelled timing: file, entry and text" "respelled.db: corrupt resource-query state file: journal entry 0: timing \"$respelled\"" "$out"

# A match_time that is not four fields is refused (it was ignored).
cp s.db meta.db
edit meta.db "UPDATE meta SET value = 'soon' WHERE key = 'match_time'"
out=$(printf 'stat\n' | run -f db -L meta.db)
expect_eq "bad match_time: exit" 1 "$?"
expect_contains "bad match_time: file and text" "meta.db: corrupt resource-query state file: meta match_time: timing \"soon\"" "$out"

finish
