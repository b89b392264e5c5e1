#!/bin/sh
# Inputs under faults (docs/formats.md "Limits on input files"): bounded reads of every
# file a command or an option names, the pool loaders' memory guard, errors
# that give the real limit, start-up checks, checked writes, one-line
# start-up errors.
#
# usage: inputs.sh BIN_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
tiny=$SRC/conf/tiny.graphml
core=$SRC/t/data/jobspecs/core.yaml
[ -x "$RQ" ] && [ -r "$tiny" ] || { echo "SKIP: $RQ or $tiny missing"; exit 77; }

# run_rq ARGS... <commands: stdout+stderr in $out, exit status in $status.
# A hang is a failure, not a stuck test.
run_rq() { out=$(timeout 120 "$RQ" "$@" 2>&1); status=$?; }

# ---- bounded reads: devices are refused by every command and option --------
for cmd in "match allocate @" "match satisfiability @" "cat @" "attach @" "update allocate jgf @ 5 0 3600" \
    "partial-cancel 1 jgf @"; do
    line=$(printf '%s\n' "$cmd" | sed 's|@|/dev/zero|')
    run_rq -L "$tiny" -F jgf <<EOF
match allocate $core
$line
EOF
    expect_contains "$cmd /dev/zero: refused" "/dev/zero: not a regular file (a character device)" "$out"
done
run_rq -L "$tiny" <<EOF
submit /dev/zero
EOF
expect_contains "submit /dev/zero: refused" "cannot read /dev/zero: not a regular file" "$out"
for format in grug jgf rv1exec hwloc graphml hq canary ctest; do
    run_rq -L /dev/zero -f "$format" </dev/null
    expect_eq "-f $format -L /dev/zero: exit" 1 "$status"
    expect_eq "-f $format -L /dev/zero: one line" "resource-query: can't read /dev/zero: not a regular file (a character device)" "$out"
done
run_rq -L "$tiny" -Q /dev/zero </dev/null
expect_eq "-Q /dev/zero" "1 resource-query: -Q: cannot read /dev/zero: not a regular file (a character device)" "$status $out"
run_rq -L "$tiny" --replay /dev/zero </dev/null
expect_contains "--replay /dev/zero" "cannot read /dev/zero: not a regular file" "$out"

# a FIFO: never a hang in open(); one with no writer is given up on
mkfifo fifo
run_rq -L "$tiny" --replay fifo </dev/null
expect_contains "--replay FIFO: refused" "cannot read fifo: not a regular file" "$out"
run_rq -L "$tiny" <<EOF
match allocate fifo
EOF
expect_contains "match FIFO without a writer: given up" "fifo: nothing to read for 10 s" "$out"
# a FIFO with a writer is read (a shell's <(...) is one)
(cat "$core" >fifo) &
run_rq -L "$tiny" <<EOF
match allocate fifo
EOF
wait
expect_contains "match FIFO with a writer: read" "INFO: JOBID=1" "$out"

# huge files: refused by their size before any byte is read (sparse files)
truncate -s 65M big.yaml
run_rq -L "$tiny" <<EOF
match allocate big.yaml
EOF
expect_contains "65 MiB jobspec: the jobspec limit" "big.yaml: larger than the 64 MiB limit for a jobspec" "$out"
truncate -s 1025M big.graphml
run_rq -L big.graphml </dev/null
expect_eq "1025 MiB recipe: the graph limit" \
    "1 resource-query: can't read big.graphml: larger than the 1 GiB limit for a graph or recipe" "$status $out"
rm -f big.yaml big.graphml

# no memory to hold a file: one line, not an abort (exit 134)
# (Not under AddressSanitizer, .ci/run's RQ_SANITIZED: its shadow memory
# needs terabytes of address space, so no ulimit -v lets it start.)
if [ -z "${RQ_SANITIZED:-}" ]; then
    truncate -s 900M mid.graphml
    out=$( (ulimit -v 400000 && "$RQ" -L mid.graphml </dev/null) 2>&1); status=$?
    expect_eq "-L under ulimit -v: exit 1" 1 "$status"
    expect_contains "-L under ulimit -v: one line" "resource-query: can't read mid.graphml: not enough memory to read it" "$out"
    rm -f mid.graphml
fi

# ---- pool loaders: GRUG's memory guard, before anything is expanded ----------
printf 'workers:\n  - name: w\n    count: 10000000\n    resources: {cpus: 8x8}\n' >many.yaml
run_rq -f hq -L many.yaml </dev/null
expect_eq "10^7 hq workers: refused" 1 "$status"
expect_contains "10^7 hq workers: the estimate" "many.yaml: workers[0]: the pools would generate 730,000,001 vertices" "$out"

