# SPDX-License-Identifier: Apache-2.0
# LAVA: run --lava and report --lava write a line per limit and per
# requirement in the Linaro form (an error is never pass, its reason a "# "
# line); ci/lava/run.sh hands each line to lava-test-case (a stand-in here
# that records its arguments) and goes on after failures; the test
# definition parses and its parameters are upper case, none PRIORITY.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
python3 -c 'import yaml' 2>/dev/null || { fail "python3 cannot import yaml (Debian package python3-yaml; ci/deps installs it)"; finish; }

FLEET="$FIX/cli/fleet.xml"
expect_status 3 "$RTC" run "$FLEET" -q -o "$TMP/r" --lava "$TMP/r.lava"
expect_grep "^lava: $TMP/r.lava$" "$TMP/out"
L="$TMP/r.lava"
# the first line names the build that measured, as rtconform --version does
build_id
[ "$(head -1 "$L")" = "# rtconform $VER (commit $COMMIT)" ] && ok "the first line of the lava file is the build" \
  || fail "first line of $L is not the build: $(head -1 "$L")"
expect_grep '^EASY-per-op-max pass [0-9]+\.[0-9]{4} us$' "$L"
expect_grep '^EASY-per-op-mean pass [0-9]+\.[0-9]{4} us$' "$L"
expect_grep '^EASY pass$' "$L"
expect_grep '^IMPOSSIBLE-per-op-max fail [0-9]+\.[0-9]{4} us$' "$L"
expect_grep '^IMPOSSIBLE fail$' "$L"
# the error: fail, never pass; the reason on a "# " line of its own
expect_grep '^TOO-SLOW fail$' "$L"
expect_grep '^TOO-SLOW-per-op-max fail$' "$L"
expect_grep '^# TOO-SLOW: error: timed out' "$L"
expect_no_grep '^TOO-SLOW.* pass' "$L"
# each sem-pingpong requirement also has rtconform's own limit on its
# unanswered-waits (total <= 0): a count, no unit
expect_grep '^EASY-unanswered-waits-total pass 0\.000 count$' "$L"
expect_grep '^TOO-SLOW-unanswered-waits-total fail$' "$L"
[ "$(grep -vc '^#' "$L")" = 10 ] && ok "10 result lines (4 limits + 3 of rtconform's own + 3 requirements)" || fail "expected 10 result lines (4 limits + 3 of rtconform's own + 3 requirements):"$'\n'"$(cat "$L")"

# (report --lava gives the same bytes from results.json: cli.reports)

# names never hold a space or anything else lava-test-case would split on
python3 - "$TMP/r/results.json" "$TMP/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["files"][0]["requirements"][0]["id"] = "A B/c\u00e9;d"
d["environment"]["rtconform.commit"] = "abc\nEVIL pass"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 0 "$RTC" report "$TMP/hostile.json" --lava "$TMP/hostile.lava"
expect_grep '^A_B_c__d-per-op-max pass ' "$TMP/hostile.lava"
expect_grep '^A_B_c__d pass$' "$TMP/hostile.lava"
expect_grep '^# rtconform .* \(commit abc\\x0aEVIL pass\)$' "$TMP/hostile.lava"
awk '!/^#/ && (NF != 2 && NF != 4) { bad = 1 } END { exit bad }' "$TMP/hostile.lava" \
  && ok "every line of hostile.lava is NAME RESULT or NAME RESULT VALUE UNIT" || fail "a line of $TMP/hostile.lava is neither NAME RESULT nor NAME RESULT VALUE UNIT"

# one test case per name: two limits on one statistic (one in cycles) and a
# third like the first give three names, the cycles one saying its unit
cat >"$TMP/twice.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<requirements xmlns="urn:rtconform:requirements:1" name="twice" version="1">
  <defaults iterations="100" runs="1" warmup="10" timeout="60s"/>
  <requirement id="TWICE">
    <probe name="sem-pingpong"/>
    <limit statistic="mean" max="60s"/>
    <limit statistic="mean" max="1000000000000cycles"/>
    <limit statistic="mean" max="10s"/>
  </requirement>
</requirements>
XML
"$RTC" run "$TMP/twice.xml" -q -o "$TMP/twice" --lava "$TMP/twice.lava" >"$TMP/out" 2>&1
expect_grep '^TWICE-per-op-mean (pass|fail|skip)' "$TMP/twice.lava"
expect_grep '^TWICE-per-op-mean-cycles (pass|fail|skip)' "$TMP/twice.lava"
expect_grep '^TWICE-per-op-mean-2 (pass|fail|skip)' "$TMP/twice.lava"
[ -z "$(grep -v '^#' "$TMP/twice.lava" | awk '{print $1}' | sort | uniq -d)" ] && ok "no name repeats in twice.lava" \
  || fail "a name repeats in $TMP/twice.lava:"$'\n'"$(cat "$TMP/twice.lava")"

