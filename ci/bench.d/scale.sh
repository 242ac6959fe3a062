#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Scale: many small requirements in one run. For 100 and for 10,000
# requirements of the selftest probe (10 samples each), the wall time per
# requirement and the supervisor's peak memory per requirement. A finished
# requirement may cost the supervisor only what the reports keep of it, so
# the time per requirement must stay flat from 100 to 10,000 (target: within
# 1.5 x), and the memory per requirement must be what the loaded file and
# the reports take (about 20 KB: some 6 KB of loaded requirements, the rest
# the peak while the largest report, report.html at about 4 KB per
# requirement, is rendered in memory), not the ~120 KB of a requirement's
# result memory that the supervisor used to keep to the end.
# Prints figures; never fails on a speed target.
# Env: RTC (built rtconform), BENCH_TMP (scratch dir).
set -euo pipefail
: "${RTC:?}" "${BENCH_TMP:?}"
command -v /usr/bin/time >/dev/null || { echo "scale bench: /usr/bin/time missing (ci/deps installs time)"; exit 1; }

gen() { # N
  echo '<requirements xmlns="urn:rtconform:requirements:1" name="scale" version="1">'
  echo '  <defaults iterations="10" runs="1" warmup="0" timeout="10s"/>'
  for i in $(seq "$1"); do
    echo "  <requirement id=\"R$i\"><probe name=\"selftest\"/><sched policy=\"other\"/><limit statistic=\"max\" max=\"1s\"/></requirement>"
  done
  echo '</requirements>'
}

declare -A per_ms per_kb
for n in 100 10000; do
  gen "$n" >"$BENCH_TMP/scale-$n.xml"
  /usr/bin/time -f '%e %M' -o "$BENCH_TMP/scale-$n.time" \
    "$RTC" run "$BENCH_TMP/scale-$n.xml" -o "$BENCH_TMP/scale-$n" >/dev/null
  read -r secs kb <"$BENCH_TMP/scale-$n.time"
  per_ms[$n]=$(awk -v s="$secs" -v n="$n" 'BEGIN { printf "%.2f", s * 1000 / n }')
  # peak memory over a baseline of one requirement's run
  per_kb[$n]=$kb
  printf '%6d requirements: %8.2f s, %6.2f ms per requirement, peak RSS %d KB\n' \
    "$n" "$secs" "${per_ms[$n]}" "$kb"
done
awk -v a="${per_ms[100]}" -v b="${per_ms[10000]}" -v ka="${per_kb[100]}" -v kb="${per_kb[10000]}" 'BEGIN {
  printf "time per requirement, 10000 / 100: %.2f (target <= 1.5)\n", b / a
  printf "memory per requirement beyond the first 100: %.1f KB\n", (kb - ka) / 9900
}'
