#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of an armed trace (<trace/>, docs/measurement.md): sem-pingpong's
# per-op mean (posix-sem, process peer, same CPU, SCHED_FIFO at the highest
# priority) with a trace armed whose threshold is never reached, against the
# same requirement without one, in ONE run, the two interleaved over rounds
# so drift of the machine hits both alike. Prints each round's pair, the
# means over the rounds and the ratio armed / not armed. Never fails on a
# speed target; fails only when a tool is missing, tracing cannot be had or
# a figure could not be measured.
# Env: RTC, BENCH_TMP (set by ci/bench); TRACE_BENCH_ROUNDS (default 5),
#   TRACE_BENCH_ITERATIONS (per run, default 20000).
set -euo pipefail
: "${RTC:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
rounds="${TRACE_BENCH_ROUNDS:-5}"
iters="${TRACE_BENCH_ITERATIONS:-20000}"
dir="$BENCH_TMP/trace"
mkdir -p "$dir"
command -v python3 >/dev/null || { echo "trace bench: python3 is missing"; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
  echo "trace bench: needs root (tracefs, SCHED_FIFO and mlockall)"; exit 1
fi

{
  echo '<requirements xmlns="urn:rtconform:requirements:1" name="bench-trace" version="1">'
  echo "  <defaults iterations=\"$iters\" runs=\"3\" warmup=\"1000\" timeout=\"120s\"/>"
  for r in $(seq 1 "$rounds"); do
    for kind in PLAIN ARMED; do
      trace=""
      [ "$kind" = ARMED ] && trace='<trace threshold="10s"/>'
      cat <<XML
  <requirement id="$kind-$r"><probe name="sem-pingpong"/>
    <sched policy="fifo" priority="max"/>
    <limit metric="per-op" statistic="max" max="60s"/>$trace</requirement>
XML
    done
  done
  echo '</requirements>'
} >"$dir/trace.xml"

set +e
"$RTC" run "$dir/trace.xml" -o "$dir/out" >"$dir/run.log" 2>&1
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  echo "trace bench: rtconform run exited $rc"; cat "$dir/run.log"; exit 1
fi

python3 - "$dir/out/results.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
reqs = {r["id"]: r for f in doc["files"] for r in f["requirements"]}
def mean(r):
    for m in r["metrics"]:
        if m["name"] == "per-op":
            return m["statistics_ns"]["mean"]
    return None
plain, armed = [], []
for rid in sorted(reqs):
    r = reqs[rid]
    if rid.startswith("ARMED") and not (r["trace_note"] or "").startswith("trace: armed"):
        sys.exit("trace bench: %s was not traced: %s" % (rid, r["trace_note"]))
    v = mean(r)
    if v is None:
        sys.exit("trace bench: %s not measured: %s" % (rid, r["reason"]))
    (armed if rid.startswith("ARMED") else plain).append(v)
for i, (p, a) in enumerate(zip(plain, armed), 1):
    print("  round %d  not armed %8.1f ns/op   armed %8.1f ns/op   ratio %.3f" % (i, p, a, a / p))
mp, ma = sum(plain) / len(plain), sum(armed) / len(armed)
print("  sem-pingpong per-op mean: not armed %.1f ns, armed %.1f ns, ratio armed / not armed %.3f"
      % (mp, ma, ma / mp))
PY
