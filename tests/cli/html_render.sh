#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# report.html as people see it: a small real run (timer wake-up on every CPU
# with generous limits that pass, a semaphore ping-pong with a maximum
# nobody meets) rendered by headless Chromium, on screen and printed to PDF.
# Checked in the PDF's text (pdftotext, page by page): page 1 holds the
# verdict table with every limit phrase on one line; every histogram is on
# the page of its statistics table; the per-CPU plots are there; µs, not us.
# Checked in the SVG: a passing requirement has no red bar; a red bar lies
# beyond a bound that was not met, and every bar beyond one is red; the
# limit labels clear the frame and each other at the print font size; a
# runs table has a batch column only where there is a batch figure. A run
# by time with intervals prints a time plot per duration metric (and the
# CPUs'), caption and legend in the PDF, with a point per interval and a red
# band on exactly the intervals beyond a limit.
# Chromium or poppler-utils missing is a failure that names the package.
. "$(dirname "$0")/lib.sh"

render_tools || finish

cat >"$TMP/req.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<requirements xmlns="urn:rtconform:requirements:1" name="html-render">
  <defaults iterations="300" runs="2" warmup="20" timeout="60s"/>
  <requirement id="WAKE">
    <title>Periodic wake-up on every CPU, generous limits</title>
    <probe name="timer-wakeup">
      <param name="cpus">all</param>
      <param name="interval">1ms</param>
      <param name="dma-latency">off</param>
    </probe>
    <sched policy="other"/>
    <limit metric="wakeup" statistic="mean" max="10ms"/>
    <limit metric="wakeup" statistic="max" max="60s"/>
  </requirement>
  <requirement id="SEM-TIGHT">
    <title>Semaphore ping-pong with a maximum nobody meets</title>
    <probe name="sem-pingpong">
      <param name="mechanism">posix-sem</param>
      <param name="peer">process</param>
      <param name="placement">same-cpu</param>
    </probe>
    <sched policy="other"/>
    <limit metric="per-op" statistic="mean" max="50ms"/>
    <limit metric="per-op" statistic="max" max="1ns"/>
  </requirement>
</requirements>
EOF
expect_status 1 "$RTC" run "$TMP/req.xml" -o "$TMP/res"
HTML="$TMP/res/report.html"
[ -s "$HTML" ] || { fail "report.html not written"; finish; }

chrome --no-pdf-header-footer --print-to-pdf="$TMP/report.pdf" "file://$HTML"
if [ -s "$TMP/report.pdf" ]; then ok "chromium writes a PDF"; else
  fail "chromium wrote no PDF:"; sed 's/^/    /' "$TMP/chrome.log" | tail -20
fi
chrome --window-size=1200,2400 --screenshot="$TMP/screen.png" "file://$HTML"
if [ -s "$TMP/screen.png" ]; then ok "chromium writes a screenshot"; else
  fail "chromium wrote no screenshot:"; sed 's/^/    /' "$TMP/chrome.log" | tail -20
fi
pdftoppm -png -r 40 -f 1 -l 1 "$TMP/report.pdf" "$TMP/page" && ok "pdftoppm reads the PDF" || fail "pdftoppm cannot read the PDF"

