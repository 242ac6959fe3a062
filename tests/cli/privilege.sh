# SPDX-License-Identifier: Apache-2.0
# Without privilege, a SCHED_FIFO requirement is an error verdict that says
# how to grant it; it is never measured under another policy.
. "$(dirname "$0")/lib.sh"
command -v setpriv >/dev/null || { fail "setpriv missing: ci/deps installs util-linux"; finish; }
if [ "$(id -u)" -ne 0 ]; then
  skip_all "this test drops privilege with setpriv and must start as root"
fi
unpriv_copy
mkdir -p "$TMP/out-nobody" && chown nobody "$TMP/out-nobody"
cp "$FIX/cli/pass.xml" "$TMP/pass.xml" && chmod 644 "$TMP/pass.xml"
# A: memlock limit too low for mlockall: every requirement is an error that
# says how to grant it (the policy is irrelevant: nothing is measured unlocked).
# A sanitizer build cannot lock memory at all and must say so in its reports.
if "$RTC" --version | grep -q 'sanitizer build'; then
  expect_status 3 bash -c "ulimit -l 64; exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
    --inh-caps=-all --bounding-set=-all -- '$URTC' run -o '$TMP/out-nobody' '$TMP/pass.xml'"
  # nothing is locked, so only the SCHED_FIFO requirement errs (no privilege)
  validate_junit "$TMP/out-nobody/junit.xml" --tests 2 --failures 0 --errors 1 --skipped 0 \
    --property PP-OTHER.verdict=pass --property PP-FIFO.verdict=error
  expect_grep 'name="rtconform.build" value="sanitizer[^"]*memory not locked' "$TMP/out-nobody/junit.xml"
else
  expect_status 3 bash -c "ulimit -l 64; exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
    --inh-caps=-all --bounding-set=-all -- '$URTC' run -o '$TMP/out-nobody' '$TMP/pass.xml'"
  validate_junit "$TMP/out-nobody/junit.xml" --tests 2 --failures 0 --errors 2 --skipped 0
  [ "$(xpath_count '//error[contains(@message,"mlockall refused")]' "$TMP/out-nobody/junit.xml")" = 2 ] \
    && ok "both requirements are refused by mlockall" || fail "expected both requirements refused by mlockall"
  expect_grep 'CAP_IPC_LOCK' "$TMP/out-nobody/junit.xml"
fi

# B: memory may be locked (CAP_IPC_LOCK kept as an ambient capability; the
# hard memlock limit may not be raisable here), but no rtprio and no
# CAP_SYS_NICE: the SCHED_OTHER
# requirement is measured, the SCHED_FIFO one is an error naming the remedy
# and carries no statistics (it was not measured under another policy).
mkdir -p "$TMP/out-b" && chown nobody "$TMP/out-b"
expect_status 3 bash -c "ulimit -r 0; exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
  --inh-caps=-all,+ipc_lock --ambient-caps=+ipc_lock --bounding-set=-all,+ipc_lock \
  -- '$URTC' run -o '$TMP/out-b' '$TMP/pass.xml'"
validate_junit "$TMP/out-b/junit.xml" --tests 2 --failures 0 --errors 1 --skipped 0 \
  --property PP-OTHER.verdict=pass --property PP-FIFO.verdict=error
expect_grep '<error[^>]*SCHED_FIFO priority 10 refused' "$TMP/out-b/junit.xml"
expect_grep 'CAP_SYS_NICE' "$TMP/out-b/junit.xml"
expect_fact PP-OTHER.verdict '^pass$' "$TMP/out-b/junit.xml"
expect_no_grep 'PP-FIFO\.per-op\.mean_ns' "$TMP/out-b/junit.xml"

# C: no capability, a memlock limit the small worker fits in but rtconform
# itself (libxml2, ICU) would not: env judges mlockall by the worker, which
# is what locks, and agrees with a run, whose SCHED_OTHER requirement is
# measured. (A sanitizer build cannot lock memory at all.)
if ! "$RTC" --version | grep -q 'sanitizer build'; then
  as_nobody_8m() {
    bash -c 'ulimit -l 8192; exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
      --inh-caps=-all --bounding-set=-all -- "$@"' as_nobody_8m "$@"
  }
  expect_status 0 as_nobody_8m "$URTC" env
  expect_grep '^  ok +mlockall +memory can be locked' "$TMP/out"
  expect_no_grep '^  fail +mlockall' "$TMP/out"
  mkdir -p "$TMP/out-c" && chown nobody "$TMP/out-c"
  expect_status 0 as_nobody_8m "$URTC" run --only PP-OTHER -o "$TMP/out-c" "$TMP/pass.xml"
  validate_junit "$TMP/out-c/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0 \
    --property PP-OTHER.verdict=pass
fi
finish
