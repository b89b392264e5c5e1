# Shared helpers for the CLI regression scripts. Each script is run by ctest
# as `sh script.sh BIN_DIR SOURCE_DIR` and exits non-zero on failure (77 =
# skipped).
set -u
BIN=${1:?bin dir}
SRC=${2:?source dir}
RQ="$BIN/resource-query"
SHARED="$SRC/../shared"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rq-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
    if [ "$2" != "$3" ]; then
        fail "$1"
        printf '  expected: %s\n  actual:   %s\n' "$2" "$3" >&2
    fi
}

# expect_contains WHAT NEEDLE HAYSTACK
expect_contains() {
    case "$3" in
    *"$2"*) ;;
    *) fail "$1: missing '$2' in: $3" ;;
    esac
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures failure(s)" >&2
        exit 1
    fi
    echo "ok"
    exit 0
}

# wait_for FILE TEXT: until FILE holds TEXT (bounded to 60 s; a wait for
# another process, not a timing test).
wait_for() {
    tries=0
    until grep -qF -- "$2" "$1" 2>/dev/null || [ $tries -ge 600 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}

# hold_session OUT ARGS...: a resource-query with ARGS that reads its
# commands from the FIFO ./commands (made if absent; exits 77 if it cannot
# be), its output in OUT. $holder is its pid; write commands to fd 3, and
# close fd 3 (exec 3>&-) to end it.
hold_session() {
    out=$1
    shift
    [ -p commands ] || mkfifo commands || { echo "skip: mkfifo failed"; exit 77; }
    "$RQ" "$@" <commands >"$out" 2>&1 &
    holder=$!
    exec 3>commands
}
