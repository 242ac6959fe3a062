#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of an armed trace (<trace/>, docs/measurement.md, every event
# harness/trace.c enables, power:cpu_idle included where the kernel has
# it): two figures, each with a trace armed whose threshold is never
# reached against the same requirement without one, in ONE run, the pairs
# interleaved over rounds so drift of the machine hits both alike:
#   - sem-pingpong's per-op mean (posix-sem, process peer, same CPU,
#     SCHED_FIFO at the highest priority);
#   - timer-wakeup's wakeup mean, median and p99 (one measuring thread, SCHED_FIFO
#     at the highest priority, pinned to the last CPU, 500 us period).
# Prints each round's pairs, the means over the rounds and the ratios armed
# / not armed. Never fails on a speed target; fails only when a tool is
# missing, tracing cannot be had or a figure could not be measured.
# Env: RTC, BENCH_TMP (set by ci/bench); TRACE_BENCH_ROUNDS (default 5),
#   TRACE_BENCH_ITERATIONS (sem-pingpong, per run, default 20000),
#   TRACE_BENCH_WAKEUPS (timer-wakeup, per run, default 4000).
set -euo pipefail
: "${RTC:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
rounds="${TRACE_BENCH_ROUNDS:-5}"
iters="${TRACE_BENCH_ITERATIONS:-20000}"
wakeups="${TRACE_BENCH_WAKEUPS:-4000}"
cpu=$(($(nproc) - 1))
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
  <requirement id="$kind-SEM-$r"><probe name="sem-pingpong"/>
    <sched policy="fifo" priority="max"/>
    <limit metric="per-op" statistic="max" max="60s"/>$trace</requirement>
  <requirement id="$kind-TW-$r"><probe name="timer-wakeup"><param name="interval">500us</param></probe>
    <sched policy="fifo" priority="max" cpu="$cpu"/><run iterations="$wakeups" runs="1" warmup="100"/>
    <limit metric="wakeup" statistic="max" max="60s"/>$trace</requirement>
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
def stat(r, metric, s):
    for m in r["metrics"]:
        if m["name"] == metric:
            return m["statistics_ns"][s]
    return None
def pairs(probe, metric, s):
    plain, armed = [], []
    for rid in sorted(reqs, key=lambda x: (x.split("-")[0], int(x.split("-")[2]))):
        if rid.split("-")[1] != probe:
            continue
        r = reqs[rid]
        if rid.startswith("ARMED") and not (r["trace_note"] or "").startswith("trace: armed"):
            sys.exit("trace bench: %s was not traced: %s" % (rid, r["trace_note"]))
        v = stat(r, metric, s)
        if v is None:
            sys.exit("trace bench: %s not measured: %s" % (rid, r["reason"]))
        (armed if rid.startswith("ARMED") else plain).append(v)
    return plain, armed
for probe, metric, s, unit in (("SEM", "per-op", "mean", "ns/op"), ("TW", "wakeup", "mean", "ns"),
                               ("TW", "wakeup", "p50", "ns"), ("TW", "wakeup", "p99", "ns")):
    plain, armed = pairs(probe, metric, s)
    name = {"SEM": "sem-pingpong", "TW": "timer-wakeup"}[probe]
    for i, (p, a) in enumerate(zip(plain, armed), 1):
        print("  %s %s %s round %d  not armed %8.1f %s   armed %8.1f %s   ratio %.3f"
              % (name, metric, s, i, p, unit, a, unit, a / p))
    mp, ma = sum(plain) / len(plain), sum(armed) / len(armed)
    print("  %s %s %s over the rounds: not armed %.1f ns, armed %.1f ns, ratio armed / "
          "not armed %.3f" % (name, metric, s, mp, ma, ma / mp))
PY
