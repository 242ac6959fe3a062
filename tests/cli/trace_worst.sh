# SPDX-License-Identifier: Apache-2.0
# --trace explains the worst breach, not the first (issue 37 item 6). The
# fault worker busy-waits on every 250th wake-up of timer-wakeup on one
# CPU, each delay 5 ms longer than the one before (RTC_SELFTEST_FAULTS
# delay=5ms,every=250,grow=5ms: 5, 10, 15, 20, 25 ms, 250 ms apart), so the
# first breach is the smallest: the trace saved must be the one of the
# largest sample, the metric's max, and every report must say which sample
# that is and that it is the max. A rising ramp past the budget of stops
# is counted, not traced, and the note says the max was not traced.
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  skip_all "this test arms kernel traces and runs the fault worker: it must run as root"
fi
grep -qw tracefs /proc/filesystems || { fail "this kernel has no tracefs"; finish; }
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
TRACING=/sys/kernel/tracing
mounted() { if mountpoint -q "$TRACING"; then echo yes; else echo no; fi; }
was="$(mounted)"

# worst N EVERY GROW DIR: the traced timer-wakeup run with growing delays
worst() {
  req_file "$TMP/$4.xml" worst '' "  <requirement id=\"WORST\"><probe name=\"timer-wakeup\">
      <param name=\"cpus\">0</param><param name=\"interval\">1ms</param>
      <param name=\"dma-latency\">off</param></probe>
    <sched policy=\"fifo\" priority=\"90\"/><run iterations=\"$1\" runs=\"1\" warmup=\"10\"/>
    <limit metric=\"wakeup\" statistic=\"max\" max=\"2ms\"/><trace/></requirement>"
  expect_status 1 env RTC_SELFTEST_FAULTS="delay=5ms,every=$2,grow=$3" "$RTC" run -o "$TMP/$4" "$TMP/$4.xml"
  cp "$TMP/out" "$TMP/$4.term"
}

# facts DIR: the explained sample (the marker's ns), the max (ns, rounded),
# the number of markers in the saved trace, and the note
facts() {
  python3 - "$1" <<'PY'
import json, re, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))["files"][0]["requirements"][0]
m = [x for x in r["metrics"] if x["name"] == "wakeup"][0]
text = open(d + "/trace-WORST.txt", errors="replace").read()
marks = re.findall(r"rtconform breach: requirement WORST metric wakeup value (\d+) ns", text)
print(marks[-1] if marks else 0, round(m["statistics_ns"]["max"]), len(marks))
print(r["trace_note"])
PY
}

# ---- 5 growing breaches, 250 ms apart: the last, the max, is explained ----
# A stall of the machine's own (another suite's real-time load) larger than
# them that comes while a save is pending is counted, not traced, and the
# note says so: that run is the machine's, and is made again (3 tries).
for try in 1 2 3; do
  rm -rf "$TMP/grow"
  worst 1250 250 5ms grow
  grep -q 'while the trace before it was being saved' "$TMP/grow/results.json" || break
  echo "# try $try: the max came while a save was pending: $(grep -o '"trace_note": "[^;]*;[^;]*' "$TMP/grow/results.json")"
done
if [ ! -s "$TMP/grow/trace-WORST.txt" ]; then
  fail "no trace was saved: $(grep -o '"trace_note": "[^"]*' "$TMP/grow/results.json")"
  finish
fi
facts "$TMP/grow" >"$TMP/grow.facts"
read -r value max marks <"$TMP/grow.facts"
note="$(sed -n 2p "$TMP/grow.facts")"
[ "$marks" -eq 1 ] && ok "the saved trace holds one breach marker" || fail "the saved trace holds $marks markers"
[ "$value" -eq "$max" ] && ok "the sample explained ($value ns) is the max" \
  || fail "the sample explained is $value ns, the max $max ns"; echo "# note: $note"
[ "$value" -ge 20000000 ] && ok "the sample explained is not the first breach (5 ms): $value ns" \
  || fail "the sample explained is $value ns: the first breaches are 5 and 10 ms"
case "$note" in
  *"in run 1 (sample "*" of the run on CPU 0): the max itself; the largest of "*" breaches the trace stopped at ("*" superseded, at most 8)"*)
    ok "the note says which sample and that it is the max, superseding earlier ones" ;;
  *) fail "the note: $note" ;;
esac
expect_grep '^why: WORST wakeup [0-9.]+ ms: .*; the sample explained: wakeup in run 1 \(sample [0-9]+ of the run on CPU 0\): the max itself' "$TMP/grow/summary.txt"
expect_grep 'The sample explained: wakeup in run 1 \(sample [0-9]+ of the run on CPU 0\): the max itself' "$TMP/grow/report.html"
expect_grep '"trace_note": "trace: tripped by wakeup [0-9.]+ ms > 2 ms in run 1 \(sample [0-9]+ of the run on CPU 0\): the max itself' "$TMP/grow/results.json"
# and the terminal: run's own output
expect_grep '^why: WORST .*; the sample explained: wakeup in run 1 .*: the max itself' "$TMP/grow.term"
[ "$(mounted)" = "$was" ] && ok "tracefs left as found (mounted: $was)" || fail "tracefs was mounted: $was, now $(mounted)"

# ---- 30 growing breaches 100 ms apart: past the budget of 8 stops ---------
# At most 8 stops; whatever was stopped at last is what the note ranks,
# consistently with the figures: the max itself only when it is the max,
# else its rank and the max not traced (the budget spent, or a save
# pending). tests/test_trace.c checks the budget exactly.
worst 3000 100 1ms ramp
if [ -s "$TMP/ramp/trace-WORST.txt" ]; then
  facts "$TMP/ramp" >"$TMP/ramp.facts"
  read -r value max marks <"$TMP/ramp.facts"
  note="$(sed -n 2p "$TMP/ramp.facts")"
  echo "# note: $note"
  stops="$(sed -nE 's/.*the largest of ([0-9]+) breaches the trace stopped at.*/\1/p' <<<"$note")"
  [ "${stops:-1}" -le 8 ] && ok "the trace stopped at ${stops:-1} of the 30 breaches, at most 8" \
    || fail "the trace stopped at $stops breaches, more than the budget of 8"
  case "$note" in
    *": the max itself"*) [ "$value" -eq "$max" ] && ok "the max itself is the max ($max ns)" \
                            || fail "'the max itself' is $value ns, the max $max ns" ;;
    *": the "*" largest breach; the max "*" came "*", not traced"*)
      [ "$value" -lt "$max" ] && ok "ranked below the max: $value ns, the max $max ns, not traced" \
        || fail "ranked below the max, but $value ns is the max $max ns" ;;
    *) fail "the note: $note" ;;
  esac
  [ "${stops:-1}" -lt 8 ] || grep -q 'after the trace budget (8 stops) was spent' <<<"$note" \
    || [ "$value" -eq "$max" ] && ok "past the budget a larger sample is said to have come after it" \
    || fail "8 stops, a larger sample, but the note does not say the budget was spent: $note"
else
  fail "no trace was saved: $(grep -o '"trace_note": "[^"]*' "$TMP/ramp/results.json")"
fi
finish
