#!/bin/sh
# Nothing below the front ends includes a front end's header: data flows
# graph -> traverser -> policy -> planner -> writer and nothing below calls
# up (docs/design.md "Layering rules"). The front ends are cli/ (the REPL) and reapi/
# (libreapi_cli); the layers under them reach them only through interfaces
# they declare themselves (e.g. state::FrontEnd, session/command_words.h).
# Tests (*_test.cc, *_test_util.h) may drive a session through the REPL.
# usage: no_upward_includes.sh SOURCE_DIR
cd "${1:-.}" || exit 2
below="state session resource traversers policies pools queue utilities"
for dir in $below; do
    [ -d "$dir" ] || { echo "no folder $dir: update this list (t/layering)" >&2; exit 1; }
done
found=$(find $below \( -name '*.cc' -o -name '*.h' \) ! -name '*_test.cc' ! -name '*_test_util.h' |
        sort | xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](cli|reapi)/')
if [ -n "$found" ]; then
    echo "a layer below the front ends includes a front end's header (cli/ or reapi/):" >&2
    echo "$found" >&2
    exit 1
fi
echo "no includes of cli/ or reapi/ below the front ends ($below)"
