# SPDX-License-Identifier: Apache-2.0
# Trace on breach: <trace/> and run --trace. A breach saves trace-<ID>.txt
# (beside report.html; trace-<ID>~2.txt for a second requirement of that
# id) with the marker and the scheduler's events and every report links it; no
# breach, no file; results.json and summary.txt name it by its name,
# report.html links it ("./" and the name) and junit.xml attaches it by its
# absolute path, also when `report` renders them again from results.json;
# without privilege the requirement is measured and every report says why
# there is no trace; a bad <trace/> is refused (exit 2).
# The machine's tracing state (whether tracefs is mounted, the top-level
# tracing_on, current_tracer, set_event, buffer size, the instances) is
# compared before and after every run, including an interrupt, a timeout
# and a crashed worker. Two traced runs that overlap share tracefs: the one
# that ends first unmounts nothing the other uses, the last one leaves it
# as found, and a killed run's mount and instance are put right by the
# next. The stale-instance sweep removes only instances it proves dead.
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  skip_all "this test arms kernel traces and must run as root"
fi
command -v setpriv >/dev/null || { fail "setpriv missing: ci/deps installs util-linux"; finish; }
command -v mountpoint >/dev/null || { fail "mountpoint missing: ci/deps installs util-linux"; finish; }
grep -qw tracefs /proc/filesystems || { fail "this kernel has no tracefs"; finish; }
TRACING=/sys/kernel/tracing
# A private view of tracefs (the same instances and top-level files), so
# the state can be read without touching the mount at $TRACING.
TFS="$TMP/tfs"
mkdir -p "$TFS"
mount -t tracefs nodev "$TFS" || { fail "cannot mount tracefs at $TFS"; finish; }
trap 'umount "$TFS" 2>/dev/null; lib_exit' EXIT

# snap : the tracing state a run must leave as found
snap() {
  if mountpoint -q "$TRACING"; then echo "mounted at $TRACING"; else echo "not mounted"; fi
  local f
  for f in tracing_on current_tracer set_event buffer_size_kb trace_clock events/enable; do
    echo "$f: $(cat "$TFS/$f")"
  done
  # an instance of a live rtconform that is not this test's belongs to
  # another run on this machine (a second test suite): not ours to judge
  local i mine=""
  for i in $(ls "$TFS/instances"); do
    if [[ "$i" =~ ^rtconform-([0-9]+)-[0-9]+(-[0-9]+-[0-9]+)?$ ]] && [ -d "/proc/${BASH_REMATCH[1]}" ] &&
       ! { tr '\0' '\n' <"/proc/${BASH_REMATCH[1]}/environ"; } 2>/dev/null | grep -qx "RTC_TEST_MARK=$RTC_TEST_MARK"; then
      continue
    fi
    mine="$mine$i "
  done
  echo "instances: $mine"
}
# expect_state WHAT : the state is the one snapped in $TMP/state0
expect_state() {
  snap >"$TMP/state1"
  if cmp -s "$TMP/state0" "$TMP/state1"; then ok "$1: the tracing state is unchanged"; else
    fail "$1: tracing state changed:"; diff "$TMP/state0" "$TMP/state1" | sed 's/^/    /'
  fi
}
# rtc_instances PID : the tracefs instances of rtconform PID
rtc_instances() { ls "$TFS/instances" | grep -E "^rtconform-$1-[0-9]+-[0-9]+-[0-9]+\$"; }
# tracing_source : the source of the mount on top at $TRACING ("" if none)
tracing_source() { awk -v m="$TRACING" '$5 == m { for (i = 7; $i != "-"; i++); s = $(i + 2) } END { print s }' /proc/self/mountinfo; }
# set_mounted yes|no : tracefs mounted at $TRACING (by this test) or not
set_mounted() {
  if [ "$1" = yes ]; then mountpoint -q "$TRACING" || mount -t tracefs nodev "$TRACING"
  else while mountpoint -q "$TRACING"; do umount "$TRACING" || break; done; fi
}

