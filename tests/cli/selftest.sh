# SPDX-License-Identifier: Apache-2.0
# rtconform selftest: as root every known-answer case runs and matches
# (exit 0), the record (validation.json, junit.xml, validation.html, the
# cases' evidence, MANIFEST.sha256) is written and verifies, and one byte
# changed in it is found, and so is a verdict, an observed text or a nested
# run's figure forged with its manifest lines replaced, and a hostile
# validation.json is refused with its field named; as nobody the cases that need root, or real-time
# privileges the worker lacks, are `not run` with why, the others match
# (with the documented capabilities on the worker, the real-time ones
# too), exit 0. A normal run is never faulted: the
# fault libraries preloaded without selftest's variable fake nothing (and
# the run says they were there), a run without the variable never starts
# the fault worker, and one with a malformed delay is refused. That a
# known answer which does not match fails its case is shown by
# tests/test_selftest.c (the comparisons) and here by a helper directory
# without the fault worker (exit 3, the case an error that says why).
. "$(dirname "$0")/lib.sh"
command -v setpriv >/dev/null || { fail "setpriv missing: ci/deps installs util-linux"; finish; }
if [ "$(id -u)" -ne 0 ]; then
  skip_all "selftest's real-time cases need root, and the test drops privilege with setpriv"
fi
BIN="$(dirname "$RTC")"

# ---- as root: every case matches ---------------------------------------------
expect_status 0 "$RTC" selftest -o "$TMP/st"
cp "$TMP/out" "$TMP/table"
R="$TMP/st"
ncases="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$R/validation.json")"
[ "${ncases:-0}" -ge 20 ] && ok "validation.json lists the $ncases cases" || fail "validation.json lists ${ncases:-no} cases, expected 20 or more"
if python3 - "$R/validation.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "urn:rtconform:validation:1", d["schema"]
assert d["tool"]["version"] and d["tool"]["commit"], d["tool"]
assert d["host"]["host.kernel.release"], "no host fingerprint"
assert d["started"].endswith("Z") and d["ended"] >= d["started"], (d["started"], d["ended"])
ids = [c["id"] for c in d["cases"]]
for want in ("stats-ramp", "timebase", "schema-priority", "must-fail", "page-faults",
             "deadline-overrun", "premise-policy", "premise-priority", "premise-protocol",
             "timer-early", "handoff-early", "delay-timer-wakeup", "delay-sem-pingpong",
             "clock-half", "clock-double", "clock-worker"):
    assert want in ids, want
for c in d["cases"]:
    assert c["verdict"] == "pass", (c["id"], c["verdict"], c["expected"], c["observed"], c["why"])
    assert c["expected"] and c["observed"] and c["why"] is None, c
    assert c["evidence"] == "cases/" + c["id"] or c["id"] == "timebase", c
    assert c["function"] and c["injected"], c
