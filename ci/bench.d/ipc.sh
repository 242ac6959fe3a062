#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One-way wake-up latency: rtconform's sem-pingpong `wakeup` beside rt-tests'
# ptsematest (pthread mutex between threads) and svsematest -f (SysV
# semaphores between processes), SCHED_FIFO priority 90, on one CPU and
# across two, in this one run. Prints min / avg / max of each and the ratio
# of the averages (ours / theirs). Never fails on a speed target; it fails
# only when a tool is missing or a measurement could not be taken.
#
# What each interval holds (docs/probes.md, section sem-pingpong):
#   ours      clock read and store, post ... waiter's return, clock read;
#             cycles back to back;
#   rt-tests  gettimeofday, unlock / semop ... waiter's return, gettimeofday
#             (whole microseconds); the receiver sleeps -i between cycles.
#
# Environment: RTC, RTC_TOP, BENCH_TMP (set by ci/bench);
#   IPC_BENCH_LOOPS        cycles per row, default 20000;
#   IPC_BENCH_ROUNDS       rows measured in this many interleaved rounds, default 3;
#   IPC_BENCH_INTERVAL_US  rt-tests' -i, default 100 (the shortest that keeps
#                          them near back to back; svsematest misreads -i 0).
set -euo pipefail
. "$(dirname "$0")/junit-prop.bash"
: "${RTC:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
loops="${IPC_BENCH_LOOPS:-20000}"
rounds="${IPC_BENCH_ROUNDS:-3}"
interval="${IPC_BENCH_INTERVAL_US:-100}"
per_round=$(( (loops + rounds - 1) / rounds ))
prio=90
out="$BENCH_TMP/ipc"
mkdir -p "$out"

for t in ptsematest svsematest taskset pgrep xmllint; do
  command -v "$t" >/dev/null ||
    { echo "ipc bench: '$t' is missing (ci/deps installs rt-tests, util-linux, procps, libxml2-utils)"; exit 1; }
done
if [ "$(id -u)" -ne 0 ]; then
  echo "ipc bench: needs root (SCHED_FIFO priority $prio and mlockall, for both tools)"; exit 1
fi
# The two CPUs: the first two this shell may use; both tools get the same.
read -r cpu0 cpu1 < <(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
  awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | head -2 |
  tr '\n' ' '; echo)
placements="same-cpu cross-cpu"
if [ -z "${cpu1:-}" ]; then placements="same-cpu"; echo "ipc bench: one CPU allowed: no cross-cpu rows"; fi

# Rows: our requirement id prefix, what it is, rt-tests tool.
rows=("MC mutex-cond/thread ptsematest" "FX futex/thread ptsematest" "SV sysv-sem/process svsematest")

# ---- rtconform: one requirement per row and placement ---------------------
{
  echo '<requirements xmlns="urn:rtconform:requirements:1" name="bench-ipc" version="1">'
  echo "  <defaults iterations=\"$per_round\" runs=\"1\" warmup=\"1000\" timeout=\"300s\"/>"
  for pl in $placements; do
    for row in "MC mutex-cond thread" "FX futex thread" "SV sysv-sem process"; do
      set -- $row
      cat <<XML
  <requirement id="$1-$pl"><probe name="sem-pingpong">
      <param name="mechanism">$2</param><param name="peer">$3</param><param name="placement">$pl</param>
    </probe><sched policy="fifo" priority="$prio" cpu="$cpu0"/>
    <limit metric="wakeup" statistic="max" max="60s"/></requirement>
XML
    done
  done
  echo '</requirements>'
} >"$out/bench.xml"

# ROUND: measure every row; leave "min avg max" (us) in $out/ours-ID.ROUND
ours_round() {
  local r="$1" id st v line
  "$RTC" run -o "$out/rtc$r" "$out/bench.xml" >"$out/rtc$r.log" 2>&1 ||
    { echo "ipc bench: rtconform run failed:"; sed 's/^/    /' "$out/rtc$r.log"; exit 1; }
  for pl in $placements; do
    for id in MC SV FX; do
      line=""
      for st in min mean max; do
        v="$(junit_prop "$out/rtc$r/junit.xml" "$id-$pl.wakeup.${st}_ns")"
        [ -n "$v" ] || { echo "ipc bench: no $id-$pl wakeup $st in junit.xml"; exit 1; }
        line="$line $(awk -v x="$v" 'BEGIN { printf "%.3f", x / 1000 }')"
      done
      echo "$line" >"$out/ours-$id-$pl.$r"
    done
  done
}

