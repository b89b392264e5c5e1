# resource-query-report's command line (docs/study.md "The report"): the
# Gantt limit and the notes that stand for figures left out, labels from
# cell.json, the title, and one error line naming the file for bad input.
. "$(dirname "$0")/report_lib.sh"
require_matplotlib

replay_into runs/fcfs fcfs "$TRACE"

# ---- the report reads the replay's files as the replay meant them ----------------
# From series.csv and jobs.csv alone, through the report's own functions:
# the time-weighted busy cores give the summary's utilization, the jobs'
# bounded slowdowns its mean, every job that ran has nodes of the machine.
PYTHONPATH="$SRC/study/report" /usr/bin/python3 - runs/fcfs >agree.out 2>&1 <<'PY' || fail "report vs replay: $(cat agree.out)"
import sys
from rqreport import hostlist, prepare, runs
run = runs.read_run(sys.argv[1])
s = run.summary
times, busy = prepare.series_steps(run.series, "busy_cores", prepare.machine_cores(s))
area = sum((t1 - t0) * u for t0, t1, u in zip(times, times[1:], busy))
utilization = area / s["makespan"]
bsld = [prepare.bounded_slowdown(j, s["bounded_slowdown"]["bound"]) for j in run.jobs if j.ran]
hosts = {h for j in run.jobs for h in hostlist.expand(j.nodes)}
problems = []
if abs(utilization - s["utilization"]) > 1e-9:
    problems.append(f"utilization {utilization} from series.csv, {s['utilization']} in summary.json")
if abs(sum(bsld) / len(bsld) - s["bounded_slowdown"]["mean"]) > 1e-9:
    problems.append(f"bounded slowdown mean {sum(bsld) / len(bsld)}, summary {s['bounded_slowdown']['mean']}")
if hosts != {"node0", "node1"} or prepare.machine_cores(s) != 32:
    problems.append(f"hosts {sorted(hosts)}, cores {prepare.machine_cores(s)}")
if run.series.columns["finished_jobs"][-1] != len(run.jobs):
    problems.append(f"series ends with {run.series.columns['finished_jobs'][-1]} finished, jobs.csv has {len(run.jobs)}")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY

# ---- --gantt-max-jobs: above it a note, no chart ------------------------------
out=$("$REPORT" -o small --gantt-max-jobs 39 --title "Forty <jobs>" runs/fcfs 2>&1)
expect_eq "report's line" "resource-query-report: wrote small/index.html" "$out"
[ -f small/gantt-1.png ] && fail "a Gantt chart drawn above --gantt-max-jobs"
expect_contains "Gantt note" "fcfs forty_jobs.swf: 40 jobs, more than --gantt-max-jobs 39: no Gantt chart" "$(cat small/index.html)"
expect_contains "title, escaped" "<h1>Forty &lt;jobs&gt;</h1>" "$(cat small/index.html)"
"$REPORT" -o exact --gantt-max-jobs 40 runs/fcfs >/dev/null 2>&1
[ -f exact/gantt-1.png ] && [ -f exact/gantt-1.svg ] || fail "no Gantt chart at exactly --gantt-max-jobs jobs"
# One run: no comparison charts.
ls exact/compare_* >/dev/null 2>&1 && fail "comparison charts for a single run"

# ---- missing series.csv: its figures left out, with a note ----------------------
mkdir -p noseries && cp runs/fcfs/jobs.csv runs/fcfs/summary.json noseries/
"$REPORT" -o r2 noseries >/dev/null 2>&1 || fail "report of a run without series.csv failed"
[ -f r2/utilization-1.png ] && fail "a utilization curve without series.csv"
[ -f r2/wait-cdf-1.png ] || fail "no wait CDF for a run without series.csv"
expect_contains "series note" "fcfs forty_jobs.swf: series.csv missing: no utilization or pending-jobs curve" "$(cat r2/index.html)"

# ---- labels from cell.json (a sweep's cells) ------------------------------------
mkdir -p cells && cp -r runs/fcfs cells/a && cp -r runs/fcfs cells/b
echo '{"id": "m0-t0-fcfs-first-d32", "trace": "forty_jobs.swf", "queue_policy": "fcfs", "match_policy": "first", "depth": 32}' >cells/a/cell.json
echo '{"id": "m0-t0-fcfs-first-d8", "trace": "forty_jobs.swf", "queue_policy": "fcfs", "match_policy": "first", "depth": 8}' >cells/b/cell.json
"$REPORT" -o r3 cells/a cells/b >/dev/null 2>&1 || fail "report of two cells failed"
expect_eq "summary.csv labels" "m0-t0-fcfs-first-d32
m0-t0-fcfs-first-d8" "$(cut -d, -f1 r3/summary.csv | tail -n +2)"
expect_eq "summary.csv header" "label,folder,trace,queue_policy,match_policy,depth,machine,jobs,utilization,makespan,wait_mean,wait_median,wait_p90,wait_p99,wait_max,bounded_slowdown_mean,bounded_slowdown_max,throughput_per_hour,skipped,partial" "$(head -1 r3/summary.csv)"
grep -q '>fcfs depth 32<' r3/compare_wait_mean.svg || fail "comparison bars not named by the depth that varies"

# ---- bad input: one line naming the file, exit 1 --------------------------------
check_error() {  # WHAT EXPECTED ARGS...
    what=$1 expected=$2
    shift 2
    out=$("$REPORT" -o bad "$@" 2>&1)
    status=$?
    expect_eq "$what: status" 1 "$status"
    expect_eq "$what" "$expected" "$out"
}
check_error "no folder" "resource-query-report: nowhere: not a folder (expected a run folder holding summary.json)" nowhere
mkdir -p broken && cp runs/fcfs/* broken/
sed '3s/^\([0-9]*\),/\1x,/' runs/fcfs/series.csv >broken/series.csv
row=$(sed -n 3p broken/series.csv | cut -d, -f1)
check_error "bad series" "resource-query-report: broken/series.csv: line 3: column 'time': not an integer: '$row'" broken
cp runs/fcfs/series.csv broken/ && printf '{"policy": "fcfs",\n' >broken/summary.json
check_error "bad summary" "resource-query-report: broken/summary.json: line 2: not JSON: Expecting property name enclosed in double quotes" broken
cp runs/fcfs/summary.json broken/ && sed '2s/,\([^,]*\)$/,"n[3-1]"/' runs/fcfs/jobs.csv >broken/jobs.csv
check_error "bad hostlist" "resource-query-report: broken/jobs.csv: column 'nodes': invalid hostlist \`n[3-1]'" broken
out=$("$REPORT" 2>&1); expect_eq "no folder given: usage error" 2 "$?"
expect_contains "usage" "usage: resource-query-report [-h] [-o OUTDIR] [--gantt-max-jobs N] [--title T]" "$out"
finish
