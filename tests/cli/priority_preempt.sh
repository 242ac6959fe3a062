# SPDX-License-Identifier: Apache-2.0
# The priority-preempt probe: its parameters checked when a file is
# validated, the configurations it cannot run refused with the reason, the
# normal game passing its violations limit (free and pinned), and the
# inverted game (the "low" group above the "high" one) failing it: the
# check is seen to fail. Behaviour only: no time is asserted.
. "$(dirname "$0")/lib.sh"


# ---- parameters: refused at validation with file, line and why ----------

cat >"$TMP/bad.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="bad">
  <requirement id="R">
    <probe name="priority-preempt"><param name="duration">300ms</param></probe>
    <sched policy="fifo" priority="10"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
</requirements>
XML
expect_status 2 "$RTC" validate "$TMP/bad.xml"
expect_grep 'duration 300ms is outside 1ms \.\. 200ms' "$TMP/out"
expect_grep "^$TMP/bad.xml:[0-9]+: " "$TMP/out"
sed 's/300ms/50us/' "$TMP/bad.xml" >"$TMP/bad2.xml"
expect_status 2 "$RTC" validate "$TMP/bad2.xml"
expect_grep 'duration 50us is outside 1ms \.\. 200ms' "$TMP/out"
sed 's|<param name="duration">300ms</param>|<param name="invert">maybe</param>|' "$TMP/bad.xml" >"$TMP/bad3.xml"
expect_status 2 "$RTC" validate "$TMP/bad3.xml"
expect_grep 'maybe' "$TMP/out"
# violations is a count: no unit on its bound
sed 's|<param name="duration">300ms</param>||; s|max="0"|max="0us"|' "$TMP/bad.xml" >"$TMP/bad4.xml"
expect_status 2 "$RTC" validate "$TMP/bad4.xml"
expect_grep 'metric violations of probe priority-preempt is a count' "$TMP/out"

if [ "$(id -u)" -ne 0 ]; then
  skip_all "the priority-preempt games need root (SCHED_FIFO threads, mlockall)"
fi

# ---- what cannot run is an error with the reason ----------------------------

expect_status 3 "$RTC" probe priority-preempt --policy other --runs 1
expect_grep '^error: priority-preempt runs SCHED_FIFO threads above the worker: give the requirement a real-time policy' "$TMP/out"
expect_status 3 "$RTC" probe priority-preempt --policy fifo --priority 98 --runs 1
expect_grep '^error: .*two SCHED_FIFO priorities above the worker.s 98, and 99 is the highest: give a priority of at most 97' "$TMP/out"
expect_status 3 "$RTC" probe priority-preempt --policy fifo --priority 10 --runs 100 \
  --param duration=200ms --timeout 30s
expect_grep '^error: 101 matches .* x duration = 20.2 s, not less than half the timeout of 30 s' "$TMP/out"

# ---- the game: normal passes, inverted must fail --------------------------

req_file "$TMP/game.xml" game 'runs="5" warmup="1" timeout="60s"' <<XML
  <requirement id="FREE"><probe name="priority-preempt"/>
    <sched policy="fifo" priority="80"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
  <requirement id="PINNED"><probe name="priority-preempt">
      <param name="placement">pinned</param><param name="duration">20ms</param></probe>
    <sched policy="fifo" priority="80"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
  <requirement id="INVERT"><probe name="priority-preempt"><param name="invert">yes</param></probe>
    <sched policy="fifo" priority="80"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
XML
expect_status 1 "$RTC" run -o "$TMP/g" "$TMP/game.xml"
J="$TMP/g/junit.xml"
validate_junit "$J" --tests 3 --failures 1 --errors 0 --skipped 0 \
  --property FREE.verdict=pass --property PINNED.verdict=pass --property INVERT.verdict=fail \
  --property FREE.violations.kind=count --property FREE.violations.total=0 \
  --property PINNED.violations.total=0
# Inverted, the "lows" preempt the spinning group at every opening of the
# gate: violations in every run.
inv="$(prop INVERT.violations.total "$J")"
[[ "$inv" =~ ^[0-9]+$ ]] && [ "$inv" -gt 0 ] && ok "INVERT: violations total above 0" \
  || fail "INVERT: violations total '$inv', expected above 0"
inv_min="$(prop INVERT.violations.min "$J")"
[[ "$inv_min" =~ ^[0-9]+$ ]] && [ "$inv_min" -gt 0 ] && ok "INVERT: a violation in every run" \
  || fail "INVERT: a run without a violation (min '$inv_min')"
expect_grep '<failure [^>]*message="violations total [1-9][0-9]* &gt; 0 \(5 runs\)"' "$J"
expect_grep '^INVERT +priority-preempt +fifo:80 +violations total <= 0 +[1-9][0-9]* +FAIL$' "$TMP/out"
# The note says who played where, and agrees with the count.
ncpu="$(nproc)"
expect_fact "FREE.note" "^lows ran [1-9][0-9]* times, 0 while all highs were runnable; [0-9]+ gate openings, [0-9]+ void matches; $ncpu high \(fifo 82\), $ncpu low \(fifo 81\), 50ms a run, free on CPUs [0-9,]+\." "$J"
expect_fact "PINNED.note" "^lows ran [1-9][0-9]* times, 0 while .*; $ncpu high \(fifo 82\), $ncpu low \(fifo 81\), 20ms a run, pinned on CPUs" "$J"
expect_fact "INVERT.note" "^lows ran [0-9]+ times, $inv while all highs were runnable; .*; $ncpu high \(fifo 81\), $ncpu low \(fifo 82\), 50ms a run, free on" "$J"
echo "    FREE $(prop FREE.violations.total "$J"), PINNED $(prop PINNED.violations.total "$J"), INVERT $inv violations"
expect_no_leftovers "after the games"
finish
