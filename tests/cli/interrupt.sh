# SPDX-License-Identifier: Apache-2.0
# SIGINT or SIGTERM during a run: workers stopped, a complete and valid report
# written, unfinished requirements marked "interrupted", exit status 3.
. "$(dirname "$0")/lib.sh"
req_file "$TMP/long.xml" long <<XML
  <requirement id="LONG"><probe name="sem-pingpong"/>
    <run iterations="100000000" runs="1" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="NEXT"><probe name="sem-pingpong"/><run iterations="10" runs="1"/>
    <limit statistic="max" max="60s"/></requirement>
XML
for sig in INT TERM; do
  "$RTC" run -o "$TMP/$sig" "$TMP/long.xml" >"$TMP/out" 2>&1 &
  pid=$!
  # signal it while LONG is being measured: its worker has started the peer
  wait_for "SIG$sig: LONG's worker to measure" "$START_WAIT" worker_measuring "$pid"
  kill -"$sig" "$pid"
  wait "$pid"; st=$?
  [ "$st" -eq 3 ] && ok "SIG$sig: exit 3" || fail "SIG$sig: exit $st, expected 3"
  validate_junit "$TMP/$sig/junit.xml" --tests 2 --failures 0 --errors 2 --skipped 0 \
    --property rtconform.interrupted=yes
  [ "$(xpath_count '//testcase' "$TMP/$sig/junit.xml")" = 2 ] && ok "SIG$sig: junit.xml has 2 testcases" || fail "SIG$sig: expected 2 testcases"
  [ "$(xpath_count '//error[contains(@message,"interrupted")]' "$TMP/$sig/junit.xml")" = 2 ] && ok "SIG$sig: both requirements are marked interrupted" \
    || fail "SIG$sig: expected both requirements marked interrupted"
  expect_no_leftovers "SIG$sig"
done

# SIGKILL to the supervisor: nothing can clean up, so the worker and its
# peer die with it (PR_SET_PDEATHSIG, harness/runner_spawn.c) at once, not
# after lingering with parent 1 (issue 41).
"$RTC" run -o "$TMP/KILL" "$TMP/long.xml" >"$TMP/out" 2>&1 &
pid=$!
wait_for "SIGKILL: LONG's worker to measure" "$START_WAIT" worker_measuring "$pid"
w="$(worker_of "$pid")"
group="$(pgrep -g "$w" | tr '\n' ' ')"
[ -n "$w" ] && [ -n "$group" ] && ok "SIGKILL: the worker's group is $group" || fail "SIGKILL: no worker"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
# alive: in the group and not a zombie (init reaps those when it will: the
# "parent 1" the issue saw for 2 s)
alive() { for p in $(pgrep -g "$w"); do ps -o pid=,ppid=,stat=,comm= -p "$p"; done | awk '$3 !~ /^Z/'; }
gone() { [ -z "$(alive)" ]; }
wait_for "SIGKILL: the worker and its peer to die with the supervisor" 1 gone || alive | diag
expect_no_leftovers "SIGKILL"

# timer-wakeup keeps its merged figure when interrupted: its threads record
# per-CPU series, and `wakeup` must hold every finished run and the recorded
# part of the cut one (it was built only after the threads joined, so a
# killed worker left it empty beside full per-CPU series).
req_file "$TMP/tw.xml" tw <<XML
  <requirement id="TW"><probe name="timer-wakeup"><param name="interval">1ms</param>
    <param name="dma-latency">off</param></probe>
    <run iterations="1000" runs="20" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
XML
"$RTC" run -o "$TMP/tw" "$TMP/tw.xml" >"$TMP/out" 2>&1 &
pid=$!
wait_for "timer-wakeup's threads to measure" "$START_WAIT" worker_measuring "$pid"
# at least one run of 1000 periods of 1 ms finished (a run cannot end sooner)
sleep 2.5
kill -TERM "$pid"
wait "$pid"; st=$?
[ "$st" -eq 3 ] && ok "timer-wakeup interrupted: exit 3" || fail "timer-wakeup interrupted: exit $st, expected 3"
python3 - "$TMP/tw/results.json" >"$TMP/check" 2>&1 <<'PY' \
  && ok "timer-wakeup interrupted: wakeup holds every per-CPU sample, finished runs included" \
  || { fail "timer-wakeup interrupted: wakeup holds every per-CPU sample, finished runs included:"; diag <"$TMP/check"; }
import json, sys
r = json.load(open(sys.argv[1]))["files"][0]["requirements"][0]
wake = r["metrics"][0]
per_cpu = sum(c["count"] for c in r["per_cpu"])
runs = [x for x in wake["runs"] if x["samples"]]
print("wakeup count", wake["count"], "per-CPU", per_cpu, "runs with samples", len(runs))
assert wake["count"] == per_cpu, "merged count differs from the per-CPU sum"
assert wake["count"] >= 1000, "fewer samples than one finished run"
# the runs listed are the finished ones; the cut run's part is in the total
assert runs and sum(x["samples"] for x in runs) <= wake["count"], "finished runs hold more than the total"
PY
expect_no_leftovers "timer-wakeup interrupted"
finish
