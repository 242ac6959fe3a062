# The four reports of a real (tiny) run, their re-rendering from junit.xml,
# `rtconform report` errors, `env` readiness, and progress on a terminal only.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || { fail "script(1) is missing (Debian package bsdutils)"; finish; }

# A tiny run writes all four reports in -o.
expect_status 0 "$RTC" run --iterations 200 --runs 2 -o "$TMP/r" "$FIX/cli/pass.xml"
for f in junit.xml summary.txt report.html results.json; do
  [ -s "$TMP/r/$f" ] && ok || fail "run did not write $f"
done
expect_grep "reports: .*junit.xml, .*summary.txt, .*report.html, .*results.json" "$TMP/out"
validate_junit "$TMP/r/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0

# report.html: well-formed for libxml2's HTML parser (which knows no SVG
# elements: "Tag svg invalid" is the one complaint allowed) and as XML.
xmllint --html --noout "$TMP/r/report.html" 2>"$TMP/html.err"
if grep -E 'error' "$TMP/html.err" | grep -Ev 'Tag [a-zA-Z]+ invalid' | grep -q .; then
  fail "report.html: HTML parser errors:"; grep -E 'error' "$TMP/html.err" | grep -Ev 'Tag [a-zA-Z]+ invalid' | head -5
else ok; fi
if xmllint --noout --nonet "$TMP/r/report.html" 2>"$TMP/xml.err"; then ok; else
  fail "report.html is not well-formed XML"; head -5 "$TMP/xml.err"; fi
# One <svg> per metric of each requirement, as junit.xml lists them.
metrics=$(xmllint --xpath '//property[substring(@name, string-length(@name) - 7) = ".metrics"]/@value' \
  "$TMP/r/junit.xml" 2>/dev/null | grep -o 'value="[^"]*"' | sed 's/value="//; s/"$//' | tr ',' '\n' | grep -c .)
svgs=$(grep -o '<svg ' "$TMP/r/report.html" | wc -l)
[ "$metrics" -ge 2 ] && [ "$svgs" -eq "$metrics" ] && ok || fail "report.html has $svgs <svg>, junit.xml lists $metrics metrics"
expect_grep 'class="v v-pass">PASS<' "$TMP/r/report.html"
expect_grep 'PP-FIFO' "$TMP/r/report.html"
expect_grep '@media print' "$TMP/r/report.html"
expect_no_grep '<script|<link |<img |src=|url\(' "$TMP/r/report.html"

# Re-rendered from junit.xml alone: the same bytes.
expect_status 0 "$RTC" report "$TMP/r/junit.xml" --html "$TMP/re.html" --json "$TMP/re.json"
cmp -s "$TMP/r/report.html" "$TMP/re.html" && ok || fail "re-rendered report.html differs: $(cmp "$TMP/r/report.html" "$TMP/re.html")"
cmp -s "$TMP/r/results.json" "$TMP/re.json" && ok || fail "re-rendered results.json differs"

# Explicit paths override -o for that report only.
expect_status 1 "$RTC" run --iterations 20 --runs 1 -o "$TMP/o2" --html "$TMP/elsewhere.html" \
  --json "$TMP/elsewhere.json" "$FIX/cli/impossible.xml"
[ -s "$TMP/elsewhere.html" ] && [ -s "$TMP/elsewhere.json" ] && ok || fail "--html/--json not written"
validate_junit "$TMP/o2/junit.xml" --tests 2 --failures 1 --errors 0 --skipped 0
[ ! -e "$TMP/o2/report.html" ] && [ ! -e "$TMP/o2/results.json" ] && [ -s "$TMP/o2/junit.xml" ] && ok \
  || fail "--html/--json should replace the -o files, and only those"
expect_grep 'class="v v-fail">FAIL<' "$TMP/elsewhere.html"
expect_grep 'class="beyond"' "$TMP/elsewhere.html"   # every bin is beyond max <= 1 ns
# An unwritable report path is found before anything is measured.
expect_status 2 "$RTC" run -o "$TMP/o3" --html "$TMP/no/such/dir/r.html" "$FIX/cli/pass.xml"
expect_grep 'cannot write' "$TMP/out"
[ ! -e "$TMP/o3/junit.xml" ] && ok || fail "a run with an unwritable --html measured anyway"

# `report` usage and input errors: 2, with the reason.
expect_status 2 "$RTC" report
expect_status 2 "$RTC" report "$TMP/r/junit.xml"
expect_grep 'give --html FILE and/or --json FILE' "$TMP/out"
expect_status 2 "$RTC" report "$TMP/missing.xml" --html "$TMP/x.html"
expect_grep 'missing.xml' "$TMP/out"
expect_status 2 "$RTC" report "$FIX/cli/pass.xml" --html "$TMP/x.html"
expect_grep 'not a junit.xml' "$TMP/out"
printf '<!DOCTYPE x SYSTEM "file:///etc/passwd"><testsuites/>\n' >"$TMP/dtd.xml"
expect_status 2 "$RTC" report "$TMP/dtd.xml" --html "$TMP/x.html"
expect_grep 'DOCTYPE' "$TMP/out"
[ ! -e "$TMP/x.html" ] && ok || fail "report wrote a file from bad input"
expect_status 0 "$RTC" report --help
expect_grep 'usage: rtconform report' "$TMP/out"

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

# Progress: nothing on a stderr that is not a terminal ...
long=(run --iterations 50000 --runs 6 --only PP-OTHER -o "$TMP/p" "$FIX/cli/pass.xml")
"$RTC" "${long[@]}" >"$TMP/p.out" 2>"$TMP/p.err"
[ ! -s "$TMP/p.err" ] && ok || { fail "progress on a non-terminal stderr:"; head -c 300 "$TMP/p.err"; }
validate_junit "$TMP/p/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 1
# ... and the requirement, runs done of total and time left on one.
script -qec "'$RTC' ${long[*]}" /dev/null >"$TMP/tty.out" 2>&1
tr '\r' '\n' <"$TMP/tty.out" >"$TMP/tty.lines"
expect_grep '^.*\[1/1\] PP-OTHER: [0-9]+/6 runs done, [0-9.]+ s, ~[0-9.]+ s left' "$TMP/tty.lines"
expect_grep '\[1/1\] PP-OTHER: pass \([0-9.]+ s\)' "$TMP/tty.lines"
validate_junit "$TMP/p/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 1
finish
