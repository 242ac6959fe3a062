# SPDX-License-Identifier: Apache-2.0
# Faults during a run: the rest of the suite still runs, the report is
# complete and valid, the requirement's verdict is `error` with the reason,
# exit status 3.
. "$(dirname "$0")/lib.sh"
req_file "$TMP/faults.xml" faults 'iterations="100" runs="3" warmup="10" timeout="30s"' <<XML
  <requirement id="OK-BEFORE"><probe name="selftest"/><limit statistic="max" max="1s"/></requirement>
  <requirement id="SEGV"><probe name="selftest"><param name="fault">segv</param></probe>
    <limit statistic="max" max="1s"/></requirement>
  <requirement id="ABORT"><probe name="selftest"><param name="fault">abort</param></probe>
    <limit statistic="max" max="1s"/></requirement>
  <requirement id="HANG"><probe name="selftest"><param name="fault">hang</param></probe>
    <run timeout="500ms"/><limit statistic="max" max="1s"/></requirement>
  <requirement id="SPIN-RT"><probe name="selftest"><param name="fault">spin</param></probe>
    <sched policy="fifo" priority="max"/><run timeout="1s"/><limit statistic="max" max="1s"/></requirement>
  <requirement id="EXIT"><probe name="selftest"><param name="fault">exit</param></probe>
    <limit statistic="max" max="1s"/></requirement>
  <requirement id="FAIL"><probe name="selftest"><param name="fault">fail</param></probe>
    <limit statistic="max" max="1s"/></requirement>
  <requirement id="OK-AFTER"><probe name="selftest"/><limit statistic="max" max="1s"/></requirement>
XML
expect_status 0 "$RTC" validate "$TMP/faults.xml"
expect_status 3 "$RTC" run -o "$TMP/f" "$TMP/faults.xml"
J="$TMP/f/junit.xml"
validate_junit "$J" --tests 8 --failures 0 --errors 6 --skipped 0 \
  --property OK-BEFORE.verdict=pass --property OK-AFTER.verdict=pass --property HANG.verdict=error
[ "$(xpath_count '//testcase' "$J")" = 8 ] && ok "junit.xml has 8 testcases" || fail "expected 8 testcases"
[ "$(xpath_count '//error' "$J")" = 6 ] && ok "junit.xml has 6 errors" || fail "expected 6 errors"
expect_fact 'OK-BEFORE.verdict' '^pass$' "$J"
expect_fact 'OK-AFTER.verdict' '^pass$' "$J"
expect_grep '<error[^>]*message="worker killed by signal 11 \(Segmentation fault\) after 1 of 3 runs' "$J"
expect_grep '<error[^>]*message="worker killed by signal 6 \(Aborted\)' "$J"
expect_grep '<error[^>]*message="timed out after [0-9.]+ m?s \(timeout 500 ms; 1 of 3 runs done\)' "$J"
# a real-time spinner is stopped by RLIMIT_RTTIME or the watchdog, whichever first
expect_grep '<error[^>]*message="(worker killed by signal (24|9) .*RLIMIT_RTTIME|timed out after)' "$J"
expect_grep '<error[^>]*message="worker exited with status 0 after 1 of 3 runs without finishing' "$J"
expect_grep '<error[^>]*message="selftest: failure requested' "$J"
# a run by time that hangs: the watchdog allows the duration and then the
# timeout, and says both parts as the user gave them
req_file "$TMP/hang-timed.xml" hangtimed <<XML
  <requirement id="HANG-TIMED"><probe name="selftest"><param name="fault">hang</param></probe>
    <run iterations="100" duration="1s" warmup="0" timeout="500ms"/><limit statistic="max" max="1s"/></requirement>
XML
expect_status 3 "$RTC" run -q -o "$TMP/ht" "$TMP/hang-timed.xml"
expect_grep '<error[^>]*message="timed out after [0-9.]+ s \(timeout 500 ms after the duration 1 s; 1 recorded run of a 1 s run by time done\)' "$TMP/ht/junit.xml"
# what the crashing worker measured before it crashed is still reported
[ "$(prop SEGV.interval.count "$J")" = 100 ] && ok "SEGV.interval.count is 100" || fail "SEGV.interval.count is '$(prop SEGV.interval.count "$J")', expected 100"

# killed from outside: SIGKILL to the worker while it hangs
req_file "$TMP/hang.xml" hang <<XML
  <requirement id="HANG"><probe name="selftest"><param name="fault">hang</param></probe>
    <run iterations="10" runs="2" timeout="300s"/><limit statistic="max" max="1s"/></requirement>
XML
# paused PID : PID sleeps in pause(), where the hang fault blocks (state S;
# the wait channel names pause where the kernel shows it)
paused() {
  [ "$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)" = S ] || return 1
  case "$(cat "/proc/$1/wchan" 2>/dev/null)" in *pause* | "" | 0) ;; *) return 1 ;; esac
}
worker_paused() { local w; w="$(worker_of "$sup")"; [ -n "$w" ] && paused "$w"; }
"$RTC" run -o "$TMP/k" "$TMP/hang.xml" >"$TMP/out" 2>&1 &
sup=$!
if wait_for "the worker to hang in pause()" "$START_WAIT" worker_paused; then
  kill -KILL "$(worker_of "$sup")" 2>/dev/null
else
  kill -TERM "$sup"
fi
wait "$sup"; st=$?
[ "$st" -eq 3 ] && ok "a killed worker: exit 3" || fail "killed worker: exit $st, expected 3"
validate_junit "$TMP/k/junit.xml" --tests 1 --failures 0 --errors 1 --skipped 0
expect_grep '<error[^>]*message="worker killed by signal 9 \(Killed\)' "$TMP/k/junit.xml"

# a real-time probe that keeps its CPU busy rests between runs rather than
# measuring the kernel's RT throttling (runs of ~0.3 s, budget 0.475 s)
req_file "$TMP/busy.xml" busy <<XML
  <requirement id="BUSY"><probe name="selftest"/><sched policy="fifo" priority="10"/>
    <run iterations="12000000" runs="3" warmup="0" timeout="30s"/>
    <limit statistic="min" max="1s"/></requirement>
XML
if [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" -lt 0 ]; then
  fail "RT throttling is off on this machine (sched_rt_runtime_us = -1): cannot test the guard"
else
  expect_status 0 "$RTC" run -o "$TMP/busy" "$TMP/busy.xml"
  validate_junit "$TMP/busy/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0 \
    --property BUSY.verdict=pass --property BUSY.note
  expect_fact BUSY.note '^rested [0-9]+ ms [1-9][0-9]* times? between runs' "$TMP/busy/junit.xml"
fi

# no process of these runs is left
expect_no_leftovers "after the faults"
finish
