# SPDX-License-Identifier: Apache-2.0
# The four reports of a real (tiny) run, their re-rendering from results.json
# (byte for byte) and from an older junit.xml, `rtconform report` errors,
# `env` readiness, and the live progress line on a terminal (the lines for
# a CI log, --quiet and colour are tests/cli/duration.sh's).
. "$(dirname "$0")/lib.sh"

REPORTS="junit.xml summary.txt report.html results.json"

# rerender_same DIR [LABEL]: `rtconform report DIR/results.json` writes all
# four reports to another directory, each the same bytes as the run's, and
# the CSV files (DIR/csv) and LAVA lines (DIR/lava.txt) where the run wrote
# them. This is the test of that property for every report kind; the other
# scripts check it only on runs of a kind no run here makes.
rerender_same() {
  local d="$1" again="$1.again" extra=() f
  mkdir -p "$again"
  [ -d "$d/csv" ] && extra+=(--csv "$again/csv")
  [ -f "$d/lava.txt" ] && extra+=(--lava "$again/lava.txt")
  expect_status 0 "$RTC" report "$d/results.json" --junit "$again/junit.xml" \
    --summary "$again/summary.txt" --html "$again/report.html" --json "$again/results.json" "${extra[@]}"
  expect_grep "^reports: $again/junit.xml, $again/summary.txt, $again/report.html, $again/results.json\$" "$TMP/out"
  for f in $REPORTS csv lava.txt; do
    [ -e "$d/$f" ] || continue
    if diff -r "$d/$f" "$again/$f" >"$again.diff" 2>&1; then ok "${2:-$d}: $f re-rendered from results.json is the same"; else
      fail "${2:-$d}: $f re-rendered from results.json differs:"
      head -6 "$again.diff"
    fi
  done
}

command -v script >/dev/null || { fail "script(1) is missing (Debian package bsdutils)"; finish; }
# script(1)'s terminal is one that moves its cursor and shows colour
# whatever the caller's TERM (unset or dumb gets the log's lines).
export TERM=xterm

# A tiny run writes all four reports in -o.
expect_status 0 "$RTC" run --iterations 200 --runs 2 -o "$TMP/r" "$FIX/cli/pass.xml"
for f in junit.xml summary.txt report.html results.json; do
  [ -s "$TMP/r/$f" ] && ok "run writes $f" || fail "run did not write $f"
done
expect_grep "reports: .*junit.xml, .*summary.txt, .*report.html, .*results.json" "$TMP/out"
validate_junit "$TMP/r/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0

# report.html: well-formed for libxml2's HTML parser (which knows no SVG
# elements: "Tag svg invalid" is the one complaint allowed) and as XML.
xmllint --html --noout "$TMP/r/report.html" 2>"$TMP/html.err"
if grep -E 'error' "$TMP/html.err" | grep -Ev 'Tag [a-zA-Z]+ invalid' | grep -q .; then
  fail "report.html: HTML parser errors:"; grep -E 'error' "$TMP/html.err" | grep -Ev 'Tag [a-zA-Z]+ invalid' | head -5
else ok "report.html: no HTML parser error"; fi
if xmllint --noout --nonet "$TMP/r/report.html" 2>"$TMP/xml.err"; then ok "report.html is well-formed XML"; else
  fail "report.html is not well-formed XML"; head -5 "$TMP/xml.err"; fi
# One <svg> per duration metric of each requirement, as results.json lists
# them; the counts (the harness's three for every requirement, and
# sem-pingpong's unanswered-waits) in a table.
read -r metrics durations counts < <("$JUNIT_PY" - "$TMP/r/results.json" <<'PY'
import json, sys
ms = [m for f in json.load(open(sys.argv[1]))["files"] for r in f["requirements"] for m in r["metrics"]]
print(len(ms), sum(m["kind"] == "duration" for m in ms), sum(m["kind"] == "count" for m in ms))
PY
)
svgs=$(grep -o '<svg ' "$TMP/r/report.html" | wc -l)
[ "$durations" -ge 2 ] && [ "$svgs" -eq "$durations" ] && [ $((durations + counts)) -eq "$metrics" ] && ok "report.html has an svg per duration metric of results.json" \
  || fail "report.html has $svgs <svg>; results.json lists $metrics metrics, $durations durations, $counts counts"