# The PDF's text, one file per page.
pages=$(pdfinfo "$TMP/report.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
[ "${pages:-0}" -ge 2 ] && ok "the PDF has at least 2 pages" || fail "the PDF has ${pages:-no} pages"
for ((p = 1; p <= ${pages:-0}; p++)); do
  pdftotext -layout -f "$p" -l "$p" "$TMP/report.pdf" "$TMP/page$p.txt"
done

# Page 1: the verdict table, each limit phrase whole on one line.
P1="$TMP/page1.txt"
expect_grep '^ *Verdicts *$' "$P1"
expect_grep 'Requirement +Verdict +Probe +Policy +Limit' "$P1"
for phrase in 'wakeup mean ≤ 10 ms' 'wakeup max ≤ 60 s' 'per-op mean ≤ 50 ms' 'per-op max ≤ 1 ns'; do
  expect_grep "$phrase" "$P1"
done
expect_grep 'timer-wakeup' "$P1"
expect_grep 'SEM-TIGHT failed: max [0-9.]+ (ns|µs|ms) > 1 ns' "$P1"

# Every histogram (its axis title) on the page of its statistics table (its
# last row name), and one of each per duration metric: WAKE wakeup,
# SEM-TIGHT per-op and wakeup.
plots=0 stats=0
for ((p = 1; p <= ${pages:-0}; p++)); do
  a=$(grep -c 'latency (log scale); bar height' "$TMP/page$p.txt")
  b=$(grep -c 'runs-mean-stddev' "$TMP/page$p.txt")
  [ "$a" = "$b" ] && ok "page $p: as many histograms as statistics tables" || fail "page $p: $a histograms but $b statistics tables"
  plots=$((plots + a)) stats=$((stats + b))
done
[ "$plots" = 3 ] && ok "the PDF has 3 histograms" || fail "$plots histograms in the PDF, expected 3"
# the per-CPU plots, on the page of the per-CPU table
cpus=$(grep -l 'Metric wakeup per CPU' "$TMP"/page*.txt | head -1)
if [ -n "$cpus" ]; then
  expect_grep 'CPU 0 +[0-9]+ samples, max' "$cpus"
  expect_grep '^ *CPU +samples +min +mean +max +p99' "$cpus"
else
  fail "no per-CPU section in the PDF"
fi
cat "$TMP"/page*.txt >"$TMP/all.txt"
expect_grep '[0-9] µs' "$TMP/all.txt"
expect_no_grep '[0-9] us\b' "$TMP/all.txt"

# The SVG: which bars are red, against the bounds results.json says were
# not met.
python3 - "$HTML" "$TMP/res/results.json" >"$TMP/svg.log" 2>&1 <<'EOF'
import json, re, sys
import xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
scale = {'ns': 1, 'µs': 1e3, 'ms': 1e6, 's': 1e9}
def ns(text):
    v, u = text.split()
    return float(v) * scale[u]
doc = ET.parse(sys.argv[1]).getroot()
res = json.load(open(sys.argv[2]))
bad = []
checked = 0
for req in res['files'][0]['requirements']:
    div = doc.find(".//{*}div[@id='r1-%d']" % (res['files'][0]['requirements'].index(req) + 1))
    svgs = [s for s in div.iter() if s.tag.endswith('svg')]
    if req['verdict'] == 'pass':
        red = [r for s in svgs for r in s.iter() if r.tag.split('}')[-1] == 'rect' if r.get('class') == 'beyond']
        if red:
            bad.append('%s passed but has %d red bars' % (req['id'], len(red)))
        checked += 1
        continue
    for m, svg in zip([m for m in req['metrics'] if m['kind'] == 'duration'],
                      [s for s in svgs if s.get('class') == 'hist']):
        viol = [l for l in req['limits'] if l['metric'] == m['name'] and l['verdict'] == 'fail']
        for r in [e for e in svg.iter() if e.tag.split('}')[-1] == 'rect']:
            t = r.find('{*}title').text
            g = re.match(r'(\S+ \S+) to (\S+ \S+):', t)
            if not g:
                continue  # the overflow column
            lo, hi = ns(g.group(1)), ns(g.group(2))
            # a bar is [lo, hi): beyond a max bound when it reaches above it
            over = any(l['max'] is not None and hi > l['max'] * 1.01 for l in viol) or \
                   any(l['min'] is not None and lo < l['min'] * 0.99 for l in viol)
            under = all((l['max'] is None or hi < l['max'] * 0.99) and
                        (l['min'] is None or lo > l['min'] * 1.01) for l in viol)
            red = r.get('class') == 'beyond'
            if red and under:
                bad.append('%s %s: red bar %s inside every violated bound' % (req['id'], m['name'], t))
            if not red and over:
                bad.append('%s %s: bar %s beyond a violated bound is not red' % (req['id'], m['name'], t))
            checked += 1
print('checked', checked)
for b in bad:
    print(b)
sys.exit(1 if bad or checked < 10 else 0)
EOF
if [ $? -eq 0 ]; then ok "the histogram bars are red exactly beyond a violated bound"; else fail "the histogram bars are red exactly beyond a violated bound:"; sed 's/^/    /' "$TMP/svg.log" | head -20; fi
# ... and SEM-TIGHT's per-op histogram has red bars at all
python3 - "$HTML" <<'EOF' && ok "SEM-TIGHT per-op has a red bar" || fail "SEM-TIGHT per-op has no red bar"
import sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
svg = [s for s in doc.find(".//{*}div[@id='r1-2']").iter() if s.tag.endswith('svg')][0]
sys.exit(0 if any(r.get('class') == 'beyond' for r in svg.iter() if r.tag.split('}')[-1] == 'rect') else 1)
EOF

# The runs table has a batch column only where there is a batch figure:
# timer-wakeup has none (issue 24: a column of "-"), the ping-pong has one.
python3 - "$HTML" >"$TMP/batch.log" 2>&1 <<'EOF'
import sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
def heads(div_id):
    div = doc.find(".//{*}div[@id='%s']" % div_id)
    t = [e for e in div.iter() if e.tag.split('}')[-1] == 'table' and e.get('class') == 'runs'][0]
    return [''.join(th.itertext()) for th in t.iter() if th.tag.split('}')[-1] == 'th']
wake, sem = heads('r1-1'), heads('r1-2')
print('WAKE runs table:', wake); print('SEM-TIGHT runs table:', sem)
sys.exit(0 if not any('Batch' in h for h in wake) and any('Batch' in h for h in sem) else 1)
EOF
if [ $? -eq 0 ]; then ok "a batch column only where there is a batch figure"; else fail "a batch column only where there is a batch figure:"; diag <"$TMP/batch.log"; fi

# In print the histograms' text is larger (page.c's @media print): the
# limit labels above a histogram must keep clear of its frame and of each
# other's row at that size (issue 24: they touched the frame). Their
# baselines, against the print font size the page sets.
python3 - "$HTML" >"$TMP/labels.log" 2>&1 <<'EOF'
import re, sys, xml.etree.ElementTree as ET
text = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'@media print\{.*?svg\.hist:not\(\.cpu\) text\{font-size:([0-9.]+)px\}', text, re.S)
if not m:
    print('no print font size for the histograms in the style sheet'); sys.exit(1)
