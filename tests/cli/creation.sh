# SPDX-License-Identifier: Apache-2.0
# The creation probes through the CLI: probe output, a run's reports (cycles
# and batch figures in junit.xml), the shipped profile, a fork that really
# fails under RLIMIT_NPROC, a missing rtconform-nop, and nothing left behind.
. "$(dirname "$0")/lib.sh"

for tool in setpriv ps; do
  command -v "$tool" >/dev/null || fail "$tool is missing (util-linux / procps; see ci/deps)"
done
tsc=false
"$RTC" env >"$TMP/env" 2>&1 && grep -Eq '^timebase.name +tsc$' "$TMP/env" && tsc=true

# Every probe and parameter value once under each policy, tiny counts.
cases="thread-create:detached:no thread-create:detached:yes
process-create:method:fork process-create:method:vfork process-create:method:spawn
process-create:method:fork-exec clone:flags:process clone:flags:thread"
{
  n=0
  for c in $cases; do
    IFS=: read -r probe param value <<<"$c"
    for pol in fifo other; do
      n=$((n + 1))
      sched='<sched policy="other"/>'
      [ "$pol" = fifo ] && sched='<sched policy="fifo" priority="max"/>'
      requirement "C$n" "$(probe "$probe" "$param=$value")" "$sched<limit statistic=\"max\" max=\"60s\"/>"
    done
  done
} | req_file "$TMP/all.xml" cli-creation 'iterations="30" runs="3" warmup="3" timeout="60s"'

# probe: statistics, batch figure, every metric (clone: call and child-start)
for c in $cases; do
  IFS=: read -r probe param value <<<"$c"
  expect_status 0 "$RTC" probe "$probe" --param "$param=$value" --policy fifo --iterations 40
  expect_grep '^metric per-op:' "$TMP/out"
  expect_grep '^  batch +[0-9.]+ [mun]?s \(stddev' "$TMP/out"
  if [ "$probe" = clone ]; then
    expect_grep '^metric call:' "$TMP/out"
    expect_grep '^metric child-start:' "$TMP/out"
  fi
  if $tsc; then expect_grep '^  min/mean/max +[0-9.]+ / [0-9.]+ / [0-9.]+ cycles' "$TMP/out"; fi
done

# run: all pass; junit valid, with the key statistics of every metric
expect_status 0 "$RTC" run -o "$TMP/run" "$TMP/all.xml"
validate_junit "$TMP/run/junit.xml" --tests 16 --failures 0 --errors 0 --skipped 0
[ "$(xpath_count '//testcase' "$TMP/run/junit.xml")" = 16 ] && ok "junit.xml has 16 testcases" || fail "expected 16 testcases"
for id in C13 C14 C15 C16; do # the clone requirements
  for m in per-op call child-start; do
    expect_fact "$id.$m" "^kind=duration count=[0-9]+ min_ns=[0-9.]+ mean_ns=[0-9.]+ p50_ns=[0-9.]+ " "$TMP/run/junit.xml"
  done
done
# cycles and the batch figure are in results.json
for n in $(seq 1 16); do
  expect_grep "\"id\": \"C$n\"" "$TMP/run/results.json"
done
if $tsc; then expect_grep '"statistics_cycles": \{' "$TMP/run/results.json"; fi
expect_grep '"batch": \{' "$TMP/run/results.json"
expect_grep '^C16 +clone' "$TMP/run/summary.txt"

# the shipped profile is valid and covers every method under both policies
expect_status 0 "$RTC" validate "$SRC/requirements/profiles/creation.xml"
expect_status 0 "$RTC" list "$SRC/requirements/profiles/creation.xml"
for id in THREAD-JOIN THREAD-DETACHED FORK VFORK SPAWN FORK-EXEC CLONE-PROCESS CLONE-THREAD; do
  expect_grep "^$id-RT +[a-z-]+ +fifo:max" "$TMP/out"
  expect_grep "^$id-OTHER +[a-z-]+ +other" "$TMP/out"
done

# A fork that really fails. Root is exempt from RLIMIT_NPROC, so run as a
# uid no process uses, keeping only CAP_IPC_LOCK (for mlockall). With
# `ulimit -u 2` that uid has rtconform and its worker: the probe's first
# fork, clone or thread is one task too many -> EAGAIN -> error verdict.
uid=47000
while ps -e -o uid= | grep -qx " *$uid"; do uid=$((uid + 1)); done
unpriv_copy
mkdir -m 777 "$TMP/np"
sed 's/iterations="30"/iterations="5"/' "$TMP/all.xml" >"$TMP/np.xml"
chmod 644 "$TMP/np.xml"
expect_status 3 setpriv --reuid="$uid" --regid="$uid" --clear-groups \
  --inh-caps=-all,+ipc_lock --ambient-caps=-all,+ipc_lock \
  bash -c 'ulimit -u 2 && exec "$0" "$@"' "$URTC" run --only C2,C4,C6,C8,C10,C12,C14,C16 \
  -o "$TMP/np/out" "$TMP/np.xml"
# (the 8 --only leaves out are not test cases: run --junit-skipped lists them)
validate_junit "$TMP/np/out/junit.xml" --tests 8 --failures 0 --errors 8 --skipped 0 \
  --property C16.verdict=error
[ "$(xpath_count '//error' "$TMP/np/out/junit.xml")" = 8 ] && ok "RLIMIT_NPROC: junit.xml has 8 errors" ||
  fail "RLIMIT_NPROC: expected 8 <error>s; summary:" "$(cat "$TMP/np/out/summary.txt")"
[ "$(xpath_count '//error[contains(@message, "EAGAIN")]' "$TMP/np/out/junit.xml")" = 8 ] && ok "RLIMIT_NPROC: every error names EAGAIN" ||
  { fail "RLIMIT_NPROC: every error must name EAGAIN:"; sed 's/^/    /' "$TMP/np/out/summary.txt"; }
expect_grep 'fork: EAGAIN' "$TMP/np/out/summary.txt"
expect_grep 'clone: EAGAIN' "$TMP/np/out/summary.txt"
expect_grep 'pthread_create.*: EAGAIN' "$TMP/np/out/summary.txt"
expect_grep 'posix_spawn: EAGAIN' "$TMP/np/out/summary.txt"
if pgrep -u "$uid" >/dev/null; then fail "processes of uid $uid remain: $(pgrep -au "$uid")"; else ok "no process of uid $uid remains"; fi

# rtconform-nop is looked for next to the binary, never on PATH
mkdir "$TMP/bin"
cp "$RTC" "$TMP/bin/rtconform"
cp "$(dirname "$RTC")/rtconform-worker" "$TMP/bin/rtconform-worker"
for m in spawn fork-exec; do
  PATH="$(dirname "$RTC"):$PATH" expect_status 3 "$TMP/bin/rtconform" probe process-create \
    --param method=$m --iterations 5
  expect_grep "$TMP/bin/rtconform-nop" "$TMP/out"
done

# nothing left behind: nothing running from $TMP, no child of this shell but ps
expect_no_leftovers "after the creation runs"
own_children >"$TMP/children"
if [ -s "$TMP/children" ]; then fail "children of the test remain: $(cat "$TMP/children")"; else ok "no child of the test remains"; fi
finish
