# SPDX-License-Identifier: Apache-2.0
# The priority-wake probe: its parameters checked at validation, the
# kernel releasing waiters highest priority first through every mechanism
# (no violation), order=arrival counted as exactly waiters - 1 violations a
# round (the configuration that must fail), and clear errors when the
# worker's policy or priority leaves no room for the waiters.
. "$(dirname "$0")/lib.sh"


# ---- parameters refused with the file, the line and why ------------------

# pw_refused NAME PARAMS WHY : a priority-wake requirement (SCHED_FIFO, max)
pw_refused() { refused_params priority-wake "$1" "$2" "$3" '<sched policy="fifo" priority="max"/>'; }
pw_refused one-waiter '<param name="waiters">1</param>' 'waiters 1 is outside 2 \.\. 32'
pw_refused many-waiters '<param name="waiters">33</param>' 'waiters 33 is outside 2 \.\. 32'
pw_refused no-mechanism '<param name="mechanism">pipe</param>' \
  "parameter mechanism has no value 'pipe' \(expected posix-sem, futex, mutex-cond or mqueue\)"
pw_refused no-order '<param name="order">fifo</param>' \
  "parameter order has no value 'fifo' \(expected priority or arrival\)"

if [ "$(id -u)" -ne 0 ]; then
  skip_all "priority-wake needs root (SCHED_FIFO threads and mlockall)"
fi

# ---- every mechanism: priority order passes, arrival order must fail ------

MECHS="posix-sem futex mutex-cond mqueue"
NO_VIOLATION='<limit metric="violations" statistic="total" max="0"/>'
for m in $MECHS; do
  requirement "PRIO-$m" "$(probe priority-wake mechanism="$m")" '<sched policy="fifo" priority="max"/>' "$NO_VIOLATION"
  requirement "ARRIVAL-$m" "$(probe priority-wake mechanism="$m" order=arrival waiters=4)" \
    '<sched policy="fifo" priority="max"/><run iterations="50" runs="2"/>' "$NO_VIOLATION"
done | req_file "$TMP/pw.xml" pw 'iterations="100" runs="3" warmup="5" timeout="60s"'
expect_status 1 "$RTC" run -o "$TMP/r" "$TMP/pw.xml"
J="$TMP/r/junit.xml"
validate_junit "$J" --tests 8 --failures 4 --errors 0 --skipped 0
for m in $MECHS; do
  # The kernel's order: nobody returns before a higher-priority waiter.
  expect_grep "^PRIO-$m +priority-wake +fifo:99 +violations total <= 0 +0 +PASS\$" "$TMP/out"
  [ "$(prop "PRIO-$m.violations.max" "$J")" = 0 ] && ok "PRIO-$m: no violation in any run" \
    || fail "PRIO-$m: violations per run '$(prop "PRIO-$m.violations.max" "$J")' at most, expected 0"
  expect_fact "PRIO-$m.note" "^5 waiters at SCHED_FIFO 94..98 \(arrival order\), waker 93, all on CPU [0-9]+; one object shared" "$J"
  # Released in arrival order, lowest priority first: every round has
  # exactly waiters - 1 = 3 violations, 50 rounds a run, 2 runs.
  expect_grep "^ARRIVAL-$m +priority-wake +fifo:99 +violations total <= 0 +300 +FAIL\$" "$TMP/out"
  [ "$(prop "ARRIVAL-$m.violations.total" "$J")" = 300 ] && ok "ARRIVAL-$m: violations.total is 300" \
    || fail "ARRIVAL-$m: violations.total '$(prop "ARRIVAL-$m.violations.total" "$J")', expected 300"
  [ "$(prop "ARRIVAL-$m.violations.min" "$J") $(prop "ARRIVAL-$m.violations.max" "$J")" = "150 150" ] && ok "ARRIVAL-$m: 150 violations in each run" \
    || fail "ARRIVAL-$m: violations per run from $(prop "ARRIVAL-$m.violations.min" "$J") to $(prop "ARRIVAL-$m.violations.max" "$J"), expected 150 each"
done
expect_grep '<failure [^>]*message="violations total 300 &gt; 0 \(2 runs\)"' "$J"

# ---- no room for the waiters: an error that says what to change ------------

req_file "$TMP/err.xml" pw-err 'iterations="10" runs="1" warmup="0" timeout="60s"' <<XML
  <requirement id="LOW"><probe name="priority-wake"/><sched policy="fifo" priority="6"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
  <requirement id="OTHER"><probe name="priority-wake"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
  <requirement id="ROOM"><probe name="priority-wake"><param name="waiters">2</param></probe>
    <sched policy="fifo" priority="4"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
XML
expect_status 3 "$RTC" run -o "$TMP/e" "$TMP/err.xml"
validate_junit "$TMP/e/junit.xml" --tests 3 --failures 0 --errors 2 --skipped 0 \
  --property LOW.verdict=error --property OTHER.verdict=error --property ROOM.verdict=pass
expect_grep 'waiters=5 need 6 SCHED_FIFO priorities below the worker.s 6 .* give &lt;sched priority&gt; of at least 7' "$TMP/e/junit.xml"
expect_grep 'priority-wake needs a real-time worker: give &lt;sched policy=&quot;fifo&quot; priority=&quot;N&quot;/&gt; with N at least 7' "$TMP/e/junit.xml"

# ---- nothing left behind: message queue names dropped, processes gone -----

if [ -d /dev/mqueue ] && mountpoint -q /dev/mqueue; then
  [ -z "$(ls /dev/mqueue | grep '^rtconform-pw-')" ] && ok "no message queue left in /dev/mqueue" \
    || fail "message queues left in /dev/mqueue: $(ls /dev/mqueue | grep '^rtconform-pw-')"
fi
expect_no_leftovers "priority-wake runs"
finish
