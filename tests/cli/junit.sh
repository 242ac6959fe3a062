# SPDX-License-Identifier: Apache-2.0
# The tests' own JUnit tools are worth what they reject: tests/schemas/junit.xsd
# refuses what the Jenkins or Surefire (JUnit 10) readers refuse, plus what
# rtconform promises never to write; junit_check.py catches totals that do
# not add up and unmet expectations, and fails (never skips) without
# junitparser.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# A run with one testcase of each verdict: pass, fail, error, skipped.
req_file "$TMP/tools.xml" tools 'iterations="20" runs="1" warmup="0" timeout="60s"' <<XML
  <requirement id="PASS"><probe name="selftest"/><limit statistic="max" max="60s"/></requirement>
  <requirement id="FAIL"><probe name="sem-pingpong"/><limit statistic="mean" max="1ns"/>
    <limit statistic="max" max="60s"/><limit statistic="max" max="1ns"/></requirement>
  <requirement id="ERROR"><probe name="selftest"><param name="fault">fail</param></probe>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="SKIP"><probe name="selftest"/><limit statistic="max" max="60s"/></requirement>
XML
expect_status 3 "$RTC" run --only PASS,FAIL,ERROR --junit-skipped -o "$TMP/r" "$TMP/tools.xml"
J="$TMP/r/junit.xml"
validate_junit "$J" --tests 4 --failures 1 --errors 1 --skipped 1 \
  --property PASS.verdict=pass --property FAIL.verdict=fail \
  --property ERROR.verdict=error --property SKIP.verdict=skipped

# The failure's message names every failed limit with its metric, and only
# those, once: the element has nothing besides it (issue 24), an error's
# reason likewise.
expect_grep '<failure type="LatencyBudgetExceeded" message="per-op mean [0-9.]+ [mun]?s &gt; 1 ns \(n=20\); per-op max [0-9.]+ [mun]?s &gt; 1 ns \(n=20\)"/>' "$J"
expect_no_grep 'message="[^"]*60 s' "$J"
expect_grep '<error type="MeasurementError" message="selftest: failure requested[^"]*"/>' "$J"
# A screen of suite properties (issue 41: viewers list every property
# before the first test case); the whole fingerprint is in results.json and
# report.html, never in junit.xml (issue 24, 41)
validate_junit "$J" --lean 25 --property host.name --property host.id --property host.kernel.release \
  --property rtconform.version --property rtconform.commit --property verdicts.passed=1 \
  --property verdicts.failed=1 --property verdicts.errors=1 --property verdicts.skipped=1 \
  --property readiness --property requirements.sha256 --property report=report.html
expect_no_grep 'name="(timebase|host\.cpu|rtconform\.command)' "$J"
expect_no_grep 'timebase\.name|rtconform\.command' "$J"
expect_grep '"timebase\.name": ' "$TMP/r/results.json"
expect_grep '"rtconform\.command": ' "$TMP/r/results.json"
expect_grep 'timebase\.name' "$TMP/r/report.html"
# Each test case: its verdict, the deciding figure and limit (the failing
# one: of FAIL's two failed limits the one missed by the most, its max, not
# its first), the cause and the link to its section of report.html
expect_grep '<system-out>verdict: fail$' "$J"
validate_junit "$J" --property FAIL.verdict=fail --property 'FAIL.limit=per-op max <= 1 ns' \
  --property FAIL.report=./report.html#r1-2 --property PASS.report=./report.html#r1-1 \
  --property 'PASS.limit=interval max <= 60 s' --property 'SKIP.cause=not selected (--only PASS,FAIL,ERROR)'
[[ "$(prop FAIL.figure "$J")" =~ ^per-op\ max\ [0-9.]+\ [mun]?s\ \>\ 1\ ns\ \(n=20\)$ ]] \
  && ok "FAIL's deciding figure is its max past 1 ns" || fail "FAIL.figure is '$(prop FAIL.figure "$J")'"
[[ "$(prop FAIL.cause "$J")" == *"> 1 ns"* ]] && ok "FAIL's cause is its failure" \
  || fail "FAIL.cause is '$(prop FAIL.cause "$J")'"
