# SPDX-License-Identifier: Apache-2.0
# The rr-quantum probe: its parameters checked when a file is validated,
# the configurations it cannot run refused with the reason, SCHED_RR tasks
# taking turns passing (no slice over two quanta, the mean slice near the
# kernel's quantum), and policy=fifo (no quantum) failing with one violation
# every run: the check is seen to fail. The slices are compared with the
# kernel's own quantum only, never with a fixed time.
. "$(dirname "$0")/lib.sh"


# ---- parameters: refused at validation with file, line and why ----------
# rr_refused NAME PARAMS WHY : an rr-quantum requirement with PARAMS, under
# SCHED_FIFO 10, limited to no violation, is refused for the probe
rr_refused() {
  refused_params rr-quantum "$1" "$2" "$3" '<sched policy="fifo" priority="10"/>
    <limit metric="violations" statistic="total" max="0"/>'
}
rr_refused one-task '<param name="tasks">1</param>' 'tasks 1 is outside 2 \.\. 16'
rr_refused many-tasks '<param name="tasks">17</param>' 'tasks 17 is outside 2 \.\. 16'
rr_refused long '<param name="duration">500ms</param>' 'duration 500ms is outside 1ms \.\. 400ms'
rr_refused short '<param name="duration">500us</param>' 'duration 500us is outside 1ms \.\. 400ms'
rr_refused other '<param name="policy">other</param>' "parameter policy has no value 'other'"
refused unit '<probe name="rr-quantum"/>
    <sched policy="fifo" priority="10"/>
    <limit metric="violations" statistic="total" max="0us"/>' 'metric violations of probe rr-quantum is a count' 5

if [ "$(id -u)" -ne 0 ]; then
  skip_all "the rr-quantum runs need root (SCHED_RR threads, mlockall)"
fi
Q="$(cat /proc/sys/kernel/sched_rr_timeslice_ms)" # the kernel's quantum, ms
if ! [[ "$Q" =~ ^[0-9]+$ ]] || [ "$Q" -lt 1 ] || [ "$Q" -gt 100 ]; then
  skip_all "sched_rr_timeslice_ms is '$Q': this test needs a quantum of 1 .. 100 ms"
fi

# ---- what cannot run is an error with the reason (exit 3) ----------------
expect_status 3 "$RTC" probe rr-quantum --runs 1
expect_grep '^error: rr-quantum runs its tasks one priority above the worker: give the requirement a real-time policy' "$TMP/out"
expect_status 3 "$RTC" probe rr-quantum --policy fifo --priority 99 --runs 1
expect_grep "^error: .*one priority above the worker's 99, and 99 is the highest: give a priority of at most 98" "$TMP/out"
expect_status 3 "$RTC" probe rr-quantum --policy fifo --priority 10 --runs 1 --param duration=$((Q * 3 / 2 + 1))ms
expect_grep "^error: duration .* is shorter than two quanta \(the kernel's SCHED_RR quantum is " "$TMP/out"
long=$((451 - 2 * Q))
if [ "$long" -le 400 ]; then
  expect_status 3 "$RTC" probe rr-quantum --policy fifo --priority 10 --runs 1 --param duration=${long}ms
  expect_grep '^error: duration .* \+ two quanta of .* is over 450 ms of busy CPU in a run \(RT throttling\)' "$TMP/out"
else
  echo "    (a quantum of $Q ms: every duration up to 400ms fits a run of 450 ms; not refused)"
fi
expect_status 3 "$RTC" probe rr-quantum --policy fifo --priority 10 --runs 200 --timeout 10s
expect_grep '^error: 201 runs .* of up to duration \+ two quanta = .*, not less than half the timeout of 10 s' "$TMP/out"

# ---- SCHED_RR passes, SCHED_FIFO (no quantum) must fail ------------------
RUNS=5
D=200ms # two quanta or more for any quantum up to 100 ms
req_file "$TMP/rr.xml" rr <<XML
  <defaults iterations="1" runs="$RUNS" warmup="1" timeout="60s"/>
  <requirement id="RR"><probe name="rr-quantum"><param name="duration">$D</param></probe>
    <sched policy="fifo" priority="80"/>
    <limit metric="violations" statistic="total" max="0"/>
    <limit metric="slice" statistic="mean" min="$((Q / 2))ms" max="$((Q * 3 / 2))ms"/></requirement>
  <requirement id="RR3"><probe name="rr-quantum">
      <param name="tasks">3</param><param name="duration">$D</param></probe>
    <sched policy="rr" priority="80"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
  <requirement id="FIFO"><probe name="rr-quantum">
      <param name="policy">fifo</param><param name="duration">$D</param></probe>
    <sched policy="fifo" priority="80"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
