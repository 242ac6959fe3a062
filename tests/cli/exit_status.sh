# SPDX-License-Identifier: Apache-2.0
# Exit status of `rtconform run` as docs/reports.md gives it, and the reports behind it.
. "$(dirname "$0")/lib.sh"

# 0: every requirement passed
expect_status 0 "$RTC" run -o "$TMP/pass" "$FIX/cli/pass.xml"
validate_junit "$TMP/pass/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0 \
  --property PP-OTHER.verdict=pass --property PP-FIFO.verdict=pass
[ "$(xpath_count '//testcase' "$TMP/pass/junit.xml")" = 2 ] && ok "pass: junit.xml has 2 testcases" || fail "pass: expected 2 testcases"
expect_grep 'PP-OTHER' "$TMP/pass/summary.txt"
expect_grep 'PP-FIFO' "$TMP/out"

# --only: the others are in the report as skipped, with the reason; the
# table folds them into one line, and junit.xml leaves them out unless
# --junit-skipped (issue 24)
expect_status 0 "$RTC" run -o "$TMP/only" --only PP-OTHER "$FIX/cli/pass.xml"
expect_grep '^1 requirement not selected \(--only PP-OTHER\): PP-FIFO$' "$TMP/out"
expect_no_grep '^PP-FIFO ' "$TMP/out"
expect_grep '^2 requirements: 1 passed, 0 failed, 0 errors, 1 skipped ' "$TMP/out"
expect_grep '^1 requirement not selected \(--only PP-OTHER\): PP-FIFO$' "$TMP/only/summary.txt"
validate_junit "$TMP/only/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0 \
  --property PP-OTHER.verdict=pass
[ "$(xpath_count '//testcase' "$TMP/only/junit.xml")" = 1 ] && ok "--only: junit.xml has 1 testcase" || fail "--only: expected 1 testcase"
expect_no_grep 'PP-FIFO' "$TMP/only/junit.xml"
expect_grep '"selected": false' "$TMP/only/results.json"
# report lists them in junit.xml when asked (that it renders an --only run
# again the same: cli.reports)
expect_status 0 "$RTC" report "$TMP/only/results.json" --junit "$TMP/only/skipped.xml" --junit-skipped
validate_junit "$TMP/only/skipped.xml" --tests 2 --failures 0 --errors 0 --skipped 1 \
  --property PP-FIFO.verdict=skipped
expect_status 0 "$RTC" run -q -o "$TMP/only2" --only PP-OTHER --junit-skipped "$FIX/cli/pass.xml"
validate_junit "$TMP/only2/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 1 \
  --property PP-FIFO.verdict=skipped
expect_grep '<skipped>not selected \(--only PP-OTHER\)</skipped>' "$TMP/only2/junit.xml"

# 1: an impossible budget fails, with exactly one <failure>
expect_status 1 "$RTC" run -o "$TMP/imp" "$FIX/cli/impossible.xml"
validate_junit "$TMP/imp/junit.xml" --tests 2 --failures 1 --errors 0 --skipped 0 \
  --property IMPOSSIBLE.verdict=fail --property EASY.verdict=pass
[ "$(xpath_count '//failure' "$TMP/imp/junit.xml")" = 1 ] && ok "impossible: junit.xml has one failure" || fail "impossible: expected one <failure>"
[ "$(xpath_count '//error' "$TMP/imp/junit.xml")" = 0 ] && ok "impossible: junit.xml has no error" || fail "impossible: expected no <error>"
expect_grep 'type="LatencyBudgetExceeded"' "$TMP/imp/junit.xml"
expect_grep 'message="per-op max [0-9.]+ [mun]?s &gt; 1 ns \(n=200\)"' "$TMP/imp/junit.xml"

# 2: invalid input, nothing measured, no report written
expect_status 2 "$RTC" run -o "$TMP/inv" "$FIX/cli/invalid-probe.xml"
expect_grep 'invalid-probe.xml:5: .*carrier-pigeon.*expected' "$TMP/out"
[ ! -e "$TMP/inv" ] && ok "invalid input creates no -o directory" || fail "invalid input created $TMP/inv"
expect_status 2 "$RTC" run -o "$TMP/inv" "$TMP/does-not-exist.xml"
# Many left out: counted, the first 5 named, not 800 characters of ids.
reqs=()
for i in 1 2 3 4 5 6 7 8; do
  reqs+=("$(requirement "R$i" "$(probe selftest)" '<run iterations="100" runs="1"/>' \
    '<limit statistic="max" max="10s"/>')")
