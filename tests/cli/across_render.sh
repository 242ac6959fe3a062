#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fleet.html (rtconform merge) and compare.html (rtconform compare) as
# people see them, rendered by headless Chromium and read back from the PDF
# (pdftotext), from inputs made from tests/fixtures/results/pass.json
# (tests/cli/variant_results.py), so every figure is known and nothing is
# measured.
# The fleet (issue 24, item 1): two boards whose PP-OTHER is limited by
# per-op mean <= 50 us and per-op max <= 300 us; board-b's durations 5.24
# times board-a's, so its max (845.3 us) fails while its mean (14.36 us)
# passes. Its cell must show the failing max, not the first limit's mean,
# and each limit must be readable on a row of its own.
# compare.html (items 2 and 8): a requirement that passed in the baseline
# and failed in the candidate, its figures all within the tolerance, heads
# the page as a regression; its histograms have a labelled vertical axis.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
render_tools || finish

VARIANT="$SRC/tests/cli/variant_results.py"
PASS="$FIX/results/pass.json"
# pdf_text HTML NAME : HTML printed to $TMP/NAME.pdf, its text (as laid
# out) in $TMP/NAME.txt and a screenshot in $TMP/NAME.png
pdf_text() {
  chrome --no-pdf-header-footer --print-to-pdf="$TMP/$2.pdf" "file://$1"
  if [ -s "$TMP/$2.pdf" ]; then ok "chromium prints $2 to PDF"; else
    fail "chromium printed no PDF of $2:"; tail -20 "$TMP/chrome.log" | diag
  fi
  pdftotext -layout "$TMP/$2.pdf" "$TMP/$2.txt" || fail "pdftotext cannot read $2.pdf"
  chrome --window-size=1400,1000 --screenshot="$TMP/$2.png" "file://$1"
  if [ -s "$TMP/$2.png" ]; then ok "chromium writes a screenshot of $2"; else
    fail "chromium wrote no screenshot of $2"
  fi
}

# ---- fleet.html: the figure of the limit that decided -------------------
python3 "$VARIANT" "$PASS" "$TMP/a.json" --label board-a --mean-max 50 --max-max 300
python3 "$VARIANT" "$PASS" "$TMP/b.json" --label board-b --scale 5.24 --mean-max 50 --max-max 300
expect_status 1 "$RTC" merge "$TMP/a.json" "$TMP/b.json" -o "$TMP/fleet"
H="$TMP/fleet/fleet.html"
pdf_text "$H" fleet
T="$TMP/fleet.txt"
# The requirement's row: board-a's max passed (161.3 us, nearer its bound
# than its mean), board-b's failed (845.3 us); never the mean beside FAIL
expect_grep '^ *PP-OTHER: .* PASS 161\.3 µs +FAIL 845\.3 µs' "$T"
expect_no_grep '>FAIL 14\.36 µs' "$H"
# ... with the limit that decided named in each cell
expect_grep '<td class="fail">FAIL 845\.3 µs<span class="decided">per-op max ≤ 300 µs</span></td>' "$H"
expect_grep '<td class="pass">PASS 161\.3 µs<span class="decided">per-op max ≤ 300 µs</span></td>' "$H"
# ... the worst host by its verdict, and the limit that decided it
expect_grep '<td>worst: board-b; decided by per-op max ≤ 300 µs</td>' "$H"
# every limit on a row of its own, each host's verdict and figure of it
# (printed, a limit's text wraps after "<=")
expect_grep '^ *per-op mean ≤ +PASS 2\.74 µs +PASS 14\.36 µs +2\.74 µs \.\. 14\.36' "$T"
expect_grep '^ *per-op max ≤ +PASS 161\.3 µs +FAIL 845\.3 µs +161\.3 µs \.\. 845\.3' "$T"
# a requirement of one limit keeps one row
expect_grep '^ *PP-FIFO: .* per-op p50 ≤ 10 s +PASS 13\.02 µs +PASS 13\.02 µs' "$T"
n=$(grep -o '<tr class="limit">' "$H" | wc -l)
[ "$n" = 2 ] && ok "fleet.html has a limit row for each of PP-OTHER's 2 limits, none for PP-FIFO's one" \
  || fail "fleet.html has $n limit rows, not 2"
