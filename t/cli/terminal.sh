# The REPL in a real terminal (tmux): tab completion of commands,
# subcommands and file names, Ctrl-C cancels only the line being typed
# (the session and its allocations survive), history kept across sessions
# in $HOME/.resource_query_history (not with --no-history, never by a
# piped run), Ctrl-D ends the session.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null 2>&1 || { echo "tmux missing: skipped"; exit 77; }

mkdir home
export HOME="$WORK/home"
cp "$SRC/t/data/jobspecs/node-socket-core.yaml" "$WORK/jobspec-one.yaml"
tiny="$SRC/conf/tiny.graphml"
# One tmux server per session (a fresh socket each time: no race with the
# previous server's exit).
sessions=0
TMUX_CMD="tmux -L rq-terminal-$$-0 -f /dev/null"
trap '$TMUX_CMD kill-server >/dev/null 2>&1; rm -rf "$WORK"' EXIT

screen() { $TMUX_CMD capture-pane -p -t rq 2>/dev/null; }

# wait_for WHAT TEXT: polls the screen until TEXT shows (10 s at most).
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        case "$(screen)" in *"$2"*) return 0 ;; esac
        sleep 0.1
        i=$((i + 1))
    done
    fail "$1: '$2' never showed; screen:"
    screen | sed '/^$/d' >&2
    finish  # what follows depends on it
}

# The last line of the screen that holds something (tmux drops trailing
# blanks, so a completion's trailing space shows in the next step).
last_line() { screen | sed '/^$/d' | tail -n 1; }

start() {  # ARGS...: a session in a fresh tmux window named rq
    $TMUX_CMD kill-server >/dev/null 2>&1
    sessions=$((sessions + 1))
    TMUX_CMD="tmux -L rq-terminal-$$-$sessions -f /dev/null"
    $TMUX_CMD new-session -d -s rq -x 160 -y 50 -c "$WORK" \
        "TERM=xterm HOME='$HOME' '$RQ' -L '$tiny' $*; echo EXITED:\$?; sleep 30"
    wait_for "prompt" "resource-query>"
}

keys() { $TMUX_CMD send-keys -t rq "$@"; sleep 0.2; }

# ---- session 1: completion, Ctrl-C, history written, Ctrl-D --------------
start
keys "mat" Tab
expect_eq "command completed" "resource-query> match" "$(last_line)"
keys "allocate_o" Tab
expect_eq "subcommand completed" "resource-query> match allocate_orelse_reserve" "$(last_line)"
keys "jobspec-o" Tab
expect_eq "file name completed" "resource-query> match allocate_orelse_reserve jobspec-one.yaml" "$(last_line)"
keys Enter
wait_for "match ran" "INFO: JOBID=1"

keys "find sched-n" Tab
expect_eq "find key completed" "resource-query> find sched-now=" "$(last_line)"
keys "al" Tab
expect_eq "find value completed" "resource-query> find sched-now=allocated" "$(last_line)"
keys C-u
keys "get-status /" Tab
expect_eq "root path completed" "resource-query> get-status /tiny0" "$(last_line)"
keys "/r" Tab "/node" Tab
expect_eq "paths completed level by level" "resource-query> get-status /tiny0/rack0/node" "$(last_line)"
keys "1" Enter
wait_for "completed path works" "/tiny0/rack0/node1 is up"

# Ctrl-C drops the half-typed line, not the session nor job 1.
keys "match allocate jobspec-one.yaml"
keys C-c
keys "list" Enter
wait_for "job 1 survives Ctrl-C" "INFO: 1, ALLOCATED"
case "$(screen)" in *"JOBID=2"*) fail "the cancelled line ran" ;; esac
keys "info 1" Enter
wait_for "info after Ctrl-C" "INFO: 1, ALLOCATED, 0,"

keys "frobnicate" Enter
wait_for "unknown command told" "unknown command 'frobnicate'; type help"
keys "help find" Enter
wait_for "help find documents keys" "jobid-reserved=JOBID"

keys C-d
wait_for "Ctrl-D ends the session" "EXITED:0"
history=$(cat "$HOME/.resource_query_history" 2>/dev/null)
expect_contains "history written" "info 1" "$history"
expect_contains "history keeps the match" "match allocate_orelse_reserve jobspec-one.yaml" "$history"
case "$history" in *"match allocate jobspec-one.yaml"*) fail "a cancelled line went to history" ;; esac

# ---- session 2: history read back; quit ends -------------------------------
start
keys Up
expect_eq "Up recalls the last session's command" "resource-query> help find" "$(last_line)"
keys C-u "stat" Enter
wait_for "stat runs" "INFO: Num. of Jobs Matched: 0"
keys "quit" Enter
wait_for "quit ends the session" "EXITED:0"
expect_contains "history appended" "stat" "$(tail -n 2 "$HOME/.resource_query_history")"

# ---- session 3: --no-history neither reads nor writes --------------------------
before=$(cat "$HOME/.resource_query_history")
start --no-history
keys Up
expect_eq "--no-history: nothing to recall" "resource-query>" "$(last_line)"
keys "list" Enter "quit" Enter
wait_for "--no-history session ends" "EXITED:0"
expect_eq "--no-history leaves the file alone" "$before" "$(cat "$HOME/.resource_query_history")"

# ---- --fail-fast does not end an interactive session -------------------------
start --fail-fast --no-history
keys "match allocate missing.yaml" Enter
wait_for "failure reported" "ERROR: can't open missing.yaml"
keys "stat" Enter
wait_for "session goes on after a failure" "INFO: Num. of Jobs Matched: 0"
keys C-d
wait_for "Ctrl-D still ends it with status 0" "EXITED:0"

# ---- piped runs never touch the history file ---------------------------------
mkdir piped
printf 'list\nquit\n' | HOME="$WORK/piped" "$RQ" -L "$tiny" >/dev/null 2>&1
[ -e "$WORK/piped/.resource_query_history" ] && fail "a piped run wrote a history file"
finish