done
req_file "$TMP/eight.xml" eight "" "${reqs[@]}"
expect_status 0 "$RTC" run -o "$TMP/eight" --only R1 "$TMP/eight.xml"
expect_grep '^7 requirements not selected \(--only R1\): R2, R3, R4, R5, R6, \.\.\. \(see the reports\)$' "$TMP/out"
expect_grep '^7 requirements not selected \(--only R1\): ' "$TMP/eight/summary.txt"
expect_grep '^  "skipped": 7,$' "$TMP/eight/results.json"

# --only given twice adds to the selection (review 24: the first list was
# silently dropped): both run, none is skipped; a wrong id in either is
# still refused.
expect_status 0 "$RTC" run -q -o "$TMP/only3" --only PP-OTHER --only PP-FIFO "$FIX/cli/pass.xml"
expect_no_grep '"verdict": "skipped"' "$TMP/only3/results.json"
expect_grep 'PP-FIFO' "$TMP/only3/junit.xml"

# 3: a worker that cannot finish in its timeout; the suite goes on after it
expect_status 3 "$RTC" run -o "$TMP/to" "$FIX/cli/timeout.xml"
validate_junit "$TMP/to/junit.xml" --tests 2 --failures 0 --errors 1 --skipped 0 \
  --property TOO-SLOW.verdict=error --property AFTER.verdict=pass
expect_grep '<error[^>]*timed out' "$TMP/to/junit.xml"
[ "$(xpath_count '//testcase' "$TMP/to/junit.xml")" = 2 ] && ok "timeout: junit.xml has 2 testcases" || fail "timeout: expected 2 testcases"
expect_grep 'AFTER.*PASS' "$TMP/to/summary.txt"

# 3 wins over 1
req_file "$TMP/mixed.xml" mixed <<XML
  <requirement id="F"><probe name="sem-pingpong"/><run iterations="20" runs="1"/>
    <limit statistic="max" max="1ns"/></requirement>
  <requirement id="E"><probe name="sem-pingpong"/>
    <run iterations="100000000" runs="1" warmup="0" timeout="100ms"/>
    <limit statistic="max" max="60s"/></requirement>
XML
expect_status 3 "$RTC" run -o "$TMP/mixed" "$TMP/mixed.xml"
validate_junit "$TMP/mixed/junit.xml" --tests 2 --failures 1 --errors 1 --skipped 0 \
  --property F.verdict=fail --property E.verdict=error

# 1, not 3: a limit that failed fails the requirement though another could
# not be computed (--iterations leaves p99.999 too few samples); that one
# says error and why, beside it, in every report (issue 24)
req_file "$TMP/short.xml" short <<XML
  <requirement id="MISSED"><probe name="selftest"/><run iterations="1000000" runs="1" warmup="0"/>
    <limit statistic="max" max="1ns"/><limit statistic="p99.999" max="60s"/></requirement>
XML
expect_status 0 "$RTC" validate "$TMP/short.xml"
expect_status 1 "$RTC" run --iterations 100 -o "$TMP/short" --lava "$TMP/short.lava" "$TMP/short.xml"
expect_grep '^rtconform run: warning: requirement MISSED: p99\.999 needs at least 1000000 samples, this plan takes 100 \(iterations x runs\)' "$TMP/out"
expect_grep '^MISSED .* interval p99\.999 <= 60 s +- +ERROR$' "$TMP/out"
expect_grep '^ +error: p99\.999 interval cannot be computed from 100 samples$' "$TMP/out"
expect_grep '^MISSED .* interval max <= 1 ns .* FAIL$' "$TMP/short/summary.txt"
expect_grep '^ +error: p99\.999 interval cannot be computed from 100 samples$' "$TMP/short/summary.txt"
expect_grep 'exit status 1: ' "$TMP/short/summary.txt"
validate_junit "$TMP/short/junit.xml" --tests 1 --failures 1 --errors 0 --property MISSED.verdict=fail
expect_grep 'error: p99\.999 interval cannot be computed from 100 samples' "$TMP/short/junit.xml"
expect_grep '^# MISSED-interval-p99\.999: error: p99\.999 interval cannot be computed' "$TMP/short.lava"
expect_grep '^MISSED fail$' "$TMP/short.lava"
# the reader judges the stored verdicts by the same rule, and renders the same
expect_status 0 "$RTC" report "$TMP/short/results.json" --summary "$TMP/short-again.txt"
cmp -s "$TMP/short/summary.txt" "$TMP/short-again.txt" && ok "report renders the run's summary.txt again" \
  || { fail "report renders another summary.txt:"; diff "$TMP/short/summary.txt" "$TMP/short-again.txt" | diag; }