# checked before anything is measured: no overwriting, no empty value
expect_status 2 "$RTC" run "$FLEET" -q -o "$TMP/c" --lava "$TMP/c/results.json"
expect_grep 'rtconform run: results.json and --lava are the same file \(.*/c/results.json\)' "$TMP/out"
[ ! -e "$TMP/c" ] && ok "a refused run leaves no -o directory" || fail "a refused run left $TMP/c"
expect_status 2 "$RTC" run "$FLEET" -q -o "$TMP/c" --lava ''
expect_status 2 "$RTC" run "$FLEET" -q -o "$TMP/c" --lava "$TMP/no/such/dir/x.lava"
expect_status 2 "$RTC" report "$TMP/r/results.json" --lava "$TMP/r/results.json"
expect_grep '[-]-lava \(.*\) would overwrite the input' "$TMP/out"

# ci/lava/run.sh with a stand-in lava-test-case that records each call
mkdir -p "$TMP/bin"
cat >"$TMP/bin/lava-test-case" <<SH
#!/bin/sh
printf '%s\n' "\$*" >>"$TMP/calls"
SH
chmod +x "$TMP/bin/lava-test-case"
(cd "$TMP" && PATH="$TMP/bin:$PATH" RTCONFORM="$RTC" PROFILE="$FLEET" QUICK=true LABEL=lava-board-1 \
  OUT="$TMP/lava-out" bash "$SRC/ci/lava/run.sh") >"$TMP/run.log" 2>&1 && ok "ci/lava/run.sh goes on after the failures" \
  || { fail "ci/lava/run.sh did not go on after the failures:"; cat "$TMP/run.log"; }
C="$TMP/calls"
[ -f "$C" ] || { fail "lava-test-case was never called:"; cat "$TMP/run.log"; finish; }
[ "$(wc -l <"$C")" = 10 ] && ok "10 lava-test-case calls" || fail "expected 10 lava-test-case calls:"$'\n'"$(cat "$C")"
expect_grep '^EASY-per-op-max --result pass --measurement [0-9.]+ --units us$' "$C"
expect_grep '^EASY --result pass$' "$C"
expect_grep '^IMPOSSIBLE --result fail$' "$C"
expect_grep '^TOO-SLOW --result fail$' "$C"
expect_grep '^TOO-SLOW-per-op-max --result fail$' "$C"
[ "$(grep -c -- '--result fail' "$C")" = 5 ] && ok "5 failing calls" || fail "expected 5 failing calls:"$'\n'"$(cat "$C")"
expect_no_grep '^TOO-SLOW.*--result pass' "$C"
expect_grep 'rtconform-lava: TOO-SLOW: error: timed out' "$TMP/run.log"
# the build line goes to the log, never to lava-test-case
expect_grep "^rtconform-lava: rtconform $VER \\(commit " "$TMP/run.log"
expect_no_grep '^#|rtconform' "$C"
expect_grep '"host.label": "lava-board-1"' "$TMP/lava-out/results.json"
# without lava-test-case the lines are printed
(cd "$TMP" && RTCONFORM="$RTC" PROFILE="$FLEET" QUICK=true OUT="$TMP/lava-out2" \
  bash "$SRC/ci/lava/run.sh") >"$TMP/run2.log" 2>&1 && ok "ci/lava/run.sh without lava-test-case succeeds" || fail "ci/lava/run.sh without lava-test-case failed"
expect_grep '^IMPOSSIBLE fail$' "$TMP/run2.log"
expect_grep '^EASY-per-op-mean pass [0-9.]+ us$' "$TMP/run2.log"
# an invalid profile: nothing to report, the step fails
(cd "$TMP" && PATH="$TMP/bin:$PATH" RTCONFORM="$RTC" PROFILE="$FIX/cli/invalid-probe.xml" \
  OUT="$TMP/lava-out3" bash "$SRC/ci/lava/run.sh") >"$TMP/run3.log" 2>&1 \
  && fail "ci/lava/run.sh passed with an invalid profile" || ok "ci/lava/run.sh fails with an invalid profile"
expect_grep '^rtconform-run --result fail$' "$C"

