# cmake --install puts the programs, libreapi_cli, the recipes and the man
# pages under a prefix (docs/install.md), and resource-query-sweep with its
# modules. The installed resource-query
# finds its default recipe from any directory; every man page renders
# without warnings; resource-query(1) documents exactly the options
# `--help` lists and the commands `help` lists, grug2dot(1) the options of
# `grug2dot --help`, resource-query-report(1) and resource-query-sweep(1)
# the options of their `--help` (docs/study.md), and reapi_cli(3) every
# function of the header.
. "$(dirname "$0")/lib.sh"
BUILD=$(dirname "$BIN")

for tool in cmake man groff; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$tool not installed (utilities/install-deps.sh)"; exit 77; }
done
if [ ! -f "$BUILD/share/man/man1/resource-query.1" ]; then
    echo "man pages not built (configured with -DRQ_MAN=OFF?)"
    exit 77
fi

PREFIX="$WORK/prefix"
if ! cmake --install "$BUILD" --prefix "$PREFIX" >install.log 2>&1; then
    fail "cmake --install $BUILD --prefix $PREFIX: $(tail -5 install.log)"
    finish
fi
for f in bin/resource-query bin/grug2dot bin/resource-query-report lib/libreapi_cli.so \
    share/resource-query/report/rqreport/cli.py share/man/man1/resource-query-report.1 \
    include/resource/reapi/bindings/c/reapi_cli.h \
    share/resource-query/conf/default share/resource-query/conf/tiny.graphml \
    share/man/man1/resource-query.1 share/man/man1/grug2dot.1 share/man/man3/reapi_cli.3 \
    bin/resource-query-sweep share/resource-query/study/sweep_grid.py share/man/man1/resource-query-sweep.1; do
    [ -f "$PREFIX/$f" ] || fail "cmake --install did not install $f"
done

# ---- the default recipe, from a directory without conf/ ----------------------
# match_in DIR NEEDLE WHAT: the installed program, started in DIR without -L,
# allocates a core and prints NEEDLE (the root of the recipe it loaded).
match_in() {
    out=$(cd "$1" && echo "match allocate $SRC/t/data/jobspecs/core.yaml" | "$PREFIX/bin/resource-query" -d 2>&1)
    case "$out" in
    *"$2"*"INFO: RESOURCES=ALLOCATED"*) ;;
    *) fail "$3: expected a match under $2, got: $(printf '%s\n' "$out" | head -2)" ;;
    esac
}
mkdir elsewhere
match_in elsewhere "default0[1:s]" "installed resource-query run elsewhere, no -L: loads conf/default"
# It is the installed recipe that is read: replace it and see the change.
cp "$SRC/conf/tiny.graphml" "$PREFIX/share/resource-query/conf/default"
match_in elsewhere "tiny0[1:s]" "installed resource-query reads PREFIX/share/resource-query/conf/default"
# conf/default in the current directory still comes first (the original's rule).
mkdir -p here/conf
cp "$SRC/conf/small.graphml" here/conf/default
small=$(grep -o 'basename">[a-z]*' "$SRC/conf/small.graphml" | head -1 | cut -d'>' -f2)
match_in here "${small}0[1:s]" "conf/default in the current directory comes first"
# Nowhere (a copy of the program outside any prefix, and nothing installed
# at the configured one): the original's error, naming the path the user knows.
configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
if [ ! -e "$configured/share/resource-query/conf/default" ]; then
    cp "$PREFIX/bin/resource-query" elsewhere/resource-query
    first=$(cd elsewhere && ./resource-query </dev/null 2>&1 | head -1)
    expect_eq "no recipe anywhere: the original's error" \
        "[ERROR] file does not exist for --load-file: conf/default" "$first"
fi

# ---- resource-query-sweep: its modules and resource-query found from bin/ ----
# (docs/study.md "The sweep"), run from a folder that holds neither.
mkdir sweep
cp "$SRC/t/data/queue/two_nodes.graphml" sweep/m.graphml
printf '1 0 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 1 1 -1 -1\n' >sweep/t.swf
printf '{"machines": ["m.graphml"], "traces": ["t.swf"]}\n' >sweep/grid.json
if (cd elsewhere && "$PREFIX/bin/resource-query-sweep" ../sweep/grid.json -o ../sweep/out --no-report \
        >../sweep/log 2>&1); then
    expect_eq "installed sweep: merged.csv rows" 2 "$(wc -l <sweep/out/merged.csv)"
else
    fail "installed resource-query-sweep: $(cat sweep/log)"
fi

# ---- man pages: installed where man finds them, no warnings ------------------
for page in man1/resource-query.1 man1/resource-query-report.1 man1/resource-query-sweep.1 man1/grug2dot.1 \
    man3/reapi_cli.3; do
    name=$(basename "$page")
    found=$(MANPATH="$PREFIX/share/man" man -w "${name%.*}" 2>&1)
    expect_eq "MANPATH=PREFIX/share/man man -w ${name%.*}" "$PREFIX/share/man/$page" "$found"
    warnings=$(MANWIDTH=80 man --warnings -l "$PREFIX/share/man/$page" 2>&1 >/dev/null)
    expect_eq "man --warnings -l $name prints no warning" "" "$warnings"
    warnings=$(groff -ww -man -z "$PREFIX/share/man/$page" 2>&1)
    expect_eq "groff -ww -man -z $name prints no warning" "" "$warnings"