assert d["totals"] == {"cases": len(ids), "pass": len(ids), "fail": 0, "not-run": 0, "error": 0}
assert d["exit_status"] == 0
PY
then ok "validation.json: every case matched, with its expected and observed outcome"
else fail "validation.json:"; diag <"$TMP/py"; fi
expect_grep '^delay-sem-pingpong +pass +' "$TMP/table"
expect_grep '^    expected: exit 1; verdict fail; samples in a bucket straddling 10 ms 0; max >= 20 ms; the run.s record says "delay=20ms,every=10"; breaches \(> 10 ms\) 4$' "$TMP/table"
expect_grep "^selftest: $ncases cases: $ncases matched, 0 did not match, 0 not run, 0 errors; record in " "$TMP/table"
validate_junit "$R/junit.xml" --tests "$ncases" --failures 0 --errors 0 --skipped 0
expect_grep 'name="rtconform.commit"' "$R/junit.xml"
expect_grep '<span class="v v-pass">pass</span>' "$R/validation.html"
expect_grep '<h2>Host fingerprint</h2>' "$R/validation.html"
# the evidence of each run is kept, and a faulted run's reports say so
expect_grep 'FAULTS INJECTED by selftest: RTC_SELFTEST_FAULTS=delay=20ms,every=10' "$R/cases/delay-timer-wakeup/run/summary.txt"
expect_grep 'name="rtconform.injected_faults" value="RTC_SELFTEST_FAULTS=delay=20ms,every=10' "$R/cases/delay-sem-pingpong/run/junit.xml"
expect_grep '<p id="faults" class="banner b-error">FAULTS INJECTED by selftest: RTC_SELFTEST_FAULTS=delay=20ms,every=10' "$R/cases/delay-timer-wakeup/run/report.html"
expect_grep '"rtconform.injected_faults": "RTC_SELFTEST_FAULTS=rtconform-fault-sched.so RTC_FAKE_SCHED=policy' "$R/cases/premise-policy/run/results.json"
expect_grep '"timebase.check": "FAILED: timebase check: the C library.s clock \(CLOCK_MONOTONIC_RAW\) runs at 0.500 of the kernel.s' "$R/cases/clock-half/run/results.json"
# the record verifies: its reports agree with validation.json read back, and
# each case's run directory is verified as a run's
expect_status 0 "$RTC" verify "$R"
expect_grep 'OK: [0-9]+ files as the manifest lists them, a selftest record: junit.xml, validation.html and validation.json agree with validation.json read back, its totals with its cases; [1-9][0-9]* nested runs verified' "$TMP/out"
# A forger edits a file and replaces its line in the manifest (rel: the
# file's path in manifest dir): digests alone would pass.
reseal() {
  local dir="$1" rel="$2" hex
  hex="$(sha256sum "$dir/$rel" | cut -d' ' -f1)"
  awk -v f="$rel" -v h="$hex" '{ if (substr($0, 67) == f) print h "  " f; else print }' \
    "$dir/MANIFEST.sha256" >"$dir/MANIFEST.new" && mv "$dir/MANIFEST.new" "$dir/MANIFEST.sha256"
}
# (a) a case's verdict changed in validation.json: its totals, junit.xml and
# validation.html no longer agree with it
cp -a "$R" "$TMP/forged-verdict"; F="$TMP/forged-verdict"
python3 - "$F/validation.json" <<'PY'
import sys
p = sys.argv[1]; t = open(p).read()
open(p, "w").write(t.replace('"verdict": "pass"', '"verdict": "fail"', 1))
PY
reseal "$F" validation.json
expect_status 1 "$RTC" verify "$F"
expect_grep 'forged-verdict/validation.json: totals.pass says [0-9]+, its cases give [0-9]+' "$TMP/out"
expect_grep 'forged-verdict/validation.json: disagrees with validation.json read back and written again' "$TMP/out"
expect_grep 'forged-verdict/junit.xml: disagrees with validation.json \(the report rendered again' "$TMP/out"
expect_grep 'forged-verdict/validation.html: disagrees with validation.json' "$TMP/out"
# ... and an observed text changed, the totals left alone
cp -a "$R" "$TMP/forged-observed"; F="$TMP/forged-observed"
sed -i '0,/"observed": "/s//"observed": "forged /' "$F/validation.json"
reseal "$F" validation.json
expect_status 1 "$RTC" verify "$F"
expect_grep 'forged-observed/junit.xml: disagrees with validation.json' "$TMP/out"
expect_grep 'forged-observed/validation.html: disagrees with validation.json' "$TMP/out"
# (b) a nested run's figure changed, its line replaced in the run's manifest
# and in the record's (and the run's manifest's line too)
cp -a "$R" "$TMP/forged-run"; F="$TMP/forged-run"
sed -i '0,/"mean": 500500.0/s//"mean": 400500.0/' "$F/cases/stats-ramp/run/results.json"
cmp -s "$R/cases/stats-ramp/run/results.json" "$F/cases/stats-ramp/run/results.json" \
  && fail "stats-ramp's results.json holds no mean of 500500 ns to forge"
