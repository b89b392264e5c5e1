# --version and --help on stdout; --fail-fast stops a script at the first
# failed command with exit status 1, while without it the exit status stays
# 0 (the reference's) and unknown words stay silent.
. "$(dirname "$0")/lib.sh"

tiny="$SRC/conf/tiny.graphml"
js="$SRC/t/data/jobspecs/node-socket-core.yaml"

out=$("$RQ" --version 2>err); status=$?
expect_eq "--version exits 0" 0 "$status"
expect_contains "--version names the program" "resource-query " "$out"
expect_eq "--version: nothing on stderr" "" "$(cat err)"
out=$("$RQ" --help 2>err); status=$?
expect_eq "--help exits 0" 0 "$status"
expect_contains "--help on stdout" "usage: resource-query" "$out"
expect_contains "--help documents --fail-fast" "--fail-fast" "$out"
expect_eq "--help: nothing on stderr" "" "$(cat err)"

# run_case NAME FAILING_COMMAND: a good match, the failing command, then a
# command that must not run under --fail-fast.
run_case() {
    printf 'match allocate %s\n%s\nmatch allocate %s\nquit\n' "$js" "$2" "$js" >cmds
    out=$("$RQ" -L "$tiny" <cmds 2>err); status=$?
    expect_eq "$1: exit status without --fail-fast" 0 "$status"
    expect_eq "$1: later commands run without --fail-fast" 2 "$(printf '%s\n' "$out" | grep -c ALLOCATED)"
    out=$("$RQ" -L "$tiny" --fail-fast <cmds 2>err); status=$?
    expect_eq "$1: --fail-fast exit status" 1 "$status"
    expect_eq "$1: only the command before ran" 1 "$(printf '%s\n' "$out" | grep -c ALLOCATED)"
    expect_contains "$1: says where it stopped" "stopped at input line 2: $2" "$(cat err)"
}
echo "version: 9999" >bad.yaml
sed 's/count: 1/count: 99/' "$js" >toobig.yaml
run_case "malformed" "match allocate"
run_case "unreadable" "match allocate missing.yaml"
run_case "bad jobspec" "match allocate bad.yaml"
run_case "no match" "match allocate toobig.yaml"
run_case "unsatisfiable" "match satisfiability toobig.yaml"
run_case "unknown subcommand" "match fly $js"
run_case "unknown command" "frobnicate"
run_case "cancel unknown job" "cancel 42"
run_case "info unknown job" "info 42"
run_case "bad find" "find nokey=1"
run_case "unknown path" "get-status /nope"
run_case "bad remove" "remove /nope true"
run_case "unreadable cat" "cat missing.yaml"
run_case "help unknown" "help frobnicate"
run_case "bad update" "update allocate jgf missing.json 5 0 10"
run_case "bad attach" "attach missing.json"
# The newer commands: pools, the simulated queue, saved state.
run_case "request malformed" "request allocate"
run_case "request bad option" "request -F nope allocate cpus=1"
run_case "request unsatisfiable" "request satisfiability cpus=100000"
run_case "request no match" "request allocate cpus=100000"
run_case "submit unreadable" "submit missing.yaml"
run_case "submit bad jobspec" "submit bad.yaml"
run_case "submit bad option" "submit --priority 99 $js"
run_case "advance malformed" "advance soon"
run_case "set-priority unknown job" "set-priority 42 3"
run_case "dequeue unknown job" "dequeue 42"
run_case "save unwritable" "save $WORK/no/such/dir/state.db"
run_case "save changes never saved" "save $WORK/fresh.db changes"
run_case "allocated unknown job" "allocated 42"
run_case "available malformed" "available --at soon"

# Comments, successful commands and an empty find result are not failures.
printf '# comment\nmatch allocate %s\nfind status=down\nlist\nhelp find\ncancel 1\n' "$js" >cmds
printf 'submit %s\nadvance 10\nqueue\ntime\nrun\nallocated\navailable\nsave %s/ok.db\nquit\n' "$js" "$WORK" >>cmds
out=$("$RQ" -L "$tiny" --fail-fast <cmds 2>err); status=$?
expect_eq "successful script under --fail-fast" 0 "$status"
expect_eq "successful script: quiet stderr" "" "$(cat err)"

# Without --fail-fast an unknown word is silent in a script (as the reference).
printf 'frobnicate\nquit\n' | "$RQ" -L "$tiny" >/dev/null 2>err
expect_eq "unknown word silent in scripts" "" "$(cat err)"
finish
