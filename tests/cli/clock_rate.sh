# SPDX-License-Identifier: Apache-2.0
# The timebase is checked against the kernel, not the C library: under the
# real libfaketime (Debian's libfaketime, preloaded) running every C
# library clock at half and at twice the kernel's rate, on the TSC path and
# on the clock path (RTC_TIMEBASE=clock), `run` and `probe` give `error`
# for every requirement (exit 3), the reason naming the C library's rate
# against the kernel's (clock_gettime system call), and nothing is judged
# pass or fail; the TSC is still calibrated at its true rate. Without the
# preload the same requirements are measured and judged, and `env` says the
# check agrees. The same preload made to fake the worker's clocks alone
# (libfaketime's FAKETIME_ONLY_CMDS=rtconform-worker) is caught by the
# worker's own check. Behaviour only: no figure is held to a latency.
# RTC_TIMEBASE set to anything but "clock" is refused (exit 2). The
# preload cases are skipped (exit 77) only when libfaketime is not
# installed (ci/deps' test set installs it).
. "$(dirname "$0")/lib.sh"

# RTC_TIMEBASE other than "clock" is refused (exit 2, nothing measured or
# written): a typo timed with the TSC and said so only in timebase.name.
req_file "$TMP/typo.xml" typo <<'XML'
  <requirement id="RAMP"><probe name="selftest"><param name="samples">ramp</param></probe>
    <run iterations="1000" runs="1" warmup="1"/></requirement>
XML
for v in Clock tsc; do
  expect_status 2 env RTC_TIMEBASE="$v" "$RTC" run -q -o "$TMP/typo-$v" "$TMP/typo.xml"
  expect_grep "^rtconform run: timebase: RTC_TIMEBASE=$v in the environment: expected \"clock\"" "$TMP/out"
  [ ! -e "$TMP/typo-$v" ] && ok "RTC_TIMEBASE=$v: nothing written" || fail "RTC_TIMEBASE=$v: $TMP/typo-$v written"
  expect_status 2 env RTC_TIMEBASE="$v" "$RTC" probe sem-pingpong --iterations 100
  expect_no_grep '^metric per-op' "$TMP/out"
  expect_status 2 env RTC_TIMEBASE="$v" "$RTC" env
  expect_grep "^rtconform env: timebase: RTC_TIMEBASE=$v " "$TMP/out"
  expect_status 2 env RTC_TIMEBASE="$v" "$RTC" selftest -o "$TMP/typo-st-$v"
  expect_grep "^rtconform selftest: timebase: RTC_TIMEBASE=$v " "$TMP/out"
  [ ! -e "$TMP/typo-st-$v" ] && ok "selftest, RTC_TIMEBASE=$v: nothing written" || fail "selftest, RTC_TIMEBASE=$v: $TMP/typo-st-$v written"
done