fs = float(m.group(1))
doc = ET.parse(sys.argv[1]).getroot()
rows = set()
for svg in [e for e in doc.iter() if e.tag.split('}')[-1] == 'svg']:
    if svg.get('class') != 'hist':
        continue
    for t in [e for e in svg.iter() if e.tag.split('}')[-1] == 'text']:
        if 'lab-' in (t.get('class') or ''):
            rows.add(float(t.get('y')))
rows = sorted(rows)
print('print font %gpx, label baselines %s' % (fs, rows))
bad = len(rows) < 2 or rows[0] < 1.15 * fs or any(b - a < 1.15 * fs for a, b in zip(rows, rows[1:]))
sys.exit(1 if bad else 0)
EOF
if [ $? -eq 0 ]; then ok "the limit labels clear the frame and each other in print"; else fail "the limit labels touch the frame or each other in print:"; diag <"$TMP/labels.log"; fi

# Intervals over time (issue 25): a run by time with --interval 1s, a
# ping-pong whose max nobody meets and a timer wake-up on every CPU that
# passes. Each duration metric gets a time plot (max and p99 per interval,
# the per-CPU max lines under timer-wakeup's), with its caption and legend
# in the printed PDF, each plot on one page with its caption; in the SVG a
# point per interval results.json has, and a red band on exactly the
# intervals whose max is above the 1 ns bound (all of them), none where the
# limits hold.
cat >"$TMP/iv.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<requirements xmlns="urn:rtconform:requirements:1" name="html-intervals">
  <defaults timeout="60s"/>
  <requirement id="IV-SEM">
    <probe name="sem-pingpong"/>
    <sched policy="other"/>
    <run iterations="2000" duration="3s" warmup="0"/>
    <limit metric="per-op" statistic="max" max="1ns"/>
  </requirement>
  <requirement id="IV-WAKE">
    <probe name="timer-wakeup">
      <param name="cpus">all</param>
      <param name="interval">1ms</param>
      <param name="dma-latency">off</param>
    </probe>
    <sched policy="other"/>
    <run iterations="100" duration="3s" warmup="0"/>
    <limit metric="wakeup" statistic="max" max="60s"/>
  </requirement>