cat >"$TMP/breach.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="trace">
  <defaults iterations="2000" runs="2" warmup="10" timeout="60s"/>
  <requirement id="BREACH"><probe name="sem-pingpong"/><sched policy="fifo" priority="max"/>
    <limit metric="per-op" statistic="max" max="60s"/>
    <trace threshold="1ns"/></requirement>
  <requirement id="QUIET"><probe name="sem-pingpong"/><sched policy="fifo" priority="max"/>
    <limit statistic="mean" max="60s"/>
    <trace metric="per-op" threshold="10s"/></requirement>
</requirements>
XML

# run_breach DIR : the breach file into DIR, and every check of its reports
run_breach() {
  local d="$1" t
  expect_status 0 "$RTC" run -o "$d" "$TMP/breach.xml"
  t="$(realpath "$d")/trace-BREACH.txt"
  [ -s "$t" ] && ok "$t is written" || { fail "$t missing"; return; }
  expect_grep 'tracing_mark_write: rtconform breach: requirement BREACH metric (per-op|wakeup) value [0-9]+ ns > 1 ns run [12]' "$t"
  expect_grep 'sched_switch: ' "$t"
  expect_grep 'sched_wakeup: ' "$t"
  [ ! -e "$d/trace-QUIET.txt" ] && ok "QUIET was not breached and has no trace" || fail "QUIET was not breached but has a trace"
  expect_grep "^\[\[ATTACHMENT\|$t\]\]\$" "$d/junit.xml"
  expect_grep 'trace: tripped by (per-op|wakeup) .* &gt; 1 ns in run [12]' "$d/junit.xml"
  expect_grep 'trace: armed, not tripped' "$d/junit.xml"
  validate_junit "$d/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0
  expect_grep '"trace": "trace-BREACH.txt"' "$d/results.json"
  expect_grep '"trace_note": "trace: tripped by' "$d/results.json"
  expect_grep 'href="\./trace-BREACH\.txt"' "$d/report.html"
  expect_grep "BREACH trace file: trace-BREACH\.txt\$" "$d/summary.txt"
  expect_grep 'QUIET trace: armed, not tripped' "$d/summary.txt"
  [ "$("$JUNIT_PY" "$JUNIT_CHECK" "$d/junit.xml" --attachments)" = "$t" ] \
    && ok "the JUnit Attachments plugin would archive $t alone" \
    || fail "the JUnit Attachments plugin would not archive $t alone"
  # rtconform report renders the trace from results.json again, and
  # attaches it from the directory of the results.json it reads
  expect_status 0 "$RTC" report "$d/results.json" --summary "$TMP/again.txt" --html "$TMP/again.html" \
    --junit "$TMP/again.xml"
  expect_grep "BREACH trace file: trace-BREACH\.txt\$" "$TMP/again.txt"
  expect_grep 'href="\./trace-BREACH\.txt"' "$TMP/again.html"
  expect_grep "^\[\[ATTACHMENT\|$t\]\]\$" "$TMP/again.xml"
}

# 1. A breach, and a trace that is armed but never trips, as the machine is.
snap >"$TMP/state0"
# The comparison sees an instance left behind (this one is the test's own).
mkdir "$TFS/instances/rtc-test-$$"
snap >"$TMP/state1"
cmp -s "$TMP/state0" "$TMP/state1" && fail "snap misses a leftover instance" || ok "snap sees a leftover instance"
rmdir "$TFS/instances/rtc-test-$$"
run_breach "$TMP/r1"
expect_state "a run with traces"

# 2. The same with tracefs in the other state (mounted <-> not mounted), so
# that rtconform both mounts it itself and uses a mount it finds.
# A mount another tracer holds open cannot be unmounted ("target is busy"):
# it is tried again for up to 30 s, then the check fails and says so.
other=
if mountpoint -q "$TRACING"; then
  for _ in $(seq 30); do umount "$TRACING" 2>/dev/null && { other=unmounted; break; }; sleep 1; done
else
  mount -t tracefs nodev "$TRACING" && other=mounted