FT=""
for f in /usr/lib/*/faketime/libfaketimeMT.so.1 /usr/lib/faketime/libfaketimeMT.so.1; do
  [ -r "$f" ] && { FT="$f"; break; }
done
[ -n "$FT" ] || skip_all "libfaketime is not installed (apt-get install libfaketime; ci/deps test has it)"
PRE="$(preload "$FT")"

# RAMP would pass (max 1 ms <= 1 ms) and RAMP-OVER fail (> 999 us): under
# the preload neither may be judged.
req_file "$TMP/ramp.xml" clock-rate <<'XML'
  <requirement id="RAMP"><probe name="selftest"><param name="samples">ramp</param></probe>
    <run iterations="1000" runs="1" warmup="1"/>
    <limit metric="interval" statistic="max" max="1ms"/></requirement>
  <requirement id="RAMP-OVER"><probe name="selftest"><param name="samples">ramp</param></probe>
    <run iterations="1000" runs="1" warmup="1"/>
    <limit metric="interval" statistic="max" max="999us"/></requirement>
XML

# env_value KEY FILE : the value `rtconform env` printed for KEY
env_value() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }' "$2"; }

# verdicts JSON : "ID=VERDICT ..." of every requirement in results.json
verdicts() {
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%s" % (r["id"], r["verdict"]) for f in d["files"] for r in f["requirements"]))' "$1"
}
# reasons JSON : each requirement's reason, a line each
reasons() {
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for f in d["files"]:
    for r in f["requirements"]:
        print(r.get("reason") or "(none)")' "$1"
}

# ---- without the preload: measured and judged, the check agrees ---------------
expect_status 0 "$RTC" env
cp "$TMP/out" "$TMP/env-plain"
TB_NAME="$(env_value timebase.name "$TMP/env-plain")"
HZ_PLAIN="$(env_value timebase.freq_hz "$TMP/env-plain")"
expect_grep '^timebase\.check +agrees with the kernel.s clock' "$TMP/env-plain"
expect_grep '^timebase\.check\.libc_monotonic_raw +agrees: ' "$TMP/env-plain"
expect_grep '^timebase\.check\.kernel_clock +clock_gettime system call' "$TMP/env-plain"
expect_grep '^  (ok|note) +timebase +.*agrees with the kernel.s clock' "$TMP/env-plain"

for mode in tsc clock; do
  if [ "$mode" = clock ]; then MODE=(env RTC_TIMEBASE=clock); else MODE=(env -u RTC_TIMEBASE); fi
  expect_status 1 "${MODE[@]}" "$RTC" run -q -o "$TMP/plain-$mode" "$TMP/ramp.xml"
  v="$(verdicts "$TMP/plain-$mode/results.json")"
  [ "$v" = "RAMP=pass RAMP-OVER=fail" ] && ok "$mode path, no preload: RAMP passes, RAMP-OVER fails" \
    || fail "$mode path, no preload: verdicts $v, expected RAMP=pass RAMP-OVER=fail"
  expect_status 0 "${MODE[@]}" "$RTC" probe sem-pingpong --iterations 500
  expect_grep '^metric per-op' "$TMP/out"
done

# ---- under libfaketime at half and twice the rate: every requirement an error ------
for mode in tsc clock; do
  if [ "$mode" = clock ]; then MODE=(env RTC_TIMEBASE=clock); else MODE=(env -u RTC_TIMEBASE); fi
  for rate in 0.5 2; do
    want="$(printf '%.3f' "$rate")"
    FAKE=(env FAKETIME="+0 x$rate" LD_PRELOAD="$PRE")
    out="$TMP/fake-$mode-$rate"
    expect_status 3 "${MODE[@]}" "${FAKE[@]}" "$RTC" run -q -o "$out" "$TMP/ramp.xml"
    v="$(verdicts "$out/results.json")"
    [ "$v" = "RAMP=error RAMP-OVER=error" ] && ok "$mode path, x$rate: every requirement is an error" \
      || fail "$mode path, x$rate: verdicts $v, expected RAMP=error RAMP-OVER=error"
    reasons "$out/results.json" >"$TMP/reasons"
    n="$(grep -c "the C library's clock (CLOCK_MONOTONIC_RAW) runs at $want of the kernel's (clock_gettime system call)" "$TMP/reasons")"
    [ "$n" = 2 ] && ok "$mode path, x$rate: both reasons name the C library's rate ($want) against the kernel's" \
      || { fail "$mode path, x$rate: $n of 2 reasons say the C library's clock runs at $want of the kernel's:"; diag <"$TMP/reasons"; }
    expect_grep "\"timebase.check\": \"FAILED: timebase check: the C library's clock" "$out/results.json"
    expect_grep "\"timebase.check.libc_monotonic_raw\": \"DISAGREES: " "$out/results.json"
    expect_grep 'timebase check: the C library' "$out/summary.txt"
    expect_fact readiness "; fail: ([a-z_0-9]+, )*timebase(,|;|$)" "$out/junit.xml"
    expect_grep "<td>timebase</td><td>timebase check: the C library's clock" "$out/report.html"
    expect_no_grep '"verdict": "(pass|fail)"' "$out/results.json"
    # read back: the failed check and its errors agree (a file whose check
    # failed but whose verdicts say pass is refused: unit.json's corpus)
    expect_status 0 "$RTC" report "$out/results.json" --summary "$out/again.txt"
    expect_status 0 cmp "$out/summary.txt" "$out/again.txt"
    expect_status 0 "$RTC" verify "$out"
    expect_status 3 "${MODE[@]}" "${FAKE[@]}" "$RTC" probe sem-pingpong --iterations 500
    expect_grep "^error: timebase check: the C library's clock \(CLOCK_MONOTONIC_RAW\) runs at $want of the kernel's" "$TMP/out"
    expect_no_grep '^metric per-op' "$TMP/out"
    expect_status 0 "${MODE[@]}" "${FAKE[@]}" "$RTC" env
    cp "$TMP/out" "$TMP/env-fake"
    expect_grep "^  fail +timebase +timebase check: the C library's clock .* runs at $want of the kernel's" "$TMP/env-fake"
    # The TSC is calibrated against the kernel: its true rate, whatever the
    # C library's clock says (before, libfaketime x0.5 doubled it).
    if [ "$mode" = tsc ] && [ "$TB_NAME" = tsc ]; then
      hz="$(env_value timebase.freq_hz "$TMP/env-fake")"
      awk -v a="$hz" -v b="$HZ_PLAIN" 'BEGIN { d = a / b - 1; exit !(d < 0.001 && d > -0.001) }' \
        && ok "x$rate: the TSC calibrated at $hz Hz, its rate without the preload ($HZ_PLAIN Hz) within 0.1%" \
        || fail "x$rate: the TSC calibrated at $hz Hz under the preload, $HZ_PLAIN Hz without it"
    elif [ "$mode" = tsc ]; then
      skip "x$rate: the TSC's calibration under the preload" "the timebase here is $TB_NAME, not the TSC"
    fi
  done
done
# ---- only CLOCK_REALTIME (and BOOTTIME) faked: DONT_FAKE_MONOTONIC=1 ---------------
# timer-semantics arms its sleeps on the clock it is given: at x0.5 on
# realtime it halved its past-deadline figure and passed. Each clock is
# held to the kernel's same clock, so the run is an error naming it.
for rate in 0.5 2; do
  want="$(printf '%.3f' "$rate")"
  FAKE=(env DONT_FAKE_MONOTONIC=1 FAKETIME="+0 x$rate" LD_PRELOAD="$PRE")
  expect_status 3 "${FAKE[@]}" "$RTC" run -q -o "$TMP/rt-$rate" "$TMP/ramp.xml"
  reasons "$TMP/rt-$rate/results.json" >"$TMP/reasons"
  n="$(grep -c "the C library's clock (CLOCK_REALTIME) runs at $want of the kernel's (clock_gettime system call)" "$TMP/reasons")"
  [ "$n" = 2 ] && ok "realtime alone x$rate: both reasons name CLOCK_REALTIME at $want" \
    || { fail "realtime alone x$rate: $n of 2 reasons name CLOCK_REALTIME at $want:"; diag <"$TMP/reasons"; }
  expect_status 3 "${FAKE[@]}" "$RTC" probe timer-semantics --param clock=realtime --iterations 20
  expect_grep "^error: timebase check: the C library's clock \(CLOCK_REALTIME\) runs at $want " "$TMP/out"
  expect_no_grep '^metric past-deadline' "$TMP/out"
done

# ---- libfaketime in the measuring process alone (FAKETIME_ONLY_CMDS) ---------------
# rtconform's own check agrees (its clocks are true); the exec'd worker's C
# library runs at 0.5 and 2, and its probes time wake-ups with it (and the
# clock path every figure): the worker's own check must make each
# requirement an error, naming both rates and the worker.
for mode in tsc clock; do
  if [ "$mode" = clock ]; then MODE=(env RTC_TIMEBASE=clock); else MODE=(env -u RTC_TIMEBASE); fi
  for rate in 0.5 2; do
    want="$(printf '%.3f' "$rate")"
    FAKE=(env FAKETIME_ONLY_CMDS=rtconform-worker FAKETIME="+0 x$rate" LD_PRELOAD="$PRE")
    out="$TMP/worker-$mode-$rate"
    expect_status 0 "${MODE[@]}" "${FAKE[@]}" "$RTC" env
    expect_grep '^timebase\.check +agrees with the kernel.s clock' "$TMP/out"
    expect_status 3 "${MODE[@]}" "${FAKE[@]}" "$RTC" run -q -o "$out" "$TMP/ramp.xml"
    v="$(verdicts "$out/results.json")"
    [ "$v" = "RAMP=error RAMP-OVER=error" ] \
      && ok "$mode path, worker alone x$rate: every requirement is an error" \
      || fail "$mode path, worker alone x$rate: verdicts $v, expected RAMP=error RAMP-OVER=error"
    reasons "$out/results.json" >"$TMP/reasons"
    n="$(grep -c "the C library's clock (CLOCK_MONOTONIC_RAW) runs at $want of the kernel's (clock_gettime system call).*found in the measuring process (rtconform-worker) alone" "$TMP/reasons")"
    [ "$n" = 2 ] && ok "$mode path, worker alone x$rate: both reasons name the rate ($want) and the worker" \
      || { fail "$mode path, worker alone x$rate: $n of 2 reasons name the worker's rate $want:"; diag <"$TMP/reasons"; }
    expect_no_grep '"verdict": "(pass|fail)"' "$out/results.json"
    expect_status 3 "${MODE[@]}" "${FAKE[@]}" "$RTC" probe sem-pingpong --iterations 500
    expect_grep "^error: timebase check: the C library's clock \(CLOCK_MONOTONIC_RAW\) runs at $want of the kernel's.*\(rtconform-worker\) alone" "$TMP/out"
    expect_no_grep '^metric per-op' "$TMP/out"
  done
done
finish
