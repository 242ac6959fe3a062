# SPDX-License-Identifier: Apache-2.0
# The rt-migrate probe: more SCHED_FIFO tasks than CPUs released at once.
# release=ascending must violate, and exactly (tasks - CPUs) times a release;
# the normal configuration must pass on this machine; what cannot run is
# refused with the reason. Behaviour only: no latency is asserted.
. "$(dirname "$0")/lib.sh"

NCPU="$(nproc)" # the CPUs this process (and so rtconform) may use


# ---- what the catalogue refuses (exit 2, the file's line) ----------------
refused_params rt-migrate busy-short '<param name="busy">5us</param>' 'busy 5us is outside 10us .. 10ms'
refused_params rt-migrate two-tasks '<param name="tasks">2</param>' 'tasks 2 is outside 3 .. 64'
refused_params rt-migrate no-policy '<param name="release">later</param>' "parameter release has no value 'later'"
refused_params rt-migrate not-a-count '<param name="tasks">all</param>' 'parameter tasks: not a whole number'

# ---- what cannot be measured here (exit 3, the reason) -------------------
if [ "$(id -u)" -ne 0 ]; then
  skip_all "rt-migrate needs root (SCHED_FIFO tasks)"
fi
if [ "$NCPU" -lt 2 ]; then
  skip_all "rt-migrate needs at least 2 CPUs, this test has $NCPU"
fi
FIFO=(--policy fifo --priority 90)
expect_status 3 "$RTC" probe rt-migrate "${FIFO[@]}" --param cpus=0 --iterations 10
expect_grep '^error: rt-migrate needs at least 2 CPUs for its tasks to migrate between; cpus .0. gives 1$' "$TMP/out"
# a machine (or a cgroup) with one CPU
expect_status 3 taskset -c 0 "$RTC" probe rt-migrate "${FIFO[@]}" --iterations 10
expect_grep "cpus 'all' gives 1 \(the CPUs rtconform may use\)" "$TMP/out"
expect_status 3 "$RTC" probe rt-migrate --iterations 10
expect_grep 'give <sched policy="fifo" priority="max"/>' "$TMP/out"
expect_status 3 "$RTC" probe rt-migrate --policy fifo --priority 3 --iterations 10
expect_grep "$((NCPU + 1)) tasks need SCHED_FIFO priorities 2 down to $((2 - NCPU)) below the worker's 3" "$TMP/out"
# no more tasks than CPUs: the catalogue refuses fewer than 3, the probe the rest
if [ "$NCPU" -ge 3 ]; then
  expect_status 3 "$RTC" probe rt-migrate "${FIFO[@]}" --param tasks=$NCPU --iterations 10
  expect_grep "tasks $NCPU: must be more than the $NCPU CPUs" "$TMP/out"
else
  expect_status 2 "$RTC" probe rt-migrate "${FIFO[@]}" --param tasks=$NCPU --iterations 10
  expect_grep "tasks $NCPU is outside 3 .. 64" "$TMP/out"
fi
# a file's default 2000 releases would hold every CPU too long
expect_status 3 "$RTC" probe rt-migrate "${FIFO[@]}" --iterations 2000
expect_grep 'keep the CPUs busy for [0-9.]+ ms at real-time priority, over 200 ms \(RT throttling\)' "$TMP/out"

# ---- release=ascending must violate, exactly (tasks - CPUs) a release ---
ITER=200 RUNS=3
req_file "$TMP/a.xml" rt-migrate-ascending <<XML
  <defaults iterations="$ITER" runs="$RUNS" warmup="10" timeout="60s"/>
  <requirement id="ASCENDING"><probe name="rt-migrate"><param name="release">ascending</param></probe>
    <sched policy="fifo" priority="90"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
XML
expect_status 1 "$RTC" run -o "$TMP/a" "$TMP/a.xml"
J="$TMP/a/junit.xml"
validate_junit "$J" --tests 1 --failures 1 --errors 0 --skipped 0 \
  --property ASCENDING.verdict=fail --property ASCENDING.violations.kind=count \
  --property ASCENDING.start-delay.kind=duration