[ "$counts" -eq 8 ] && ok "results.json: 4 count metrics for each of 2 requirements" || fail "results.json: $counts count metrics, expected 4 for each of 2 requirements"
for id in PP-OTHER PP-FIFO; do
  for m in page-faults major-faults involuntary-switches; do
    [[ "$(prop "$id.$m" "$TMP/r/junit.xml")" =~ ^kind=count\ count=[0-9]+\ total=[0-9]+\  ]] \
      && ok "results.json: $id's $m" || fail "results.json: $id.$m is '$(prop "$id.$m" "$TMP/r/junit.xml")'"
    expect_grep "^  $id $m: total [0-9]+, " "$TMP/r/summary.txt"
  done
done
[ "$(xpath_count '//table[@class="counts"]' "$TMP/r/report.html")" = 2 ] && ok "report.html has a counts table for each requirement" \
  || fail "report.html: expected a counts table for each requirement"
expect_grep 'class="v v-pass">PASS<' "$TMP/r/report.html"
expect_grep 'PP-FIFO' "$TMP/r/report.html"
expect_grep '@media print' "$TMP/r/report.html"
expect_no_grep '<script|<link |<img |src=|url\(' "$TMP/r/report.html"

# Re-rendered from results.json alone: every report the same bytes.
rerender_same "$TMP/r" "pass.xml run"
# The run's stdout table is summary.txt's first part.
"$RTC" run --iterations 200 --runs 2 -o "$TMP/t" "$FIX/cli/pass.xml" >"$TMP/t.out" 2>"$TMP/t.err"
head -n "$(($(wc -l <"$TMP/t.out") - 1))" "$TMP/t.out" >"$TMP/t.table"
if cmp -s "$TMP/t.table" <(head -n "$(wc -l <"$TMP/t.table")" "$TMP/t/summary.txt"); then ok "the table on stdout is the start of summary.txt"; else
  fail "the table on stdout is not the start of summary.txt"; fi

# A run with a pass, a failure, an error (a worker that times out), a
# cycles limit and a requirement left out by --only (skipped).
cat >"$TMP/mixed.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="mixed" version="2">
  <defaults iterations="60" runs="2" warmup="5" timeout="60s"/>
  <requirement id="OK"><title>passes</title><probe name="sem-pingpong"/>
    <limit statistic="max" max="60s"/><limit statistic="min" max="100000000000cycles"/></requirement>
  <requirement id="MISS"><probe name="sem-pingpong"/><limit statistic="max" max="1ns"/></requirement>
  <requirement id="SLOW"><probe name="sem-pingpong"/>
    <run iterations="100000000" runs="1" warmup="0" timeout="200ms"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="LEFT"><probe name="sem-pingpong"/><limit statistic="max" max="60s"/></requirement>
</requirements>
XML
expect_status 3 "$RTC" run --only OK,MISS,SLOW -o "$TMP/m" --csv "$TMP/m/csv" --lava "$TMP/m/lava.txt" "$TMP/mixed.xml"
# A cycles limit needs a TSC timebase; on another it cannot be judged (error).
if "$RTC" env 2>/dev/null | grep -Eq '^timebase.name +tsc$'; then
  expect_grep '4 requirements: 1 passed, 1 failed, 1 error, 1 skipped' "$TMP/m/summary.txt"
else
  expect_grep '4 requirements: 0 passed, 1 failed, 2 errors, 1 skipped' "$TMP/m/summary.txt"
fi
[[ "$(prop OK.limits "$TMP/m/junit.xml")" =~ \;\ metric=per-op\ statistic=[a-z0-9.]+\ max_cycles= ]] \
  && ok "results.json: OK's limit in cycles" || fail "results.json: OK.limits is '$(prop OK.limits "$TMP/m/junit.xml")'"
rerender_same "$TMP/m" "mixed run" # also --only's (once cli.exit_status's), --csv's (cli.csv's) and --lava's (cli.lava's)

