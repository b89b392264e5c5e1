# HyperQueue's own rules for `--resource` and requests (docs/pools.md
# "Coming from HyperQueue"); each check cites the HyperQueue file and line
# (It4innovations/hyperqueue) whose behaviour it pins.
. "$(dirname "$0")/lib.sh"

values() { printf '%s\n' "$2" | sed -n "s|^$1='\\(.*\\)'\$|\\1|p"; }
refused() {  # refused WHAT EXPECTED-TEXT ARGS...
    what=$1 says=$2; shift 2
    out=$(echo quit | "$RQ" "$@" -d 2>&1) && fail "$what: accepted"
    expect_contains "$what" "$says" "$out"
}

# --- definitions (crates/hyperqueue/src/worker/parser.rs, worker.rs) -------
refused "parser.rs:489 an empty list" "at least one element" --resource "mem=[]"
refused "parser.rs:169 a name starting with a digit" "must start with a letter" --resource "1a=sum(1)"
refused "parser.rs:173 a name with '_'" "must start with a letter" --resource "a_b=sum(1)"
refused "worker.rs:386 cpus as a sum pool" "Resource kind \`sum\` cannot be used with CPUs" --resource "cpus=sum(4)"
out=$(printf '%s\n' 'request satisfiability mem=1000000' 'request satisfiability mem=1000001' \
        'request satisfiability cpus=16' 'request satisfiability cpus=17' \
        'request satisfiability gpus=20' 'request satisfiability gpus=21' | \
      "$RQ" --resource "mem=sum(1_000_000)" --resource "cpus=range(0-1_5)" --resource "gpus=1_0x2" -d 2>&1)
expect_eq "parser2.rs:216 sum(1_000_000), range(0-1_5), 1_0x2" "yes no yes no yes no" \
    "$(printf '%s\n' "$out" | sed -n 's/^INFO: Satisfiable request$/yes/p; s/^INFO: .*[Uu]nsatisfiable.*$/no/p' | tr '\n' ' ' | sed 's/ $//')"

# --- CUDA_VISIBLE_DEVICES (crates/hyperqueue/src/worker/hwdetect.rs:206-232) ---
out=$(echo hwdetect | CUDA_VISIBLE_DEVICES=-1 "$RQ" -f local -d 2>&1)
expect_contains "hwdetect.rs:293 -1 is an id like any other" "gpus/nvidia=[-1]" "$out"
if [ ! -d /proc/driver/nvidia/gpus ]; then
    out=$(echo hwdetect | CUDA_VISIBLE_DEVICES=1,0,1 "$RQ" -f local -d 2>&1)
    case "$out" in *gpus/nvidia*) fail "hwdetect.rs:218 duplicates: the variable must be ignored: $out" ;; esac
fi

# --- a request naming no cpus takes 1 cpu (submit/command.rs:522-542) -------
out=$(echo 'request -F env allocate gpus=1' | "$RQ" --resource cpus=2x2 --resource "gpus=[a, b]" -d 2>&1)
expect_eq "command.rs:535 implied cpus=1" "1 compact" "$(values HQ_RESOURCE_REQUEST_cpus "$out")"
expect_eq "command.rs:535 one cpu taken" "0" "$(values HQ_RESOURCE_VALUES_cpus "$out")"
out=$(echo 'request allocate gpus/nvidia=1' | "$RQ" --resource "gpus/nvidia=[0]" -d 2>&1)
expect_contains "no cpus pool: nothing implied" "INFO: RESOURCES=ALLOCATED" "$out"

# --- HQ_RESOURCE_REQUEST_* (program.rs:281-287, request.rs:85-96) -----------
pools='--resource cpus=2x2 --resource gpus/nvidia=range(0-3) --resource mem=sum(4000)'
out=$(echo 'request -F env allocate mem=1000 "gpus/nvidia=2 tight" cpus="2 scatter"' | "$RQ" $pools -d 2>&1)
expect_eq "request.rs:88 amount and strategy" "1000 compact" "$(values HQ_RESOURCE_REQUEST_mem "$out")"
expect_eq "request.rs:92 scatter" "2 scatter" "$(values HQ_RESOURCE_REQUEST_cpus "$out")"
expect_eq "seed's name" "2 tight" "$(values HQ_RESOURCE_REQUEST_gpus/nvidia "$out")"
expect_eq "program.rs:328 normalized name" "2 tight" "$(values HQ_RESOURCE_REQUEST_gpus_nvidia "$out")"
expect_eq "program.rs:318 normalized values" "$(values HQ_RESOURCE_VALUES_gpus/nvidia "$out")" \
    "$(values HQ_RESOURCE_VALUES_gpus_nvidia "$out")"
# --- strategies (crates/tako/src/internal/worker/resources/pool.rs) ----------
out=$(printf '%s\n' 'request -F env allocate cpus=6' 'request -F env allocate cpus="6 tight"' \
        'request -F env allocate cpus="3 scatter"' | "$RQ" --resource cpus=4x4 -d 2>&1)
expect_eq "pool.rs:180 compact: 6 of a free 4x4 is 3+3" "0,1,2,4,5,6" "$(values HQ_RESOURCE_VALUES_cpus "$out" | sed -n 1p)"
expect_eq "pool.rs:234 tight: the largest (the last of equals), then best fit" "8,9,12,13,14,15" "$(values HQ_RESOURCE_VALUES_cpus "$out" | sed -n 2p)"
expect_eq "pool.rs:437 scatter: round robin from the first group" "3,7,10" "$(values HQ_RESOURCE_VALUES_cpus "$out" | sed -n 3p)"

out=$(echo 'request -F env allocate gpus/nvidia=all' | "$RQ" $pools -d 2>&1)
expect_eq "request.rs:93 all" "all" "$(values HQ_RESOURCE_REQUEST_gpus_nvidia "$out")"
finish
