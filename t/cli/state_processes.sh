# Save/resume across processes (docs/state.md "How a resumed
# session stays exact"): 10,000 random commands run once
# uninterrupted and once cut into segments, one resource-query process per
# segment resuming the file the previous one saved (whole and `changes`
# alternating); identical output, every resume from rows
# (state_processes.py).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found"; exit 77; }
# Under the sanitizers (.ci/run sets RQ_SANITIZED) a prefix of 3,000, as
# the in-process streams do (utilities/sanitized.h).
ops=10000
[ -n "${RQ_SANITIZED:-}" ] && ops=3000
out=$(python3 "$SRC/t/cli/state_processes.py" "$RQ" "$SRC/conf/tiny.graphml" "$SRC/t/data/jobspecs" "$WORK" 1 $ops 2>&1)
status=$?
echo "$out"
expect_eq "randomized save/resume across processes" 0 "$status"
finish
