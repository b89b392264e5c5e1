#!/bin/sh
# Comments cite the manual (docs/*.md) or the spec (../shared/spec/*.md §N),
# never a tracker's "issue N" that a newcomer cannot read (docs/design.md
# "Layering rules"). Fails if any tracked file, or any file of the tree
# outside build folders and .git, holds `issue` followed by a number
# (case-insensitive; the plural and a "#" before the number count too).
# usage: no_issue_refs.sh SOURCE_DIR
cd "${1:-.}" || exit 2
pattern='issues?[[:space:]]*#?[0-9]'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    found=$(git ls-files -z --cached --others --exclude-standard |
            xargs -0 grep -InEi -e "$pattern" -- 2>/dev/null)
else
    found=$(find . \( -name '.git' -o -name 'build*' \) -prune -o -type f -print0 |
            xargs -0 grep -InEi -e "$pattern" -- 2>/dev/null)
fi
if [ -n "$found" ]; then
    echo "tracker references (\"issue N\") in the tree: cite the docs page and section, or the spec section, that states the rule:" >&2
    echo "$found" >&2
    exit 1
fi
echo "no \"issue N\" references in the tree"