done

# The page as a reader sees it: plain text, wide enough that no entry wraps.
render() {
    LC_ALL=C MANWIDTH=250 man -l "$1" 2>/dev/null | sed "s/.$(printf '\b')//g"
}
# The entry lines (7 spaces, then the entry) of one section of a rendered page.
entries() {  # PAGE_TEXT SECTION
    awk -v section="$2" '/^[A-Z]/ { inside = ($0 == section) } inside && /^       [^ ]/' "$1"
}
# "-L --load-file" or "--resource": an option entry's names.
option_names() {
    sed -n 's/^ *\(-[A-Za-z0-9]\), \(--[a-z-]*\).*/\1 \2/p; s/^ *\(--[a-z-]*\).*/\1/p'
}
# Lines of $2 missing from $3 (both sorted), each reported as: WHAT NAME.
report_missing() {  # WHAT FROM_FILE IN_FILE
    comm -23 "$2" "$3" | while IFS= read -r item; do echo "$1: $item"; done
}
check_both_ways() {  # THING LIST_A WHERE_A LIST_B WHERE_B
    sort -u "$2" >a.sorted
    sort -u "$4" >b.sorted
    [ -s a.sorted ] || fail "no $1 found in $3"
    [ -s b.sorted ] || fail "no $1 found in $5"
    missing=$(report_missing "$1 in $3 but not in $5" a.sorted b.sorted;
              report_missing "$1 in $5 but not in $3" b.sorted a.sorted)
    [ -z "$missing" ] || fail "$missing"
}

render "$PREFIX/share/man/man1/resource-query.1" >rq.txt
# Options: `--help` against OPTIONS.
"$PREFIX/bin/resource-query" --help | grep '^    -' | option_names >help.options
entries rq.txt OPTIONS | option_names >page.options
check_both_ways "option" help.options "resource-query --help" page.options "resource-query(1) OPTIONS"
# Commands: `help` (INFO: NAME (ABBR) -- ...) against COMMANDS (NAME (ABBR) ARGS).
echo help | "$PREFIX/bin/resource-query" -d -L "$SRC/conf/tiny.graphml" |
    sed -n 's/^INFO: \([a-z-]*\) (\([A-Za-z]*\)) -- .*/\1 (\2)/p' >help.commands
entries rq.txt COMMANDS | sed -n 's/^ *\([a-z-]*\) (\([A-Za-z]*\)).*/\1 (\2)/p' >page.commands
check_both_ways "command" help.commands "resource-query's help" page.commands "resource-query(1) COMMANDS"

# grug2dot: `--help` against OPTIONS.
render "$PREFIX/share/man/man1/grug2dot.1" >g2d.txt
"$PREFIX/bin/grug2dot" --help 2>&1 | grep '^    -' | option_names >help.options
entries g2d.txt OPTIONS | option_names >page.options
check_both_ways "option" help.options "grug2dot --help" page.options "grug2dot(1) OPTIONS"

# resource-query-report: the installed program finds its modules from
# any folder (it prints its usage), and `--help` (argparse: `  -o OUTDIR,
# --output OUTDIR`) against OPTIONS.
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    (cd elsewhere && "$PREFIX/bin/resource-query-report" --help) >report.help 2>&1 ||
        fail "installed resource-query-report --help: $(tail -2 report.help)"
    render "$PREFIX/share/man/man1/resource-query-report.1" >report.txt
    sed -n 's/^  \(-[a-z]\)[ A-Z]*, \(--[a-z-]*\).*/\1 \2/p; s/^  \(--[a-z-]*\).*/\1/p' report.help >help.options
    entries report.txt OPTIONS | option_names >page.options
    check_both_ways "option" help.options "resource-query-report --help" page.options "resource-query-report(1) OPTIONS"
fi
# resource-query-sweep (argparse: "-o OUTDIR, --output OUTDIR"; metavars dropped).
render "$PREFIX/share/man/man1/resource-query-sweep.1" >sweep.txt
"$PREFIX/bin/resource-query-sweep" --help | grep '^  -' | sed 's/ [A-Z][A-Z]*//g' | option_names >help.options
entries sweep.txt OPTIONS | option_names >page.options
check_both_ways "option" help.options "resource-query-sweep --help" page.options "resource-query-sweep(1) OPTIONS"

# reapi_cli(3): every function the installed headers declare, against FUNCTIONS.
render "$PREFIX/share/man/man3/reapi_cli.3" >reapi.txt
grep -rhoE '\b(reapi_cli|match_op)_[a-z_]+ \(' "$PREFIX/include/resource" | sed 's/ (//' >header.functions
entries reapi.txt FUNCTIONS | sed -n 's/^ *\([a-z_]*\)(.*/\1/p' >page.functions
check_both_ways "function" header.functions "the reapi_cli headers" page.functions "reapi_cli(3) FUNCTIONS"

finish
