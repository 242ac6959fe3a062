# SPDX-License-Identifier: Apache-2.0
# The timer-semantics probe: every kind on every clock keeps POSIX's timer
# rules on this machine (no early wake-up, overruns counted right, the
# busy stretches made and their periods missed); judge=coarse must
# violate; what cannot run is refused with the reason. Behaviour only: no
# latency is asserted (past-deadline is shown, not tested).
. "$(dirname "$0")/lib.sh"


# ---- what the catalogue refuses (exit 2, the reason) ---------------------
refused_params timer-semantics short '<param name="interval">5us</param>' 'interval 5us is outside 10us .. 1s'
refused_params timer-semantics many '<param name="busy-periods">17</param>' 'busy-periods 17 is outside 1 .. 16'
refused_params timer-semantics busy '<param name="busy-every">6</param>' 'busy-every 6 must be more than 2 x \(busy-periods \+ 1\) = 6'
refused_params timer-semantics spin '<param name="interval">30ms</param>' 'a busy stretch of \(busy-periods \+ 1.5\) x interval = \(2 \+ 1.5\) x 30ms is over 50ms'
refused_params timer-semantics boot '<param name="clock">boottime</param><param name="judge">coarse</param>' 'judge coarse: the boottime clock has no coarse variant'
refused_params timer-semantics kind '<param name="kind">select</param>' "parameter kind has no value 'select'"

# ---- what cannot be measured (exit 3, the reason) ------------------------
expect_status 3 "$RTC" probe timer-semantics --iterations 2000 --runs 2 --timeout 2s
expect_grep 'periods with their busy stretches take about [0-9.]+ s, not less than the timeout of 2 s' "$TMP/out"

if [ "$(id -u)" -ne 0 ]; then
  skip_all "timer-semantics' requirements run under SCHED_FIFO: this test must run as root"
fi

# ---- every kind on every clock keeps the rules ---------------------------
ITER=200 RUNS=2
DEFAULTS="iterations=\"$ITER\" runs=\"$RUNS\" warmup=\"5\" timeout=\"60s\""
for k in nanosleep timer-signal timerfd; do
  for c in monotonic realtime boottime; do
    requirement "$k-$c" "$(probe timer-semantics kind="$k" clock="$c")" '<sched policy="fifo" priority="80"/>' \
      '<limit metric="early" statistic="total" max="0"/>' '<limit metric="overrun-errors" statistic="total" max="0"/>'
  done
done | req_file "$TMP/n.xml" timer-semantics "$DEFAULTS"
expect_status 0 "$RTC" run -o "$TMP/n" "$TMP/n.xml"
J="$TMP/n/junit.xml"
validate_junit "$J" --tests 9 --failures 0 --errors 0 --skipped 0 \
  --property nanosleep-monotonic.early.kind=count \
  --property timerfd-boottime.overrun-errors.kind=count \
  --property timer-signal-realtime.past-deadline.kind=duration
# each run: a busy stretch after every 10th wake-up but the last
busy=$(( (ITER - 1) / 10 * RUNS ))
for k in nanosleep timer-signal timerfd; do
  for c in monotonic realtime boottime; do
    id="$k-$c"
    for m in early overrun-errors; do
      [ "$(prop "$id.$m.total" "$J")" = 0 ] && ok "$id.$m.total is 0" || fail "$id.$m.total is '$(prop "$id.$m.total" "$J")'"
    done
    [ "$(prop "$id.past-deadline.count" "$J")" = $((ITER * RUNS)) ] && ok "$id.past-deadline.count is $((ITER * RUNS))" \
      || fail "$id.past-deadline.count is '$(prop "$id.past-deadline.count" "$J")'"
    [ "$(prop "$id.resolution.count" "$J")" = "$RUNS" ] && ok "$id.resolution.count is $RUNS" \
      || fail "$id.resolution.count is '$(prop "$id.resolution.count" "$J")'"
    note="$(prop "$id.note" "$J")"
    re="^$c clock \\(resolution [0-9.]+ [nmu]?s\\), $k, interval 1 ms, judged on the armed clock: $((ITER * RUNS)) wake-ups, 0 early, 0 overrun errors; ([0-9]+) periods missed, $busy busy stretches of 2 overruns each\\. checked at the kernel before measuring: 1 task. policy, priority and CPUs\\.\$"
    if [[ "$note" =~ $re ]] && [ "${BASH_REMATCH[1]}" -ge $((busy * 2)) ]; then ok "$id.note says what was measured and missed"
    else fail "$id.note says what was measured and missed (it is '$note')"; fi
    # the count metric missed is the note's periods missed
    [ "$(prop "$id.missed.total" "$J")" = "${BASH_REMATCH[1]:-none}" ] && ok "$id.missed.total is the note's periods missed" \
      || fail "$id.missed.total is '$(prop "$id.missed.total" "$J")', the note says '${BASH_REMATCH[1]:-}'"
    echo "    $id: ${BASH_REMATCH[1]:-?} periods missed ($((busy * 2)) on purpose), past-deadline max $(prop "$id.past-deadline.max_ns" "$J") ns"
  done
done

# ---- judge=coarse must violate -------------------------------------------
for k in nanosleep timer-signal timerfd; do
  requirement "$k" "$(probe timer-semantics kind="$k" judge=coarse)" '<sched policy="fifo" priority="80"/>' \
    '<limit metric="early" statistic="total" max="0"/>'
done | req_file "$TMP/c.xml" timer-semantics-coarse "$DEFAULTS"
expect_status 1 "$RTC" run -o "$TMP/c" "$TMP/c.xml"
J="$TMP/c/junit.xml"
validate_junit "$J" --tests 3 --failures 3 --errors 0 --skipped 0
for k in nanosleep timer-signal timerfd; do
  v="$(prop "$k.early.total" "$J")"
  [[ "$v" =~ ^[1-9][0-9]*$ ]] && ok "$k (judge=coarse): early.total is above 0" || fail "$k (judge=coarse): early.total is '$v'"
  expect_fact "$k.note" "^monotonic clock [^\"]*judged on the coarse clock" "$J"
  echo "    $k judged on the coarse clock: $v early of $((ITER * RUNS)), overrun-errors $(prop "$k.overrun-errors.total" "$J")"
done
expect_no_leftovers "timer-semantics runs"
finish