# 3, and each limit keeps its own verdict: a max that held beside a
# percentile --iterations leaves too few samples for is pass in every
# report (not the requirement's error, not a LAVA fail); the reader
# accepts the file and renders it again the same (issue 24 review, A)
req_file "$TMP/held.xml" held <<XML
  <requirement id="HELD"><probe name="selftest"/><run iterations="50000" runs="2" warmup="0"/>
    <limit statistic="max" max="10s"/><limit statistic="p99.99" max="1s"/></requirement>
XML
expect_status 3 "$RTC" run --iterations 300 -o "$TMP/held" --lava "$TMP/held.lava" "$TMP/held.xml"
expect_grep '^HELD .* interval max <= 10 s .* PASS$' "$TMP/out"
expect_grep '^HELD .* interval p99\.99 <= 1 s +- +ERROR$' "$TMP/held/summary.txt"
expect_grep '^HELD .* interval max <= 10 s .* PASS$' "$TMP/held/summary.txt"
expect_grep 'limit interval max &lt;= 10 s: PASS' "$TMP/held/junit.xml"
expect_no_grep 'limit interval max &lt;= 10 s: ERROR' "$TMP/held/junit.xml"
validate_junit "$TMP/held/junit.xml" --tests 1 --failures 0 --errors 1 --property HELD.verdict=error
expect_grep '^HELD-interval-max pass ' "$TMP/held.lava"
expect_grep '^HELD-interval-p99\.99 fail$' "$TMP/held.lava"
expect_grep '^HELD fail$' "$TMP/held.lava"
expect_fact HELD.limits 'verdict=pass' "$TMP/held/junit.xml"
python3 - "$TMP/held/results.json" <<'PY' && ok "results.json: the held limit is pass, the other error" || fail "results.json: per-limit verdicts"
import json, sys
r = json.load(open(sys.argv[1]))["files"][0]["requirements"][0]
assert r["verdict"] == "error", r["verdict"]
assert [l["verdict"] for l in r["limits"]] == ["pass", "error"], r["limits"]
PY
expect_status 0 "$RTC" report "$TMP/held/results.json" --summary "$TMP/held-again.txt" --html "$TMP/held-again.html"
cmp -s "$TMP/held/summary.txt" "$TMP/held-again.txt" && ok "held: report renders summary.txt again" \
  || { fail "held: report renders another summary.txt:"; diff "$TMP/held/summary.txt" "$TMP/held-again.txt" | diag; }
expect_grep 'v-pass' "$TMP/held-again.html"

# a requirement without limits beside one with: the progress line, the
# table and the counts say "measured, no limits", never pass (review D)
req_file "$TMP/nolim.xml" nolim 'iterations="500" runs="2" warmup="0"' <<XML
  <requirement id="N1"><probe name="selftest"/></requirement>
  <requirement id="L1"><probe name="selftest"/><limit statistic="max" max="10s"/></requirement>
XML
expect_status 0 "$RTC" run -o "$TMP/nolim" "$TMP/nolim.xml"
expect_grep '^\[1/2\] N1: measured, no limits \([0-9.]+ s\)$' "$TMP/out"
expect_grep '^\[2/2\] L1: pass, interval max ' "$TMP/out"
expect_grep '^N1 .*\(no limits\) +- +measured, no limits$' "$TMP/out"
expect_grep '^2 requirements: 1 passed, 1 measured without limits, 0 failed, 0 errors, 0 skipped \(.*\); exit status 0: every requirement with limits passed; the others were measured without limits to judge$' "$TMP/nolim/summary.txt"
expect_grep 'name="verdicts" value="passed=1 no-limits=1 failed=0 errors=0 skipped=0"' "$TMP/nolim/junit.xml"
validate_junit "$TMP/nolim/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0

# no worker or peer left behind
expect_no_leftovers "after the runs"
finish
