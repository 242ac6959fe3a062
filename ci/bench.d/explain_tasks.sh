#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtconform explain of traces whose breach window holds 10k, 20k, 40k and
# 100k distinct tasks (tests/cli/many_tasks_trace.py): tasks and components
# are found through hash maps, so the time stays linear in the tasks; a
# scan of every task for each stretch made it quadratic (100k tasks: 9 s,
# 14 s with --json; issue 38). Prints the CPU times (user + system: the
# machine may be busy); fails when 100k tasks cost more than 25 x 10k
# (linear: 10 x). Env: RTC, RTC_TOP, BENCH_TMP (set by ci/bench).
set -euo pipefail
: "${RTC:?set by ci/bench}" "${RTC_TOP:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
dir="$BENCH_TMP/explain_tasks"
mkdir -p "$dir"
command -v python3 >/dev/null || { echo "explain_tasks bench: python3 is missing"; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "explain_tasks bench: /usr/bin/time missing"; exit 1; }
declare -A t
for n in 10000 20000 40000 100000; do
  python3 "$RTC_TOP/tests/cli/many_tasks_trace.py" "$dir/trace-$n.txt" "$n"
  for mode in text json; do
    /usr/bin/time -f '%U %S' -o "$dir/cpu" "$RTC" explain "$dir/trace-$n.txt" \
      $([ "$mode" = json ] && echo --json) >"$dir/out" 2>&1 ||
      { echo "explain_tasks bench: explain of $n tasks failed"; cat "$dir/out"; exit 1; }
    t[$mode$n]=$(tail -1 "$dir/cpu" | awk '{ printf "%.2f", $1 + $2 }')
  done
  echo "$n tasks: ${t[text$n]} s CPU, --json ${t[json$n]} s CPU"
done
awk -v a="${t[text10000]}" -v b="${t[text100000]}" 'BEGIN {
  if (a < 0.01) a = 0.01
  printf "100k tasks / 10k tasks: %.1f x (linear: 10; target <= 25)\n", b / a
  exit !(b <= 25 * a)
}' || { echo "explain_tasks bench: not linear in the tasks"; exit 1; }