# Per-CPU series (timer-wakeup, tiny counts as in timer.sh).
req_file "$TMP/tw.xml" tw <<XML
  <requirement id="TW"><probe name="timer-wakeup"/>
    <run iterations="20" runs="2" warmup="2"/><limit statistic="max" max="1s"/></requirement>
XML
expect_status 0 "$RTC" run --quick -o "$TMP/w" "$TMP/tw.xml"
expect_no_grep 'name="TW.wakeup.cpu' "$TMP/w/junit.xml" # per-CPU series: results.json only
expect_grep '"per_cpu": \[$' "$TMP/w/results.json"
rerender_same "$TMP/w" "timer-wakeup run"

# The input is recognised by content: a results.json under another name.
cp "$TMP/m/results.json" "$TMP/m/archive.xml"
expect_status 0 "$RTC" report "$TMP/m/archive.xml" --summary "$TMP/m/s2.txt"
cmp -s "$TMP/m/summary.txt" "$TMP/m/s2.txt" && ok "results.json named .xml: the same summary" || fail "results.json named .xml: summary differs"

# A run's junit.xml is written for CI and never read back: refused, named,
# exit 2, nothing written. It keeps no histogram: its <system-out> says
# where they are.
expect_status 2 "$RTC" report "$TMP/r/junit.xml" --html "$TMP/re.html" --json "$TMP/re.json"
expect_grep "$TMP/r/junit.xml: XML, not a results.json: junit.xml and report.html are written for people and CI, never read back; render from the run's results.json" "$TMP/out"
[ ! -e "$TMP/re.html" ] && [ ! -e "$TMP/re.json" ] && ok "report writes no file from a junit.xml" || fail "report wrote a file from a junit.xml"
expect_status 2 "$RTC" report "$FIX/junit/junit-0.1.xml" --summary "$TMP/old.txt"
[ ! -e "$TMP/old.txt" ] && ok "report writes no file from an rtconform 0.1 junit.xml" || fail "report wrote a file from an rtconform 0.1 junit.xml"
expect_grep '^histograms and per-run figures: in results.json' "$TMP/r/junit.xml"
expect_no_grep '\|#' "$TMP/r/junit.xml"
# ... nor a results.json that is not one: 2, the field named, nothing written.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["files"][0]["requirements"][0]["seconds"] = "1.5"
json.dump(d, open(sys.argv[2], "w"))' "$TMP/m/results.json" "$TMP/bad.json"
expect_status 2 "$RTC" report "$TMP/bad.json" --html "$TMP/bad.html"
expect_grep 'bad.json: files\[0\]\.requirements\[0\]\.seconds: expected a number' "$TMP/out"
printf '{"schema": "urn:rtconform:results:1"} trailing\n' >"$TMP/trail.json"
expect_status 2 "$RTC" report "$TMP/trail.json" --html "$TMP/bad.html"
expect_grep 'trail.json:1:[0-9]+: not JSON: end of file expected' "$TMP/out"
[ ! -e "$TMP/bad.html" ] && ok "report writes no file from a malformed results.json" || fail "report wrote a file from a malformed results.json"

# Explicit paths override -o for that report only.
expect_status 1 "$RTC" run --iterations 20 --runs 1 -o "$TMP/o2" --html "$TMP/elsewhere.html" \
  --json "$TMP/elsewhere.json" "$FIX/cli/impossible.xml"
[ -s "$TMP/elsewhere.html" ] && [ -s "$TMP/elsewhere.json" ] && ok "--html/--json are written" || fail "--html/--json not written"
validate_junit "$TMP/o2/junit.xml" --tests 2 --failures 1 --errors 0 --skipped 0
[ ! -e "$TMP/o2/report.html" ] && [ ! -e "$TMP/o2/results.json" ] && [ -s "$TMP/o2/junit.xml" ] && ok "--html/--json replace the -o files, and only those" \
  || fail "--html/--json should replace the -o files, and only those"
