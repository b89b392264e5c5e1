# Real machines from hwloc (the conformance suite's exports, read in
# place): the everyday `node[1]->slot[1]->core[N]` and `->gpu[1]` match
# through sockets and choose what the flat `-W node,core,gpu` load
# chooses; one gpu per GPU; refusals name the file and hwloc's reason.
. "$(dirname "$0")/lib.sh"

DATA="$SHARED/conformance/data/hwloc-data/001N"
CORONA="$DATA/amd_gpu/corona11.xml"
LASSEN="$DATA/node_local_storage/lassen/0.xml"
[ -r "$CORONA" ] && [ -r "$LASSEN" ] || { echo "conformance data missing"; exit 77; }

jobspec() {  # FILE MEMBER COUNT
    cat >"$1" <<YAML
version: 9999
resources:
  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: $2
            count: $3
attributes:
  system:
    duration: 3600
tasks:
  - command: [ "app" ]
    slot: default
    count:
      per_slot: 1
YAML
}
jobspec cores.yaml core 4
jobspec gpu.yaml gpu 1

chosen() {  # FILE ALLOWLIST POLICY: exclusive cores and gpus of 3 core jobs and 2 gpu jobs
    printf 'match allocate cores.yaml\nmatch allocate cores.yaml\nmatch allocate cores.yaml\nmatch allocate gpu.yaml\nmatch allocate gpu.yaml\nquit\n' |
        "$RQ" -L "$1" -f hwloc -W "$2" -P "$3" 2>&1 | grep -E -e '-(core|gpu)[0-9]+\[1:x\]|No matching' | sed 's/^ *-*//' | tr '\n' ' '
}

for policy in high low; do
    flat=$(chosen "$CORONA" node,core,gpu $policy)
    sockets=$(chosen "$CORONA" node,socket,core,gpu $policy)
    case "$flat" in *No\ matching*|"") fail "$policy: the flat load matches everything: $flat" ;; esac
    expect_eq "$policy: node->slot->core/gpu through sockets chooses what the flat load chooses" "$flat" "$sockets"
done

# lassen: four NVIDIA GPUs, ids 0..3 in PCI bus order.
gpus=$(echo "find status=up" | "$RQ" -L "$LASSEN" -f hwloc -W node,gpu 2>&1 | grep -o -e '-gpu[0-9]*' | tr '\n' ' ')
expect_eq "lassen gpus" "-gpu0 -gpu1 -gpu2 -gpu3 " "$gpus"

# corona11 exports a block device without a size: it loads by default,
# one warning naming the file and the device on stderr, nothing else; the
# disk is left out, the rest is what `-W` without storage loads.
echo "find status=up" | "$RQ" -L "$CORONA" -f hwloc >out.txt 2>err.txt
expect_eq "storage without a size: status" 0 "$?"
expect_eq "storage without a size: stderr" \
    "WARNING: $CORONA: block device nvme0n1 at PCI 0000:01:00.0 has no Size: left out (no storage vertex for it)" \
    "$(cat err.txt)"
echo "find status=up" | "$RQ" -L "$CORONA" -f hwloc -W node,socket,core,pu,gpu,numanode,cache,group >out_w.txt 2>err_w.txt
expect_eq "no warning without storage in -W" "" "$(cat err_w.txt)"
expect_eq "the rest is what -W without storage loads" "$(cat out_w.txt)" "$(cat out.txt)"
expect_eq "no storage vertex" 0 "$(grep -c storage out.txt)"

# A newer hwloc format: hwloc's own reason, naming the file.
sed '0,/<topology/s/<topology/<topology version="3.0"/' "$LASSEN" >v3.xml
err=$(echo quit | "$RQ" -L v3.xml -f hwloc 2>&1)
expect_contains "format version" "hwloc_reader: v3.xml: hwloc cannot load it: cannot import XML version 3.0 > 2" "$err"
[ -n "${VERBOSE:-}" ] && echo "$flat | $sockets"
finish
