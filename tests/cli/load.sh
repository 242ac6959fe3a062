# SPDX-License-Identifier: Apache-2.0
# Background load (<load tool="stress-ng" .../>): running while the worker
# measures, gone afterwards (every process of it) whether the worker
# finished, crashed, timed out or rtconform was interrupted; its command in
# the reports; a clear error when stress-ng is missing or ends early; only
# stress-ng, without a shell, accepted by validation.
. "$(dirname "$0")/lib.sh"

command -v stress-ng >/dev/null || fail "stress-ng is not installed (ci/deps installs it: apt-get install stress-ng)"

# Every process rtconform starts here carries this in its environment, so
# the checks find our loads and nobody else's stress-ng.
MARK="rtc-load-test-$$-$RANDOM"
marked_loads() {
  local d comm
  for d in /proc/[0-9]*; do
    comm=""
    { read -r comm <"$d/comm"; } 2>/dev/null # a builtin: /proc holds hundreds
    case "$comm" in stress-ng*) ;; *) continue ;; esac
    if { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qx "RTC_LOAD_MARK=$MARK"; then
      echo "${d#/proc/}"
    fi
  done
}
# no_load_left WHAT : nothing of any load of ours is left
no_load_left() {
  local left
  left="$(marked_loads)"
  if [ -n "$left" ]; then
    fail "$1: load processes left: $(ps -o pid,pgid,stat,comm -p "$(echo $left | tr ' ' ,)" | tail -n +2)"
  else
    ok "$1: no load process left"
  fi
}
rtc() { env RTC_LOAD_MARK="$MARK" "$RTC" "$@"; }
# worker_threads PID : the most threads a worker of rtconform PID runs
# (the timer probe's measuring threads exist only while it measures)
worker_threads() {
  local c n best=0
  for c in $(pgrep -P "$1" -x 'rtconform(-worke)?'); do  # the worker: rtconform-worker (comm is cut at 15)
    n="$(ls "/proc/$c/task" 2>/dev/null | wc -l)"
    [ "$n" -gt "$best" ] && best="$n"
  done
  echo "$best"
}
# timer_measuring PID : rtconform PID's worker runs timer threads
timer_measuring() { [ "$(worker_threads "$1")" -ge 2 ]; }
# loaded_and_measuring PID : the same, and a load of ours is running
loaded_and_measuring() { [ -n "$(marked_loads)" ] && timer_measuring "$1"; }

# req ID PROBE-XML RUN-XML [LOAD-ARGS] : a requirement (lib.sh) at fifo:90,
# max 10 s, under the stress-ng load LOAD-ARGS when given
req() {
  requirement "$1" "$2<sched policy=\"fifo\" priority=\"90\"/>$3${4:+<load tool=\"stress-ng\" args=\"$4\"/>}" \
    '<limit statistic="max" max="10s"/>'
}
TIMER='<probe name="timer-wakeup"/>'

# ---- 1. running during the measurement, gone after it
req_file "$TMP/ok.xml" load-ok "" \
  "$(req TW-LOAD "$TIMER" '<run iterations="4000" runs="1" warmup="0"/>' '--cpu 1 --io 1')"
env RTC_LOAD_MARK="$MARK" "$RTC" run -o "$TMP/ok" "$TMP/ok.xml" >"$TMP/out" 2>&1 &
pid=$!
seen=""
wait_for "load-ok: the worker to measure" "$START_WAIT" timer_measuring "$pid" && seen="$(marked_loads)"
if [ -n "$seen" ]; then ok "a load is seen while the worker measures"; else fail "no load seen while the worker measured"; fi
leader="$(pgrep -P "$pid" -x stress-ng | head -1)"
if [ -n "$leader" ] && [ "$(ps -o pgid= -p "$leader" | tr -d ' ')" = "$leader" ]; then ok "the load leads its own process group"
else fail "the load is not the leader of its own process group (leader '$leader')"; fi
[ "$(ps -o pgid= -p "$pid" | tr -d ' ')" != "$leader" ] && ok "the load does not share rtconform's group" || fail "load shares rtconform's group"
# group_of_3 : the load's group holds stress-ng and its two stressors
group_of_3() { [ -n "$leader" ] && [ "$(pgrep -g "$leader" | wc -l)" -ge 3 ]; }
wait_for "stress-ng's stressors to start in its group" "$START_WAIT" group_of_3 \
  || echo "    group $leader: $(pgrep -g "$leader" | wc -l) processes"
