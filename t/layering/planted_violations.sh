#!/bin/sh
# The layering checks catch what they are for: on a copy of the tree with
# one include planted against each rule, each check fails and names the
# planted file:line (docs/design.md "Layering rules").
# usage: planted_violations.sh SOURCE_DIR
src=$(cd "${1:-.}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
status=0

# expect SCRIPT FILE HEADER: planting `#include "HEADER"` at the end of FILE
# (in a fresh copy) makes SCRIPT fail and print FILE:LINE:#include "HEADER".
expect() {
    rm -rf "$work/tree" && mkdir "$work/tree" || exit 2
    for d in cli reapi grug2dot state session resource traversers policies pools queue utilities; do
        cp -R "$src/$d" "$work/tree/$d" || exit 2
    done
    printf '#include "%s"\n' "$3" >>"$work/tree/$2"
    line=$(wc -l <"$work/tree/$2" | tr -d ' ')
    if out=$(sh "$here/$1" "$work/tree" 2>&1); then
        echo "FAIL: $1 passed with $2 including $3" >&2
        status=1
    elif ! printf '%s\n' "$out" | grep -qF "$2:$line:#include \"$3\""; then
        echo "FAIL: $1 did not name $2:$line:" >&2
        printf '%s\n' "$out" >&2
        status=1
    fi
}

expect no_upward_includes.sh resource/graph.cc cli/repl.h
expect no_upward_includes.sh queue/simulator.cc grug2dot/main.h
expect no_upward_includes.sh policies/locality.h traversers/dfu.h
expect no_upward_includes.sh policies/policy_test.cc traversers/test_fixture.h
expect front_end_doors.sh cli/cmd_save.cc queue/replay.h
expect front_end_doors.sh cli/repl.cc resource/graph.h
expect front_end_doors.sh reapi/clone.cc pools/env_writer.h
expect front_end_doors.sh grug2dot/main.cc resource/loader.h
[ $status -eq 0 ] && echo "each layering check fails on its planted include and names it"
exit $status
