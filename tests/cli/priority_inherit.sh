# SPDX-License-Identifier: Apache-2.0
# priority-inherit: the inversion check passes with priority inheritance
# and with a priority ceiling, between threads and with the holder in
# another process, and FAILS without either (protocol=none: the
# configuration that must violate). What cannot run is an error with the
# reason; a hold outside its range is invalid input.
. "$(dirname "$0")/lib.sh"

# ---- validation: hold's range, with the file and line -------------------

req_doc hold "$(probe priority-inherit hold=5us)"
expect_status 2 "$RTC" validate "$TMP/hold.xml"
expect_grep "hold.xml:[0-9]+: .*hold 5us is outside 10us \.\. 50ms" "$TMP/out"
sed -i 's/5us/60ms/' "$TMP/hold.xml"
expect_status 2 "$RTC" validate "$TMP/hold.xml"
expect_grep "hold 60ms is outside 10us \.\. 50ms" "$TMP/out"

# ---- the measurement: four configurations pass, none fails --------------

if [ "$(id -u)" -ne 0 ]; then
  skip_all "priority-inherit needs root (SCHED_FIFO and mlockall)"
fi

# 3 runs x 30 cycles, the rule a limit of 0 violations.
NO_VIOLATION='<limit metric="violations" statistic="total" max="0"/>'
req() { # ID PROTOCOL PEER : at fifo:50 (lib.sh's requirement)
  requirement "$1" "$(probe priority-inherit protocol="$2" peer="$3")" '<sched policy="fifo" priority="50"/>' "$NO_VIOLATION"
}
{
  req INHERIT inherit thread
  req INHERIT-PROC inherit process
  req PROTECT protect thread
  req PROTECT-PROC protect process
  req NONE none thread
  req NONE-PROC none process
} | req_file "$TMP/pi.xml" pi 'iterations="30" runs="3" warmup="3" timeout="60s"'
expect_status 1 "$RTC" run -o "$TMP/o" "$TMP/pi.xml"
for id in INHERIT INHERIT-PROC PROTECT PROTECT-PROC; do
  expect_grep "^$id +priority-inherit +fifo:50 +violations total <= 0 +0 +PASS$" "$TMP/out"
done
for id in NONE NONE-PROC; do
  expect_grep "^$id +priority-inherit +fifo:50 +violations total <= 0 +90 +FAIL$" "$TMP/out"
done
validate_junit "$TMP/o/junit.xml" --tests 6 --failures 2 --errors 0 --skipped 0 \
  --property INHERIT.verdict=pass --property PROTECT-PROC.verdict=pass \
  --property INHERIT.violations.total=0 --property INHERIT-PROC.violations.total=0 \
  --property PROTECT.violations.total=0 --property PROTECT-PROC.violations.total=0 \
  --property NONE.verdict=fail --property NONE.violations.total=90 \
  --property NONE-PROC.violations.total=90 --property NONE.violations.kind=count
expect_grep '<failure [^>]*message="violations total 90 &gt; 0 \(3 runs\)"' "$TMP/o/junit.xml"

# What the cycles must show, relative to the hold (1 ms) and so not an
# absolute latency: one sample a cycle; without a protocol the high task
# waits at least the medium task's whole spin (2 x hold, wall time, while
# it waits); with one its wait is about the low task's hold, never the
# medium task's spin added to it in every cycle. (No lower bound there:
# the hold is the low task's CPU time, and a little of it can pass before
# the high task's clock starts, so a wait may be shorter than the hold.)
# "Every cycle" is judged by the typical cycle, the median: a mean is
# moved by one cycle a foreign task held up (under ci/busy one PROTECT wait
# took 195 ms and the mean was 3.2 ms while the median was 1.01 ms), and
# how long a busy machine holds up one cycle is not what is tested. Without
# a protocol every cycle, the fastest included, takes the spin.
if python3 - "$TMP/o/results.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hold = 1e6
for r in d["files"][0]["requirements"]:
    inv = next(m for m in r["metrics"] if m["name"] == "inversion")
    v = next(m for m in r["metrics"] if m["name"] == "violations")
    st = inv["statistics_ns"]
    print(f"{r['id']}: inversion min {st['min']:.0f} p50 {st['p50']:.0f} mean {st['mean']:.0f} "
          f"max {st['max']:.0f} ns, "
          f"violations {v['runs']}")
    assert inv["kind"] == "duration" and inv["count"] == 90, inv["count"]
    assert v["kind"] == "count" and len(v["runs"]) == 3, v
    if r["id"].startswith("NONE"):
        assert v["runs"] == [30, 30, 30], v["runs"]
        assert st["min"] >= 2 * hold, st
    else:
        assert v["runs"] == [0, 0, 0], v["runs"]
        assert st["min"] < 2 * hold and st["p50"] < 2 * hold, st
    assert "on CPU " in r["note"] and "high 49, medium 48, low 47" in r["note"], r["note"]
PY
then ok "results.json: the inversion is bounded with a protocol, not without"; sed 's/^/    /' "$TMP/py"; else fail "results.json: the inversion is bounded with a protocol, not without:"; sed 's/^/    /' "$TMP/py"; fi
expect_no_leftovers "the priority-inherit run"

# ---- what cannot run: an error with the reason --------------------------

req_file "$TMP/bad.xml" bad 'iterations="10" runs="1" warmup="0" timeout="60s"' \
  "$(requirement OTHER "$(probe priority-inherit)" "$NO_VIOLATION")" \
  "$(requirement LOW-PRIO "$(probe priority-inherit)" '<sched policy="fifo" priority="3"/>' "$NO_VIOLATION")" \
  "$(requirement TOO-LONG "$(probe priority-inherit hold=50ms)" \
       '<sched policy="fifo" priority="50"/><run iterations="1000" timeout="10s"/>' "$NO_VIOLATION")"
expect_status 3 "$RTC" run -o "$TMP/b" "$TMP/bad.xml"
validate_junit "$TMP/b/junit.xml" --tests 3 --failures 0 --errors 3 \
  --property OTHER.verdict=error --property LOW-PRIO.verdict=error --property TOO-LONG.verdict=error
expect_grep 'needs a real-time policy' "$TMP/b/summary.txt"
expect_grep 'priority 3 is too low: .* give priority 4 or more' "$TMP/b/summary.txt"
expect_grep 'cycles of up to 6 x hold \+ 200us each = .*not less than the timeout of 10 s' "$TMP/b/summary.txt"
expect_no_leftovers "the refused requirements"
finish