reseal "$F/cases/stats-ramp/run" results.json
reseal "$F" cases/stats-ramp/run/results.json
reseal "$F" cases/stats-ramp/run/MANIFEST.sha256
expect_status 1 "$RTC" verify "$F"
expect_grep 'forged-run/cases/stats-ramp/run/(summary.txt|report.html|junit.xml|results.json): (disagrees with results.json|cannot be read back)' "$TMP/out"
expect_no_grep 'changed \(its SHA-256' "$TMP/out"
# ... and one whose nested manifest was left alone: named by its own digest
cp -a "$R" "$TMP/forged-run2"; F="$TMP/forged-run2"
sed -i '0,/"mean": 500500.0/s//"mean": 400500.0/' "$F/cases/stats-ramp/run/results.json"
reseal "$F" cases/stats-ramp/run/results.json
expect_status 1 "$RTC" verify "$F"
expect_grep 'forged-run2/cases/stats-ramp/run/results.json: changed \(its SHA-256 is [0-9a-f]+, the manifest.s line [0-9]+ says' "$TMP/out"
# (c) a hostile validation.json, its manifest line replaced: refused with the
# field named, never a crash
hostile() {
  local name="$1" edit="$2" want="$3"
  cp -a "$R" "$TMP/h-$name"
  python3 - "$TMP/h-$name/validation.json" "$edit" <<'PY'
import json, sys
p, edit = sys.argv[1:]
if edit.startswith("raw:"):
    open(p, "w").write(edit[4:]); sys.exit()
d = json.load(open(p))
exec(edit)
open(p, "w").write(json.dumps(d, indent=2))
PY
  reseal "$TMP/h-$name" validation.json
  expect_status 1 "$RTC" verify "$TMP/h-$name"
  expect_grep "h-$name/validation.json: $want" "$TMP/out"
}
hostile type 'd["cases"][3]["seconds"] = "slow"' 'cases\[3\].seconds: not a number'
hostile verdict 'd["cases"][3]["verdict"] = "mostly-pass"' 'cases\[3\].verdict: "mostly-pass" is no verdict this rtconform knows'
hostile privilege 'd["cases"][0]["privilege"] = "god"' 'cases\[0\].privilege: "god" is no privilege'
hostile huge 'd["cases"][2]["observed"] = "x" * 100000' 'cases\[2\].observed: 100000 bytes, more than the 1199'
hostile host 'd["host"]["host.name"] = 7' 'host.host.name: expected a string'
hostile id 'd["cases"][1]["id"] = "made-up"' 'cases\[1\].id: "made-up" is not this rtconform.s case 2'
hostile cases 'd["cases"] = d["cases"][:-1]' 'cases: [0-9]+ cases, this rtconform.s selftest has'
hostile total 'd["totals"] = {"cases": "all"}' 'totals.cases: expected an integer'
hostile schema 'd["schema"] = "urn:rtconform:results:1"' 'schema: "urn:rtconform:results:1", not urn:rtconform:validation:1'
hostile truncated 'raw:{"schema": "urn:rtc' 'not JSON: line 1'
hostile deep "raw:$(printf '[%.0s' $(seq 5000))" 'not JSON: line 1: maximum parsing depth'
# (d) the copies made above did not touch the record: it still verifies
expect_status 0 "$RTC" verify "$R"
# one byte changed in a case's evidence is found
printf 'X' | dd of="$R/cases/stats-ramp/run/summary.txt" bs=1 seek=3 conv=notrunc status=none
expect_status 1 "$RTC" verify "$R"
expect_grep 'cases/stats-ramp/run/summary.txt' "$TMP/out"
# a record is never written over another
expect_status 2 "$RTC" selftest -o "$R"
expect_grep 'is not empty' "$TMP/out"
# an empty directory another user may write is refused: a link planted in
# it would be written through by root
mkdir "$TMP/theirs" && chown nobody "$TMP/theirs"
expect_status 2 "$RTC" selftest -o "$TMP/theirs"
expect_grep 'theirs: owned by another user: the record goes into a directory only you can write' "$TMP/out"
mkdir -m 777 "$TMP/shared"; chmod 777 "$TMP/shared"
expect_status 2 "$RTC" selftest -o "$TMP/shared"
expect_grep 'shared: others may write it' "$TMP/out"
# -o '' is not the default directory, and a path too long is not cut short
here="$PWD"; cd "$TMP"; expect_status 2 "$RTC" selftest -o ''; cd "$here"
expect_grep '-o/--output: empty value' "$TMP/out"
ls -d "$TMP"/selftest-* >/dev/null 2>&1 && fail "selftest -o '' made a default directory" || ok "selftest -o '' made no directory"
expect_status 2 "$RTC" selftest -o "$TMP/$(printf 'd%.0s' $(seq 5000))"
expect_grep '-o/--output: path too long' "$TMP/out"
# a reader of the table that goes away (| head) does not kill it: the record
# is written whole and verifies
"$RTC" selftest -o "$TMP/pipe" | head -1 >/dev/null
expect_status 0 "$RTC" verify "$TMP/pipe"
[ -f "$TMP/pipe/validation.json" ] && [ ! -e "$TMP/pipe/.rtconform.lock" ] && ok "selftest | head: the record is written, the lock released" || fail "selftest | head: no whole record in $TMP/pipe"