expect_grep 'class="v v-fail">FAIL<' "$TMP/elsewhere.html"
expect_grep 'class="beyond"' "$TMP/elsewhere.html"   # every bin is beyond max <= 1 ns
# An unwritable report path is found before anything is measured.
expect_status 2 "$RTC" run -o "$TMP/o3" --html "$TMP/no/such/dir/r.html" "$FIX/cli/pass.xml"
expect_grep 'cannot write' "$TMP/out"
[ ! -e "$TMP/o3/junit.xml" ] && ok "a run with an unwritable --html measures nothing" || fail "a run with an unwritable --html measured anyway"

# `report` usage and input errors: 2, with the reason.
expect_status 2 "$RTC" report "$TMP/r/junit.xml"
expect_grep 'give --html, --json, --junit, --summary and/or --lava FILE' "$TMP/out"
expect_status 2 "$RTC" report "$TMP/missing.xml" --html "$TMP/x.html"
expect_grep 'missing.xml' "$TMP/out"
expect_status 2 "$RTC" report "$FIX/cli/pass.xml" --html "$TMP/x.html"
expect_grep 'pass.xml: XML, not a results.json' "$TMP/out"
printf 'hello\n' >"$TMP/neither.txt"
expect_status 2 "$RTC" report "$TMP/neither.txt" --html "$TMP/x.html"
expect_grep 'neither.txt: not a results.json' "$TMP/out"
printf '<!DOCTYPE x SYSTEM "file:///etc/passwd"><testsuites/>\n' >"$TMP/dtd.xml"
expect_status 2 "$RTC" report "$TMP/dtd.xml" --html "$TMP/x.html"
expect_grep 'dtd.xml: XML, not a results.json' "$TMP/out"
[ ! -e "$TMP/x.html" ] && ok "report writes no file from bad input" || fail "report wrote a file from bad input"

# env: the fingerprint, then readiness checks with levels and remedies.
expect_status 0 "$RTC" env
for k in host.kernel.cmdline host.cpu.governor host.virtual_machine host.limits.rtprio \
         host.cpu.smt host.cpu.nohz_full rtconform.libxml2; do
  expect_grep "^$k " "$TMP/out"
done
expect_grep '^readiness:$' "$TMP/out"
expect_grep '^  (ok|note|warn|fail) +sched_fifo ' "$TMP/out"
expect_grep '^  (ok|note|warn|fail) +cpufreq ' "$TMP/out"
expect_grep '^ +remedy: ' "$TMP/out"
expect_grep '^readiness: [0-9]+ ok, [0-9]+ notes?, [0-9]+ warnings?, [0-9]+ failures?$' "$TMP/out"

# Progress: on a stderr that is not a terminal, one line per requirement ...
long=(run --iterations 50000 --runs 6 --only PP-OTHER -o "$TMP/p" "$FIX/cli/pass.xml")
"$RTC" "${long[@]}" >"$TMP/p.out" 2>"$TMP/p.err"
# (the limit that decides a pass: the tightest of those that show headroom,
# here one of the file's per-op limits; rtconform's own limit on unanswered
# waits, held at its bound of 0, decides only a pass that has no other)
expect_grep '^\[1/1\] PP-OTHER: pass, per-op (mean|max) [0-9.]+ [nuµm]?s <= (10|60) s \((6 runs|n=[0-9]+)\) \([0-9.]+ s\)$' "$TMP/p.err"
expect_no_grep 'runs done' "$TMP/p.err"
validate_junit "$TMP/p/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0
# ... and the requirement, runs done of total and time left on one.
NO_COLOR=1 script -qec "'$RTC' ${long[*]}" /dev/null >"$TMP/tty.out" 2>&1
tr '\r' '\n' <"$TMP/tty.out" >"$TMP/tty.lines"
expect_grep '^.*\[1/1\] PP-OTHER: [0-9]+/6 runs done, [0-9.]+ s, ~[0-9.]+ s left' "$TMP/tty.lines"
expect_grep '\[1/1\] PP-OTHER: pass, per-op (mean|max) [0-9.]+ [nuµm]?s <= (10|60) s \((6 runs|n=[0-9]+)\) \([0-9.]+ s\)' "$TMP/tty.lines"
validate_junit "$TMP/p/junit.xml" --tests 1 --failures 0 --errors 0 --skipped 0
finish
