# save / -f db resume / allocated / available (docs/state.md, RFC 16).
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }
strip_times() { sed -E 's/^(INFO: [0-9]+, [A-Z]+, -?[0-9]+, [^,]*, ).*/\1T/; s/(Match Time: ).*/\1T/'; }

first="match allocate $J/whole-node.yaml
match allocate_orelse_reserve $J/whole-node.yaml
set-status /tiny0/rack0/node1 down
match allocate_orelse_reserve $J/core.yaml
cancel 1"
rest="list
match allocate_orelse_reserve $J/node-socket-core.yaml
set-status /tiny0/rack0/node1 up
match allocate $J/core.yaml
info 5
stat
find sched-now=allocated"

# The uninterrupted run's output after the cut equals the resumed one's.
whole=$(printf '%s\n%s\n' "$first" "$rest" | run | strip_times)
printf '%s\nsave s.db\n' "$first" | run >/dev/null
resumed=$(printf '%s\n' "$rest" | run -f db -L s.db | strip_times)
expect_eq "resumed output is the uninterrupted run's tail" "$(printf '%s\n' "$whole" | tail -n "$(printf '%s\n' "$resumed" | wc -l)")" "$resumed"
expect_contains "resumed jobs" "INFO: 5, ALLOCATED" "$resumed"

# A state file is recognised by its header without -f db.
by_header=$(printf 'list\n' | run -L s.db)
expect_contains "header recognition" "INFO: 2, " "$by_header"

# Incremental save after a resume, then a second resume.
printf 'match allocate_orelse_reserve %s\nsave s.db changes\n' "$J/core.yaml" | run -f db -L s.db >/dev/null
again=$(printf 'list\n' | run -f db -L s.db)
expect_contains "changes saved after a resume" "INFO: 4, RESERVED" "$again"

# Foreign and corrupt files: one error naming the file, exit 1.
echo "not a database" >text.db
head -c 2048 s.db >cut.db
for f in text.db cut.db; do
    out=$(printf 'list\n' | run -f db -L $f)
    status=$?
    expect_eq "$f refused" 1 "$status"
    expect_contains "$f named" "$f" "$out"
done
out=$(printf 'save text.db\n' | run)
expect_contains "save refuses a foreign file" "ERROR: save: text.db" "$out"

# A resumed session keeps this run's --fail-fast and --json (the saved
# options are the ones that shape the session, not how this run reports).
printf 'match allocate %s\n' "$J/core.yaml" | run --state ff.db >/dev/null
out=$(printf 'bogus\nmatch allocate %s\n' "$J/core.yaml" | run --state ff.db --fail-fast)
status=$?
expect_eq "--fail-fast on resume: exit" 1 "$status"
expect_contains "--fail-fast on resume: stopped" "--fail-fast: stopped at input line 1: bogus" "$out"
out=$(printf 'list\n' | run -f db -L ff.db --json)
expect_contains "--json on resume" '{"' "$out"

# allocated / available with --summary.
q=$(printf 'match allocate %s\nallocated 1 --summary\navailable --summary\navailable --at 100000 --summary\nallocated 7\n' "$J/whole-node.yaml" | run)
expect_contains "allocated counts" "INFO: core=16
INFO: gpu=2" "$q"
expect_contains "available later" "INFO: core=32" "$q"
expect_contains "unknown job" "ERROR: nonexistent job 7" "$q"

# Resuming from rows: after multi-match, an update from R,
# cancel and set-property the file holds the session as rows, a whole
# save and an incremental one agree, and the resumed session goes on as
# the uninterrupted one.
printf 'match allocate %s\n' "$J/whole-node.yaml" | run -F jgf | head -n 1 >r.json
first="match allocate $J/whole-node.yaml
multi-match allocate $J/core.yaml $J/node-socket-core.yaml
cancel 1
update allocate jgf r.json 4 0 600
set-property /tiny0/rack0/node0 color=red"
rest="list
get-property /tiny0/rack0/node0
match allocate_orelse_reserve $J/whole-node.yaml
match allocate $J/core.yaml
cancel 4
match allocate $J/whole-node.yaml
find sched-now=allocated"
whole=$(printf '%s\n%s\n' "$first" "$rest" | run | strip_times)
printf '%s\nsave w.db\n' "$first" | run >/dev/null
printf '%s\nsave c.db\n%s\nsave c.db changes\n' "$(printf '%s\n' "$first" | sed -n 1p)" \
    "$(printf '%s\n' "$first" | sed 1d)" | run >/dev/null
