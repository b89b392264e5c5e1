# Without --state nothing is journaled until a save (docs/state.md, Memory): a session saved after 3 matches holds their
# rows but no journal entries; the commands after the save are journaled
# (for `save FILE changes`); it resumes exactly either way. A session
# whose state is only in a journal it did not keep (a JQM queue made after
# the start, or a remove of held resources) cannot be saved: one line
# says why.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found"; exit 77; }

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }
entries() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from journal').fetchone()[0])" "$1"; }
m="match allocate $J/core.yaml"

out=$(printf '%s\n%s\n%s\nsave s.db\n' "$m" "$m" "$m" | run)
expect_contains "saved" "INFO: saved the whole session to s.db" "$out"
expect_eq "no journal entries before the first save" 0 "$(entries s.db)"
expect_contains "the rows hold the jobs" "INFO: 3, ALLOCATED" "$(printf 'list\n' | run -f db -L s.db)"

out=$(printf '%s\nsave c.db\n%s\ncancel 1\nsave c.db changes\n' "$m" "$m" | run)
expect_eq "the commands after the first save are journaled" 2 "$(entries c.db)"
listed=$(printf 'list\n' | run -f db -L c.db | sed 's/, [^,]*$//')
expect_eq "resumed from a changes save" "INFO: 1, CANCELED, 0, $J/core.yaml
INFO: 2, ALLOCATED, 0, $J/core.yaml" "$listed"

# --state journals from the start.
printf '%s\n%s\n' "$m" "$m" | run --state st.db >/dev/null
expect_eq "--state journals every command" 2 "$(entries st.db)"

# A remove of resources a job holds leaves a state the rows cannot hold
# (docs/state.md, How a resumed session stays exact): only the whole journal
# can, and it was not kept.
out=$(printf '%s\nremove /tiny0/rack0/node0 true\nsave late.db\n' "$m" | run)
expect_contains "a session without its journal that needs it is not saved" \
    "ERROR: save: late.db: this session's state is no longer in rows" "$out"
[ -e late.db ] && [ "$(entries late.db 2>/dev/null)" != "" ] && fail "late.db was written"
# With --queue-policy jqm the journal is kept from the start.
out=$(printf 'queue\n%s\nsave jqm.db\n' "$m" | run --queue-policy jqm)
expect_contains "a jqm session saves" "INFO: saved the whole session to jqm.db" "$out"
expect_contains "and resumes by replay" "INFO: 1, ALLOCATED" "$(printf 'list\n' | run -f db -L jqm.db)"
finish
