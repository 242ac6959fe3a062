# SPDX-License-Identifier: Apache-2.0
# rtconform probe: no PASS without limits, -o DIR (the reports of run -o),
# --json (results.json on stdout) and --duration (by time, as run's).
# Short measurements of the selftest probe and sem-pingpong under
# SCHED_OTHER: no privilege needed.
. "$(dirname "$0")/lib.sh"
P=(probe selftest --iterations 50)

# No limits: measured, exit 0, and never called a pass where people read it.
expect_status 0 "$RTC" "${P[@]}"
expect_grep '^probe selftest, policy other, verdict measured, no limits$' "$TMP/out"
expect_no_grep 'PASS' "$TMP/out"
# ... but a probe with a violation count has rtconform's own limit on it
# (sem-pingpong's unanswered-waits total <= 0): judged, so PASS.
expect_status 0 "$RTC" probe sem-pingpong --iterations 50
expect_grep '^probe sem-pingpong, policy other, verdict PASS$' "$TMP/out"
expect_grep '^metric unanswered-waits \(count\):$' "$TMP/out"
expect_status 0 "$RTC" probe sem-pingpong --iterations 50 -o "$TMP/sp"
expect_grep '^probe +sem-pingpong +other +unanswered-waits total <= 0 +0 +PASS$' "$TMP/sp/summary.txt"

# -o DIR: the four reports of run -o, made before measuring, read back by
# rtconform report.
expect_status 0 "$RTC" "${P[@]}" -o "$TMP/o"
expect_grep "^reports: $TMP/o/junit.xml, $TMP/o/summary.txt, $TMP/o/report.html, $TMP/o/results.json$" "$TMP/out"
for f in junit.xml summary.txt report.html results.json; do
  [ -s "$TMP/o/$f" ] && ok "probe -o wrote $f" || fail "probe -o wrote no $f"
done
expect_grep '^probe +selftest +other +\(no limits\) +- +measured, no limits$' "$TMP/o/summary.txt"
expect_no_grep 'PASS' "$TMP/o/summary.txt"
expect_grep 'verdict measured, no limits' "$TMP/o/junit.xml"
expect_no_grep 'PASS' "$TMP/o/junit.xml"
expect_grep '>measured, no limits<' "$TMP/o/report.html"
expect_grep '<title>rtconform report: measured, no limits on ' "$TMP/o/report.html"
expect_no_grep 'PASS' "$TMP/o/report.html"
expect_grep 'exit status 0: every requirement was measured; none had limits to judge$' "$TMP/o/summary.txt"
# and not counted as passed where people read the counts (issue 24 review, D);
# junit.xml's standard counts keep a passed test case
expect_grep '^1 requirement: 0 passed, 1 measured without limits, 0 failed, 0 errors, 0 skipped ' "$TMP/o/summary.txt"
expect_no_grep '1 passed' "$TMP/o/summary.txt"
expect_grep 'name="verdicts" value="passed=0 no-limits=1 failed=0 errors=0 skipped=0"' "$TMP/o/junit.xml"
validate_junit "$TMP/o/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0
expect_grep '1 requirement: 0 passed, 1 measured without limits, 0 failed' "$TMP/o/report.html"
# a fleet page of it: the host's cell says so too
expect_status 0 "$RTC" merge "$TMP/o/results.json" -o "$TMP/m"
expect_grep '>measured, no limits<' "$TMP/m/fleet.html"
expect_grep '^1 requirement on 1 host, 1 result: 0 passed, 1 measured without limits, 0 failed, 0 errors, 0 skipped; exit status 0$' "$TMP/out"
expect_grep ': 0 passed, 1 measured without limits, 0 failed, 0 errors, 0 skipped; from ' "$TMP/m/fleet.html"
expect_status 0 "$RTC" report "$TMP/o/results.json" --summary "$TMP/again.txt"
cmp -s "$TMP/again.txt" "$TMP/o/summary.txt" && ok "rtconform report renders probe's summary.txt again, the same bytes" \
  || { fail "rtconform report renders probe's summary.txt differently:"; diff "$TMP/o/summary.txt" "$TMP/again.txt" | head -20 | diag; }

# An output that cannot be written: refused before anything is measured.
expect_status 2 "$RTC" "${P[@]}" -o "$TMP/no/such/dir"
expect_grep "^rtconform probe: cannot write '$TMP/no/such/dir/junit.xml'" "$TMP/out"
expect_no_grep 'per-op' "$TMP/out"
[ ! -e "$TMP/no" ] && ok "a refused probe -o leaves no directory" || fail "a refused probe -o left $TMP/no"
expect_status 2 "$RTC" "${P[@]}" -o ''
expect_grep '^rtconform probe: -o/--output: empty value' "$TMP/out"

