# SPDX-License-Identifier: Apache-2.0
# rtconform explain TRACE|DIR [--json] (docs/explain.md): on real excerpts of
# saved traces (tests/fixtures/explain/) the headline, the table, the sum
# check and the JSON; a directory's traces; exit 2 naming the file and line for a file that is
# not a trace, has no breach marker, or a bad value; and, as root, one real
# traced run with a limit it surely breaches: explain reads its trace and
# the components add up to the window (which cause, on a noisy machine, is
# not asserted).
. "$(dirname "$0")/lib.sh"
EX="$FIX/explain"

# A real timer-wakeup breach (an excerpt): its known answers.
expect_status 0 "$RTC" explain "$EX/timer-wakeup.txt"
expect_grep '^TW wakeup 25\.72 us: 27% local timer interrupt, 27% the probe on its CPU \(no other event\), 23% rtconform-worker \(pid 31006, nice 0, lower than the probe, which was not runnable\)$' "$TMP/out"
expect_grep '^probe: rtconform-worker \(pid 30998, RT 80\) on CPU 0; window: the 25\.72 us before the marker$' "$TMP/out"
expect_grep '^window: 48823\.424482284 to 48823\.424508000 s of trace time$' "$TMP/out"
expect_grep '^ +7 us +27% +1  local timer interrupt$' "$TMP/out"
expect_grep 'lower than the probe, which was runnable: a violation\)$' "$TMP/out"
expect_grep '^ +25\.72 us +100% +sum: adds up to the window' "$TMP/out"
expect_grep '^wake-up: the probe was woken 14 us before the marker and switched in 7 us after that$' "$TMP/out"
expect_no_grep 'INCOMPLETE' "$TMP/out"
expect_status 0 "$RTC" explain "$EX/timer-wakeup-preempted.txt"
expect_grep '^TWIO wakeup 71\.71 us: 32% local timer interrupt, 22% bash \(pid 19512, nice 0, lower than the probe, which was not runnable\), 18% rtconform-worker \(pid 18592, RT 80, higher than the probe\)$' "$TMP/out"
expect_status 0 "$RTC" explain "$EX/sem-pingpong.txt"
expect_grep '^SEM per-op 4\.522 us: 100% the probe on its CPU \(no other event\)$' "$TMP/out"

# --json: the same, machine-readable (stdout alone is JSON)
if "$RTC" explain --json "$EX/timer-wakeup.txt" >"$TMP/ex.json" 2>"$TMP/ex.err" &&
   python3 - "$TMP/ex.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["requirement"] == "TW" and j["metric"] == "wakeup" and j["value_ns"] == 25716, j
assert j["probe"] == {"pid": 30998, "comm": "rtconform-worke", "cpu": 0, "priority": "RT 80",
                      "prio": 19}, j["probe"]
assert j["window"]["ns"] == j["window"]["end_ns"] - j["window"]["start_ns"] == 25716, j["window"]
c = j["components"]
assert sum(x["ns"] for x in c) == j["sum_ns"] == 25716 and j["adds_up"], j
assert c[0]["kind"] == "timer" and c[0]["ns"] == 7000, c[0]
v = [x for x in c if x["kind"] == "task" and x["class"] == "violation"]
assert len(v) == 1 and v[0]["pid"] == 31006 and v[0]["prio"] == 120 and v[0]["ns"] == 1000, v
assert j["wakeup"] == {"before_marker_ns": 14000, "to_run_ns": 7000}, j["wakeup"]
assert j["complete"] is True and j["lost_events"] == 0 and j["migrations"] == []
PY
then ok "explain --json gives the components, their sum and the wake-up"; else
  fail "explain --json: wrong or no JSON:"; cat "$TMP/ex.json" "$TMP/ex.err" | head -40 | diag; fi

# A run's directory: every trace in it, in name order; one that cannot
# be explained is named, the others still are (exit 2).
mkdir -p "$TMP/dir" && cp "$EX/timer-wakeup.txt" "$TMP/dir/trace-B.txt" &&
  cp "$EX/sem-pingpong.txt" "$TMP/dir/trace-A.txt" && cp "$FIX/cli/pass.xml" "$TMP/dir/other.txt"
