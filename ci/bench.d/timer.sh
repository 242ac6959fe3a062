#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# timer-wakeup beside cyclictest (rt-tests), in the same run: one thread on
# the same CPU, SCHED_FIFO at the same priority, the same 1 ms interval and
# the same number of wake-ups, both with memory locked and
# /dev/cpu_dma_latency held at 0 (cyclictest does that by default, so does
# the probe), both skipping periods a late wake-up has already missed.
# Prints min / avg / max (and the median) of each in us, and the ratio of
# the averages, rtconform / cyclictest (target: within 1.10). The average
# takes every outlier at full weight, so on a shared VM it moves from run to
# run by more than 10 %; the ratio of the medians is printed beside it as
# the figure that noise hardly moves. With several pairs, the order
# alternates so that drift does not favour one side.
# Never fails on a speed target.
# Env: RTC (built rtconform), BENCH_TMP (scratch dir); optional
# BENCH_TIMER_LOOPS (default 10000), BENCH_TIMER_CPU (default 0),
# BENCH_TIMER_PAIRS (rtconform/cyclictest pairs, default 1).
set -euo pipefail
: "${RTC:?}" "${BENCH_TMP:?}"
N="${BENCH_TIMER_LOOPS:-10000}"
CPU="${BENCH_TIMER_CPU:-0}"
PAIRS="${BENCH_TIMER_PAIRS:-1}"
PRIO=90
command -v cyclictest >/dev/null \
  || { echo "timer bench: cyclictest is not installed (apt-get install rt-tests)"; exit 1; }

# Long enough for N periods twice over, plus start-up.
timeout_s=$((N * 2 / 1000 + 60))
cat >"$BENCH_TMP/timer.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="bench-timer" version="1">
  <requirement id="TW">
    <probe name="timer-wakeup">
      <param name="cpus">$CPU</param>
      <param name="interval">1ms</param>
      <param name="dma-latency">on</param>
    </probe>
    <sched policy="fifo" priority="$PRIO"/>
    <run iterations="$N" runs="1" warmup="0" timeout="${timeout_s}s"/>
  </requirement>
</requirements>
XML

. "$(dirname "$0")/junit-prop.bash"
prop() { junit_prop "$2" "$1"; }

# Sets r_min r_avg r_med r_max (ns) and r_note.
run_rtconform() {
  local out="$BENCH_TMP/timer-$1"
  "$RTC" run -o "$out" "$BENCH_TMP/timer.xml" >"$out.log" 2>&1 \
    || { echo "timer bench: rtconform failed:"; cat "$out.log"; exit 1; }
  r_min="$(prop TW.wakeup.min_ns "$out/junit.xml")"
  r_avg="$(prop TW.wakeup.mean_ns "$out/junit.xml")"
  r_med="$(prop TW.wakeup.p50_ns "$out/junit.xml")"
  r_max="$(prop TW.wakeup.max_ns "$out/junit.xml")"
  r_note="$(prop TW.note "$out/junit.xml")"
}

# Sets c_min c_avg c_med c_max (us). With -h cyclictest prints a 1 us
# histogram ("000012 000345") and "# Min Latencies: 00008"-style totals.
run_cyclictest() {
  local log="$BENCH_TMP/cyclictest-$1.log"
  cyclictest -m -p "$PRIO" -i 1000 -l "$N" -a "$CPU" -t 1 -q -h 20000 >"$log" 2>&1 \
    || { echo "timer bench: cyclictest failed:"; cat "$log"; exit 1; }
  read -r c_min c_avg c_med c_max < <(awk '
    /^# Min Latencies:/ { mi = $4 + 0 }
    /^# Avg Latencies:/ { av = $4 + 0 }
    /^# Max Latencies:/ { ma = $4 + 0 }
    /^# Total:/ { total = $3 + 0 }
    /^[0-9]+[ \t]+[0-9]+$/ { b[$1 + 0] = $2 + 0; if ($1 + 0 > top) top = $1 + 0 }
    END {
      # Median from the histogram; samples past its end are overflows.
      cum = 0; med = -1
      for (i = 0; i <= top; i++) { cum += b[i]; if (med < 0 && cum * 2 >= total) med = i }
      if (med < 0) med = ma
      print mi, av, med, ma }' "$log")
  [ -n "${c_max:-}" ] || { echo "timer bench: cannot read cyclictest's output:"; head -20 "$log"; exit 1; }
}

printf '%-44s %9s %9s %9s %9s\n' "one thread on CPU $CPU, fifo $PRIO, 1 ms x $N" \
  "min us" "avg us" "median" "max us"
for pair in $(seq 1 "$PAIRS"); do
  if [ $((pair % 2)) = 1 ]; then
    run_rtconform "$pair"; run_cyclictest "$pair"; order="rtconform first"
  else
    run_cyclictest "$pair"; run_rtconform "$pair"; order="cyclictest first"
  fi
  awk -v rmin="$r_min" -v ravg="$r_avg" -v rmed="$r_med" -v rmax="$r_max" -v cmin="$c_min" \
      -v cavg="$c_avg" -v cmed="$c_med" -v cmax="$c_max" -v head="pair $pair ($order)" 'BEGIN {
    print head
    printf "  %-42s %9.1f %9.1f %9.1f %9.1f\n", "rtconform timer-wakeup", rmin/1000, ravg/1000, rmed/1000, rmax/1000
    printf "  %-42s %9d %9d %9d %9d\n", "cyclictest -m -p 90 -i 1000 -a CPU -t 1", cmin, cavg, cmed, cmax
    if (cavg > 0) printf "  %-42s %9s %9.2f x\n", "ratio of averages (rtconform / cyclictest)", "", (ravg/1000)/cavg
    if (cmed > 0) printf "  %-42s %9s %9s %9.2f x\n", "ratio of medians", "", "", (rmed/1000)/cmed
  }'
  [ -z "$r_note" ] || echo "  rtconform: $r_note"
done
echo "(target: ratio of averages within 1.10; cyclictest reports whole microseconds)"
