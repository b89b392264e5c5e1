#!/bin/sh
# Nothing below the front ends includes a front end's header: data flows
# graph -> traverser -> policy -> planner -> writer and nothing below calls
# up (docs/design.md "Layering rules"). The front ends are cli/ (the REPL) and reapi/
# (libreapi_cli); the layers under them reach them only through interfaces
# they declare themselves (e.g. state::FrontEnd, session/command_words.h).
# Tests (*_test.cc, *_test_util.h) may drive a session through the REPL.
# grug2dot/, a program of its own, is a front end too.
# policies/ (tests included) includes nothing of the layers that call it:
# the scoring vocabulary it speaks (policies/scoring.h, policies/id_order.h)
# is its own, and the traverser includes it from there.
# Each offending include is printed as file:line:text.
# usage: no_upward_includes.sh SOURCE_DIR
cd "${1:-.}" || exit 2
below="state session resource traversers policies pools queue utilities"
for dir in $below; do
    [ -d "$dir" ] || { echo "no folder $dir: update this list (t/layering)" >&2; exit 1; }
done
found=$(find $below \( -name '*.cc' -o -name '*.h' \) ! -name '*_test.cc' ! -name '*_test_util.h' |
        sort | xargs grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](cli|reapi|grug2dot)/')
if [ -n "$found" ]; then
    echo "a layer below the front ends includes a front end's header (cli/, reapi/ or grug2dot/):" >&2
    echo "$found" >&2
    exit 1
fi
above_policies="traversers|queue|pools|session|state"
found=$(find policies \( -name '*.cc' -o -name '*.h' \) |
        sort | xargs grep -nHE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($above_policies)/")
if [ -n "$found" ]; then
    echo "policies/ includes a header of a layer that calls it ($above_policies):" >&2
    echo "$found" >&2
    exit 1
fi
echo "no includes of cli/ or reapi/ below the front ends ($below)"
