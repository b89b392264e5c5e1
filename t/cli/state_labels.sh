# Jobspec labels (JGF "ephemeral") across `save FILE changes`, --state and
# resume: find clears the labels a match stored (output.md §1.3), and a
# resumed session must not bring them back.
. "$(dirname "$0")/lib.sh"

run() { "$RQ" -L "$SRC/conf/tiny.graphml" -P high -F jgf "$@" 2>&1; }
strip_times() { sed -E 's/(Match Time: ).*/\1T/'; }

cp "$SRC/t/data/jobspecs/labelled.yaml" labelled.yaml
grep -v 'label: \(big\|pair\)' labelled.yaml >plain.yaml

# The match of plain.yaml takes the node labelled "big": the uninterrupted
# run prints no label after the find, nor must a resumed one.
later="match allocate plain.yaml"
whole=$(printf 'match allocate labelled.yaml\nfind status=up\n%s\n' "$later" | run | strip_times)
expect_contains "the labelled match prints its labels" '"ephemeral"' "$whole"
tail_of() { printf '%s\n' "$whole" | tail -n "$(printf '%s\n' "$1" | wc -l)"; }

# Without the find the labels stay and the later match prints them: the
# case below would show stale labels.
printf 'match allocate labelled.yaml\nsave k.db\n' | run >/dev/null
kept=$(printf '%s\n' "$later" | run -f db -L k.db)
expect_contains "labels kept without a find" '"ephemeral": {"label": "big"}' "$kept"

printf 'match allocate labelled.yaml\nsave s.db\nfind status=up\nsave s.db changes\n' | run >/dev/null
resumed=$(printf '%s\n' "$later" | run -f db -L s.db | strip_times)
expect_eq "save changes after find: no stale labels" "$(tail_of "$resumed")" "$resumed"
case "$resumed" in *'"ephemeral"'*) fail "stale labels after save changes: $resumed" ;; esac

printf 'match allocate labelled.yaml\nfind status=up\n' | run --state live.db >/dev/null
resumed=$(printf '%s\n' "$later" | run --state live.db | strip_times)
expect_eq "--state after find: no stale labels" "$(tail_of "$resumed")" "$resumed"

finish