fi
if [ -z "$other" ]; then
  fail "tracefs at $TRACING could not be switched to the other state (busy for 30 s: another tracer holds it)"
  finish
fi
snap >"$TMP/state0"
run_breach "$TMP/r2"
expect_state "a run with traces, tracefs $other"
if [ "$other" = mounted ]; then umount "$TRACING"; else mount -t tracefs nodev "$TRACING"; fi
snap >"$TMP/state0"

# 3. run --trace: a limit's max= is the trip; the breach fails the limit.
cat >"$TMP/tight.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="tight">
  <requirement id="TIGHT.1"><probe name="sem-pingpong"/><run iterations="500" runs="1"/>
    <limit metric="per-op" statistic="max" max="1ns"/></requirement>
  <requirement id="COUNT-ONLY"><probe name="sem-pingpong"/><run iterations="50" runs="1"/>
    <limit metric="involuntary-switches" statistic="max" max="1000000"/></requirement>
</requirements>
XML
expect_status 1 "$RTC" run --trace -o "$TMP/tight" "$TMP/tight.xml"
expect_grep 'tracing_mark_write: rtconform breach: requirement TIGHT.1 metric per-op value [0-9]+ ns > 1 ns' \
  "$TMP/tight/trace-TIGHT.1.txt"
expect_grep 'COUNT-ONLY trace: not armed: no duration metric' "$TMP/tight/summary.txt"
# Without --trace the same file arms nothing and writes no trace.
expect_status 1 "$RTC" run -o "$TMP/untraced" "$TMP/tight.xml"
[ -z "$(ls "$TMP/untraced" | grep '^trace-')" ] && ok "no trace without <trace/> or --trace" || fail "a trace without <trace/> or --trace"
expect_no_grep 'trace' "$TMP/untraced/summary.txt"
expect_state "run --trace"

# 3b. Two files with the same id, report.html and junit.xml in different
# directories: each trace gets its own file (the second trace-X.1~2.txt),
# beside report.html, which links it by name, as results.json names it;
# junit.xml attaches each requirement's own trace by its absolute path.
for f in a b; do
  cat >"$TMP/dup-$f.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="dup-$f">
  <requirement id="X.1"><probe name="sem-pingpong"/><run iterations="500" runs="1"/>
    <limit metric="per-op" statistic="max" max="60s"/><trace threshold="1ns"/></requirement>
</requirements>
XML
done
mkdir -p "$TMP/dup/h" "$TMP/dup/j"
expect_status 0 "$RTC" run -o "$TMP/dup" --html "$TMP/dup/h/report.html" \
  --junit "$TMP/dup/j/junit.xml" "$TMP/dup-a.xml" "$TMP/dup-b.xml"
h="$(realpath "$TMP/dup/h")"
for t in trace-X.1.txt 'trace-X.1~2.txt'; do
  expect_grep 'rtconform breach: requirement X.1 ' "$h/$t"
  expect_grep "^\[\[ATTACHMENT\|$h/$t\]\]\$" "$TMP/dup/j/junit.xml"
  expect_grep "\"trace\": \"$t\"" "$TMP/dup/results.json"
  expect_grep "href=\"\./$t\"" "$TMP/dup/h/report.html"
done
[ -z "$(ls "$TMP/dup/j" "$TMP/dup" | grep '^trace-')" ] && ok "every trace is beside report.html" || fail "a trace not beside report.html"
# in file order: a's requirement has the first name, b's the second
[ "$(grep -o 'trace-X\.1[~0-9]*\.txt' "$TMP/dup/results.json" | uniq | tr '\n' ' ')" = \
  "trace-X.1.txt trace-X.1~2.txt " ] && ok "traces are named in file order" || fail "traces not named in file order"
expect_state "two files with one id"

# 4. Interrupt, timeout and a crashed worker: the instance goes, the state
# is as found.
cat >"$TMP/long.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="long">
  <requirement id="LONG"><probe name="sem-pingpong"/>
    <run iterations="100000000" runs="1" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/><trace threshold="60s"/></requirement>
