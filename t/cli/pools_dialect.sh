# One dialect per request (docs/pools.md "request"): a request is read in
# the loaded pool format's tool (or `--as`'s), and -F env prints that
# tool's variables only, with `#` comment lines for the worker and for a
# reserved job.
. "$(dirname "$0")/lib.sh"
D="$SRC/t/data/pools"

# values NAME OUTPUT: the value of NAME='...' in -F env output.
values() { printf '%s\n' "$2" | sed -n "s|^$1='\\(.*\\)'\$|\\1|p"; }
# names OUTPUT: the variable names of -F env output, one line.
names() { printf '%s\n' "$1" | sed -n "s|^\\([A-Za-z_][A-Za-z0-9_/]*\\)='.*|\\1|p" | tr '\n' ' '; }

# --- the loaded format's dialect, and --as --------------------------------
out=$(printf '%s\n' 'request allocate gpus=1' 'request -F env --as hq allocate gpus=1' | \
      "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_contains "-f ctest reads requests as RESOURCE_GROUPS" \
    "request: ERROR: request 'gpus=1': at character 1: unexpected 'g'" "$out"
expect_contains "a HyperQueue request under -f ctest says how to write it" "(HyperQueue's NAME=AMOUNT: request --as hq)" "$out"
expect_eq "--as hq: HyperQueue's variables for the request" "HQ_RESOURCE_REQUEST_gpus HQ_RESOURCE_VALUES_gpus " \
    "$(names "$out")"

out=$(printf '%s\n' 'request allocate cpus=1,gpus/nvidia=1' 'request -F env --as canary allocate cpus=1,gpus/nvidia=1' \
        'request --as ctest allocate 1,gpus/nvidia:1' 'request --as cobol allocate cpus=1' | \
      "$RQ" --resource "cpus=[0,1]" --resource "gpus/nvidia=[0,1]" -d 2>&1)
expect_contains "HyperQueue items are not comma-separated" \
    "request 'cpus=1,gpus/nvidia=1': HyperQueue items are separated by spaces, not commas (canary's comma form: request --as canary)" "$out"
expect_eq "--as canary: canary's variables" "CANARY_CPU_IDS CANARY_GPUS_NVIDIA_IDS CUDA_VISIBLE_DEVICES " "$(names "$out")"
expect_contains "an unknown dialect" "request: ERROR: --as cobol: expected hq, canary or ctest" "$out"

# canary's `gpus=2` asks for 2 gpu slots and its implied cpu
# (canary src/_canary/jobspec.py:276-278 setdefault("cpus", 1)).
out=$(echo 'request -F env allocate gpus=2' | "$RQ" -f canary -L "$D/canary.json" -d 2>&1)
# The implied cpu comes after the named types, as in canary's rparameters.
expect_eq "-f canary: gpus=2 is canary's" "CANARY_GPU_IDS CANARY_CPU_IDS CUDA_VISIBLE_DEVICES " "$(names "$out")"
expect_eq "canary: the implied cpu" "0" "$(values CANARY_CPU_IDS "$out")"
# rpool.py:87-96 takes a unit from the instance with the fewest free slots.
expect_eq "canary: one id per slot" "0,0" "$(values CANARY_GPU_IDS "$out")"
# src/canary_nvidia/__init__.py:33-40: each id once.
expect_eq "canary: CUDA_VISIBLE_DEVICES names each gpu once" "0" "$(values CUDA_VISIBLE_DEVICES "$out")"
err=$(echo 'request allocate cpus=all' | "$RQ" -f canary -L "$D/canary.json" -d 2>&1)
expect_contains "canary has no all" "a canary count is a whole number (0 or more)" "$err"

# CTest's type names (CMake Source/LexerParser/cmCTestResourceGroupsLexer.in.l:34).
err=$(echo 'request allocate 1,GPUs:1' | "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_contains "a CTest type name is checked with CTest's rule" \
    "at character 3: 'GPUs' is not a CTest resource type name (^[a-z_][a-z0-9_]*\$)" "$err"
out=$(printf '%s\n' 'request -F env allocate' 'request -F env allocate 1,gpus:1' | "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_contains "CTest: an empty RESOURCE_GROUPS asks for nothing" "INFO: JOBID=1
INFO: RESOURCES=ALLOCATED" "$out"
expect_eq "CTest: CTest's variables and the gpus" \
    "CTEST_RESOURCE_GROUP_COUNT CTEST_RESOURCE_GROUP_0 CTEST_RESOURCE_GROUP_0_GPUS CUDA_VISIBLE_DEVICES " "$(names "$out")"

# The queue takes --as too, and a resumed session reads the request back alike.
out=$(printf '%s\n' 'submit request --as canary cpus=1,gpus/nvidia=1' 'submit request cpus=1 gpus/nvidia=1' 'run' | \
      "$RQ" --resource "cpus=[0,1]" --resource "gpus/nvidia=[0,1]" -d 2>&1)
case "$out" in *ERROR*) fail "submit request --as canary: $out" ;; esac

# --- find allocates nothing -------------------------------------------------
out=$(echo 'find status=up' | "$RQ" --resource "cpus=[0,1]" -F env -d 2>&1)
expect_eq "find under -F env prints no variables" 'INFO: =============================
INFO: EXPRESSION="status=up"
INFO: =============================' "$out"

# --- a reserved job names no busy devices ------------------------------------
out=$(printf '%s\n' 'request allocate gpus/nvidia=2' 'request -F env allocate_orelse_reserve gpus/nvidia=1' | \
      "$RQ" --resource "gpus/nvidia=[0,1]" -d 2>&1)
expect_contains "reserved: when, not which gpus" "# reserved at 3600
INFO: =============================
INFO: JOBID=2
INFO: RESOURCES=RESERVED" "$out"
expect_eq "reserved: no CUDA_VISIBLE_DEVICES of busy gpus" "" "$(names "$out")"

# --- several workers: which one got the job, and sh skips the line ------------
cat > two.yaml <<'EOF'
workers:
  - name: small
    resources:
      cpus: "[0, 1]"
  - name: big
    resources:
      cpus: 2x4
EOF
out=$(printf '%s\n' 'request allocate cpus=2' 'request allocate cpus=3' | "$RQ" -f hq -L two.yaml -F env -d 2>/dev/null)
expect_eq "the workers that got the jobs" "# worker small
# worker big" "$(printf '%s\n' "$out" | grep '^#')"
got=$(printf '%s\n' "$out" | grep -v '^INFO' | sed -n '/# worker big/,$p')
expect_eq "eval skips the comment and sets the variables" "0,1,2 3" \
    "$(sh -c 'eval "$1"; printf "%s %s" "$HQ_CPUS" "$OMP_NUM_THREADS"' sh "$got")"
got=$(printf '%s\n' 'request allocate cpus=3' | "$RQ" -f hq -L two.yaml -F env_export -d 2>/dev/null | grep -v '^INFO')
expect_eq "env_export under eval, comment and all" "0,1,2" \
    "$(env -i sh -c 'eval "$1"; exec /usr/bin/env' sh "$got" | sed -n 's/^HQ_CPUS=//p')"
one=$(echo 'request -F env allocate cpus=1' | "$RQ" --resource "cpus=[0,1]" -d 2>/dev/null)
case "$one" in *"# worker"*) fail "one worker: no worker line: $one" ;; esac

# --- canary ids and --env placeholders -----------------------------------------
printf 'resource_pool:\n  resources:\n    gpus:\n      - {id: "0"}\n      - {id: "a,b"}\n' > comma.yaml
printf 'resource_pool:\n  resources:\n    gpus:\n      - {id: "x\\0y"}\n' > nul.yaml
printf 'resource_pool:\n  resources:\n    gpus:\n      - {id: "x\\ny"}\n' > newline.yaml
printf '{"resource_pool": {"resources": {"gpus": [{"id": "k=v"}]}}}' > equals.json
for f in comma.yaml nul.yaml newline.yaml equals.json; do
    err=$(echo quit | "$RQ" -f canary -L "$f" 2>&1)
    expect_eq "canary id refused in one line ($f)" 1 "$(printf '%s\n' "$err" | wc -l)"
    expect_contains "canary id refused, naming file and place ($f)" "resource-query: $f: resource_pool.resources.gpus[" "$err"
done
expect_contains "the id with a comma" "gpus[1].id: id \"a,b\" holds ','" "$(echo quit | "$RQ" -f canary -L comma.yaml 2>&1)"
expect_contains "the id with NUL, shown" "id \"x\\0y\" holds NUL" "$(echo quit | "$RQ" -f canary -L nul.yaml 2>&1)"
expect_contains "the id with a newline, shown" "id \"x\\ny\" holds a line break" "$(echo quit | "$RQ" -f canary -L newline.yaml 2>&1)"

out=$(printf '%s\n' 'request --env X=%(fpga_ids)s allocate gpus=1' 'request --env Y=%(gpu_id)s allocate gpus=1' \
        'request -F env --env Z=[%(gpu_ids)s] allocate gpus=1' | "$RQ" -f canary -L "$D/canary.json" -d 2>&1)
expect_contains "an unknown placeholder is named" \
    "request: ERROR: --env X: placeholder %(fpga_ids)s: unknown placeholder: no pool fpga or fpgas" "$out"
expect_contains "a placeholder that is not <name>_ids" "request: ERROR: --env Y: placeholder %(gpu_id)s: unknown placeholder" "$out"
expect_contains "refused requests change nothing: the first job is 1" "INFO: JOBID=1
INFO: RESOURCES=ALLOCATED" "$out"
expect_eq "a known placeholder is filled" "[0]" "$(values Z "$out")"
finish