# ---- rt-tests -------------------------------------------------------------
# Neither tool can put the two tasks of a pair on two CPUs (-a pins both to
# one), so for cross-cpu both start on cpu0, unpinned by the tool, and the
# sender is moved to cpu1 as soon as it exists: the few cycles before that
# (milliseconds of a run of seconds) were measured on one CPU.
json_field() { sed -n "s/.*\"$2\": *\([0-9.]*\).*/\1/p" "$1" | tail -1; }
# TOOL PLACEMENT ROUND: leave "min avg max" (us) of the receiver in $out/TOOL-PL.ROUND
theirs_round() {
  local tool="$1" pl="$2" r="$3" json="$out/$1-$2.$3.json" pid s=""
  local fork=""
  [ "$tool" = svsematest ] && fork="-f"
  if [ "$pl" = same-cpu ]; then
    "$tool" $fork -a "$cpu0" -p "$prio" -i "$interval" -l "$per_round" -q --json="$json" >/dev/null
  else
    taskset -c "$cpu0" "$tool" $fork -p "$prio" -i "$interval" -l "$per_round" -q \
      --json="$json" >/dev/null &
    pid=$!
    for _ in $(seq 400); do
      if [ "$tool" = ptsematest ]; then
        # threads: main, receiver, sender (created last)
        [ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 3 ] &&
          s="$(ls "/proc/$pid/task" | sort -n | tail -1)"
      else
        s="$(pgrep -P "$pid" -f -- '-fs0' || true)" # the forked sender
      fi
      [ -n "$s" ] && break
      sleep 0.005
    done
    [ -n "$s" ] || { echo "ipc bench: $tool's sender never appeared"; kill "$pid"; exit 1; }
    taskset -pc "$cpu1" "$s" >/dev/null
    wait "$pid"
  fi
  echo "$(json_field "$json" min) $(json_field "$json" avg) $(json_field "$json" max)" \
    >"$out/$tool-$pl.$r"
}

# Rounds interleave the tools so that a drift of the machine falls on both
# alike (a neighbour busy on the other CPU makes cross-CPU wake-ups faster:
# no idle CPU to wake).
for r in $(seq "$rounds"); do
  ours_round "$r"
  for pl in $placements; do
    theirs_round ptsematest "$pl" "$r"
    theirs_round svsematest "$pl" "$r"
  done
done

# "min avg max" over the rounds of PREFIX.*: equal counts per round, so the
# average is the mean of the round averages.
agg() {
  local f
  for f in $(seq "$rounds"); do cat "$1.$f"; done |
    awk 'NR == 1 || $1 < mn { mn = $1 } { s += $2; n++ } NR == 1 || $3 > mx { mx = $3 }
         END { if (n && s > 0) printf "%.2f %.2f %.1f", mn, s / n, mx }'
}

printf '%-18s %-9s | %-25s | %-10s %-23s | %s\n' "rtconform" "placement" \
  "ours wakeup min/avg/max" "rt-tests" "min/avg/max" "avg ratio"
for pl in $placements; do
  for row in "${rows[@]}"; do
    set -- $row
    read -r omin oavg omax <<<"$(agg "$out/ours-$1-$pl")"
    read -r tmin tavg tmax <<<"$(agg "$out/$3-$pl")"
    if [ -z "${oavg:-}" ] || [ -z "${tavg:-}" ]; then echo "ipc bench: no figure for $2 $pl"; exit 1; fi
    printf '%-18s %-9s | %6s %7s %8s us | %-10s %4s %7s %7s us | %.2f\n' "$2" "$pl" \
      "$omin" "$oavg" "$omax" "$3" "$tmin" "$tavg" "$tmax" \
      "$(awk -v a="$oavg" -v b="$tavg" 'BEGIN { print a / b }')"
  done
done
echo "(SCHED_FIFO $prio on CPU $cpu0${cpu1:+ and $cpu1}; $rounds interleaved rounds of $per_round cycles"
echo " per row; rt-tests -i $interval us; ratio = our avg / rt-tests avg, target within 1.1x;"
echo " futex/thread is the closest to ptsematest's mutex hand-off, shown for reference)"