expect_status 0 "$RTC" explain "$TMP/dir"
expect_grep '^== .*/dir/trace-A\.txt$' "$TMP/out"
expect_grep '^SEM per-op 4\.522 us: ' "$TMP/out"
expect_grep '^== .*/dir/trace-B\.txt$' "$TMP/out"
expect_grep '^TW wakeup 25\.72 us: ' "$TMP/out"
expect_no_grep 'other\.txt' "$TMP/out"
if "$RTC" explain --json "$TMP/dir" >"$TMP/dir.json" &&
   python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert [x["requirement"] for x in j] == ["SEM", "TW"], j' "$TMP/dir.json"
then ok "explain --json DIR gives an array of its traces in name order"; else
  fail "explain --json DIR:"; head -20 "$TMP/dir.json" | diag; fi
cp "$FIX/cli/pass.xml" "$TMP/dir/trace-C.txt"
expect_status 2 "$RTC" explain "$TMP/dir"
expect_grep '^TW wakeup 25\.72 us: ' "$TMP/out"
expect_grep "^rtconform explain: .*/dir/trace-C\.txt:1: not a trace line" "$TMP/out"
mkdir -p "$TMP/empty"
expect_status 2 "$RTC" explain "$TMP/empty"
expect_grep 'empty: no trace-<ID>\.txt in it' "$TMP/out"

# Lost events in the window: said, and the window incomplete.
# (at line 47: inside CPU 0's timer interrupt, 11 us into the window)
{ sed -n '1,46p' "$EX/timer-wakeup.txt"; echo "CPU:0 [LOST 12 EVENTS]"; sed -n '47,$p' "$EX/timer-wakeup.txt"; } >"$TMP/lost.txt"
expect_status 0 "$RTC" explain "$TMP/lost.txt"
expect_grep '^lost events: 12 in the trace$' "$TMP/out"
expect_grep "^INCOMPLETE: 12 events were lost on the probe's CPU in the window: it cannot be fully explained$" "$TMP/out"

# Not a trace, no marker, a bad value: exit 2 naming the file and line.
grep -v 'rtconform breach' "$EX/timer-wakeup.txt" >"$TMP/nomarker.txt"
expect_status 2 "$RTC" explain "$TMP/nomarker.txt"
expect_grep "^rtconform explain: .*/nomarker\.txt:56: no breach marker \('rtconform breach: \.\.\.'\) in its 56 lines: not a trace of a breach$" "$TMP/out"
sed '20s/next_prio=120/next_prio=high/' "$EX/timer-wakeup.txt" >"$TMP/bad.txt"
expect_status 2 "$RTC" explain "$TMP/bad.txt"
expect_grep "^rtconform explain: .*/bad\.txt:20: next_prio 'high' is not a number in -1\.\.139$" "$TMP/out"
printf 'x-1 [000] 1.0: sched_waking: comm=y pid=\033]0;evil\007 prio=1\n' >"$TMP/esc.txt"
expect_status 2 "$RTC" explain "$TMP/esc.txt"
expect_grep "esc\\.txt:1: pid '\\\\x1b\\]0;evil\\\\x07' is not a number" "$TMP/out"
expect_status 2 "$RTC" explain "$TMP/missing.txt"
expect_grep 'missing\.txt: No such file or directory' "$TMP/out"
mkfifo "$TMP/fifo"
expect_status 2 "$RTC" explain "$TMP/fifo"
expect_grep 'fifo: not a regular file' "$TMP/out"
expect_status 2 "$RTC" explain --frob "$EX/timer-wakeup.txt"
expect_grep "unknown option '--frob'" "$TMP/out"

# A real traced run as root: a 1 us max that any wake-up passes.
if [ "$(id -u)" -ne 0 ]; then
  skip "a real traced run is explained" "it arms a kernel trace and must run as root"
  finish
fi
req_file "$TMP/tw.xml" tw '' '  <requirement id="TW-EXPLAIN"><probe name="timer-wakeup"/>
    <sched policy="fifo" priority="80"/><run iterations="200" runs="1" warmup="10"/>
    <limit metric="wakeup" statistic="max" max="1us"/><trace/></requirement>'
expect_status 1 "$RTC" run -q -o "$TMP/run" "$TMP/tw.xml"
if [ ! -f "$TMP/run/trace-TW-EXPLAIN.txt" ]; then
  skip "a real traced run is explained" "no trace was saved: $(grep -o 'trace: [^"]*' "$TMP/run/summary.txt" | head -1)"
  finish
