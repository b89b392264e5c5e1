# Resource pools (pools/): the seeds' examples as written, loaders, env
# output handed to env and to eval in sh.
. "$(dirname "$0")/lib.sh"
D="$SRC/t/data/pools"

# values NAME OUTPUT: the value of NAME='...' in -F env output.
values() { printf '%s\n' "$2" | sed -n "s|^$1='\\(.*\\)'\$|\\1|p"; }

# --- HyperQueue: range(1-3), a 1-gpu job then a 2-gpu job --------------
out=$(printf '%s\n' 'request -F env allocate gpus/nvidia=1' 'request -F env allocate gpus/nvidia=2' \
        'request allocate gpus/nvidia=1' | "$RQ" --resource "gpus/nvidia=range(1-3)" -d 2>&1)
first=$(printf '%s\n' "$out" | sed -n "s|^HQ_RESOURCE_VALUES_gpus/nvidia='\\(.*\\)'\$|\\1|p" | sed -n 1p)
second=$(printf '%s\n' "$out" | sed -n "s|^HQ_RESOURCE_VALUES_gpus/nvidia='\\(.*\\)'\$|\\1|p" | sed -n 2p)
all=$(printf '%s,%s\n' "$first" "$second" | tr ',' '\n' | sort | tr '\n' ' ')
expect_eq "range(1-3): 1 gpu + 2 gpus use all three, disjoint" "1 2 3 " "$all"
expect_contains "range(1-3): a third job finds nothing" "INFO: No matching resources found" "$out"
expect_contains "CUDA_VISIBLE_DEVICES follows the gpus" "CUDA_VISIBLE_DEVICES='$first'" "$out"
expect_contains "CUDA_DEVICE_ORDER" "CUDA_DEVICE_ORDER='PCI_BUS_ID'" "$out"

# --- scatter: 4 groups of 8, 8 cpus -> 2 per group --------------------
out=$(echo 'request allocate cpus="8 scatter"' | "$RQ" --resource cpus=4x8 -d 2>&1)
for g in 0 1 2 3; do
    n=$(printf '%s\n' "$out" | awk -v g="cpus-group$g" '/^ *-+[0-9]+\[/ {k++} /cpus-group/ {if (index($0, g"[")) print k; k=0}')
    expect_eq "scatter: 2 cpus in group $g" 2 "$n"
done

# --- compact! of 4 on groups of 4: one group, waits when none is free ---
out=$(printf '%s\n' 'request allocate cpus="4 compact!"' | "$RQ" --resource cpus=4x4 -d 2>&1)
expect_eq "compact! 4: one whole group" "4 1" \
    "$(printf '%s\n' "$out" | grep -c -- '-[0-9]*\[1:x\]') $(printf '%s\n' "$out" | grep -c -- '-cpus-group')"
out=$(printf '%s\n' 'request allocate cpus="4 scatter"' 'request allocate cpus="4 compact!"' \
        'request -F env allocate_orelse_reserve cpus="4 compact!"' 'request -F env allocate cpus="4 compact"' | \
      "$RQ" --resource cpus=4x4 -d 2>&1)
expect_contains "compact! 4 with no whole group free: not now" "INFO: No matching resources found
INFO: JOBID=2" "$out"
expect_contains "compact! 4 waits via a reservation" "INFO: JOBID=2
INFO: RESOURCES=RESERVED
INFO: SCHEDULED AT=3600" "$out"
vals=$(printf '%s\n' "$out" | sed -n "s|^HQ_RESOURCE_VALUES_cpus='\\(.*\\)'\$|\\1|p")
# A reserved job names no devices: they are busy now (docs/pools.md "-F env").
expect_contains "compact! reservation: when, not which cpus" "# reserved at 3600
INFO: =============================
INFO: JOBID=2" "$out"
# HyperQueue's compact splits evenly over the fewest groups: 2 + 2
# (crates/tako/src/internal/worker/resources/pool.rs:180-231, 390-393).
expect_eq "plain compact falls back to two groups now, evenly" "1,2,5,6" "$vals"

# --- all ------------------------------------------------------------------
out=$(printf '%s\n' 'request -F env allocate gpus=all' 'request allocate gpus=1' | \
      "$RQ" --resource "gpus=[a, b, c]" --resource cpus=2x2 -d 2>&1)
expect_eq "all takes every gpu" "a,b,c" "$(values HQ_RESOURCE_VALUES_gpus "$out")"
expect_contains "nothing left after all" "No matching resources found" "$out"

