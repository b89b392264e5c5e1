# --state FILE crash test (docs/state.md "Durability"): runs a stream of matches with
# --state, kills the process with SIGKILL at random moments, restarts it on
# the same file and continues the stream. After each kill, every match whose
# output was printed is in the file and at most the one in flight besides
# (it can be committed and killed before printing); the restarted session
# goes on with the next job id; the final job list equals the list of an
# uninterrupted run (match times masked). Most kills come after the restart
# printed something, so the test ends in a bounded number of restarts
# whatever the build's speed.
. "$(dirname "$0")/lib.sh"

python3 - "$RQ" "$SRC" <<'PY' || fail "crash test"
import os, random, re, signal, sqlite3, subprocess, sys, time
rq, src = sys.argv[1], sys.argv[2]
specs = [f"{src}/t/data/jobspecs/{n}.yaml" for n in ("node-socket-core", "core", "whole-node")]
rng = random.Random(int(os.environ.get("RQ_CRASH_SEED", "7")))
commands = [f"match allocate_orelse_reserve {rng.choice(specs)}" for _ in range(400)]
base = ["-L", f"{src}/conf/tiny.graphml", "-P", "high", "-d"]

def run(lines, extra):
    p = subprocess.run([rq] + base + extra, input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True)
    return p.stdout

mask = lambda t: re.sub(r"(INFO: \d+, \w+, -?\d+, [^,]*, )\S+", r"\1T", t)
expected = mask(run(commands + ["list"], []))

state = "crash.db"
done = 0
kills = 0
while done < len(commands):
    p = subprocess.Popen([rq] + base + ["--state", state], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    p.stdin.write("".join(l + "\n" for l in commands[done:]))
    p.stdin.close()
    # Most kills wait for the restarted session's first output (its replay
    # of the journal is over and a match is done), then a random moment:
    # each of these makes progress however slow the build (sanitizers).
    # Every fourth kill lands at a random moment from the start instead,
    # during the replay or the open of the file.
    out = ""
    if kills % 4 == 3:
        time.sleep(rng.uniform(0.0, 0.3))
    else:
        out = p.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.3))
    p.send_signal(signal.SIGKILL)
    out += p.stdout.read()
    p.wait()
    kills += 1
    ids = [int(x) for x in re.findall(r"INFO: JOBID=(\d+)", out)]
    acknowledged = max(ids) if ids else done
    if ids and ids[0] != done + 1:
        sys.exit(f"restart went on with job {ids[0]}, expected {done + 1}")
    if not os.path.exists(state):
        committed = 0
    else:
        db = sqlite3.connect(state)
        try:
            committed = db.execute("SELECT count(*) FROM journal").fetchone()[0]
        except sqlite3.OperationalError:
            committed = 0  # killed before the first commit created the tables
        db.close()
    if not (acknowledged <= committed <= acknowledged + 1):
        sys.exit(f"kill {kills}: printed up to job {acknowledged}, committed {committed}")
    done = committed
db = sqlite3.connect(state)
rows = db.execute("SELECT value FROM meta WHERE key = 'rows_exact'").fetchone()
db.close()
if rows is None or rows[0] != "1":
    sys.exit("the state file does not hold the session as rows (matches only: it must)")
final = mask(run(["list"], ["--state", state]))
listed = "".join(l + "\n" for l in expected.splitlines() if l.startswith("INFO: ") and ", " in l)
if final != listed:
    sys.exit("final job list differs from the uninterrupted run")
# The session resumed from the rows goes on as the uninterrupted one: the
# next match picks the same resources (printed tree and job id).
probe = [f"match allocate_orelse_reserve {s}" for s in specs]
tail = mask(run(commands + probe, []))
resumed = mask(run(probe, ["--state", state]))
if not tail.endswith(resumed) or "JOBID=" not in resumed:
    sys.exit("matches after the resume differ from the uninterrupted run")
if kills < 3:
    sys.exit(f"only {kills} kills")
print(f"{kills} kills, {len(commands)} commands")
PY
finish
