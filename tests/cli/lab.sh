# SPDX-License-Identifier: Apache-2.0
# ci/lab without QEMU: its command line, `not run` (exit 77, nothing
# written) where QEMU or a kernel package is missing, and the rules of
# ci/lab-summary.py on made-up guest directories: a guest that behaved
# passes; one that did not boot, runs a kernel that is not PREEMPT_RT, has
# fewer CPUs or nodes online than it booted with, a must-fail requirement
# that did not fail, or a selftest case that did not match, fails and the
# line names guest and step; errors elsewhere are notes. No guest boots.
. "$(dirname "$0")/lib.sh"
LAB="$SRC/ci/lab"
SUMMARY="$SRC/ci/lab-summary.py"

expect_status 0 "$LAB" --help
for g in x86-rt4 aarch64-rt x86-numa16 x86-96; do expect_grep "^  $g " "$TMP/out"; done
expect_grep '^ +--quick: env ' "$TMP/out"
expect_status 2 "$LAB"
expect_grep '^usage: ci/lab ' "$TMP/out"
expect_status 2 "$LAB" --bogus "$TMP/d"
expect_status 2 "$LAB" --guests x86-rt4,nope "$TMP/d"
expect_grep 'no guest named nope' "$TMP/out"
mkdir -p "$TMP/cache"
RTC_LAB_CACHE="$TMP/cache" expect_status 77 "$LAB" --guests x86-rt4 "$TMP/never"
# the first thing missing: QEMU or cpio where ci/deps lab never ran, else the kernel
expect_grep '^ci/lab: not run: (no PREEMPT_RT kernel package for amd64 in |.* is missing \(ci/deps lab installs )' "$TMP/out"
[ ! -e "$TMP/never" ] && ok "a lab not run writes nothing" || fail "a lab not run writes nothing"

# guest DIR NAME: a 4-CPU guest that behaved, as ci/lab-guest leaves it
guest() {
  local g="$1/$2"
  mkdir -p "$g/must-fail" "$g/default"
  printf '%s\n' "guest $2" "release 6.1.0-rt" "version #1 SMP PREEMPT_RT Debian" "realtime 1" \
    "online 0-3" "nodes 1" >"$g/facts.txt"
  printf '%s\n' "env 0 2" "default 1 90" "must-fail 1 20" "selftest 0 300" done >"$g/steps.txt"
  echo '{"files":[{"requirements":[{"id":"A","verdict":"fail"},{"id":"B","verdict":"fail"}]}]}' \
    >"$g/must-fail/results.json"
  echo '{"files":[{"requirements":[{"id":"T","verdict":"error"},{"id":"U","verdict":"pass"}]}]}' \
    >"$g/default/results.json"
  echo "selftest: 24 cases: 24 matched, 0 did not match, 0 not run, 0 errors; record in /tmp/s" \
    >"$g/selftest.txt"
  echo "0 120 tcg:multi" >"$g/boot.txt"
}
spec="g|amd64|4|1|env default must-fail selftest"
summary() { expect_status "$1" python3 "$SUMMARY" "$TMP/s" "$spec" "made up"; }
rm -rf "$TMP/s"; guest "$TMP/s" g
summary 0
expect_grep '^g +6\.1\.0-rt +4/4 +1/1 +TCG/multi +4/4 +1p/0f/1e x1 +- +0p/2f/0e x1 +24/24 +- +120$' "$TMP/out"
expect_grep '^note: g default: error: T$' "$TMP/out"
expect_grep '^ci/lab: 1 guests, 0 failures, 1 notes$' "$TMP/out"
# each defect, one at a time, on a fresh guest
defect() { # WHAT CHANGE PATTERN
  rm -rf "$TMP/s"; guest "$TMP/s" g
  (cd "$TMP/s/g" && eval "$2")
  summary 1
  expect_grep "^FAIL: g $3" "$TMP/out"
}
defect "must-fail" 'sed -i "s/\"B\",\"verdict\":\"fail\"/\"B\",\"verdict\":\"pass\"/" must-fail/results.json' \
  'must-fail: did not fail: B=pass$'
defect "selftest" 'echo "selftest: 24 cases: 23 matched, 1 did not match, 0 not run, 0 errors" >selftest.txt;
  echo "timer-early              fail     early" >>selftest.txt; sed -i "s/^selftest 0/selftest 1/" steps.txt' \
  'selftest: 24 cases: 23 matched, 1 did not match, 0 not run, 0 errors \(exit 1\): timer-early$'
defect "kernel" 'sed -i "s/^realtime 1/realtime absent/; s/PREEMPT_RT/PREEMPT_DYNAMIC/" facts.txt' \
  'kernel: not PREEMPT_RT'
defect "cpus" 'sed -i "s/^online 0-3/online 0-2/" facts.txt' 'cpus: 3 online \(0-2\), booted with 4$'
defect "nodes" 'sed -i "s/^nodes 1/nodes 0/" facts.txt' 'numa: 0 nodes, booted with 1$'
defect "timeout" 'sed -i "s/^default 1 90/default 137 300/" steps.txt' 'default: killed past the step'"'"'s time$'
defect "unfinished" 'sed -i "/^done$/d; /^selftest/d" steps.txt; echo "lab-guest: step selftest: rtconform selftest" >console.log' \
  'selftest: the guest did not finish'
defect "boot" 'rm facts.txt steps.txt' 'boot: no facts came back'
finish
