# SPDX-License-Identifier: Apache-2.0
# Every probe on a C library layer that accepts scheduling requests and
# silently ignores them (tests/fake/fake_sched.c, preloaded): whenever the
# layer left a task running otherwise than it asked, the probe must end in
# an error that says so (a mutex protocol ignored may instead show in the
# probe's violations count), never in a pass. The probes and the values of
# their enum parameters come from `rtconform list`, so a new probe, or a
# new way of a probe to start tasks, is covered without a line here.
. "$(dirname "$0")/lib.sh"
FAKE="$(cd "$(dirname "$RTC")" && pwd)/tests/libfake_sched.so"
if [ "$(id -u)" -ne 0 ]; then
  skip_all "this test runs SCHED_FIFO probes and must run as root"
fi
[ -f "$FAKE" ] && ok "the fake scheduling library is built" || { fail "no $FAKE (built with the tests)"; finish; }
PRELOAD="$(preload "$FAKE")"
last_cpu=$(( $(nproc) - 1 ))

# Each probe says what it verifies (rtconform list), and docs/probes.md's
# table says the same.
while IFS='|' read -r probe text; do
  grep -qF "| $probe | $text |" "$SRC/docs/probes.md" && ok "docs/probes.md says what $probe verifies" \
    || fail "docs/probes.md does not say what $probe verifies: $text"
done < <("$RTC" list | awk '/^[a-z]/ { p = $1 }
  sub(/^    verifies at the kernel before measuring: the worker.s policy, priority and CPUs; /, "") { print p "|" $0 }')

# combos : "PROBE [--param K=V]" lines: each probe with its defaults, then
# with each value of each enum parameter (the selftest probe's fault
# parameter is left out: its faults are crashes and hangs on purpose).
combos() {
  "$RTC" list | awk '
    /^[a-z]/ { probe = $1; print probe; next }
    $1 == "param" && $3 ~ /\|/ && $2 != "fault" {
      n = split($3, v, "|")
      for (i = 1; i <= n; i++) print probe " --param " $2 "=" v[i]
    }'
}

# try MODE EXTRA COMBO : run COMBO under the fake layer in MODE; judge it.
try() {
  local mode="$1" extra="$2" combo="$3" log="$TMP/fake.log" st=0
  rm -f "$log"
  # shellcheck disable=SC2086
  LD_PRELOAD="$PRELOAD" RTC_FAKE_SCHED="$mode" RTC_FAKE_LOG="$log" \
    "$RTC" probe $combo --policy fifo --priority 50 $extra --iterations 20 --runs 1 \
    --warmup 2 --timeout 60s >"$TMP/out" 2>&1 || st=$?
  RUNS=$((RUNS + 1))
  if ! grep -q '^deviated' "$log" 2>/dev/null; then
    return 0
  fi
  DEVIATED=$((DEVIATED + 1))
  if [ "$st" -eq 3 ] && grep -Eq 'did not take|did not start' "$TMP/out"; then
    ok "$mode: '$combo $extra' ran otherwise than asked and says so (exit 3)"; return 0
  fi
  if [ "$mode" = protocol ] && awk '/^metric violations:/ { m = 1 } m && $1 == "total" { exit !($2 > 0) }' "$TMP/out"; then
    ok "$mode: '$combo $extra' ran without a protocol and counts the violations"; return 0
  fi
  fail "$mode: '$combo $extra' ran a task otherwise than asked ($(grep -m1 '^deviated' "$log" | cut -d' ' -f2)) and exited $st without saying so:"
  sed 's/^/    /' "$TMP/out" | head -12
}

# sweep MODE EXTRA : every combination in MODE; prints "runs deviated".
sweep() {
  RUNS=0 DEVIATED=0
  while read -r combo; do
    try "$1" "$2" "$combo"
  done < <(combos)
  echo "$1${2:+ $2}: $RUNS runs, $DEVIATED with a task that did not run as asked"
}

# Thread attributes ignored: every thread a probe starts with its own
# policy, priority or CPUs runs as its creator does.
sweep attr ""
[ "$DEVIATED" -gt 0 ] && ok "attr: a probe started a thread the layer could break" || fail "attr: no probe started a thread the layer could break"
# Policy and priority ignored: the worker itself stays SCHED_OTHER, so every
# run deviates and every run must be an error.
sweep policy ""
[ "$DEVIATED" -eq "$RUNS" ] && ok "policy: every run asked for a policy" || fail "policy: only $DEVIATED of $RUNS runs asked for a policy"
# CPU affinity ignored, the worker pinned: every run deviates.
if [ "$last_cpu" -gt 0 ]; then
  sweep affinity "--cpu $last_cpu"
  [ "$DEVIATED" -eq "$RUNS" ] && ok "affinity: every run was pinned" || fail "affinity: only $DEVIATED of $RUNS runs were pinned"
fi
# mlockall accepted and ignored: every worker locks its memory, so every
# run deviates and every run must be an error.
# (A sanitizer build locks nothing by design and says so in every report.)
if "$RTC" --version | grep -q 'sanitizer build'; then
  echo "memlock: not swept: a sanitizer build does not lock memory"
else
  sweep memlock ""
  [ "$DEVIATED" -eq "$RUNS" ] && ok "memlock: every run locked memory" || fail "memlock: only $DEVIATED of $RUNS runs locked memory"
fi
# A mutex protocol ignored: the probes that ask for one must not pass.
sweep protocol ""
[ "$DEVIATED" -gt 0 ] && ok "protocol: a probe asked for a mutex protocol" || fail "protocol: no probe asked for a mutex protocol"
finish
