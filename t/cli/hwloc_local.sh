# -f hwloc without -L loads the machine resource-query runs on: it must
# report at least as many cores as this machine has processing units
# online divided by the threads per core (i.e. every core nproc sees).
. "$(dirname "$0")/lib.sh"

out=$(echo "find status=up" | "$RQ" -f hwloc -W node,core,pu -d 2>err) || { fail "-f hwloc (local): $(cat err)"; finish; }
cores=$(printf '%s\n' "$out" | grep -c -- '-core[0-9]*\[')
pus=$(printf '%s\n' "$out" | grep -c -- '-pu[0-9]*\[')
nproc=$(nproc)
[ "$cores" -ge 1 ] || fail "no core detected"
[ "$pus" -ge "$nproc" ] || fail "$pus processing units detected, nproc says $nproc"
[ "$pus" -ge "$cores" ] || fail "more cores ($cores) than PUs ($pus)"
threads_per_core=$(( (pus + cores - 1) / cores ))
[ $(( cores * threads_per_core )) -ge "$nproc" ] || fail "$cores cores x $threads_per_core threads < nproc $nproc"
expect_contains "a node named after this host" "$(hostname)" "$out"
finish