# ---- errors give the real limit -------------------------------------------------
run_rq -L "$tiny" <<EOF
submit --runtime 1e300 $core
submit --duration 9223372036854775807 request core=1
EOF
expect_contains "--runtime 1e300" "ERROR: submit: --runtime 1e300: out of range, at most 9223372036854775807" "$out"
expect_contains "--duration 2^63-1" "ERROR: submit: --duration 9223372036854775807: out of range, at most 3153599999" "$out"
sed 's/duration: .*/duration: 9999999999/' "$core" >long.yaml
grep -q 'duration: 9999999999' long.yaml || fail "long.yaml has no duration to change"
run_rq -L "$tiny" <<EOF
submit long.yaml
match allocate long.yaml
EOF
expect_contains "submit: jobspec duration" "long.yaml: attributes.system.duration 9999999999: out of range, at most 3153599999" "$out"
expect_contains "match: the reference's line" "match_allocate: ERROR: traverser: Invalid argument" "$out"
expect_contains "match: then the limit" "  attributes.system.duration 9999999999: out of range, at most 3153600000" "$out"

# YAML job lists: jobspec paths beside the list; errors name the job
mkdir -p lists/specs
cp "$core" lists/specs/core.yaml
printf -- '- {submit: 0, runtime: 5, jobspec: specs/core.yaml}\n- {submit: 1, runtime: 5, jobspec: specs/none.yaml}\n' >lists/jobs.yaml
run_rq -L "$tiny" --replay lists/jobs.yaml </dev/null
expect_contains "job list: a path beside the list, the job's index" \
    "ERROR: --replay: lists/jobs.yaml: job 2: cannot read jobspec lists/specs/none.yaml" "$out"
printf -- '- {submit: 0, runtime: 5, jobspec: specs/core.yaml}\n' >lists/one.yaml
run_rq -L "$tiny" --replay lists/one.yaml </dev/null
expect_contains "job list: a relative jobspec is found" "SUMMARY jobs=1" "$out"

# a pool file given the wrong -f: a hint naming the format it looks like
printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2}]}]}\n' >ctest.json
printf 'workers:\n  - name: w\n    resources: {cpus: 4}\n' >workers.yaml
run_rq -f canary -L ctest.json </dev/null
expect_contains "-f canary on a CTest file" "it looks like a CTest resource specification: -f ctest" "$out"
run_rq -L workers.yaml </dev/null
expect_contains "GRUG on a HyperQueue file" "it looks like a HyperQueue worker list: -f hq" "$out"

# ---- start-up checks everything it is given ---------------------------------------
printf 'queues: [\n' >bad.yaml
run_rq -L "$tiny" -Q bad.yaml <<EOF
match allocate $core
EOF
expect_eq "-Q bad.yaml: exit 1 at start-up" 1 "$status"
case "$out" in *JOBID*) fail "-Q bad.yaml: a command ran: $out" ;; esac
run_rq -L "$tiny" --events-json /nonexistent/x <<EOF
match allocate $core
EOF
expect_eq "--events-json /nonexistent/x: at start-up" \
    "1 resource-query: --events-json: cannot open /nonexistent/x for writing: No such file or directory" "$status $out"

# ---- every write is checked -------------------------------------------------------
echo "match allocate $core" | "$RQ" -L "$tiny" >/dev/full 2>err; status=$?
expect_eq "stdout on /dev/full" "1 resource-query: error writing standard output" "$status $(cat err)"
echo "match allocate $core" | "$RQ" -L "$tiny" -t /dev/full >/dev/null 2>err; status=$?
expect_eq "-t /dev/full" "1 resource-query: error writing /dev/full" "$status $(cat err)"
ln -s /dev/full full.graphml
"$RQ" -L "$tiny" -g graphml -o full </dev/null >/dev/null 2>err; status=$?
expect_eq "-g graphml -o on /dev/full" "1 resource-query: error writing full.graphml" "$status $(cat err)"
printf -- '- {submit: 0, runtime: 5, size: 1}\n' >one.yaml
"$RQ" -L "$tiny" --replay one.yaml --replay-csv /dev/full >/dev/null 2>err; status=$?
expect_eq "--replay-csv /dev/full" "1 ERROR: --replay: --replay-csv: error writing /dev/full" "$status $(cat err)"
"$RQ" -L "$tiny" --replay one.yaml --events-json /dev/full >/dev/null 2>err; status=$?
expect_eq "--replay --events-json /dev/full" "1 ERROR: --replay: --events-json: error writing /dev/full" "$status $(cat err)"
echo "submit $core" | "$RQ" -L "$tiny" --events-json /dev/full >/dev/null 2>err; status=$?
expect_eq "queue --events-json /dev/full" "1 resource-query: --events-json: error writing /dev/full" "$status $(cat err)"

# ---- stat after only pool requests -------------------------------------------------
run_rq --resource "cpus=range(0-3)" <<EOF
request allocate cpus=1
request allocate cpus=1
stat
EOF
case "$out" in *1.79769e+308*) fail "stat after pool requests: $out" ;; esac
expect_contains "stat counts the requests" "INFO: Num. of Jobs Matched: 2" "$out"

# ---- start-up errors: one line; an option error: usage line and --help hint ----------
printf '<graphml>\n<graph>' >broken.graphml
run_rq -L broken.graphml </dev/null
expect_eq "malformed recipe: one line" "1 resource-query: broken.graphml:2: malformed XML: unexpected end of data" "$status $out"
run_rq -L "$tiny" --no-such-option </dev/null
expect_eq "option error: exit" 1 "$status"
expect_eq "option error: three lines" 3 "$(printf '%s\n' "$out" | wc -l)"
expect_contains "option error: the --help hint" "Try 'resource-query --help'" "$out"

finish