# Interrupted (SIGINT to selftest alone, as `kill` sends it): the case
# running ends, the cases after it are errors that say so, the record is
# written and verifies, exit 3.
"$RTC" selftest -o "$TMP/int" >"$TMP/int.txt" 2>&1 &
pid=$!
wait_for "the first case's directory" 60 test -d "$TMP/int/cases/stats-ramp"
# while it runs, a second selftest into its directory is refused
expect_status 2 "$RTC" selftest -o "$TMP/int"
expect_grep 'is not empty|is in use' "$TMP/out"
[ -f "$TMP/int/.rtconform.lock" ] && ok "a running selftest holds its directory's lock" \
  || fail "a running selftest holds no .rtconform.lock in its directory"
kill -INT "$pid"
st=0; wait "$pid" || st=$?
[ "$st" -eq 3 ] && ok "an interrupted selftest exits 3" || { fail "an interrupted selftest exits 3 (it exited $st)"; diag <"$TMP/int.txt"; }
expect_grep '^delay-sem-pingpong +error +' "$TMP/int.txt"
expect_grep 'not run: selftest was interrupted \(signal 2\) before this case' "$TMP/int.txt"
expect_status 0 "$RTC" verify "$TMP/int"

# ---- a normal run is never faulted ---------------------------------------------
req_file "$TMP/early.xml" early <<XML
  <requirement id="EARLY"><probe name="timer-wakeup"><param name="interval">20ms</param>
      <param name="dma-latency">off</param><param name="cpus">0</param></probe>
    <sched policy="fifo" priority="90"/><run iterations="10" runs="1" warmup="1"/>
    <limit metric="early" statistic="total" max="0"/></requirement>
XML
# The fault clock preloaded without RTC_SELFTEST_FAULTS: inert (no early
# wake-up), and the run records that it was there.
LD_PRELOAD="$(preload "$BIN/rtconform-fault-clock.so")" RTC_FAKE_EARLY_US=15000 \
  expect_status 0 "$RTC" run -o "$TMP/inert" "$TMP/early.xml"
expect_grep 'FAULTS INJECTED by selftest: LD_PRELOAD=.*rtconform-fault-clock.so \(inert: RTC_SELFTEST_FAULTS is unset' "$TMP/inert/summary.txt"
expect_grep '<p id="faults" class="banner b-error">FAULTS INJECTED by selftest: LD_PRELOAD=' "$TMP/inert/report.html"
# The same library with the variable: every wake-up early (what selftest does).
LD_PRELOAD="$(preload "$BIN/rtconform-fault-clock.so")" RTC_FAKE_EARLY_US=15000 RTC_SELFTEST_FAULTS=test \
  expect_status 1 "$RTC" run -o "$TMP/faulted" "$TMP/early.xml"