</requirements>
EOF
expect_status 1 "$RTC" run --quiet --interval 1s "$TMP/iv.xml" -o "$TMP/iv"
IVHTML="$TMP/iv/report.html"
chrome --no-pdf-header-footer --print-to-pdf="$TMP/iv.pdf" "file://$IVHTML"
ivpages=$(pdfinfo "$TMP/iv.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
[ "${ivpages:-0}" -ge 2 ] && ok "the intervals' report prints ($ivpages pages)" || fail "the intervals' report printed ${ivpages:-no} pages"
plots=0
for ((p = 1; p <= ${ivpages:-0}; p++)); do
  pdftotext -f "$p" -l "$p" "$TMP/iv.pdf" - | tr '\n' ' ' >"$TMP/ivpage$p.txt"
  a=$(grep -o 'time (UTC), 20' "$TMP/ivpage$p.txt" | wc -l)
  b=$(grep -o ' over time: [0-9]* intervals of about [0-9.]* s each' "$TMP/ivpage$p.txt" | wc -l)
  [ "$a" = "$b" ] && ok "page $p: every time plot with its caption" || fail "page $p: $a time plots but $b captions"
  plots=$((plots + a))
done
# IV-SEM per-op and wakeup, IV-WAKE wakeup and its CPUs
[ "$plots" = 4 ] && ok "the PDF has 4 time plots" || fail "$plots time plots in the PDF, expected 4"
cat "$TMP"/ivpage*.txt >"$TMP/ivall.txt"
expect_grep 'Max and p99 of IV-SEM per-op over time' "$TMP/ivall.txt"
expect_grep 'Max per CPU of IV-WAKE wakeup over time' "$TMP/ivall.txt"
expect_grep 'latency \(log scale\) .*max .*p99 .*beyond a limit' "$TMP/ivall.txt"
expect_grep 'Red bands: the [0-9]+ intervals? whose own statistics lie beyond' "$TMP/ivall.txt"
expect_grep "No interval's own statistics lie beyond a limit's bound" "$TMP/ivall.txt"
expect_grep 'CPU 0 .*CPU 1' "$TMP/ivall.txt"
python3 - "$IVHTML" "$TMP/iv/results.json" >"$TMP/ivsvg.log" 2>&1 <<'EOF'
import json, sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
res = json.load(open(sys.argv[2]))
bad = []
def tag(e):
    return e.tag.split('}')[-1]
for k, req in enumerate(res['files'][0]['requirements']):
    div = doc.find(".//{*}div[@id='r1-%d']" % (k + 1))
    figs = [f for f in div.iter() if tag(f) == 'figure' and f.get('class') == 'time']
    m = req['metrics'][0]
    ivs = m['intervals']
    svg = [e for e in figs[0].iter() if tag(e) == 'svg'][0]
    pts = [c for c in svg.iter() if tag(c) == 'circle' and 'tp-max' in c.get('class')
           and c.find('{*}title') is not None]
    bands = [r for r in svg.iter() if tag(r) == 'rect' and r.get('class') == 'breach'
             and r.find('{*}title') is not None]
    want = sum(1 for iv in ivs if iv['statistics_ns']['max'] > 1) if req['id'] == 'IV-SEM' else 0
    print(req['id'], len(ivs), 'intervals,', len(pts), 'points,', len(bands), 'bands')
    if len(ivs) < 2 or len(pts) != len(ivs) or len(bands) != want:
        bad.append('%s: %d intervals, %d max points, %d bands (expected %d)'
                   % (req['id'], len(ivs), len(pts), len(bands), want))
    if req['id'] == 'IV-WAKE' and len(figs) != 2:
        bad.append('IV-WAKE: %d time plots, expected the metric and its CPUs' % len(figs))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
if [ $? -eq 0 ]; then ok "a point per interval, red bands exactly on the intervals beyond a limit"; else fail "the time plots' points and bands:"; diag <"$TMP/ivsvg.log"; fi

if [ -n "${RTC_KEEP_RENDER:-}" ]; then
  mkdir -p "$RTC_KEEP_RENDER" && cp "$TMP/report.pdf" "$TMP/screen.png" "$HTML" "$RTC_KEEP_RENDER/"
  cp "$TMP/iv.pdf" "$RTC_KEEP_RENDER/intervals.pdf"; cp "$IVHTML" "$RTC_KEEP_RENDER/intervals.html"
fi

# A run whose statistics table is wide (a long "largest observed" row, the
# intervals, the cycles of a 4.6 ms max), kept as it was when its print
# squeezed a histogram to a sliver whose axis title fell apart: every
# histogram still prints on the page of its statistics, whole.
WIDE="$SRC/tests/fixtures/results/wide-stats.json"
expect_status 0 "$RTC" report "$WIDE" --html "$TMP/wide.html"
chrome --no-pdf-header-footer --print-to-pdf="$TMP/wide.pdf" "file://$TMP/wide.html"
wpages=$(pdfinfo "$TMP/wide.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
wplots=0 wstats=0 wbad=""
for ((p = 1; p <= ${wpages:-0}; p++)); do
  pdftotext -layout -f "$p" -l "$p" "$TMP/wide.pdf" "$TMP/wide$p.txt"
  a=$(grep -c 'latency (log scale); bar height' "$TMP/wide$p.txt")
  b=$(grep -c 'runs-mean-stddev' "$TMP/wide$p.txt")
  [ "$a" = "$b" ] || wbad="$wbad page $p: $a histograms, $b statistics tables;"
  wplots=$((wplots + a)) wstats=$((wstats + b))
done
[ -z "$wbad" ] && [ "$wplots" = 3 ] && [ "$wstats" = 3 ] \
  && ok "a wide statistics table leaves each of 3 histograms whole on its page" \
  || fail "a wide statistics table: $wplots histograms, $wstats tables:$wbad"

finish