# each release the lowest task starts before the higher ones are even woken
want=$((ITER * RUNS))
[ "$(prop ASCENDING.violations.total "$J")" = "$want" ] && ok "ASCENDING.violations.total is $want" \
  || fail "ASCENDING.violations.total is '$(prop ASCENDING.violations.total "$J")', expected $want"
[ "$(prop ASCENDING.violations.min "$J") $(prop ASCENDING.violations.max "$J") $(prop ASCENDING.violations.count "$J")" = "$ITER $ITER 3" ] \
  && ok "ASCENDING: $ITER violations in each of 3 runs" || fail "ASCENDING: not $ITER violations in each of 3 runs"
expect_grep "<failure [^>]*message=\"violations total $want &gt; 0 \\($RUNS runs\\)\"" "$J"
expect_fact "ASCENDING.note" "^$((NCPU + 1)) tasks \\(SCHED_FIFO 89..$((89 - NCPU))\\) on $NCPU CPUs, busy 100 us, release ascending; violations by task, highest first:( 0){$NCPU} $want\\." "$J"
[ "$(prop ASCENDING.start-delay.count "$J")" = "$((want * (NCPU + 1)))" ] && ok "ASCENDING.start-delay.count is $((want * (NCPU + 1)))" \
  || fail "ASCENDING.start-delay.count is '$(prop ASCENDING.start-delay.count "$J")'"
expect_grep '^ASCENDING +rt-migrate +fifo:90 +violations total <= 0 +[1-9][0-9]* +FAIL$' "$TMP/out"

# ---- the normal configuration: measured, judged, its figure shown -------
# A pass is NOT asserted: on this project's 2-vCPU VM the kernel breaks the
# rule in roughly 1 release in 2000 (a lower task runs for ~20 us while a
# higher one sits queued behind the highest on the other CPU until an IPI
# pushes it over; docs/probes.md, rt-migrate). What is reliable is checked:
# every requirement measured, every start recorded, violations only where
# the rule allows them (tasks below the top CPUs), and the verdict the
# limit gives for the count.
req_file "$TMP/m.xml" rt-migrate <<XML
  <defaults iterations="$ITER" runs="$RUNS" warmup="10" timeout="60s"/>
  <requirement id="TOGETHER"><probe name="rt-migrate"/>
    <sched policy="fifo" priority="90"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
  <requirement id="MORE"><probe name="rt-migrate"><param name="tasks">$((2 * NCPU + 1))</param>
      <param name="busy">50us</param></probe>
    <sched policy="fifo" priority="max"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
XML
st=0; "$RTC" run -o "$TMP/m" "$TMP/m.xml" >"$TMP/out" 2>&1 || st=$?
[ "$st" -le 1 ] && ok "the normal configuration exits 0 or 1" || { fail "normal configuration exited $st:"; sed 's/^/    /' "$TMP/out"; }
J="$TMP/m/junit.xml"
validate_junit "$J" --tests 2 --errors 0 --skipped 0 --property TOGETHER.violations.kind=count
for id in TOGETHER MORE; do
  n=$([ $id = TOGETHER ] && echo $((NCPU + 1)) || echo $((2 * NCPU + 1)))
  v="$(prop $id.violations.total "$J")"
  [[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -le $((ITER * RUNS * (n - NCPU))) ] && ok "$id.violations.total is at most $((ITER * RUNS * (n - NCPU)))" \
    || fail "$id.violations.total is '$v'"
  verdict="$(prop $id.verdict "$J")"
  { [ "$v" = 0 ] && [ "$verdict" = pass ]; } || { [ "$v" != 0 ] && [ "$verdict" = fail ]; } && ok "$id: the verdict is pass exactly when there is no violation" \
    || fail "$id: violations $v but verdict $verdict"
  [ "$(prop $id.start-delay.count "$J")" = "$((ITER * RUNS * n))" ] && ok "$id.start-delay.count is $((ITER * RUNS * n))" \
    || fail "$id.start-delay.count is '$(prop $id.start-delay.count "$J")'"
  # the top NCPU tasks can never be counted
  expect_fact "$id.note" "^$n tasks [^\"]*highest first:( 0){$NCPU}( [0-9]+)+\\." "$J"
  echo "    $id: $v violations in $((ITER * RUNS)) releases of $n tasks on $NCPU CPUs"
done
expect_no_leftovers "rt-migrate runs"
finish