expect_grep 'id="r1-2"' "$TMP/r/report.html"
# junit.xml no longer carries the rest of a requirement: results.json does,
# every limit and the key statistics of a metric (junit_check.py's facts())
[[ "$(prop FAIL.limits "$J")" =~ ^metric=per-op\ statistic=mean\ max_ns=1.000\ measured_ns=[0-9.]+\ verdict=fail\ text=mean\ [0-9.]+\ [mun]?s\ \>\ 1\ ns\ \(n=20\)\;\ metric=per-op\ statistic=max\ max_ns=60000000000.000\ measured_ns=[0-9.]+\ verdict=pass\ text=max\ [0-9.]+\ [mun]?s\ \<=\ 60\ s\ \(n=20\)\;\ metric=per-op\ statistic=max\ max_ns=1.000\  ]] \
  && ok "results.json: FAIL's limits" || fail "results.json: FAIL's limits are '$(prop FAIL.limits "$J")'"
[[ "$(prop FAIL.per-op "$J")" =~ ^kind=duration\ count=20\ min_ns=[0-9.]+\ mean_ns=[0-9.]+\ p50_ns=[0-9.]+\ max_ns=[0-9.]+\ overflow=0$ ]] \
  && ok "results.json: FAIL's per-op" || fail "results.json: FAIL.per-op is '$(prop FAIL.per-op "$J")'"
expect_no_grep 'name="[A-Z]+\.' "$J"
# a requirement not measured: no runs nor metrics, no empty lists
[ -z "$(prop SKIP.metrics "$J")$(prop SKIP.interval "$J")" ] && ok "SKIP: no metrics" || fail "SKIP has metrics"
expect_no_grep 'value=""' "$J"

# The default profile's junit.xml: at most 20 suite properties
# (validate_junit checks it for every file), its first test case near the
# top whatever the number of requirements; here the counts are shown.
# (a busy machine may miss a budget: 0 or 1, never a measuring error)
st=0; "$RTC" run --quick -o "$TMP/def" >"$TMP/def.out" 2>&1 || st=$?
[ "$st" -le 1 ] && ok "default profile: exit 0 or 1" || { fail "default profile: exit $st"; sed 's/^/    /' "$TMP/def.out" | tail -5; }
validate_junit "$TMP/def/junit.xml" --tests 10 --lean 25
"$JUNIT_PY" - "$TMP/def/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot()[0]
names = [p.get("name") for p in s.find("properties")]
lines = open(sys.argv[1]).read().split("\n")
first = next(n for n, l in enumerate(lines, 1) if "<testcase" in l)
print("    default profile junit.xml: %d suite properties, the first test case on line %d of %d"
      % (len(names), first, len(lines)))
PY

# ---- the schema: each change below makes a file that a consumer (or
# rtconform's own rules, docs/reports.md) refuses. WHO|sed -E script
while IFS='|' read -r who script; do
  [ -n "$who" ] || continue
  sed -E "$script" "$J" >"$TMP/bad.xml"
  if cmp -s "$J" "$TMP/bad.xml"; then fail "mutation '$script' changed nothing"; continue; fi
  if xmllint --noout --nonet --schema "$JUNIT_XSD" "$TMP/bad.xml" >/dev/null 2>&1; then
    fail "junit.xsd accepts what $who refuses: sed -E '$script'"
  else ok "junit.xsd refuses what $who refuses: sed -E '$script'"; fi
done <<'MUTATIONS'
junit-10|s/(<testsuite [^>]*) failures="[0-9]+"/\1/
junit-10|0,/<testcase /s//<testcase status="run" /
junit-10|s/(<testsuite [^>]*) time="[0-9.]+"/\1 time="1e-3"/
jenkins|s/<skipped>/<skipped message="m">/
jenkins|s|^  </testsuite>|<testsuite name="n" tests="0" failures="0" errors="0" skipped="0" time="0" id="1" package="n"/></testsuite>|
jenkins|/<property /d
jenkins|s|<properties>|<system-out>x</system-out><properties>|
both readers|s/<testsuites name/<testsuites skipped="1" name/
both readers|0,/<property name="([^"]*)" value="[^"]*"/s//<property name="\1"/
both readers|0,/<testcase name="[^"]*" /s//<testcase /
rtconform|/<testsuites /d; /<\/testsuites>/d
rtconform|s/(<testsuite name="[^"]*") tests="[0-9]+"/\1 tests="-1"/
rtconform|s/(<testsuite [^>]*) errors="[0-9]+"/\1 errors="one"/
rtconform|s|<failure |<error type="E" message="m">e</error><failure |
rtconform|s|(<failure [^>]*)/>|\1>the message again</failure>|
MUTATIONS

