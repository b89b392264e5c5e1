# Saving and resuming pool sessions: --resource, -f hq|canary|ctest -L and
# -f local, through `save` + -f db and through --state. The resumed run's
# output equals the uninterrupted run's tail (request allocations, -F env
# and --env included, since request lines are journaled with their options).
. "$(dirname "$0")/lib.sh"
D="$SRC/t/data/pools"

rows_exact() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM meta WHERE key='rows_exact'\").fetchone()[0])" "$1"; }

# check NAME "FIRST" "REST" START-OPTIONS...: cut after FIRST, resume, compare.
check() {
    name=$1 first=$2 rest=$3
    shift 3
    rm -f s.db s.db-* st.db st.db-*
    whole=$(printf '%s\n%s\n' "$first" "$rest" | "$RQ" "$@" -d 2>&1)
    printf '%s\nsave s.db\n' "$first" | "$RQ" "$@" -d >/dev/null 2>&1
    resumed=$(printf '%s\n' "$rest" | "$RQ" -f db -L s.db -d 2>&1)
    tail=$(printf '%s\n' "$whole" | tail -n "$(printf '%s\n' "$resumed" | wc -l)")
    expect_eq "$name: save + -f db resumes the same session" "$tail" "$resumed"
    # request keeps its effects in rows: the file resumes from them.
    expect_eq "$name: the requests are in rows" 1 "$(rows_exact s.db)"
    printf '%s\n' "$first" | "$RQ" "$@" --state st.db -d >/dev/null 2>&1
    live=$(printf '%s\n' "$rest" | "$RQ" "$@" --state st.db -d 2>&1)
    expect_eq "$name: --state resumes the same session" "$tail" "$live"
    expect_eq "$name: --state keeps the requests in rows" 1 "$(rows_exact st.db)"
    expect_contains "$name: jobs of the first part kept" "INFO: 1, ALLOCATED" "$resumed"
}

check "--resource" \
    "request -F env --env MINE=%(gpus/nvidia_ids)s allocate gpus/nvidia=1
request allocate cpus=2" \
    "request -F env allocate gpus/nvidia=1
request -F env allocate cpus=2
request allocate_orelse_reserve gpus/nvidia=2
list
info 2" \
    --resource "gpus/nvidia=range(1-3)" --resource "cpus=[[a, b, e], [c, d, f]]"

check "-f hq" \
    "request allocate mem=4294967296
request -F env allocate fpga=1" \
    "request allocate mem=4294967296
request allocate_orelse_reserve mem=4294967296
list" \
    -f hq -L "$D/workers.yaml"

check "-f canary" \
    "request -F env --env CUDA_VISIBLE_DEVICES=%(gpu_ids)s allocate gpus=2
request allocate cpus=4" \
    "request -F env allocate gpus=1
request allocate_orelse_reserve cpus=4,gpus=4
list" \
    -f canary -L "$D/canary.json"

check "-f ctest" \
    "request -F env allocate 1,gpus:2" \
    "request -F env allocate 2,gpus:2;gpus:2
request allocate_orelse_reserve gpus:4
list" \
    -f ctest -L "$D/ctest.json"

unset CUDA_VISIBLE_DEVICES ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
# -f local re-detects the machine on resume: the same machine, the same graph.
check "-f local" \
    "request -F env allocate cpus=1" \
    "request -F env allocate cpus=1
list" \
    -f local
finish
