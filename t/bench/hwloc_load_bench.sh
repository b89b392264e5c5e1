#!/bin/sh
# hwloc XML load time against hwloc's own tools: resource-query loading a
# synthetic 8,192-PU topology (16 packages x 2 NUMA x 8 L3 x 8 cores x 4
# PUs, a 4.5 MB export) versus `hwloc-calc` parsing the same file. The goal
# (docs/hwloc.md "Crash isolation") is a median wall ratio A/B of at most 2.
#
#   sh t/bench/hwloc_load_bench.sh build/bin/resource-query [RUNS]
#
# Needs lstopo-no-graphics and hwloc-calc (package hwloc-nox, see
# utilities/install-deps.sh) and farm-bench.
set -eu
RQ=$(realpath "${1:?usage: $0 path/to/resource-query [runs]}")
RUNS=${2:-9}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
lstopo-no-graphics -i "pack:16 numa:2 l3:8 core:8 pu:4" --of xml >"$DIR/big.xml" 2>/dev/null
farm-bench -n "$RUNS" --vs "hwloc-calc -i $DIR/big.xml all" -- \
    sh -c "exec $RQ -L $DIR/big.xml -f hwloc >/dev/null 2>&1"