# ---- the checker: wrong expectations and inconsistent files fail, saying why
[ -n "$JUNIT_PY" ] || { fail "no python3 with junitparser: ci/deps installs python3-junitparser"; finish; }
# check_fails WANT-REGEX FILE ARGS... : junit_check.py exits 1 and says WANT
check_fails() {
  local want="$1" st=0; shift
  "$JUNIT_PY" "$JUNIT_CHECK" "$@" >"$TMP/check.out" 2>&1 || st=$?
  if [ "$st" -ne 1 ]; then fail "junit_check.py $*: exit $st, expected 1"; sed 's/^/    /' "$TMP/check.out"
  else expect_grep "$want" "$TMP/check.out"; fi
}
check_fails 'expected 5 tests, found 4' "$J" --tests 5
check_fails 'expected 0 failures, found 1' "$J" --failures 0
check_fails 'expected 2 errors, found 1' "$J" --errors 2
check_fails 'expected 0 skipped, found 1' "$J" --skipped 0
check_fails 'no property NO.SUCH' "$J" --property NO.SUCH
check_fails "property PASS.verdict is 'pass', expected 'fail'" "$J" --property PASS.verdict=fail
# totals that do not add up, though the schema has nothing against them
sed -E 's/(<testsuite name="[^"]*") tests="4"/\1 tests="5"/' "$J" >"$TMP/t.xml"
check_fails 'suite tools: tests="5" but its testcases make 4' "$TMP/t.xml"
sed -E 's/(<testsuites [^>]*) failures="1"/\1 failures="0"/' "$J" >"$TMP/t.xml"
check_fails '<testsuites> failures="0" but its suites make 1' "$TMP/t.xml"
sed -E '0,/<system-out>verdict: pass$/s//<system-out>verdict: fail/' "$J" >"$TMP/t.xml"
check_fails "testcase 'PASS' is pass, but property PASS.verdict says fail" "$TMP/t.xml"
sed -E 's|<failure |<error type="E" message="m">e</error><failure |' "$J" >"$TMP/t.xml"
check_fails "testcase 'FAIL': 2 verdicts" "$TMP/t.xml"
# more than 20 properties of a suite, and the first test case far down
awk '/<properties>/ { print; for (i = 0; i < 20; i++) printf "      <property name=\"x%d\" value=\"x\"/>\n", i; next } { print }' "$J" >"$TMP/t.xml"
check_fails "suite tools: [0-9]+ properties, at most 20" "$TMP/t.xml"
check_fails "the first <testcase> is on line [0-9]+, past line 25" "$TMP/t.xml" --lean 25
# a field of a compound property is found, and compared
check_fails "property FAIL.per-op.count is '20', expected '21'" "$J" --property FAIL.per-op.count=21
check_fails "no property FAIL.per-op.nosuch" "$J" --property FAIL.per-op.nosuch
# not JUnit at all: 2
st=0; "$JUNIT_PY" "$JUNIT_CHECK" "$TMP/tools.xml" >"$TMP/check.out" 2>&1 || st=$?
[ "$st" -eq 2 ] && ok "junit_check.py on a requirements file: exit 2" || fail "junit_check.py on a requirements file: exit $st, expected 2"
# --list prints every property
"$JUNIT_PY" "$JUNIT_CHECK" "$J" --list >"$TMP/check.out" 2>&1 || fail "junit_check.py --list failed"
expect_grep '^  SKIP\.cause=not selected' "$TMP/check.out"

# ---- without junitparser: a failure that names the package, never a skip
st=0; "$JUNIT_PY" -S "$JUNIT_CHECK" "$J" >"$TMP/check.out" 2>&1 || st=$? # -S: no dist-packages
[ "$st" -eq 2 ] && ok "junit_check.py without junitparser: exit 2" || fail "junit_check.py without junitparser: exit $st, expected 2"
expect_grep 'cannot import junitparser.*python3-junitparser' "$TMP/check.out"
st=0
RTC_PYTHON=/nonexistent/python3 bash -c '. "$1/tests/cli/lib.sh" "$2" "$1"; validate_junit "$3"; finish' \
  lib "$SRC" "$RTC" "$J" >"$TMP/lib.out" 2>&1 || st=$?
[ "$st" -ne 0 ] && ok "validate_junit fails without a python3 with junitparser" || fail "validate_junit passed without a python3 with junitparser"
expect_grep '^not ok [0-9]+ - cannot check .*no python3 with junitparser.*python3-junitparser' "$TMP/lib.out"
finish