# --json: results.json on stdout and nothing else; with -o the same bytes
# as the file.
got=0
"$RTC" "${P[@]}" --json -o "$TMP/j" >"$TMP/json" 2>"$TMP/json.err" || got=$?
[ "$got" -eq 0 ] && ok "probe --json -o exits 0" || { fail "probe --json -o exits 0 (it exited $got)"; diag <"$TMP/json.err"; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["exit_status"] == 0; assert d["files"][0]["requirements"][0]["verdict"] == "pass"' "$TMP/json" \
  && ok "probe --json prints one JSON document, exit_status 0, verdict pass" \
  || { fail "probe --json prints no results.json of a pass:"; head -c 600 "$TMP/json" | diag; }
cmp -s "$TMP/json" "$TMP/j/results.json" && ok "probe --json prints the bytes of -o's results.json" \
  || fail "probe --json and -o's results.json differ"

# Not measured (a worker that dies): exit 3, the JSON still printed with
# the error, and the reason on stderr.
got=0
"$RTC" probe selftest --param fault=segv --iterations 10 --json >"$TMP/ej" 2>"$TMP/ej.err" || got=$?
[ "$got" -eq 3 ] && ok "probe --json of a crashing probe exits 3" || fail "probe --json of a crashing probe exits 3 (it exited $got)"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["exit_status"] == 3; assert d["files"][0]["requirements"][0]["verdict"] == "error"' "$TMP/ej" \
  && ok "probe --json of a crashing probe prints results.json with verdict error" \
  || { fail "probe --json of a crashing probe prints no results.json of an error:"; head -c 600 "$TMP/ej" | diag; }
expect_grep '^rtconform probe: error: ' "$TMP/ej.err"

# --duration: by time, with the grammar and refusals of run --duration.
expect_status 0 "$RTC" probe sem-pingpong --iterations 50 --duration 1s
expect_grep '^note: ran by time: ' "$TMP/out"
# ... the note says what a recorded run holds (review 24: "runs of up to 1
# each" said nothing), and --help that the timeout adds to the duration
expect_grep '^note: ran by time: [0-9]+ runs measured, recorded as [0-9]+ runs \(each holding up to [0-9]+ measured runs?\)\.' "$TMP/out"
expect_status 0 "$RTC" probe --help
tr -s ' \n' '  ' <"$TMP/out" >"$TMP/help.flat" # the words, wherever the lines break
expect_grep 'by time, on top of the duration: --duration 1s --timeout 2s stops it after 3 s' "$TMP/help.flat"

# Interrupted without -o (review 24): the figures measured until then on
# stdout, as the reports of -o would have them, not the reason alone.
"$RTC" probe sem-pingpong --duration 60s >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
wait_for "probe's worker to measure" "$START_WAIT" worker_measuring "$pid"
sleep 1
kill -INT "$pid"
st=0; wait "$pid" || st=$?
[ "$st" -eq 3 ] && ok "an interrupted probe exits 3" || { fail "an interrupted probe exited $st"; diag <"$TMP/int.err"; }
expect_grep '^reason: interrupted \(after ' "$TMP/int.out"
expect_grep '^metric wakeup:' "$TMP/int.out"
expect_grep '^  n +[1-9][0-9]*$' "$TMP/int.out"

# On a terminal, probe has run's live view, erased before its statistics;
# off a terminal (above) its stderr stays empty.
if command -v script >/dev/null; then
  TERM=xterm script -qfec "$(printf '%q ' "$RTC" probe selftest --duration 1s)" /dev/null >"$TMP/tty" 2>&1
  tr -d '\r' <"$TMP/tty" >"$TMP/tty.txt"
  expect_grep 'metric +samples +min +cur +mean +max$' "$TMP/tty.txt"
  expect_grep '\[1/1\] probe: [0-9.]+ s of 1 s, ~[0-9.]+ s left' "$TMP/tty.txt"
  expect_grep $'\033\\[[0-9]+A\r?\033\\[Jprobe selftest, policy other' "$TMP/tty"
else
  skip "probe's live view" "script(1) is missing (Debian package bsdutils)"
fi
"$RTC" probe selftest --iterations 100 >"$TMP/quiet.out" 2>"$TMP/quiet.err"
[ ! -s "$TMP/quiet.err" ] && ok "probe off a terminal: nothing on stderr" || { fail "probe off a terminal wrote on stderr"; diag <"$TMP/quiet.err"; }
finish
