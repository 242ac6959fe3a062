# SPDX-License-Identifier: Apache-2.0
# Early wake-ups are reported as what they are: a clock whose absolute
# sleeps end RTC_FAKE_EARLY_US before their target (tests/fake/fake_clock.c,
# preloaded into rtconform and so into the worker it execs) must give a
# negative minimum in every report, an `early` count of the early wake-ups
# and a FAIL of `early total <= 0`, never a 0 ns wake-up and a PASS.
# Behaviour only: the minimum is asserted by its sign and a wide bound.
# The same library also steps the realtime clock back, for the count of
# timer-semantics figures taken while the clock went back (at the end).
. "$(dirname "$0")/lib.sh"

FAKE="${RTC_FAKE_CLOCK:-$(dirname "$RTC")/tests/fake_clock.so}"
[ -f "$FAKE" ] && ok "the fake clock library is built" || fail "no fake clock library at $FAKE"
NCPU="$(nproc)"
EARLY_US=2000
ITER=20 RUNS=2
N=$((ITER * RUNS * NCPU))

req_file "$TMP/t.xml" timer-early <<XML
  <requirement id="TW-EARLY"><probe name="timer-wakeup">
      <param name="interval">10ms</param><param name="dma-latency">off</param></probe>
    <sched policy="fifo" priority="90"/>
    <run iterations="$ITER" runs="$RUNS" warmup="2"/>
    <limit metric="wakeup" statistic="max" max="1s"/>
    <limit metric="early" statistic="total" max="0"/></requirement>
XML
LD_PRELOAD="$(preload "$FAKE")" RTC_FAKE_EARLY_US=$EARLY_US expect_status 1 "$RTC" run -o "$TMP/run" "$TMP/t.xml"
R="$TMP/run"

# results.json: the count, the early count, the signed minimum
read -r count early min mean verdict < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["files"][0]["requirements"][0]
m = {x["name"]: x for x in r["metrics"]}
w = m["wakeup"]
lim = [l for l in r["limits"] if l["metric"] == "early"][0]
print(w["count"], m["early"]["statistics"]["total"], w["statistics_ns"]["min"],
      w["statistics_ns"]["mean"], lim["verdict"])
' "$R/results.json")
[ "$count" = "$N" ] && ok "wakeup count is $N" || fail "wakeup count $count, expected $N"
[ "$verdict" = fail ] && ok "early total <= 0: verdict fail" || fail "early total <= 0: verdict $verdict, expected fail"
[ "$early" -gt 0 ] && [ "$early" -le "$N" ] && ok "early count in 1..$N" || fail "early $early not in 1..$N"
# Woken EARLY_US before the target plus a latency >= 0: the minimum lies in
# [-EARLY_US, 0); below -EARLY_US/2 unless every wake-up was a ms late.
awk -v m="$min" -v e="$EARLY_US" 'BEGIN { exit !(m < -e * 500 && m >= -e * 1000 - 1000) }' \
  && ok "min about -$EARLY_US us" || fail "min $min ns not about -$EARLY_US us"
# The negative buckets are there and hold the early wake-ups.
neg="$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["files"][0]["requirements"][0]
w = [x for x in r["metrics"] if x["name"] == "wakeup"][0]
n = w["histogram"]["negative"]
print(sum(b[2] for b in n["buckets"]) + n["overflow"])
' "$R/results.json")"
[ "$neg" = "$early" ] && ok "the negative buckets hold the early samples" || fail "negative buckets hold $neg samples, early count is $early"
# the judge's sentence counts every sample, those below zero too
expect_grep "\"text\": \"max [^\"]* \\(n=$N\\)\"" "$R/results.json"

# every report shows the negative minimum
expect_grep "min +-[0-9]" "$R/summary.txt"
expect_fact TW-EARLY.wakeup ' min_ns=-[0-9]' "$R/junit.xml"
expect_grep "class=\"num\">-[0-9.]+ ms<" "$R/report.html"
expect_grep "below zero \(early\)" "$R/report.html"
expect_grep "early" "$R/summary.txt"

# rtconform report re-renders the same from results.json
expect_status 0 "$RTC" report "$R/results.json" --summary "$TMP/again.txt" \
  --html "$TMP/again.html" --junit "$TMP/again.xml" --json "$TMP/again.json"
cmp -s "$R/summary.txt" "$TMP/again.txt" && ok "summary.txt is the same when re-rendered" || fail "summary.txt differs when re-rendered"
cmp -s "$R/report.html" "$TMP/again.html" && ok "report.html is the same when re-rendered" || fail "report.html differs when re-rendered"
cmp -s "$R/results.json" "$TMP/again.json" && ok "results.json is the same when re-rendered" || fail "results.json differs when re-rendered"

# CSV: the negative buckets as negative bounds
expect_status 0 "$RTC" report "$R/results.json" --csv "$TMP/csv"
csvf="$(grep -l '^lo_ns' "$TMP/csv"/*.csv | grep -v 'cpu' | head -1)"
expect_grep '^-[0-9]' "${csvf:-$TMP/csv/none}"

# A realtime clock stepped back 1 ms after each absolute sleep whose time
# had passed (RTC_FAKE_BACK_US): timer-semantics cannot give those
# past-deadline figures a span, records them as 0 and must say how many in
# its note, one per recorded figure (the warm-up's are not counted).
req_file "$TMP/back.xml" clock-back <<XML
  <requirement id="BACK"><probe name="timer-semantics">
      <param name="kind">nanosleep</param><param name="clock">realtime</param></probe>
    <sched policy="fifo" priority="50"/>
    <run iterations="$ITER" runs="$RUNS" warmup="3"/>
    <limit metric="past-deadline" statistic="max" max="1s"/></requirement>
XML
LD_PRELOAD="$(preload "$FAKE")" RTC_FAKE_BACK_US=1000 "$RTC" run -o "$TMP/back" "$TMP/back.xml" \
  >"$TMP/out" 2>&1
expect_fact BACK.note " $((ITER * RUNS)) past-deadline figures recorded as 0: the clock went back while they were taken\." "$TMP/back/junit.xml"
for f in results.json report.html; do
  expect_grep "$((ITER * RUNS)) past-deadline figures recorded as 0" "$TMP/back/$f"
done
# Without the step, none is.
"$RTC" run -o "$TMP/noback" "$TMP/back.xml" >"$TMP/out" 2>&1
expect_no_grep 'past-deadline figures recorded as 0' "$TMP/noback/junit.xml"

finish