</requirements>
XML
for how in INT TERM SEGV; do
  "$RTC" run -o "$TMP/$how" "$TMP/long.xml" >"$TMP/out.$how" 2>&1 &
  pid=$!
  wait_for "$how: LONG's worker to measure" "$START_WAIT" worker_measuring "$pid"
  [ -n "$(rtc_instances "$pid")" ] && ok "$how: a tracefs instance while measuring" || fail "$how: no tracefs instance while measuring"
  if [ "$how" = SEGV ]; then kill -SEGV "$(worker_of "$pid")"; else kill -"$how" "$pid"; fi
  wait "$pid"; st=$?
  [ "$st" -eq 3 ] && ok "$how: exit 3" || fail "$how: exit $st, expected 3"
  expect_grep 'trace: armed, not tripped' "$TMP/$how/summary.txt"
  expect_state "SIG$how"
  expect_no_leftovers "SIG$how"
done
sed 's/timeout="120s"/timeout="1s"/' "$TMP/long.xml" >"$TMP/timeout.xml"
expect_status 3 "$RTC" run -o "$TMP/timeout" "$TMP/timeout.xml"
expect_grep 'timed out' "$TMP/timeout/summary.txt"
expect_state "a timeout"

# 5. The stale-instance sweep of the next traced run removes an instance
# only when it proves its owner dead: of our PID namespace, and the pid gone
# or now a process with another start time. It keeps one of a live process
# with its start time, one of another namespace (a container's: its pid
# means nothing here) and one of a form it does not know (an older
# rtconform's). Done with tracefs mounted by this test: an instance that may
# be in use keeps a mount rtconform made (5c).
orig_mounted=no; mountpoint -q "$TRACING" && orig_mounted=yes
set_mounted yes
true & dead=$!; wait "$dead"
ns=$(stat -L -c %i /proc/self/ns/pid)
# field 22 of /proc/PID/stat: the 20th after the name's closing ')'
start=$(sed 's/.*) //' "/proc/$$/stat" | cut -d' ' -f20)
gone="rtconform-$dead-$start-$ns-0 rtconform-$$-$((start + 1))-$ns-0"
kept="rtconform-$$-$start-$ns-0 rtconform-$dead-$start-$((ns + 1))-0 rtconform-$dead-0"
for i in $gone $kept; do mkdir "$TFS/instances/$i"; done
expect_status 0 "$RTC" run -o "$TMP/sweep" --only QUIET "$TMP/breach.xml"
for i in $gone; do
  [ ! -d "$TFS/instances/$i" ] && ok "the sweep removes $i (owner gone or another process)" || fail "the sweep left $i"
done
for i in $kept; do
  [ -d "$TFS/instances/$i" ] && ok "the sweep keeps $i (owner alive, of another namespace or unknown)" || fail "the sweep removed $i"
done
for i in $gone $kept; do rmdir "$TFS/instances/$i" 2>/dev/null; done
set_mounted "$orig_mounted"
expect_state "the stale instance sweep"

# 5b. Two traced runs that overlap, tracefs not mounted: A mounts it
# (marked as rtconform's), B starts while A measures and uses that mount,
# A ends first and leaves the mount to B; B's trace is saved, and B, the
# last, unmounts. Both trip at once and measure until interrupted, so the
# order is the test's, not the scheduler's.
set_mounted no
snap >"$TMP/state0"
cat >"$TMP/trip.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="overlap">
  <requirement id="OVERLAP"><probe name="sem-pingpong"/>
    <run iterations="100000000" runs="1" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/><trace threshold="1ns"/></requirement>
</requirements>
XML
"$RTC" run -o "$TMP/ovA" "$TMP/trip.xml" >"$TMP/out.ovA" 2>&1 &
a=$!
wait_for "A's worker to measure" "$START_WAIT" worker_measuring "$a"
[ "$(tracing_source)" = rtconform ] && ok "A mounted tracefs, marked as rtconform's" \
  || fail "tracefs at $TRACING is not rtconform's mount: '$(tracing_source)'"
