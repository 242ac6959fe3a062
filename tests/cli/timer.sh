# SPDX-License-Identifier: Apache-2.0
# The timer-wakeup probe with tiny counts: sane figures, one series per CPU,
# cpu_dma_latency held while measuring (skipped where the kernel has no
# /dev/cpu_dma_latency), parameters checked. Behaviour only:
# no absolute latency is asserted beyond "below a second".
. "$(dirname "$0")/lib.sh"

NCPU="$(nproc)" # the CPUs this process (and so rtconform) may use

# le A B : A <= B as numbers
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
# num X : X is a number
num() { [[ "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]]; }

# ---- ad-hoc probe
expect_status 0 "$RTC" probe timer-wakeup --policy fifo --priority 90 --iterations 50 --warmup 5
expect_grep "^  n +$((50 * NCPU))\$" "$TMP/out"
expect_grep '^note: missed periods: [0-9]+ \(cpu[0-9]+ [0-9]+' "$TMP/out"
expect_grep 'interval 1 ms; cpu_dma_latency held at 0' "$TMP/out"
expect_grep '^metric wakeup per CPU:' "$TMP/out"
[ "$(grep -Ec '^  cpu[0-9]+ +n 50 ' "$TMP/out")" = "$NCPU" ] && ok "probe: $NCPU per-CPU lines with n 50" \
  || fail "probe: expected $NCPU per-CPU lines with n 50"

# ---- a run: counts, order of the statistics, per-CPU properties
req_file "$TMP/t.xml" timer-test <<XML
  <requirement id="TW-FIFO"><probe name="timer-wakeup"/><sched policy="fifo" priority="90"/>
    <run iterations="200" runs="2" warmup="10"/>
    <limit statistic="max" max="1s"/></requirement>
  <requirement id="TW-OTHER"><probe name="timer-wakeup">
      <param name="cpus">0</param><param name="interval">5ms</param>
      <param name="dma-latency">off</param></probe>
    <run iterations="20" runs="1" warmup="0"/>
    <limit statistic="max" max="1s"/></requirement>
XML
expect_status 0 "$RTC" run -o "$TMP/run" "$TMP/t.xml"
J="$TMP/run/junit.xml"
validate_junit "$J" --tests 2 --failures 0 --errors 0 --skipped 0 \
  --property TW-FIFO.wakeup.count --property TW-OTHER.wakeup.count=20
[ "$(prop TW-FIFO.wakeup.count "$J")" = "$((400 * NCPU))" ] && ok "TW-FIFO: count $((400 * NCPU))" \
  || fail "TW-FIFO: count $(prop TW-FIFO.wakeup.count "$J"), expected $((400 * NCPU))"
min="$(prop TW-FIFO.wakeup.min_ns "$J")"; mean="$(prop TW-FIFO.wakeup.mean_ns "$J")"
max="$(prop TW-FIFO.wakeup.max_ns "$J")"
if num "$min" && num "$mean" && num "$max" && le 1 "$min" && le "$min" "$mean" && le "$mean" "$max" \
   && le "$max" 1000000000; then ok "TW-FIFO: min, mean and max are sane"; else fail "TW-FIFO: min $min mean $mean max $max not sane"; fi
# The per-CPU series are in results.json (junit.xml keeps the key statistics).
series="$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    for r in f["requirements"]:
        if r["id"] == "TW-FIFO":
            for s in r["per_cpu"]:
                print(s["cpu"], s["count"], s["max_ns"])
' "$(dirname "$J")/results.json")"
[ "$(echo "$series" | grep -c .)" = "$NCPU" ] && ok "TW-FIFO: $NCPU per-CPU series" || fail "TW-FIFO: expected $NCPU per-CPU series: $series"
while read -r cpu count cmax; do
  [ "$count" = 400 ] && ok "cpu$cpu: count 400" || fail "cpu$cpu: count $count, not 400"
  # junit.xml's max is rounded to 0.001
  le "$cmax" "$(awk -v m="$max" 'BEGIN { printf "%.3f", m + 0.001 }')" && ok "cpu$cpu: max within the merged max" || fail "cpu$cpu: max $cmax above merged max $max"
done <<<"$series"
expect_no_grep 'name="TW-FIFO.wakeup.cpu' "$J"
# Missed periods are in the note, where reports show them.
expect_fact 'TW-FIFO.note' '^missed periods: [0-9]+' "$J"
# cpus=0 only, under SCHED_OTHER, dma-latency off
[ "$(prop TW-OTHER.wakeup.count "$J")" = 20 ] && ok "TW-OTHER: count 20" || fail "TW-OTHER: count not 20"
python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    for r in f["requirements"]:
        if r["id"] == "TW-OTHER":
            print(" ".join("%d:%d" % (s["cpu"], s["count"]) for s in r["per_cpu"]))
' "$(dirname "$J")/results.json" >"$TMP/tw-other"
[ "$(cat "$TMP/tw-other")" = "0:20" ] && ok "TW-OTHER: one per-CPU series, cpu0 with 20" || fail "TW-OTHER: per-CPU series '$(cat "$TMP/tw-other")', expected cpu0 only with 20"
expect_grep 'interval 5 ms; cpu_dma_latency left alone' "$J"
# 20 periods of 5 ms cannot take less than 100 ms
t="$(xmllint --xpath "string(//testcase[starts-with(@name,'TW-OTHER')]/@time)" "$J")"
le 0.1 "$t" && ok "TW-OTHER takes at least 20 x 5 ms" || fail "TW-OTHER took $t s, less than 20 x 5 ms"
# No batch figure: run time / N of a periodic probe is only its period.
expect_no_grep 'TW-FIFO.batch.runs_mean_ns' "$J"
# ... so runs.csv has no batch lines, only the runs' figures
expect_status 0 "$RTC" report "$TMP/run/results.json" --csv "$TMP/csv"
expect_no_grep ',batch,' "$TMP/csv/runs.csv"
expect_grep '^timer-test,TW-FIFO,wakeup,duration,2,' "$TMP/csv/runs.csv"

# ---- /dev/cpu_dma_latency is 0 while a measurement holds it
if [ -r /dev/cpu_dma_latency ]; then
  "$RTC" probe timer-wakeup --policy fifo --iterations 1500 --param cpus=0 >"$TMP/dma" 2>&1 &
  pid=$!
  # the probe holds the request from before it starts its timer thread
  if wait_for "the timer probe's thread to measure" "$START_WAIT" worker_measuring "$pid"; then
    v="$(od -An -t d4 /dev/cpu_dma_latency | tr -d ' ')"
    [ "$v" = 0 ] && ok "cpu_dma_latency is 0 during the measurement" || fail "cpu_dma_latency is '$v' during the measurement, expected 0"
  fi
  wait "$pid" && ok "the dma-latency probe succeeds" || fail "dma-latency probe failed: $(cat "$TMP/dma")"
elif [ ! -e /dev/cpu_dma_latency ]; then
  skip "cpu_dma_latency is 0 during the measurement" "the kernel has no /dev/cpu_dma_latency (CONFIG_PM)"
else
  fail "/dev/cpu_dma_latency is readable (it is there, but not to this test: it needs root)"
fi

# ---- parameters are checked before anything runs
bad() { # bad PARAM VALUE PATTERN
  req_file "$TMP/bad.xml" bad <<XML
  <requirement id="B"><probe name="timer-wakeup"><param name="$1">$2</param></probe>
    <limit statistic="max" max="1s"/></requirement>
XML
  expect_status 2 "$RTC" validate "$TMP/bad.xml"
  expect_grep "bad.xml:[0-9]+: .*$3" "$TMP/out"
}
bad interval 1us 'interval 1us is outside 10us \.\. 10s'
bad interval 11s 'outside 10us'
bad cpus 'zero' 'not a CPU list'
bad dma-latency maybe "has no value 'maybe' \(expected on or off\)"
# Periods that cannot fit in the timeout: said at once, not found by the watchdog.
expect_status 3 "$RTC" probe timer-wakeup --iterations 3000 --timeout 2s
expect_grep 'x interval = 3.1 s, not less than the timeout of 2 s: raise <run timeout>' "$TMP/out"
# A CPU that is not there: an error verdict that names it.
expect_status 3 "$RTC" probe timer-wakeup --param cpus=1000 --iterations 5
expect_grep 'CPU 1000 is not online or not allowed' "$TMP/out"

expect_no_leftovers "after the timer runs"
finish