rows_exact() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM meta WHERE key='rows_exact'\").fetchone()[0])" "$1"; }
expect_eq "whole save holds rows" 1 "$(rows_exact w.db)"
expect_eq "incremental save holds rows" 1 "$(rows_exact c.db)"
for f in w.db c.db; do
    resumed=$(printf '%s\n' "$rest" | run -f db -L $f | strip_times)
    expect_eq "$f: resumed from rows prints the uninterrupted run's tail" \
        "$(printf '%s\n' "$whole" | tail -n "$(printf '%s\n' "$resumed" | wc -l)")" "$resumed"
done

# The simulated queue in rows (schema 4): submits with priorities, a second
# queue with its own policy, pool requests, the clock moved; saved whole,
# incrementally and through --state, each resumes from rows (rows_exact 1)
# and goes on as the uninterrupted session. A JQM queue keeps its managers
# outside the rows: its file resumes from the journal, the same way.
first="queue-add batch --policy easy
submit --priority 3 $J/whole-node.yaml
submit --priority 7 --runtime 50 $J/whole-node.yaml
submit --queue batch $J/core.yaml
submit --duration 500 request cpus=4
match allocate $J/core.yaml
advance 100
request allocate_orelse_reserve cpus=8
submit --priority 9 $J/node-socket-core.yaml
set-priority 2 1
queue"
rest="time
advance 3000
queue
submit --queue batch $J/whole-node.yaml
dequeue 9
run
list
queue"
qrun() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }
whole=$(printf '%s\n%s\n' "$first" "$rest" | qrun | strip_times)
tail_of() { printf '%s\n' "$whole" | tail -n "$(printf '%s\n' "$1" | wc -l)"; }
rm -f qw.db* qc.db* qs.db*
printf '%s\nsave qw.db\n' "$first" | qrun >/dev/null
printf 'queue-add batch --policy easy\nsave qc.db\n%s\nsave qc.db changes\n' "$(printf '%s\n' "$first" | sed 1d)" | qrun >/dev/null
printf '%s\n' "$first" | qrun --state qs.db >/dev/null
for f in qw.db qc.db qs.db; do
    expect_eq "$f: the queue is in rows" 1 "$(rows_exact $f)"
    resumed=$(printf '%s\n' "$rest" | qrun -f db -L $f | strip_times)
    expect_eq "$f: the resumed queue goes on as the uninterrupted one" "$(tail_of "$resumed")" "$resumed"
done
# --state: the rest in two runs, each resuming the file from rows.
part1=$(printf '%s\n' "$rest" | sed -n 1,3p | qrun --state qs.db | strip_times)
expect_eq "--state after queue commands: rows" 1 "$(rows_exact qs.db)"
part2=$(printf '%s\n' "$rest" | sed 1,3d | qrun --state qs.db | strip_times)
expect_eq "--state resumes the queue twice" "$(tail_of "$part1
$part2")" "$part1
$part2"
jqm="submit $J/core.yaml
submit $J/core.yaml"
jwhole=$(printf '%s\nadvance 5000\nqueue\n' "$jqm" | qrun --queue-policy jqm | strip_times)
printf '%s\nsave qj.db\n' "$jqm" | qrun --queue-policy jqm >/dev/null
expect_eq "a JQM queue resumes from the journal" 0 "$(rows_exact qj.db)"
jres=$(printf 'advance 5000\nqueue\n' | qrun -f db -L qj.db | strip_times)
expect_eq "a JQM queue resumed" "$(printf '%s\n' "$jwhole" | tail -n "$(printf '%s\n' "$jres" | wc -l)")" "$jres"
finish