# --- amounts beyond 32 bits ----------------------------------------------
out=$(printf '%s\n' 'request -F env allocate mem=4294967296' 'request allocate mem=1' \
        'request allocate_orelse_reserve mem=9223372036854775807' 'request satisfiability mem=9223372036854775807' | \
      "$RQ" --resource "mem=sum(9223372036854775807)" -d 2>&1)
expect_eq "2^32 bytes" "4294967296 compact" "$(values HQ_RESOURCE_REQUEST_mem "$out")"
expect_contains "2^63-1 is satisfiable" "INFO: Satisfiable request" "$out"
expect_contains "2^63-1 waits for the others" "SCHEDULED AT=3600" "$out"

# A jobspec `match` on a pool of 2^33 units: qualified counts no longer wrap
# to 0 (counts themselves stay 32-bit, as the reference's jobspecs).
out=$(echo "match allocate $D/mem-4g.yaml" | "$RQ" --resource "mem=sum(8589934592)" -d 2>&1)
expect_contains "match on a 2^33 pool" "INFO: RESOURCES=ALLOCATED" "$out"

# --- canary's example pool and shorthand ----------------------------------
out=$(printf '%s\n' 'request -F env allocate cpus=4,gpus=4' 'request allocate gpus=1' | \
      "$RQ" -f canary -L "$D/canary.json" -d 2>&1)
expect_eq "canary cpus" "0,1,2,3" "$(values CANARY_CPU_IDS "$out")"
# One id per slot taken, as canary's checkout lists them
# (src/_canary/resource_pool/rpool.py:342-345, job.py:523-526).
expect_eq "canary gpus: 2 slots each" "0,0,1,1" "$(values CANARY_GPU_IDS "$out")"
expect_contains "canary: no gpu slot left" "No matching resources found" "$out"
out=$(printf '%s\n' 'request -F env --env CUDA_VISIBLE_DEVICES=%(gpu_ids)s allocate gpus=2' 'request allocate fpgas=1' \
        'request -F env allocate gpus=1,fpgas=0' | "$RQ" -f canary -L "$D/canary-short.yaml" -d 2>&1)
expect_eq "canary placeholder" "0,1" "$(values CUDA_VISIBLE_DEVICES "$out" | sed -n 1p)"
expect_contains "fpgas: 0 cannot serve one" "Unsatisfiable request" "$out"
expect_contains "canary comma form: 1 cpu by default" "CANARY_CPU_IDS='0'" "$out"

