# The real machine as HyperQueue's worker detection sees it
# (docs/pools.md "The local machine", docs/hwloc.md "GPUs"):
#  - -f local's mem is the kernel's MemTotal, not hwloc's NUMA memory
#    (HyperQueue: crates/hyperqueue/src/worker/hwdetect.rs:239-244);
#  - -f local offers only the cpus of the affinity mask: `taskset -c 1`
#    gives cpus [1] (hwdetect.rs:52-70, filter_masked_cpus);
#  - -f hwloc -L of a node whose GPU hwloc saw only as a PCI 3D controller
#    (the real H200 node in ../shared/machines) has its gpu.
. "$(dirname "$0")/lib.sh"

clean_env="env -u CUDA_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES -u HIP_VISIBLE_DEVICES"

out=$(echo hwdetect | $clean_env "$RQ" -f local -d 2>&1) || fail "-f local: $out"
memtotal_kb=$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
if [ -n "$memtotal_kb" ]; then
    expect_contains "mem is MemTotal" "mem=sum($((memtotal_kb * 1024)))" "$out"
fi

if command -v taskset >/dev/null && taskset -c 1 true 2>/dev/null; then
    out=$(echo hwdetect | taskset -c 1 $clean_env "$RQ" -f local -d 2>&1) || fail "taskset -f local: $out"
    cpus=$(printf '%s\n' "$out" | sed -n 's/^cpus=//p')
    case "$cpus" in
    '[1]'|'range(1-1)') ;;
    *) fail "taskset -c 1: cpus=$cpus, expected only cpu 1" ;;
    esac
    out=$(printf '%s\n' 'request allocate cpus=1' 'request allocate cpus=1' |
          taskset -c 1 $clean_env "$RQ" -f local -d 2>&1)
    expect_contains "one cpu to give" "INFO: RESOURCES=ALLOCATED" "$out"
    expect_contains "and only one" "No matching resources found" "$out"
else
    echo "taskset or cpu 1 unavailable: affinity case skipped"
fi

H200="$SHARED/machines/h200-node-wholeio.xml"
if [ -r "$H200" ]; then
    out=$(echo "find status=up" | "$RQ" -f hwloc -L "$H200" -W node,gpu -d 2>&1) || fail "-L h200: $out"
    n=$(printf '%s\n' "$out" | grep -c -- '-gpu[0-9]*\[')
    [ "$n" -eq 1 ] || fail "the H200 node: $n gpu vertices, expected 1: $out"
    expect_contains "the H200 is gpu0" "gpu0" "$out"
else
    echo "$H200 absent: the H200 case skipped"
fi
finish