"$RTC" run -o "$TMP/ovB" "$TMP/trip.xml" >"$TMP/out.ovB" 2>&1 &
b=$!
wait_for "B's worker to measure" "$START_WAIT" worker_measuring "$b"
[ -n "$(rtc_instances "$a")" ] && [ -n "$(rtc_instances "$b")" ] && ok "A and B each have an instance" \
  || fail "A and B do not both have an instance"
kill -INT "$a"; wait "$a"; st=$?
[ "$st" -eq 3 ] && ok "A: exit 3 (interrupted)" || fail "A: exit $st, expected 3"
[ -z "$(rtc_instances "$a")" ] && ok "A removed its instance" || fail "A left its instance"
mountpoint -q "$TRACING" && ok "A leaves tracefs mounted while B uses it" || fail "A unmounted tracefs B uses"
kill -INT "$b"; wait "$b"; st=$?
[ "$st" -eq 3 ] && ok "B: exit 3 (interrupted)" || fail "B: exit $st, expected 3"
for r in ovA ovB; do
  [ -s "$TMP/$r/trace-OVERLAP.txt" ] && ok "$r: trace-OVERLAP.txt is written" || fail "$r: trace-OVERLAP.txt missing or empty"
  expect_grep 'rtconform breach: requirement OVERLAP ' "$TMP/$r/trace-OVERLAP.txt"
  expect_grep '"trace_note": "trace: tripped by' "$TMP/$r/results.json"
  expect_no_grep 'could not be' "$TMP/$r/results.json"
done
expect_state "two overlapping runs (tracefs unmounted by the last)"
expect_no_leftovers "two overlapping runs"

# 5c. A run killed outright leaves its instance and the mount it made; the
# next traced run sweeps the instance (its owner is gone) and, the last
# rtconform to use the mount, unmounts it.
"$RTC" run -o "$TMP/killed" "$TMP/trip.xml" >"$TMP/out.killed" 2>&1 &
k=$!
wait_for "the run to be killed to measure" "$START_WAIT" worker_measuring "$k"
w="$(worker_of "$k")"
kill -KILL "$k"; wait "$k" 2>/dev/null
wait_for "its worker to end" "$END_WAIT" test ! -e "/proc/$w"
wait_for "the killed run's processes to end" "$END_WAIT" no_marked_procs
[ -n "$(rtc_instances "$k")" ] && [ "$(tracing_source)" = rtconform ] \
  && ok "a killed run leaves its instance and rtconform's mount" \
  || fail "a killed run left no instance or no mount (the case is not tested)"
expect_status 0 "$RTC" run -o "$TMP/after" --only QUIET "$TMP/breach.xml"
expect_state "the run after a killed one"
expect_no_leftovers "a killed run"

# 5d. Someone else unmounts tracefs while a run measures (lazily: the
# worker's open files would refuse a plain umount). The note names that
# cause, not the output directory; the instance, out of reach, is left, and
# the next traced run sweeps it.
"$RTC" run -o "$TMP/lost" "$TMP/trip.xml" >"$TMP/out.lost" 2>&1 &
l=$!
wait_for "the run to measure" "$START_WAIT" worker_measuring "$l"
umount -l "$TRACING"
kill -INT "$l"; wait "$l"; st=$?
[ "$st" -eq 3 ] && ok "unmounted under a run: exit 3 (interrupted)" || fail "unmounted under a run: exit $st, expected 3"
# (the worst breach is kept as the run goes: one kept before the unmount
# is saved, and the note says the trace was lost after it; one not yet
# kept is lost, and no file is written)
expect_grep '"trace_note": "trace: tripped by .*(, but the trace could not be saved|; then the trace was lost): tracefs is no longer mounted at /sys/kernel/tracing: someone else unmounted it' \
  "$TMP/lost/results.json"
expect_no_grep 'could not be written' "$TMP/lost/results.json"
if grep -q 'then the trace was lost' "$TMP/lost/results.json"; then
  [ -s "$TMP/lost/trace-OVERLAP.txt" ] && ok "the breach kept before tracefs went is saved" || fail "a breach kept before tracefs went, but no trace file"
