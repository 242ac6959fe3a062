#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtconform merge and compare of one host with many requirements, against
# rtconform report of the same file: requirements are matched by id through
# a sorted index, so both stay linear; a scan per requirement made them
# quadratic (50,000 requirements: 49 s to merge, report 4.9 s). Prints the
# CPU times (user + system: the machine may be busy) and their ratios;
# fails when merge or compare takes more than 2 x report writing its four
# reports. Env: RTC, RTC_TOP, BENCH_TMP (set by ci/bench);
# MERGE_REQS (default 50000).
set -euo pipefail
: "${RTC:?set by ci/bench}" "${RTC_TOP:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
n="${MERGE_REQS:-50000}"
dir="$BENCH_TMP/merge_reqs"
mkdir -p "$dir"
command -v python3 >/dev/null || { echo "merge_reqs bench: python3 is missing"; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "merge_reqs bench: /usr/bin/time missing"; exit 1; }
python3 "$RTC_TOP/tests/cli/big_results.py" "$RTC_TOP/tests/fixtures/results/pass.json" \
  "$dir/many.json" skipped "$n"
echo "one host, $n requirements: $(( $(stat -c %s "$dir/many.json") / 1048576 )) MB"
cpu() { # LABEL CMD... : CPU seconds of CMD (time's last line: a failing status comes first)
  local label="$1"; shift
  /usr/bin/time -f '%U %S' -o "$dir/cpu" "$@" >"$dir/$label.log" 2>&1 || true
  tail -1 "$dir/cpu" | awk '{ printf "%.2f", $1 + $2 }'
}
t_report=$(cpu report "$RTC" report "$dir/many.json" --summary "$dir/s.txt" --json "$dir/r.json" \
  --junit "$dir/j.xml" --html "$dir/r.html")
rm -rf "$dir/out"
t_merge=$(cpu merge "$RTC" merge "$dir/many.json" -o "$dir/out")
t_compare=$(cpu compare "$RTC" compare "$dir/many.json" "$dir/many.json")
awk -v r="$t_report" -v m="$t_merge" -v c="$t_compare" 'BEGIN {
  printf "report (four reports): %.2f s CPU\n", r
  printf "merge:   %.2f s CPU, %.2f x report (target <= 2)\n", m, m / r
  printf "compare: %.2f s CPU, %.2f x report (target <= 2)\n", c, c / r
  exit !(m <= 2 * r && c <= 2 * r)
}' || { echo "merge_reqs bench: a target was missed"; exit 1; }
