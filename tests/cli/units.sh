# SPDX-License-Identifier: Apache-2.0
# The unit rule (docs/reports.md "Units and numbers") over real outputs:
# summary.txt, report.html and junit.xml of the results fixtures and the
# terminal's statistics of `rtconform probe`: no count as "0.000", no "µs"
# in a text output, no "<=" in HTML prose, and a histogram's bounds in the
# unit of its table's statistics.
. "$(dirname "$0")/lib.sh"

for f in pass wide-stats traced; do
  d="$TMP/$f"
  expect_status 0 "$RTC" report "$FIX/results/$f.json" --summary "$d/summary.txt" \
    --html "$d/report.html" --junit "$d/junit.xml"
  # a count's statistics (kind=count) are whole numbers when whole
  if grep -Eo 'kind=count[^;"]*' "$d/junit.xml" | grep -Eq '=[0-9]+\.000\b'; then
    fail "$f: junit.xml writes a count as N.000"
  else ok "$f: junit.xml's counts are whole"; fi
  expect_no_grep '\b0\.000\b' "$d/summary.txt"
  expect_no_grep $'\xc2\xb5s' "$d/summary.txt"
  expect_no_grep $'\xc2\xb5s' "$d/junit.xml"
  expect_no_grep '[0-9] us\b' "$d/report.html"
  expect_no_grep '&lt;= [0-9]' "$d/report.html"
  expect_no_grep '&gt;= [0-9]' "$d/report.html"
done

# The terminal: a metric's statistics and its histogram's bounds in one
# unit (a run long enough for a histogram of many rows).
expect_status 0 "$RTC" probe sem-pingpong --iterations 2000
expect_no_grep $'\xc2\xb5s' "$TMP/out"
awk '/^metric / { m = $2; unit[m] = "" }
     m && $1 ~ /^(min|mean|p50|p90|max)$/ && $3 ~ /^(ns|us|ms|s)$/ { su[m, $3] = 1; stats[m] = stats[m] " " $3 }
     m && /^  histogram \(/ { h = $2; sub(/^\(/, "", h); sub(/,$/, "", h); hu[m] = h }
     m && / \.\. / && /\|/ { for (i = 1; i <= NF; i++) if ($i ~ /^(ns|us|ms|s)$/ && $i != hu[m]) bad = bad " " m ":" $i }
     END { for (k in hu) { n = split(stats[k], a, " "); for (i = 1; i <= n; i++) if (a[i] != hu[k]) bad = bad " " k ":" a[i] }
           if (bad != "" || length(hu) == 0) { print "mixed:" bad; exit 1 } }' "$TMP/out" >"$TMP/mixed" \
  && ok "probe: each metric's statistics and histogram bounds share one unit" \
  || { fail "probe: units mixed in one table: $(cat "$TMP/mixed")"; head -40 "$TMP/out" | sed 's/^/# /'; }
finish