else
  [ ! -e "$TMP/lost/trace-OVERLAP.txt" ] && ok "no trace file when the trace was out of reach" || fail "a trace file although tracefs was gone"
fi
wait_for "the run's processes to end" "$END_WAIT" no_marked_procs
[ -n "$(rtc_instances "$l")" ] && ok "the instance out of reach is left" || fail "no instance left (the sweep case is not tested)"
expect_status 0 "$RTC" run -o "$TMP/after2" --only QUIET "$TMP/breach.xml"
expect_state "the run after tracefs was unmounted under one"

# 5e. The lock is taken: a holder that does not let go (this shell, for the
# run's whole length) costs the trace after TRACE_LOCK_WAIT_MS (10 s), never
# the run, and tracefs is not touched without it.
command -v flock >/dev/null || fail "flock missing: ci/deps installs util-linux"
exec 9>>/run/rtconform-tracefs.lock
flock -x 9
expect_status 0 "$RTC" run -o "$TMP/locked" --only QUIET "$TMP/breach.xml" 9>&-
exec 9>&-
expect_grep '"trace_note": "trace: not available: cannot lock /run/rtconform-tracefs.lock: .*\(another rtconform holds it\)' \
  "$TMP/locked/results.json"
expect_state "a run that could not have the lock"
set_mounted "$orig_mounted"
snap >"$TMP/state0"

# 6. Without privilege (no root, only CAP_IPC_LOCK): measured as usual, and
# every report says why there is no trace.
unpriv_copy
sed -e 's/<sched policy="fifo" priority="max"\/>//' "$TMP/breach.xml" >"$TMP/other.xml"
chmod 644 "$TMP/other.xml"
mkdir -p "$TMP/nobody" && chown nobody "$TMP/nobody"
expect_status 0 setpriv --reuid=nobody --regid=nogroup --clear-groups \
  --inh-caps=-all,+ipc_lock --ambient-caps=+ipc_lock --bounding-set=-all,+ipc_lock \
  -- "$URTC" run -o "$TMP/nobody" "$TMP/other.xml"
for f in junit.xml summary.txt report.html results.json; do
  expect_grep 'trace: not available: .*(Permission denied|not permitted)' "$TMP/nobody/$f"
done
validate_junit "$TMP/nobody/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0 \
  --property BREACH.verdict=pass
[ -z "$(ls "$TMP/nobody" | grep '^trace-')" ] && ok "an unprivileged run writes no trace" || fail "an unprivileged run wrote a trace"
expect_state "an unprivileged run"

# 7. A <trace/> that cannot work is refused before anything is measured.
bad() { # bad NAME TRACE-ELEMENT [LIMIT] : exit 2, the message names file:line
  cat >"$TMP/$1.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="bad">
  <requirement id="B"><probe name="sem-pingpong"/>${3:-}
    $2</requirement>
</requirements>
XML
  expect_status 2 "$RTC" run -o "$TMP/bad-$1" "$TMP/$1.xml"
  expect_grep "$1.xml:3: .*$4" "$TMP/out"
  [ ! -e "$TMP/bad-$1/junit.xml" ] && ok "$1: no report is written" || fail "$1: a report was written"
}
bad threshold '<trace threshold="fast"/>' '' 'threshold="fast"'
bad zero '<trace threshold="0us"/>' '' 'threshold="0us"'
bad metric '<trace metric="latency" threshold="1us"/>' '' 'metric="latency".*no duration metric'
bad count '<trace metric="page-faults" threshold="1us"/>' '' 'metric="page-faults"'
bad nothing '<trace/>' '<limit statistic="mean" max="100000 cycles"/>' 'nothing to trip on'
cat >"$TMP/nothing2.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="bad">
  <requirement id="B"><probe name="sem-pingpong"/>
    <limit statistic="max" max="1ms"/><trace/></requirement>
</requirements>
XML
expect_status 0 "$RTC" validate "$TMP/nothing2.xml"
expect_state "refused files"
finish