# --- CTest's example spec and RESOURCE_GROUPS -----------------------------
out=$(echo 'request -F env allocate 2,gpus:2;gpus:4' | "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_eq "CTest group count" 3 "$(values CTEST_RESOURCE_GROUP_COUNT "$out")"
expect_eq "CTest group 2 needs the 4-slot gpu" "id:1,slots:4" "$(values CTEST_RESOURCE_GROUP_2_GPUS "$out")"
expect_eq "CTest group 0" "id:0,slots:2" "$(values CTEST_RESOURCE_GROUP_0_GPUS "$out")"
expect_eq "CTest group 1" "id:2,slots:2" "$(values CTEST_RESOURCE_GROUP_1_GPUS "$out")"
printf '{"version": {"major": 1, "minor": 1}, "local": [{}]}' > bad.json
err=$(echo quit | "$RQ" -f ctest -L bad.json -d 2>&1)
expect_contains "CTest version check names file and field" "bad.json: version: only version 1.0 is supported" "$err"
# Keys that are not type names are skipped as CTest's MapFilter skips them
# (CMake Source/CTest/cmCTestResourceSpec.cxx:83-89), with one warning line.
printf '{"version": {"major": 1, "minor": 0}, "local": [{"GPUs": [], "_": [{"id": "0"}]}]}' > odd.json
err=$(echo 'request allocate _:1' | "$RQ" -f ctest -L odd.json -d 2>&1 >/dev/null)
expect_eq "CTest: an ignored key is one warning line on stderr" \
  "odd.json: local[0].GPUs: warning: ignored, not a CTest resource type name ([a-z_][a-z0-9_]*)" "$err"
out=$(echo 'request allocate _:1' | "$RQ" -f ctest -L odd.json -d 2>/dev/null)
expect_contains "CTest: '_' is a type (cmCTestResourceSpec.cxx:21)" "INFO: RESOURCES=ALLOCATED" "$out"
# An empty `local` is a machine with no resources (cmCTestResourceSpec.cxx:108-109,
# testCTestResourceSpec.cxx:29 spec2.json).
printf '{"version": {"major": 1, "minor": 0}, "local": []}' > empty.json
out=$(echo 'request allocate gpus:1' | "$RQ" -f ctest -L empty.json -d 2>&1)
expect_eq "CTest: empty local loads" "" "$(printf '%s\n' "$out" | grep -F empty.json)"
# A group's types sorted, as CTest's std::map keeps them (cmCTestRunTest.cxx:938-962).
out=$(echo 'request -F env allocate gpus:1,crypto_chips:1' | "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_eq "CTest: group types sorted" "crypto_chips,gpus" "$(values CTEST_RESOURCE_GROUP_0 "$out")"
# A quoted request, as written in CMake, and a group count of 0
# (testCTestResourceGroups.cxx:47).
out=$(echo 'request -F env allocate "1,gpus:2;0,crypto_chips:1"' | "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_eq "CTest: quoted request, 0 copies of a group" 1 "$(values CTEST_RESOURCE_GROUP_COUNT "$out")"
err=$(echo 'request allocate 1,gpus :2' | "$RQ" -f ctest -L "$D/ctest.json" -d 2>&1)
expect_contains "CTest: white space in a requirement" "white space is not allowed" "$err"

# --- hq workers file -------------------------------------------------------
out=$(printf '%s\n' 'request allocate mem=4294967296' 'request allocate mem=4294967296' 'request allocate mem=1' \
        'request -F env allocate fpga=1' | "$RQ" -f hq -L "$D/workers.yaml" -d 2>&1)
expect_contains "first cpu worker" "------cpu0[1:s]" "$out"
expect_contains "second cpu worker" "------cpu1[1:s]" "$out"
expect_contains "3rd mem request: nothing" "No matching resources found" "$out"
expect_eq "quoted values" "foo [,]" "$(values HQ_RESOURCE_VALUES_fpga "$out")"
out=$(printf '%s\n' 'set-property /cluster0/gpu/gpus/nvidia/3 class=fast' 'get-property /cluster0/gpu/gpus/nvidia/3' \
        'find property=class' | "$RQ" -f hq -L "$D/workers.yaml" -d -F jgf 2>&1)
expect_contains "a path with a slash in the pool name" "class=fast" "$out"
expect_contains "find and JGF keep the type" '"type": "gpus/nvidia", "name": "3"' "$out"
err=$(echo quit | "$RQ" --resource "cpus=range(3-1)" -d 2>&1)
expect_contains "bad --resource" "resource pool cpus: range(3-1) ends before it starts" "$err"

err=$(echo quit | "$RQ" -L "$SRC/conf/tiny.graphml" --resource cpus=4 2>&1)
expect_contains "--resource is not silently ignored" "--resource works alone or with" "$err"
out=$(printf '%s\n' 'request -F env allocate gpus=1' | "$RQ" -f canary -L "$D/canary.json" --resource "gpus=[x]" -d 2>&1)
expect_contains "--resource replaces a loaded pool" "CANARY_GPU_IDS='x'" "$out"

# --- a GRUG machine is workers with grouped cpus ----------------------------
out=$(echo 'request allocate cpus="4 scatter"' | "$RQ" -L "$SRC/conf/tiny.graphml" -d 2>&1)
expect_contains "GRUG: cores from both sockets" "socket1[1:s]" "$out"
expect_contains "GRUG: cores from both sockets" "socket0[1:s]" "$out"

# --- -F env handed to env, env_export to eval -----------------------------
req='request allocate cpus=2 gpus/nvidia=1 "odd=1"'
printf '%s\n' "$req" | "$RQ" --resource cpus=2x2 --resource "gpus/nvidia=[0,1]" --resource "odd=[\"it's\"]" -d -F env \
    2>/dev/null | grep -v '^INFO' > env.txt
args=$(tr '\n' ' ' < env.txt)
eval "env -i $args /usr/bin/env" | sort > seen.txt
expect_contains "env: a name with a slash" "HQ_RESOURCE_VALUES_gpus/nvidia=0" "$(cat seen.txt)"
expect_contains "env: a quote in a value" "HQ_RESOURCE_VALUES_odd=it's" "$(cat seen.txt)"
expect_eq "env: every line is one variable" "$(wc -l < env.txt)" "$(wc -l < seen.txt)"
printf '%s\n' "$req" | "$RQ" --resource cpus=2x2 --resource "gpus/nvidia=[0,1]" --resource "odd=[\"it's\"]" -d \
    -F env_export 2>/dev/null | grep -v '^INFO' > export.txt
child=$(env -i sh -c '. ./export.txt; exec /usr/bin/env' | sort)
expect_contains "export: CUDA_VISIBLE_DEVICES" "CUDA_VISIBLE_DEVICES=0" "$child"
expect_contains "export: a quote in a value" "HQ_RESOURCE_VALUES_odd=it's" "$child"
case "$child" in *gpus/nvidia*) fail "export: a name sh cannot take was exported" ;; esac
finish
