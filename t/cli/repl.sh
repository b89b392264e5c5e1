# The REPL shell: comments and unknown words are ignored, malformed commands
# are reported and the session goes on, help/cat/quit.
. "$(dirname "$0")/lib.sh"

js="$SRC/t/data/jobspecs/node-socket-core.yaml"
cat >cmds <<END
# a comment
frobnicate the graph
match allocate
match fly $js
cat $js
help quit
help nosuchcommand
info
quit
match allocate $js
END
out=$("$RQ" -L "$SRC/conf/tiny.graphml" <cmds 2>err)
status=$?
expect_eq "exit status" 0 "$status"
expect_eq "stderr" "ERROR: malformed command
ERROR: unknown subcmd fly
ERROR: malformed command" "$(cat err)"
expect_contains "cat prints the file" "  - type: node" "$out"
expect_contains "cat trailer" "INFO: Jobspec in $js" "$out"
expect_contains "help one command" "INFO: quit (q) -- " "$out"
expect_contains "help unknown" "ERROR: unknown command: nosuchcommand" "$out"
case "$out" in *"JOBID"*) fail "commands after quit must not run" ;; esac

# every command of the table is listed, in order
names=$(echo help | "$RQ" -L "$SRC/conf/tiny.graphml" | sed -n 's/^INFO: \([a-z-]*\) (.*/\1/p' | tr '\n' ' ')
expect_eq "help lists the command table" \
    "match multi-match update attach remove find cancel partial-cancel set-property get-property set-status get-status request hwdetect list info stat save dump allocated available submit set-priority dequeue queue time advance run queue-add queue-manager cat help quit " \
    "$names"
finish