# the fleet results.json: the deciding limit as "limit", every limit in "limits"
python3 - "$TMP/fleet/results.json" >"$TMP/check" 2>&1 <<'PY' && ok "the fleet results.json names the deciding limit and every limit" || { fail "the fleet results.json names the deciding limit and every limit:"; diag <"$TMP/check"; }
import json, sys
d = json.load(open(sys.argv[1]))
s = {h["summary"]["host"]: {r["id"]: r for r in h["summary"]["requirements"]} for h in d["hosts"]}
b = s["board-b"]["PP-OTHER"]
assert b["verdict"] == "fail", b
assert b["limit"]["statistic"] == "max" and b["limit"]["verdict"] == "fail", b["limit"]
assert abs(b["limit"]["measured"] - 845.3e3) < 0.1e3, b["limit"]
assert [(l["statistic"], l["verdict"]) for l in b["limits"]] == [("mean", "pass"), ("max", "fail")], b["limits"]
assert s["board-a"]["PP-FIFO"]["limit"]["statistic"] == "p50"
PY

# ---- compare.html: a verdict that got worse, the histograms' axes --------
# PP-OTHER's max limited to 180 us: 161.3 us passes in the baseline, 1.2
# times that fails in the candidate; every figure within the tolerance.
python3 "$VARIANT" "$PASS" "$TMP/base.json" --label board-a --max-max 180
python3 "$VARIANT" "$PASS" "$TMP/cand.json" --label board-a --max-max 180 --scale 1.2
expect_status 1 "$RTC" compare --significance 0.1 "$TMP/base.json" "$TMP/cand.json" -o "$TMP/cmp"
pdf_text "$TMP/cmp/compare.html" compare
T="$TMP/compare.txt"
expect_grep '^ *REGRESSION — verdicts: 1 worse, 0 better, 1 unchanged; figures: 0 worse' "$T"
expect_grep '^ *PP-OTHER +- +verdict +pass +fail +- +- +- +WORSE +the candidate' "$T"
# the histograms of the metric whose limit decided, with both axes
# labelled: the share of samples at each decade, 100 % down to 0.001 %
expect_grep '^ *PP-OTHER per-op$' "$T"
expect_grep 'share of samples \(log scale\)' "$T"
for label in '100%' '10%' '1%' '0\.1%' '0\.01%' '0\.001%'; do
  expect_grep "^ *$label\$" "$T"
done
expect_grep 'latency \(log scale\)' "$T"
# ... each label at the height a bar of that share reaches
python3 - "$TMP/cmp/compare.html" >"$TMP/yaxis" 2>&1 <<'PY' && ok "the y labels stand where bars of those shares end" || { fail "the y labels stand where bars of those shares end:"; diag <"$TMP/yaxis"; }
import math, sys, xml.etree.ElementTree as ET
svg = next(e for e in ET.parse(sys.argv[1]).getroot().iter() if e.tag.endswith('svg'))
tag = lambda e: e.tag.split('}')[-1]
ys = {t.text: float(t.get('y')) - 4 for t in svg.iter() if tag(t) == 'text' and (t.text or '').endswith('%')}
bottom = max(float(l.get('y1')) for l in svg.iter() if tag(l) == 'line' and l.get('class') == 'axis' and l.get('y1') == l.get('y2'))
top = min(float(l.get('y1')) for l in svg.iter() if tag(l) == 'line' and l.get('class') == 'axis' and l.get('x1') == l.get('x2') and float(l.get('y2')) == bottom)
assert len(ys) == 6, ys
for label, y in ys.items():
    frac = float(label[:-1]) / 100
    want = bottom - min(math.log10(1 + 1e5 * frac) / 5, 1) * (bottom - top)
    assert abs(y - want) < 0.6, (label, y, want)
# a bar holding every sample of its side reaches the 100 % line
PY

if [ -n "${RTC_KEEP_RENDER:-}" ]; then
  mkdir -p "$RTC_KEEP_RENDER" && cp "$TMP"/*.pdf "$TMP"/*.png "$RTC_KEEP_RENDER/"
fi
finish