expect_grep '^EARLY +timer-wakeup +fifo:90 +early total <= 0 +10 +FAIL$' "$TMP/out"
# probe (the normal worker, the same libraries): its reports say so too
LD_PRELOAD="$(preload "$BIN/rtconform-fault-clock.so")" RTC_FAKE_EARLY_US=15000 RTC_SELFTEST_FAULTS=test \
  expect_status 0 "$RTC" probe timer-wakeup --param interval=20ms --param dma-latency=off \
  --cpu 0 --iterations 5 -o "$TMP/probe-faulted"
expect_grep 'rtconform probe: FAULTS INJECTED by selftest: RTC_SELFTEST_FAULTS=test' "$TMP/out"
expect_grep '"rtconform.injected_faults": "RTC_SELFTEST_FAULTS=test \(rtconform selftest\); LD_PRELOAD=' "$TMP/probe-faulted/results.json"
expect_grep 'FAULTS INJECTED by selftest: RTC_SELFTEST_FAULTS=test' "$TMP/probe-faulted/summary.txt"
# a fault library under another name, with the variable: named all the same
ln -s "$BIN/rtconform-fault-clock.so" "$TMP/renamed.so"
LD_PRELOAD="$(preload "$TMP/renamed.so")" RTC_FAKE_EARLY_US=15000 RTC_SELFTEST_FAULTS=test \
  expect_status 1 "$RTC" run -o "$TMP/renamed" "$TMP/early.xml"
expect_grep 'FAULTS INJECTED by selftest: RTC_SELFTEST_FAULTS=test \(rtconform selftest\); LD_PRELOAD=.*/renamed.so' "$TMP/renamed/summary.txt"
# A run without the variable leaves nothing of selftest's in its reports.
expect_status 0 "$RTC" run -o "$TMP/normal" "$TMP/early.xml"
expect_no_grep 'injected_faults|FAULTS INJECTED' "$TMP/normal/results.json"
expect_no_grep 'FAULTS INJECTED' "$TMP/normal/summary.txt"
expect_no_grep 'FAULTS INJECTED' "$TMP/normal/report.html"
# A malformed delay is refused before anything runs.
RTC_SELFTEST_FAULTS='delay=20parsecs,every=10' expect_status 2 "$RTC" run -o "$TMP/bad" "$TMP/early.xml"
expect_grep 'RTC_SELFTEST_FAULTS: delay=20parsecs: unknown unit' "$TMP/out"
[ ! -e "$TMP/bad/results.json" ] && ok "the refused run wrote no results.json" || fail "the refused run wrote a results.json"

# A helper directory without the fault worker (the three programs alone):
# a run without the variable measures with the normal worker; with a delay
# asked for it cannot start the fault worker and says so; selftest's delay
# cases are errors naming what is missing (exit 3), never passes.
unpriv_copy
expect_status 0 "$URTC" run -o "$TMP/copy-normal" "$TMP/early.xml"
RTC_SELFTEST_FAULTS='delay=20ms,every=10' expect_status 3 "$URTC" run -o "$TMP/copy-delay" "$TMP/early.xml"
expect_grep 'rtconform-worker-faults' "$TMP/copy-delay/junit.xml"
expect_status 3 "$URTC" selftest -o "$TMP/st-copy"
expect_grep '^delay-timer-wakeup +error +' "$TMP/out"
expect_grep 'rtconform-worker-faults is not in the helper directory' "$TMP/out"
expect_grep '^premise-policy +error +' "$TMP/out"
expect_grep '^stats-ramp +pass +' "$TMP/out"

# ---- as nobody: what it may not do is not run, and says why ---------------------------
for f in rtconform-worker-faults rtconform-fault-sched.so rtconform-fault-clock.so rtconform-fault-ipc.so; do
  cp "$BIN/$f" "$TMP/ubin/$f" && chmod 755 "$TMP/ubin/$f" || fail "cannot copy $f"
