#!/bin/sh
# Each front end calls the layers below through one door (docs/design.md "Layering rules"):
#
# - cli/ (the REPL) and reapi/ (libreapi_cli) include only their own
#   headers (reapi/'s public ones under reapi/include/ among them),
#   session/ (the session and its operations: match, find, pools, queue),
#   state/, utilities/ and these writers' headers of resource/:
#     resource/match_writer.h  the -F writers (MatchWriter, make_writer)
#     resource/graph_export.h  the -g writer of the loaded graph
# - grug2dot/ includes only the recipe parser, resource/grug.h, and
#   utilities/.
#
# Tests and benchmarks (*_test.cc, *_test_util.h, *_bench.cc) may reach
# further. Each offending include is printed as file:line:text.
# usage: front_end_doors.sh SOURCE_DIR
cd "${1:-.}" || exit 2
writers="resource/match_writer.h resource/graph_export.h"

# allowed ROOM FILE HEADER: whether FILE of front end ROOM may include HEADER.
allowed() {
    case "$3" in
    "$1"/*) return 0 ;;
    esac
    case "$1:$3" in
    cli:session/* | cli:state/* | cli:utilities/* | reapi:session/* | reapi:state/* | reapi:utilities/*) return 0 ;;
    grug2dot:resource/grug.h | grug2dot:utilities/*) return 0 ;;
    esac
    if [ "$1" != grug2dot ]; then
        for w in $writers; do [ "$3" = "$w" ] && return 0; done
    fi
    # reapi's public headers, by their installed path or relative to FILE
    [ "$1" = reapi ] && [ -f "reapi/include/$3" ] && return 0
    case "$(dirname "$2")/$3" in
    "$1"/*) [ -f "$(dirname "$2")/$3" ] && return 0 ;;
    esac
    return 1
}

status=0
for room in cli reapi grug2dot; do
    [ -d "$room" ] || { echo "no folder $room: update this list (t/layering)" >&2; exit 1; }
    found=$(find "$room" \( -name '*.cc' -o -name '*.h' \) ! -name '*_test.cc' ! -name '*_test_util.h' \
                ! -name '*_bench.cc' | sort |
            xargs grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
            while IFS= read -r line; do
                file=${line%%:*}
                header=$(printf '%s\n' "$line" | sed 's/^[^"]*"\([^"]*\)".*/\1/')
                allowed "$room" "$file" "$header" || printf '%s\n' "$line"
            done)
    if [ -n "$found" ]; then
        case $room in
        grug2dot) door="grug2dot/, resource/grug.h and utilities/" ;;
        *) door="$room/, session/, state/, utilities/ and $writers" ;;
        esac
        echo "$room/ goes past its door (it may include $door):" >&2
        echo "$found" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "cli/ and reapi/ include only session/, state/, utilities/ and $writers; grug2dot/ only resource/grug.h and utilities/"
exit $status
