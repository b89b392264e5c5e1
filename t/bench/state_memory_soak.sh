#!/bin/sh
# Memory of a long session without --state (docs/state.md, Memory): N match/cancel cycles on conf/tiny.graphml, peak RSS
# after 10,000 cycles and after N (default 1,000,000). Nothing is
# journaled without --state, and canceled jobs leave memory for a
# temporary file (every job stays for `list`/`info`, spec/cli.md §5.13), so
# the peak should stay flat. A benchmark, not a test.
# usage: t/bench/state_memory_soak.sh BUILD/bin/resource-query [N]
set -eu
RQ=${1:?resource-query binary}
N=${2:-1000000}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cycles() {
    awk -v n="$1" -v j="$SRC/t/data/jobspecs/core.yaml" \
        'BEGIN { for (i = 1; i <= n; i++) printf "match allocate %s\ncancel %d\n", j, i }'
}
peak() {  # peak RSS in KiB of a session running $1 cycles
    cycles "$1" >"$WORK/in"
    /usr/bin/time -f %M -o "$WORK/rss" "$RQ" -L "$SRC/conf/tiny.graphml" -d <"$WORK/in" >/dev/null 2>&1
    cat "$WORK/rss"
}
base=$(peak 10000)
last=$(peak "$N")
echo "peak RSS after 10000 cycles: $base KiB; after $N cycles: $last KiB;" \
    "growth $(( (last - base) * 1024 / (N - 10000) )) B/cycle;" \
    "$(awk -v a="$base" -v b="$last" 'BEGIN { printf "%.1f%%", (b - a) * 100 / a }') over the 10000-cycle figure"
