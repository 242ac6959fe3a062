# SPDX-License-Identifier: Apache-2.0
# Without root, the capabilities that count are the worker's: rtconform
# execs rtconform-worker, and file capabilities on rtconform are lost at that
# exec while those on the worker are gained. `rtconform env` and the reports
# must say what the worker will have, and a refusal's remedy must name the
# worker. The test works on a copy of the three programs in its own
# directory (rtconform runs the worker beside itself), so the build tree's
# binaries and every other test running at the same time are untouched.
. "$(dirname "$0")/lib.sh"
for tool in setpriv setcap getcap; do
  command -v "$tool" >/dev/null || { fail "$tool missing: ci/deps installs util-linux and libcap2-bin"; finish; }
done
if [ "$(id -u)" -ne 0 ]; then
  skip_all "this test sets file capabilities and drops privilege with setpriv: it must start as root"
fi
if "$RTC" --version | grep -q 'sanitizer build'; then
  # A sanitizer build cannot lock memory; the verdicts below would differ.
  SAN=1
else
  SAN=0
fi
BIN="$TMP/bin"
mkdir -p "$BIN" "$TMP/res" && chmod 755 "$TMP" "$BIN" && chown nobody "$TMP/res"
cp "$RTC" "$(dirname "$RTC")/rtconform-worker" "$(dirname "$RTC")/rtconform-nop" "$BIN/"
cp "$FIX/cli/pass.xml" "$TMP/pass.xml" && chmod 644 "$TMP/pass.xml"
W="$BIN/rtconform-worker"

# as_nobody CMD... : CMD as nobody, no capabilities of its own, no rtprio
# and a small memlock limit (so only a capability can allow either).
as_nobody() {
  bash -c 'ulimit -r 0; ulimit -l 64; exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
    --inh-caps=-all "$@"' as_nobody "$@"
}

# 1. Capabilities on the worker: env says the worker has them and why, the
# readiness checks pass, and a SCHED_FIFO requirement is measured.
setcap cap_ipc_lock,cap_sys_nice+ep "$W" && ok "setcap on the copied worker" || fail "setcap on the copied worker failed"
expect_status 0 as_nobody "$BIN/rtconform" env
expect_grep "^host\.privileges +euid 65534; CAP_SYS_NICE no, CAP_IPC_LOCK no" "$TMP/out"
expect_grep "^host\.privileges\.worker +CAP_SYS_NICE yes, CAP_IPC_LOCK yes \(file capabilities on $W\)" "$TMP/out"
expect_grep "^  ok +sched_fifo +real-time policies are allowed \(worker: CAP_SYS_NICE yes" "$TMP/out"
expect_grep "^  ok +mlockall" "$TMP/out"
if [ "$SAN" = 0 ]; then
  expect_status 0 as_nobody "$BIN/rtconform" run -o "$TMP/res" "$TMP/pass.xml"
  validate_junit "$TMP/res/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0 \
    --property PP-FIFO.verdict=pass
  # the whole fingerprint is in results.json (junit.xml's properties are a
  # screen: docs/reports.md)
  expect_grep "\"host\.privileges\.worker\": \"CAP_SYS_NICE yes, CAP_IPC_LOCK yes \(file capabilities on $W\)\"" \
    "$TMP/res/results.json"
  # priority-wake opens its waiters' /proc/self/task/TID/syscall, which the
  # kernel gives to root in a worker with file capabilities (not dumpable):
  # it must still be measured, not end in "Permission denied"
  req_file "$TMP/wake.xml" wake 'iterations="20" runs="2" warmup="2" timeout="30s"' <<XML
  <requirement id="WAKE"><probe name="priority-wake"/><sched policy="fifo" priority="50"/>
    <limit metric="violations" statistic="total" max="0"/></requirement>
XML
  chmod 644 "$TMP/wake.xml"
  rm -rf "$TMP/res/wake" 
  expect_status 0 as_nobody "$BIN/rtconform" run -o "$TMP/res/wake" "$TMP/wake.xml"
  expect_no_grep 'Permission denied' "$TMP/res/wake/summary.txt"
  validate_junit "$TMP/res/wake/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0 \
    --property WAKE.verdict=pass
fi

# 2. Capabilities on rtconform only (the mistake the remedy must correct):
# rtconform has them, the worker does not; env says so, fails the checks and
# names the worker in the setcap line; the FIFO requirement is an error
# whose remedy names the worker, not rtconform.
setcap -r "$W" && setcap cap_ipc_lock,cap_sys_nice+ep "$BIN/rtconform" && ok "the capabilities move to the copied rtconform" || fail "moving the capabilities failed"
expect_status 0 as_nobody "$BIN/rtconform" env
expect_grep "^host\.privileges +euid 65534; CAP_SYS_NICE yes, CAP_IPC_LOCK yes" "$TMP/out"
expect_grep "^host\.privileges\.worker +CAP_SYS_NICE no, CAP_IPC_LOCK no \(no file capabilities on $W\)" "$TMP/out"
expect_grep "^  fail +sched_fifo +no CAP_SYS_NICE for the worker" "$TMP/out"
expect_grep "remedy: .*setcap cap_ipc_lock,cap_sys_nice\+ep $W;" "$TMP/out"
# (A sanitizer's runtime ignores mlockall and reports success: the worker
# cannot tell, and a sanitizer build says in every report that it locks
# nothing.)
[ "$SAN" = 1 ] || expect_grep "^  fail +mlockall" "$TMP/out"
if [ "$SAN" = 0 ]; then
  expect_status 3 as_nobody "$BIN/rtconform" run -o "$TMP/res" "$TMP/pass.xml"
  validate_junit "$TMP/res/junit.xml" --tests 2 --failures 0 --errors 2 --skipped 0
  expect_grep "grant the worker CAP_IPC_LOCK \(setcap cap_ipc_lock,cap_sys_nice\+ep $W\)" "$TMP/res/junit.xml"
fi

# 3. Memory may be locked (an unlimited memlock limit), no capability
# anywhere: the FIFO refusal names the worker's setcap line.
setcap -r "$BIN/rtconform" && ok "setcap -r on the copied rtconform" || fail "setcap -r on the copied rtconform failed"
if [ "$SAN" = 0 ]; then
  expect_status 3 bash -c 'ulimit -r 0; ulimit -l unlimited; exec setpriv --reuid=nobody --regid=nogroup \
    --clear-groups --inh-caps=-all "$@"' x "$BIN/rtconform" run -o "$TMP/res" "$TMP/pass.xml"
  validate_junit "$TMP/res/junit.xml" --tests 2 --failures 0 --errors 1 --skipped 0 \
    --property PP-OTHER.verdict=pass --property PP-FIFO.verdict=error
  expect_grep "SCHED_FIFO priority 10 refused \([^)]*\): run as root, grant the worker CAP_SYS_NICE \(setcap cap_ipc_lock,cap_sys_nice\+ep $W\)" \
    "$TMP/res/junit.xml"
fi

# The copies are this test's own; nothing of the build tree was changed.
[ -z "$(getcap "$(dirname "$RTC")/rtconform-worker" "$RTC")" ] && ok "the build tree's programs carry no file capabilities" \
  || fail "the build tree's programs carry file capabilities (someone else set them)"
finish