# Parameters are data: a PROFILE that looks like an option is refused by
# run.sh before rtconform runs (a stand-in records each rtconform call), and
# a profile is handed over after `--`
cat >"$TMP/bin/rtc-rec" <<SH
#!/bin/sh
printf '%s\n' "\$*" >>"$TMP/rtc-calls"
exec "$RTC" "\$@"
SH
chmod +x "$TMP/bin/rtc-rec"
(cd "$TMP" && PATH="$TMP/bin:$PATH" RTCONFORM="$TMP/bin/rtc-rec" PROFILE='--only=X' \
  OUT="$TMP/lava-dash" bash "$SRC/ci/lava/run.sh") >"$TMP/dash.log" 2>&1 \
  && fail "ci/lava/run.sh passed with PROFILE --only=X" || ok "ci/lava/run.sh fails with PROFILE --only=X"
expect_grep "PROFILE '--only=X' starts with '-'" "$TMP/dash.log"
[ ! -e "$TMP/rtc-calls" ] && ok "rtconform never ran with PROFILE --only=X" \
  || { fail "rtconform ran with PROFILE --only=X:"; diag <"$TMP/rtc-calls"; }
(cd "$TMP" && PATH="$TMP/bin:$PATH" RTCONFORM="$TMP/bin/rtc-rec" PROFILE="$FIX/cli/pass.xml" QUICK=true \
  OUT="$TMP/lava-dd" bash "$SRC/ci/lava/run.sh") >"$TMP/dd.log" 2>&1
expect_grep "^run .* -- $FIX/cli/pass.xml\$" "$TMP/rtc-calls"

# A LAVA job timeout ends run.sh with SIGTERM mid-run: it stops the
# stress-ng and rtconform it started (and their children: workers, peers,
# stressors) and exits 143. Found by their parent, run.sh, never by name.
req_file "$TMP/long.xml" long "" "$(requirement LONG "$(probe sem-pingpong)" '<sched policy="other"/>' \
  '<run iterations="100000000" runs="1" warmup="0" timeout="300s"/>')"
(cd "$TMP" && RTCONFORM="$RTC" PROFILE="$TMP/long.xml" BACKGROUND="--cpu 1" OUT="$TMP/lava-term" \
  exec bash "$SRC/ci/lava/run.sh") >"$TMP/term.log" 2>&1 &
runsh=$!
child_of_runsh() { pgrep -P "$runsh" -x "$1"; }
rtc_measuring() { local p; p="$(child_of_runsh rtconform)" && worker_measuring "$p"; }
wait_for "run.sh's rtconform to measure" "$START_WAIT" rtc_measuring \
  && wait_for "run.sh's stress-ng to run" "$START_WAIT" child_of_runsh stress-ng
started="$(child_of_runsh rtconform) $(child_of_runsh stress-ng)"
kill -TERM "$runsh"
st=0; wait "$runsh" || st=$?
[ "$st" = 143 ] && ok "run.sh exits 143 after SIGTERM" || fail "run.sh exits 143 after SIGTERM (it exited $st)"
expect_grep 'stopped by SIGTERM' "$TMP/term.log"
if ! expect_no_leftovers "SIGTERM to run.sh"; then
  fail "run.sh left what it started running after SIGTERM"
  kill -TERM $started 2>/dev/null; sleep 2; marked_procs | xargs -r kill -KILL 2>/dev/null
fi

# the test definition: its format, upper-case parameters, none PRIORITY,
# and the step hands every parameter to run.sh
python3 - "$SRC/ci/lava/rtconform.yaml" >"$TMP/yaml.log" 2>&1 <<'PY' && ok "ci/lava/rtconform.yaml is a valid test definition handing every parameter to run.sh" || { fail "ci/lava/rtconform.yaml is a valid test definition handing every parameter to run.sh:"; cat "$TMP/yaml.log"; }
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
m = d["metadata"]
assert m["format"] == "Lava-Test Test Definition 1.0", m["format"]
for k in ("name", "description", "os", "scope", "devices"):
    assert m.get(k), "metadata lacks " + k
params = d["params"]
for p in params:
    assert p == p.upper(), "parameter %s is not upper case" % p
    assert p != "PRIORITY", "PRIORITY clashes with LAVA's job priority"
for p in ("PROFILE", "QUICK", "BACKGROUND", "DEB"):
    assert p in params, "no parameter " + p
steps = " ".join(d["run"]["steps"])
assert "ci/lava/run.sh" in steps, steps
for p in params:
    assert '%s="${%s}"' % (p, p) in steps, "the step does not pass " + p
PY
finish
