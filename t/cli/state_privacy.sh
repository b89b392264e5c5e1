# A state file keeps a file's content only when a command may need it on
# resume (docs/state.md, Privacy): a failed
# `match allocate SECRET` (not a jobspec) stores nothing of SECRET; the
# jobspecs of commands that ran are kept, and the file resumes exactly.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -d "$@" 2>&1; }

echo 'root:x:0:0:hunter2-secret-word:/root:/bin/bash' >secret.txt
echo '{"not": "a jobspec", "key": "json-secret-word"}' >secret.json
out=$(printf 'match allocate secret.txt\nmatch allocate %s\nmulti-match allocate %s secret.txt\nmatch allocate secret.json\n' \
    "$J/core.yaml" "$J/core.yaml" | run --state s.db)
expect_contains "the jobspec error is reported" "Jobspec error in secret.txt" "$out"
expect_eq "no trace of the refused file" 0 "$(cat s.db s.db-wal 2>/dev/null | grep -ac hunter2-secret-word)"
expect_eq "no trace of the refused JSON" 0 "$(cat s.db s.db-wal 2>/dev/null | grep -ac json-secret-word)"
kept=$(grep -c 'version' "$J/core.yaml")
[ "$(grep -ac 'version' s.db)" -ge "$kept" ] || fail "the jobspec that ran is not kept"
resumed=$(printf 'list\n' | run -f db -L s.db)
expect_eq "resumed jobs" "$(printf '%s\n' "$out" | grep -c 'JOBID=')" "$(printf '%s\n' "$resumed" | grep -c '^INFO: [0-9]*, ')"

# The same with save, and through a resume by replay (a JQM queue keeps
# the session in the journal, which then replays the command without the file).
out=$(printf 'queue\nmatch allocate secret.txt\nmatch allocate %s\nsave r.db\n' "$J/core.yaml" |
    run --queue-policy jqm)
expect_contains "saved" "INFO: saved the whole session to r.db" "$out"
expect_eq "save keeps no trace either" 0 "$(grep -ac hunter2-secret-word r.db)"
resumed=$(printf 'list\n' | run -f db -L r.db)
expect_contains "replayed without the file" "INFO: 1, ALLOCATED" "$resumed"
finish