wait "$pid"; st=$?
[ "$st" = 0 ] && ok "load-ok: exit 0" || { fail "load-ok: exit $st"; sed 's/^/    /' "$TMP/out"; }
if [ -n "$leader" ] && pgrep -g "$leader" >/dev/null; then fail "processes of the load's group remain"; else ok "no process of the load's group remains"; fi
no_load_left "after a finished measurement"
validate_junit "$TMP/ok/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0 \
  --property TW-LOAD.load.command
cmd="$(prop TW-LOAD.load.command "$TMP/ok/junit.xml")"
[[ "$cmd" =~ ^/.*/stress-ng\ --cpu\ 1\ --io\ 1$ ]] && ok "TW-LOAD.load.command is the full stress-ng command" || fail "TW-LOAD.load.command is '$cmd'"
expect_grep 'load: /[^ ]*stress-ng --cpu 1 --io 1' "$TMP/ok/junit.xml" # in <system-out>
[ "$(prop TW-LOAD.wakeup.count "$TMP/ok/junit.xml")" = "$((4000 * $(nproc)))" ] && ok "TW-LOAD: 4000 samples per CPU" \
  || fail "TW-LOAD: wrong sample count"

# ---- 2. a worker that crashes, 3. one that times out
# Each file ends with a timer requirement without a load: while it
# measures, rtconform is still running, so a load still there would be one
# the supervisor failed to stop (not one that died with rtconform).
AFTER="$(req AFTER "$TIMER" '<run iterations="1500" runs="1" warmup="0"/>')"
# run_bg NAME FILE : run in the background; check no load while AFTER measures
run_bg() {
  env RTC_LOAD_MARK="$MARK" "$RTC" run -o "$TMP/$1" "$2" >"$TMP/out" 2>&1 &
  local pid=$! during
  # the selftest worker has one thread; AFTER's has one per CPU more
  if wait_for "$1: AFTER to measure" "$START_WAIT" timer_measuring "$pid"; then
    during="$(marked_loads)"
    if [ -n "$during" ]; then fail "$1: load processes $during still there during the next requirement"
    else ok "$1: no load process during the next requirement"; fi
  fi
  wait "$pid"
}
req_file "$TMP/crash.xml" load-crash "" "$(req CRASH "$(probe selftest fault=segv)" \
  '<run iterations="100" runs="3" warmup="0"/>' '--cpu 1 --vm 1 --vm-bytes 32M')" "$AFTER"
run_bg crash "$TMP/crash.xml"; st=$?
[ "$st" = 3 ] && ok "crash: exit 3" || fail "crash: exit $st, expected 3"
expect_grep '<error[^>]*signal 11' "$TMP/crash/junit.xml"
validate_junit "$TMP/crash/junit.xml" --tests 2 --failures 0 --errors 1 --skipped 0 \
  --property CRASH.verdict=error --property AFTER.verdict=pass
no_load_left "after the worker crashed"
[[ "$(prop CRASH.load.command "$TMP/crash/junit.xml")" == */stress-ng* ]] && ok "CRASH: load.command is recorded" || fail "CRASH: no load.command"

req_file "$TMP/hang.xml" load-timeout "" "$(req HANG "$(probe selftest fault=hang)" \
  '<run iterations="100" runs="3" warmup="0" timeout="1s"/>' '--cpu 1 --io 1')" "$AFTER"
run_bg hang "$TMP/hang.xml"; st=$?
[ "$st" = 3 ] && ok "hang: exit 3" || fail "hang: exit $st, expected 3"
expect_grep '<error[^>]*timed out' "$TMP/hang/junit.xml"
validate_junit "$TMP/hang/junit.xml" --tests 2 --failures 0 --errors 1 --skipped 0 \
  --property HANG.verdict=error --property AFTER.verdict=pass
no_load_left "after the worker timed out"

# ---- 4. rtconform interrupted while measuring under load
req_file "$TMP/int.xml" load-int "" "$(req LONG "$TIMER" '<run iterations="30000" runs="1" warmup="0" timeout="120s"/>' '--cpu 1')"
env RTC_LOAD_MARK="$MARK" "$RTC" run -o "$TMP/int" "$TMP/int.xml" >"$TMP/out" 2>&1 &
pid=$!
wait_for "LONG to measure under its load" "$START_WAIT" loaded_and_measuring "$pid"
kill -INT "$pid"
wait "$pid"; st=$?
[ "$st" = 3 ] && ok "interrupted: exit 3" || fail "interrupted: exit $st, expected 3"
expect_grep '<error[^>]*interrupted' "$TMP/int/junit.xml"
validate_junit "$TMP/int/junit.xml" --tests 1 --failures 0 --errors 1 --skipped 0
no_load_left "after SIGINT"