fi
# the run's reports carry the largest parts in the trace's note
expect_grep '"trace_note": "trace: tripped by wakeup .* in run 1 \(sample [0-9]+ of the run on CPU [0-9]+\): .*; explained: [0-9]+% ' "$TMP/run/results.json"
expect_grep 'TW-EXPLAIN trace: tripped by wakeup .*; explained: [0-9]+% ' "$TMP/run/summary.txt"
expect_status 0 "$RTC" explain "$TMP/run/trace-TW-EXPLAIN.txt"
expect_grep '^TW-EXPLAIN wakeup [0-9.]+ [mun]?s: [0-9]+% ' "$TMP/out"
expect_grep 'sum: adds up to the window' "$TMP/out"
if "$RTC" explain --json "$TMP/run/trace-TW-EXPLAIN.txt" >"$TMP/real.json" &&
   python3 - "$TMP/real.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
w = j["window"]["end_ns"] - j["window"]["start_ns"]
s = sum(x["ns"] for x in j["components"])
assert j["adds_up"] and s == j["sum_ns"] and abs(s - w) <= j["tolerance_ns"], (s, w)
assert w == j["value_ns"] and j["requirement"] == "TW-EXPLAIN", j
PY
then ok "a real trace's components add up to its window"; else
  fail "a real trace's components do not add up:"; head -60 "$TMP/real.json" | diag; fi
# results.json keeps the explanation (its `explain`, the object explain
# --json prints of the same trace), summary.txt says it in one line, and
# `rtconform report` renders all four reports again the same bytes.
if python3 - "$TMP/run/results.json" "$TMP/real.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["files"][0]["requirements"][0]
cli = json.load(open(sys.argv[2]))
e = r["explain"]
w = e["window"]["end_ns"] - e["window"]["start_ns"]
assert e["window"]["ns"] == w, e["window"]
kinds = {"irq", "softirq", "timer", "task", "idle", "wakeup", "probe", "unexplained", "idle-exit"}
assert e["components"] and all(c["kind"] in kinds for c in e["components"]), e
assert sum(c["ns"] for c in e["components"]) == e["sum_ns"] and e["adds_up"], e
assert abs(e["sum_ns"] - w) <= e["tolerance_ns"], e
assert all(abs(c["share"] - c["ns"] / w) < 1e-9 for c in e["components"]), e
assert e["complete"] == (e["lost_in_window"] == 0), e
# the run took the probe's CPU's steal time from /proc/stat (any kernel
# since 2.6.11 has the column): at most the span it was taken over
assert 0 <= e["steal"]["ns"] <= e["steal"]["span_ns"] and e["steal"]["span_ns"] > 0, e["steal"]
for k in ("headline", "requirement", "metric", "value_ns", "window", "sum_ns", "probe"):
    assert e[k] == cli[k], (k, e[k], cli[k])
assert [(c["kind"], c["ns"], c["label"]) for c in e["components"]] == \
    [(c["kind"], c["ns"], c["label"]) for c in cli["components"]]
PY
then ok "results.json keeps the trace's explanation, as explain --json gives it"; else
  fail "results.json's explain is missing or not explain --json's:"; grep -A30 '"explain"' "$TMP/run/results.json" | head -40 | diag; fi
expect_grep '^why: TW-EXPLAIN wakeup [0-9.]+ [mun]?s: [0-9]+% .*; steal: [0-9.]+ [mun]?s over the run.s traced span of [0-9.]+ [mun]?s \(CPU [0-9]+, /proc/stat\); the sample explained: wakeup in run 1 \(sample [0-9]+ of the run on CPU [0-9]+\): ' "$TMP/run/summary.txt"
mkdir -p "$TMP/again"
expect_status 0 "$RTC" report "$TMP/run/results.json" --junit "$TMP/again/junit.xml" \
  --summary "$TMP/again/summary.txt" --html "$TMP/again/report.html" --json "$TMP/again/results.json"
for f in junit.xml summary.txt report.html results.json; do
  if cmp -s "$TMP/run/$f" "$TMP/again/$f"; then ok "$f re-rendered from results.json with its explanation is the same"; else
    fail "$f re-rendered from results.json differs"; diff "$TMP/run/$f" "$TMP/again/$f" | head -6 | diag; fi
done
expect_grep '<div class="why"><h3>Why: ' "$TMP/run/report.html"
expect_grep 'top cause of the traced breach: [0-9]+% ' "$TMP/run/junit.xml"
finish
