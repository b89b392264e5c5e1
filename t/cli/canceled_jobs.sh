# Canceled jobs leave memory for a temporary file (docs/state.md, Memory);
# `list`, `info` and `stat` print them as before (spec/cli.md §5.13): every
# job, ids ascending, each `info` line equal to its `list` line, canceled
# out of order or in order, saved and resumed. Without a usable $TMPDIR
# one warning line names it and the records stay in memory.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs/core.yaml"
run() { "$RQ" -L "$SRC/conf/tiny.graphml" -d "$@"; }
# 2,500 jobs (past two 1,024-record blocks): matched and canceled in turn,
# then 3 live, one canceled out of order, then list, info of each, stat.
script() {
    awk -v j="$J" 'BEGIN {
        for (i = 1; i <= 2500; i++) printf "match allocate %s\ncancel %d\n", j, i
        for (i = 2501; i <= 2503; i++) printf "match allocate_orelse_reserve %s\n", j
        printf "cancel 2502\nlist\n"
        for (i = 1; i <= 2503; i++) printf "info %d\n", i
        printf "stat\nsave s.db\n" }'
}
script >in
run <in >out 2>err
grep '^INFO: [0-9]' out >lines
head -n 2503 lines >listed
tail -n +2504 lines >infos
expect_eq "list prints every job" 2503 "$(wc -l <listed | tr -d ' ')"
expect_eq "each info line is its list line" "" "$(diff listed infos)"
expect_eq "ids ascending" "$(seq 1 2503 | tr '\n' ' ')" "$(cut -d, -f1 listed | sed 's/INFO: //' | tr '\n' ' ')"
expect_eq "states" "2500 CANCELED
1 ALLOCATED
1 CANCELED
1 ALLOCATED" "$(cut -d, -f2 listed | uniq -c | sed 's/^ *//;s/  */ /')"
expect_contains "stat counts every job" "INFO: Num. of Jobs Matched: 2503" "$(cat out)"
expect_eq "no warning" "" "$(cat err)"
expect_eq "a resume lists the same" "$(cat listed)" "$(printf 'list\n' | run -f db -L s.db 2>&1 | grep '^INFO: [0-9]')"

TMPDIR="$WORK/missing" run <in >out2 2>err2
expect_eq "one warning line without a temporary directory" 1 "$(wc -l <err2 | tr -d ' ')"
expect_contains "it names the place" "$WORK/missing" "$(cat err2)"
expect_contains "and the errno text" ": No such file or directory;" "$(cat err2)"
expect_eq "the same jobs, in memory" "$(cut -d, -f1-4 listed)" "$(grep '^INFO: [0-9]' out2 | head -n 2503 | cut -d, -f1-4)"

finish