# ---- 5. stress-ng missing at run time: an error that says so
expect_status 3 env PATH=/nonexistent-rtconform RTC_LOAD_MARK="$MARK" "$RTC" run -o "$TMP/miss" "$TMP/ok.xml"
expect_grep 'stress-ng, which is not installed.*apt-get install stress-ng' "$TMP/out"
expect_grep '<error[^>]*not installed' "$TMP/miss/junit.xml"
validate_junit "$TMP/miss/junit.xml" --tests 1 --failures 0 --errors 1 --skipped 0
[ "$(prop TW-LOAD.load.command "$TMP/miss/junit.xml")" = "stress-ng --cpu 1 --io 1" ] && ok "missing tool: load.command is recorded" \
  || fail "missing tool: load.command not recorded"

# ---- 6. a load that does not start, one that ends before the measurement
req_file "$TMP/badopt.xml" load-bad "" "$(req BADOPT "$TIMER" '<run iterations="10" runs="1"/>' '--no-such-option-rtc')"
expect_status 3 rtc run -o "$TMP/badopt" "$TMP/badopt.xml"
expect_grep 'the load ended within 300 ms of its start \(exit status [1-9]' "$TMP/out"
validate_junit "$TMP/badopt/junit.xml" --tests 1 --failures 0 --errors 1 --skipped 0
req_file "$TMP/early.xml" load-early "" \
  "$(req EARLY "$TIMER" '<run iterations="3000" runs="1" warmup="0"/>' '--cpu 1 --timeout 1s')"
expect_status 3 rtc run -o "$TMP/early" "$TMP/early.xml"
expect_grep 'the load ended before the measurement did.*not under load throughout' "$TMP/out"
validate_junit "$TMP/early/junit.xml" --tests 1 --failures 0 --errors 1 --skipped 0
no_load_left "after loads that failed"

# ---- 7. a file-wide load applies to every requirement; its own overrides it
req_file "$TMP/wide.xml" wide "" '  <load tool="stress-ng" args="--cpu 1"/>' \
  "$(req A "$TIMER" '<run iterations="20" runs="1" warmup="0"/>')" \
  "$(req B "$TIMER" '<run iterations="20" runs="1" warmup="0"/>' '--io 1')"
expect_status 0 rtc run -o "$TMP/wide" "$TMP/wide.xml"
validate_junit "$TMP/wide/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0 \
  --property A.load.command --property B.load.command
[[ "$(prop A.load.command "$TMP/wide/junit.xml")" == */stress-ng\ --cpu\ 1 ]] && ok "A: the file-wide load is used" || fail "A: file-wide load not used"
[[ "$(prop B.load.command "$TMP/wide/junit.xml")" == */stress-ng\ --io\ 1 ]] && ok "B: its own load is used" || fail "B: own load not used"
no_load_left "after file-wide loads"

# ---- 8. validation: only stress-ng, no shell syntax, not empty
for spec in 'tool="stress" args="--cpu 1"|load tool .stress. is not supported \(expected stress-ng\)' \
            'tool="stress-ng" args="--cpu 1; reboot"|load args: .;. is not allowed: args are split on blanks' \
            'tool="stress-ng" args="--cpu $(nproc)"|load args: .\$. is not allowed' \
            'tool="stress-ng" args=""|load args are empty'; do
  attrs="${spec%%|*}"; want="${spec#*|}"
  # line 2: the requirement (req_file's layout)
  req_file "$TMP/v.xml" v "" "$(requirement V "$TIMER<load $attrs/>" '<limit statistic="max" max="1s"/>')"
  expect_status 2 "$RTC" validate "$TMP/v.xml"
  expect_grep "v.xml:2: requirement V: $want" "$TMP/out"
  # the same, file-wide: line 2 is the load
  req_file "$TMP/vw.xml" v "" "  <load $attrs/>" "$(requirement V "$TIMER<limit statistic=\"max\" max=\"1s\"/>")"
  expect_status 2 "$RTC" run -o "$TMP/vw" "$TMP/vw.xml"
  expect_grep "vw.xml:2: $want" "$TMP/out"
done
no_load_left "at the end"
finish
