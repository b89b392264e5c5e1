#!/bin/sh
# The real machine as resource-query detects it, checked on the machine
# this runs on (docs/pools.md "The local machine", docs/hwloc.md "GPUs").
# Not a ctest: it needs a machine with a GPU; it prints what `-f local`
# (hwdetect) and `-f hwloc` without -L find, and exits non-zero when
#  - either finds another number of GPUs than `nvidia-smi -L` or
#    /proc/driver/nvidia/gpus/* lists (a card missed, or counted twice);
#  - -f local's mem differs from /proc/meminfo MemTotal by more than 1%;
#  - `taskset -c 1` does not leave -f local with cpu 1 alone.
#
# usage: sh t/device/live_detection.sh [RESOURCE_QUERY]
#        (default build/bin/resource-query; a lib/ folder beside it is
#        put first on LD_LIBRARY_PATH)
#        sh t/device/live_detection.sh --bundle DIR
#        copies build/bin/resource-query and the shared libraries it
#        needs (but the C library) into DIR and DIR/lib, for a machine
#        that lacks them; then run: sh t/device/live_detection.sh DIR/resource-query
set -u

if [ "${1:-}" = "--bundle" ]; then
    dir=${2:?usage: --bundle DIR}
    mkdir -p "$dir/lib" && cp build/bin/resource-query "$dir/" || exit 1
    ldd build/bin/resource-query | awk '$3 ~ /^\// {print $3}' |
        grep -v -e '/libc\.so' -e '/libm\.so' -e '/ld-linux' -e '/libgcc_s\.so' |
        while read -r lib; do cp -L "$lib" "$dir/lib/"; done
    echo "bundle in $dir: $(ls "$dir/lib" | wc -l) libraries"
    exit 0
fi

RQ=${1:-build/bin/resource-query}
[ -x "$RQ" ] || { echo "live_detection: $RQ: no such program (build it, or pass its path)"; exit 2; }
libdir="$(dirname "$RQ")/lib"
[ -d "$libdir" ] && LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" && export LD_LIBRARY_PATH

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The number of ids in a pool of hwdetect's output (range(a-b), [a, b],
# [[a, b], [c]], NxM); 0 for an absent pool.
pool_size() {  # OUTPUT NAME
    value=$(printf '%s\n' "$1" | sed -n "s|^$2=||p" | head -n 1)
    case "$value" in
    '') echo 0 ;;
    range\(*) printf '%s\n' "$value" | sed 's/range(\([0-9]*\)-\([0-9]*\))/\1 \2/' | awk '{print $2 - $1 + 1}' ;;
    *x*) printf '%s\n' "$value" | awk -Fx '{print $1 * $2}' ;;
    *) printf '%s\n' "$value" | tr -d '[] ' | tr ',' '\n' | grep -c . ;;
    esac
}

clean="env -u CUDA_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES -u HIP_VISIBLE_DEVICES"

# ---- what the machine has --------------------------------------------------
smi_gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then
    smi=$(nvidia-smi -L 2>&1)
    echo "== nvidia-smi -L"; printf '%s\n' "$smi"
    smi_gpus=$(printf '%s\n' "$smi" | grep -c '^GPU [0-9]')
fi
proc_gpus=0
[ -d /proc/driver/nvidia/gpus ] && proc_gpus=$(ls /proc/driver/nvidia/gpus | grep -c .)
echo "== /proc/driver/nvidia/gpus: $proc_gpus; nvidia-smi: $smi_gpus"
want_gpus=$smi_gpus
[ "$proc_gpus" -gt "$want_gpus" ] && want_gpus=$proc_gpus
memtotal_kb=$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
echo "== MemTotal: ${memtotal_kb:-?} kB; nproc: $(nproc); affinity: $(taskset -pc $$ 2>/dev/null | sed 's/.*: //')"

# ---- -f local / hwdetect ---------------------------------------------------
local_out=$(echo hwdetect | $clean "$RQ" -f local -d 2>&1)
echo "== -f local (hwdetect)"; printf '%s\n' "$local_out"
local_gpus=$(pool_size "$local_out" gpus/nvidia)
# One gpu per physical card: neither fewer (a card missed) nor more (a
# card counted once per OS device or backend).
[ "$want_gpus" -eq 0 ] || [ "$local_gpus" -eq "$want_gpus" ] || fail "-f local: $local_gpus nvidia gpus, the machine has $want_gpus"
mem=$(printf '%s\n' "$local_out" | sed -n 's/^mem=sum(\([0-9]*\))$/\1/p')
if [ -z "$mem" ] || [ -z "$memtotal_kb" ]; then
    fail "-f local: no mem=sum(N) line, or no MemTotal"
else
    awk -v m="$mem" -v t="$memtotal_kb" 'BEGIN { d = m - t * 1024; if (d < 0) d = -d; exit !(d <= t * 1024 / 100) }' ||
        fail "-f local: mem $mem bytes, MemTotal $((memtotal_kb * 1024)) bytes (more than 1% apart)"
fi
if command -v taskset >/dev/null 2>&1 && taskset -c 1 true 2>/dev/null; then
    pinned=$(echo hwdetect | taskset -c 1 $clean "$RQ" -f local -d 2>&1)
    cpus=$(printf '%s\n' "$pinned" | sed -n 's/^cpus=//p')
    echo "== taskset -c 1 -f local: cpus=$cpus"
    case "$cpus" in
    'range(1-1)'|'[1]') ;;
    *) fail "taskset -c 1: -f local offers cpus=$cpus" ;;
    esac
else
    echo "== taskset or cpu 1 unavailable: the affinity check is skipped"
fi

# ---- -f hwloc without -L ---------------------------------------------------
hwloc_out=$(echo "find status=up" | "$RQ" -f hwloc -W node,socket,numanode,core,gpu -d 2>&1)
echo "== -f hwloc (this machine), node/socket/numanode/core/gpu"; printf '%s\n' "$hwloc_out" | grep -- '-[a-z]*[0-9]*\['
hwloc_gpus=$(printf '%s\n' "$hwloc_out" | grep -c -- '-gpu[0-9]*\[')
[ "$want_gpus" -eq 0 ] || [ "$hwloc_gpus" -eq "$want_gpus" ] || fail "-f hwloc: $hwloc_gpus gpu vertices, the machine has $want_gpus"
if command -v lstopo-no-graphics >/dev/null 2>&1; then
    echo "== lstopo-no-graphics (PCI display controllers)"; lstopo-no-graphics 2>/dev/null | grep -i -e 'PCI.*(3D\|VGA\|Display' -e 'CoProc\|GPU' | head -20
fi

if [ "$failures" -eq 0 ]; then echo "live_detection: all checks passed"; else echo "live_detection: $failures check(s) failed"; fi
[ "$failures" -eq 0 ]