XML
expect_status 1 "$RTC" run -o "$TMP/g" "$TMP/rr.xml"
J="$TMP/g/junit.xml"
# SCHED_RR's slices are the machine's: a busy VM stalls a vCPU past two
# quanta now and then. Their counts are reported and judged by the rule
# (total <= 0); FIFO, which never yields, must break it every run.
validate_junit "$J" --tests 3 --errors 0 --skipped 0 --property FIFO.verdict=fail \
  --property RR.violations.kind=count --property RR.slice.kind=duration
for id in RR RR3; do expect_count_judged "$J" $id violations 0; done
# RR's slice mean is judged by its limit ($((Q / 2)) .. $((Q * 3 / 2)) ms)
m="$(prop RR.slice.mean_ns "$J")"; msg="$(testcase_msg RR "$J")"
if awk -v m="$m" -v lo=$((Q * 500000)) -v hi=$((Q * 1500000)) 'BEGIN { exit !(m >= lo && m <= hi) }'; then
  [[ "$msg" != *"slice mean"* ]] && ok "RR: slice mean $m ns within its limit is not a failure" \
    || fail "RR: slice mean $m ns within its limit is a failure: $msg"
else
  [[ "$msg" == *"slice mean"* ]] && ok "RR: slice mean $m ns outside its limit is a failure" \
    || fail "RR: slice mean '$m' ns outside its limit is not a failure: '$msg'"
fi
# Every run has at least two slices that ended when another task took over.
for id in RR RR3; do
  n="$(prop $id.slice.count "$J")"
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge $((2 * RUNS)) ] && ok "$id: at least $((2 * RUNS)) slices in $RUNS runs" \
    || fail "$id: $n slices in $RUNS runs, expected at least $((2 * RUNS))"
done
# FIFO: the first task keeps the CPU to the hard end, once every run.
[ "$(prop FIFO.violations.total "$J")" = "$RUNS" ] && ok "FIFO.violations.total is $RUNS" \
  || fail "FIFO.violations.total is '$(prop FIFO.violations.total "$J")', expected $RUNS"
[ "$(prop FIFO.violations.min "$J") $(prop FIFO.violations.max "$J") $(prop FIFO.violations.count "$J")" = "1 1 $RUNS" ] \
  && ok "FIFO: one violation in each of $RUNS runs" || fail "FIFO: not one violation in each of $RUNS runs"
expect_grep "<failure [^>]*message=\"violations total $RUNS &gt; 0 \\($RUNS runs\\)\"" "$J"
# POLICY: the tasks', one priority above the worker's fifo:80
expect_grep "^FIFO +rr-quantum +fifo:81 +violations total <= 0 +$RUNS +FAIL$" "$TMP/out"
# The notes give the quantum beside the slices, and agree with the counts.
expect_fact RR.note "^quantum $Q ms \(sched_rr_timeslice_ms $Q\); 2 SCHED_RR tasks \(priority 81\) on CPU [0-9]+; [1-9][0-9]* slices, longest [0-9.]+ ms, $(prop RR.violations.total "$J") over two quanta\." "$J"
expect_fact RR3.note "^quantum $Q ms .*; 3 SCHED_RR tasks \(priority 81\) on CPU [0-9]+; .*, $(prop RR3.violations.total "$J") over two quanta\." "$J"
expect_fact "FIFO.note" "^quantum $Q ms \(sched_rr_timeslice_ms $Q\); 2 SCHED_FIFO tasks \(priority 81\) on CPU [0-9]+; $RUNS slices, longest [0-9.]+ ms, $RUNS over two quanta\." "$J"
echo "    RR $(prop RR.violations.total "$J") (slice mean $(prop RR.slice.mean_ns "$J") ns), RR3 $(prop RR3.violations.total "$J"), FIFO $(prop FIFO.violations.total "$J") violations"
expect_no_leftovers "after the runs"
finish