done
# privileged COUNT : how many cases of the root run's record need privilege
# COUNT ("real-time", "root", or "any": either).
privileged() {
  python3 -c 'import json, sys
print(sum(c["privilege"] in (["real-time", "root"] if sys.argv[2] == "any" else [sys.argv[2]])
          for c in json.load(open(sys.argv[1]))["cases"]))' "$R/validation.json" "$1"
}
mkdir -p "$TMP/nobody" && chown nobody "$TMP/nobody"
# No privilege: every case that needs any is not run.
expect_status 0 bash -c "ulimit -l 8192; exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
  --inh-caps=-all --bounding-set=-all -- '$URTC' selftest -o '$TMP/nobody/st'"
cp "$TMP/out" "$TMP/table-nobody"
expect_grep '^page-faults +not-run +' "$TMP/table-nobody"
expect_grep '^    not run: needs real-time privileges for the worker: run selftest as root, or give rtconform-worker CAP_SYS_NICE and CAP_IPC_LOCK' "$TMP/table-nobody"
expect_grep '^delay-sem-pingpong +not-run +' "$TMP/table-nobody"
expect_grep '^    not run: needs root: it preloads a fault library' "$TMP/table-nobody"
expect_grep '^stats-ramp +pass +' "$TMP/table-nobody"
expect_grep '^schema-malformed +pass +' "$TMP/table-nobody"
# the clock cases preload into rtconform itself, whose check catches them
# before any worker starts: no privilege needed
expect_grep '^clock-half +pass +' "$TMP/table-nobody"
expect_grep '^clock-double +pass +' "$TMP/table-nobody"
# a clock that lies to the worker alone is preloaded into the worker,
# which a worker with file capabilities ignores: root only
expect_grep '^clock-worker +not-run +' "$TMP/table-nobody"
expect_no_grep '^[a-z-]+ +(fail|error) +' "$TMP/table-nobody"
validate_junit "$TMP/nobody/st/junit.xml" --tests "$ncases" --failures 0 --errors 0 --skipped "$(privileged any)"
# The documented capabilities on the worker: the real-time cases run and
# match; those that need root still do not (a worker with file
# capabilities ignores LD_PRELOAD; the fault worker has none).
if "$RTC" --version | grep -q 'sanitizer build'; then
  echo "# nobody with capabilities: not run: a sanitizer build locks no memory"
else
  setcap cap_ipc_lock,cap_sys_nice+ep "$TMP/ubin/rtconform-worker" && ok "setcap on the copied worker" \
    || fail "setcap on the copied worker failed"
  # The copied programs take the shipped profiles from this source tree:
  # must-fail runs posix-rt-must-fail from it, which nobody cannot read in
  # a private clone (CI's is 0700); it is then an error naming what could
  # not be read (exit 3), never a pass. Installed, the profiles are
  # readable by all (ci/install-check runs that).
  if setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
     test -r "$SRC/requirements/profiles/posix-rt-must-fail.xml"; then
    mf=pass mf_st=0 mf_err=0
  else
    mf=error mf_st=3 mf_err=1
  fi
  expect_status "$mf_st" bash -c "ulimit -r 0; ulimit -l 64; exec setpriv --reuid=nobody --regid=nogroup \
    --clear-groups --inh-caps=-all -- '$URTC' selftest -o '$TMP/nobody/caps'"
  cp "$TMP/out" "$TMP/table-caps"
  expect_grep '^page-faults +pass +' "$TMP/table-caps"
  expect_grep "^must-fail +$mf +" "$TMP/table-caps"
  [ "$mf" = pass ] || expect_grep 'posix-rt-must-fail' "$TMP/nobody/caps/cases/must-fail/output.txt"
  expect_grep '^deadline-overrun +pass +' "$TMP/table-caps"
  expect_grep '^premise-policy +not-run +' "$TMP/table-caps"
  grep -v '^must-fail ' "$TMP/table-caps" >"$TMP/table-caps-others"
  expect_no_grep '^[a-z-]+ +(fail|error) +' "$TMP/table-caps-others"
  validate_junit "$TMP/nobody/caps/junit.xml" --tests "$ncases" --failures 0 --errors "$mf_err" \
    --skipped "$(privileged root)"
fi
finish
