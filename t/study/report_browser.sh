# The report of a small sweep-like set of runs (two traces x two policies,
# each replayed by the real resource-query) opened in headless Chromium:
# every figure loads (none broken), the summary table has one row per run,
# the screenshot is written, and each PNG is large enough and not blank
# (docs/study.md "The report").
. "$(dirname "$0")/report_lib.sh"
require_matplotlib
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    echo "skip: chromium not installed (Debian chromium; utilities/install-deps.sh)"
    exit 77
fi

# browse MODE OUT PAGE: headless Chromium, its own profile, no network;
# the virtual time budget lets the page's load handler run first.
browse() {
    HOME="$WORK" timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$WORK/profile" --window-size=1280,4000 --virtual-time-budget=10000 \
        "$1" "file://$3" >"$2" 2>"$2.err"
}

# The second trace: the same jobs arriving twice as fast.
awk '/^;/ { print; next } { $2 = int($2 / 2); print }' "$TRACE" >denser.swf
for trace in "$TRACE" denser.swf; do
    name=$(basename "$trace" .swf)
    replay_into "runs/$name-fcfs" fcfs "$trace"
    replay_into "runs/$name-easy" easy "$trace"
done
if ! "$REPORT" -o report runs/forty_jobs-fcfs runs/forty_jobs-easy runs/denser-fcfs runs/denser-easy \
    >report.out 2>&1; then
    fail "resource-query-report: $(cat report.out)"
    finish
fi

# ---- the page in the browser ------------------------------------------------
browse --dump-dom dom.html "$WORK/report/index.html" || fail "chromium --dump-dom exited $?: $(tail -3 dom.html.err)"
images=$(grep -o '<img ' report/index.html | wc -l)
expect_eq "images: 3 comparisons, 4 figures per trace, a Gantt chart per run" 15 "$images"
# image_check DOM: the line the page's load handler wrote.
image_check() { grep -o 'id="image-check">[^<]*' "$1" | cut -d'>' -f2; }
expect_eq "every image loaded" "images: $images loaded: $images broken: 0" "$(image_check dom.html)"
expect_eq "images marked loaded" "$images" "$(grep -o 'data-state="loaded"' dom.html | wc -l)"
expect_eq "summary table rows" "4" "$(grep -o '<tr class="run">' dom.html | wc -l)"
grep -q '<table class="summary" id="summary">' dom.html || fail "no summary table in the page"

HOME="$WORK" timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$WORK/profile" --window-size=1280,4000 --virtual-time-budget=10000 \
    --screenshot="$WORK/page.png" "file://$WORK/report/index.html" >shot.out 2>&1
[ -s page.png ] || fail "no screenshot: $(tail -3 shot.out)"

# The check can fail: a page with one missing figure reports it broken.
sed 's/src="wait-cdf-1.png"/src="missing.png"/' report/index.html >report/broken.html
browse --dump-dom broken-dom.html "$WORK/report/broken.html"
expect_eq "a missing figure is seen broken" "images: $images loaded: $((images - 1)) broken: 1" \
    "$(image_check broken-dom.html)"

# ---- the figures ---------------------------------------------------------------
for stem in compare_wait_mean compare_utilization compare_bounded_slowdown_mean \
    utilization-1 pending-1 wait-cdf-1 slowdown-by-size-1 utilization-2 pending-2 wait-cdf-2 \
    slowdown-by-size-2 gantt-1 gantt-2 gantt-3 gantt-4; do
    [ -f "report/$stem.png" ] && [ -f "report/$stem.svg" ] || fail "figure $stem: no PNG or SVG"
done
# Each PNG: at least 10 kB, its pixels vary (a blank image has one colour)
# and at least 0.2% of them are coloured (the data: empty axes are black,
# grey and white only; the sparsest figure here, a CDF, has about 1%).
/usr/bin/python3 - report/*.png page.png >pixels.out 2>&1 <<'PY' || fail "PNG check: $(cat pixels.out)"
import os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.image
bad = []
for path in sys.argv[1:]:
    size = os.path.getsize(path)
    rgb = matplotlib.image.imread(path)[..., :3]
    variance = float(rgb.var())
    coloured = float(((rgb.max(axis=2) - rgb.min(axis=2)) > 0.2).mean())
    if size < 10_000 or variance < 1e-3 or coloured < 0.002:
        bad.append(f"{path}: {size} bytes, pixel variance {variance:.5f}, coloured {coloured:.2%}")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY

# summary.csv: a header and one row per run.
expect_eq "summary.csv rows" "5" "$(wc -l <report/summary.csv)"
# The comparison: one group per trace, a bar per policy (SVG text is text).
for text in '>forty_jobs.swf<' '>denser.swf<' '>fcfs<' '>easy<'; do
    grep -q "$text" report/compare_wait_mean.svg || fail "compare_wait_mean.svg lacks $text"
done
finish
