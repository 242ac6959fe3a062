# SPDX-License-Identifier: Apache-2.0
# Intervals (harness/interval.h): a run by time, or one given an interval,
# keeps each interval's figures beside the totals in results.json; they add
# up to the totals exactly, bucket by bucket, per metric and per CPU; the
# reader refuses a file where they do not; report renders the same bytes.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
req_file "$TMP/iv.xml" iv <<XML
  <requirement id="PING"><probe name="sem-pingpong"/>
    <run iterations="2000" duration="3s" warmup="0" interval="1s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="WAKE"><probe name="timer-wakeup"><param name="interval">1ms</param>
    <param name="dma-latency">off</param></probe>
    <run iterations="100" runs="25" warmup="0" interval="1s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="PLAIN"><probe name="selftest"/><run iterations="100" runs="3" warmup="0"/>
    <limit statistic="max" max="60s"/></requirement>
XML
expect_status 0 "$RTC" validate "$TMP/iv.xml"
"$RTC" run -q -o "$TMP/a" "$TMP/iv.xml" >"$TMP/a.out" 2>&1; st=$?
[ "$st" -eq 0 ] && ok "a run keeping intervals exits 0" || { fail "run: exit $st"; diag <"$TMP/a.out"; }

python3 - "$TMP/a/results.json" >"$TMP/check" 2>&1 <<'PY' \
  && ok "the intervals add up to the totals exactly, bucket by bucket, per metric and per CPU" \
  || { fail "the intervals add up to the totals:"; diag <"$TMP/check"; }
import json, sys
from collections import Counter
doc = json.load(open(sys.argv[1]))
reqs = {r["id"]: r for f in doc["files"] for r in f["requirements"]}
def buckets(h):
    c = Counter({(lo, hi): n for lo, hi, n in h["buckets"]})
    for lo, hi, n in h.get("negative", {}).get("buckets", []):
        c[("-", lo, hi)] += n
    return c
def check(name, whole, ivs, least):
    assert len(ivs) >= least, f"{name}: {len(ivs)} intervals, expected at least {least}"
    total = Counter()
    for iv in ivs:
        total += buckets(iv["histogram"])
        assert iv["count"] == sum(buckets(iv["histogram"]).values()) + iv["overflow"], name
    assert total == buckets(whole["histogram"]), f"{name}: buckets differ"
    assert sum(iv["count"] for iv in ivs) == whole["count"], f"{name}: counts differ"
    starts = [iv["start"] for iv in ivs]
    assert starts == sorted(starts) and len(set(starts)) == len(starts), f"{name}: starts {starts}"
    for iv in ivs[:-1]:
        assert iv["seconds"] >= 1.0, f"{name}: an interval of {iv['seconds']} s, not the last"
    print(name, len(ivs), "intervals,", whole["count"], "samples")
check("PING", reqs["PING"]["metrics"][0], reqs["PING"]["metrics"][0]["intervals"], 2)
check("PING wakeup", reqs["PING"]["metrics"][1], reqs["PING"]["metrics"][1]["intervals"], 2)
w = reqs["WAKE"]
check("WAKE", w["metrics"][0], w["metrics"][0]["intervals"], 2)
for c in w["per_cpu"]:
    check(f"WAKE cpu{c['cpu']}", c, c["intervals"], 2)
assert all("intervals" not in m for m in reqs["PLAIN"]["metrics"]), "a run by count without interval= kept intervals"
assert all("intervals" not in m for r in reqs.values() for m in r["metrics"] if m["kind"] == "count"), "a count kept intervals"
PY

# The reports read back are the same bytes.
expect_status 0 "$RTC" report "$TMP/a/results.json" --json "$TMP/again.json"
cmp -s "$TMP/a/results.json" "$TMP/again.json" && ok "results.json with intervals renders again byte for byte" \
  || fail "results.json with intervals differs once read back"

# A max is the largest observed, and the interval maxima's trend is said:
# summary.txt's record count is the one of results.json's intervals (an
# interval whose max exceeds every earlier one's), report.html says the same.
expect_grep '^  PING per-op: n=[0-9]+ .*, max [^(]+ \(largest observed in [0-9,]+ samples over [0-9.]+ s\)' "$TMP/a/summary.txt"
expect_grep '^  PING per-op interval maxima: [0-9]+ record-setting intervals? of [0-9]+, the last in interval [0-9]+ \(at [0-9:]+Z\); Kendall.s tau (-?[0-9.]+, p = [0-9.e+-]+|undefined \([^)]*\)): (still rising|no rising trend)' "$TMP/a/summary.txt"
python3 - "$TMP/a/results.json" "$TMP/a/summary.txt" >"$TMP/check" 2>&1 <<'PY' \
  && ok "summary.txt's record-setting intervals are those of results.json's interval maxima" \
  || { fail "summary.txt's record-setting intervals:"; diag <"$TMP/check"; }
import json, re, sys
doc = json.load(open(sys.argv[1]))
m = [r for f in doc["files"] for r in f["requirements"] if r["id"] == "PING"][0]["metrics"][0]
maxima = [iv["statistics_ns"]["max"] for iv in m["intervals"]]
records, best, last = 0, None, 0
for k, x in enumerate(maxima):
    if best is None or x > best:
        best, records, last = x, records + 1, k
line = [l for l in open(sys.argv[2]) if l.startswith("  PING per-op interval maxima: ")][0]
got = re.match(r"  PING per-op interval maxima: (\d+) record-setting intervals? of (\d+), the last in interval (\d+)", line)
assert got and (int(got[1]), int(got[2]), int(got[3])) == (records, len(maxima), last + 1), (line, maxima)
print(line.strip())
PY
expect_grep '<p class="trend( rising)?">Interval maxima of PING per-op: [0-9]+ record-setting' "$TMP/a/report.html"
expect_grep 'max: largest observed in [0-9,]+ samples over' "$TMP/a/report.html"

# A file whose intervals do not add up is refused, naming where.
python3 - "$TMP/a/results.json" "$TMP/bad.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
iv = doc["files"][0]["requirements"][0]["metrics"][0]["intervals"][0]
iv["histogram"]["buckets"][0][2] += 1
iv["count"] += 1
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
expect_status 2 "$RTC" report "$TMP/bad.json" --summary "$TMP/bad.txt"
expect_grep "files\[0\]\.requirements\[0\]\.metrics\[0\]: its intervals put .* the intervals do not add up" "$TMP/out"
[ ! -e "$TMP/bad.txt" ] && ok "nothing written for it" || fail "a summary was written from a bad file"

# --interval overrides the file's; its value is checked before measuring.
"$RTC" run -q --interval 2s --only WAKE -o "$TMP/b" "$TMP/iv.xml" >/dev/null 2>&1
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["files"][0]["requirements"][1]["metrics"][0]; ivs=m["intervals"]; assert all(iv["seconds"] >= 2 for iv in ivs[:-1]) and len(ivs) >= 1, ivs' \
  "$TMP/b/results.json" 2>"$TMP/check" && ok "--interval 2s gives intervals of at least 2 s" \
  || { fail "--interval 2s"; diag <"$TMP/check"; }
expect_status 2 "$RTC" run -q --interval 0.5s -o "$TMP/c" "$TMP/iv.xml"
expect_grep "^rtconform run: --interval \"0.5s\": " "$TMP/out"
expect_status 2 "$RTC" run -q --interval fast -o "$TMP/c" "$TMP/iv.xml"
[ ! -e "$TMP/c" ] && ok "a refused --interval measures and writes nothing" || fail "a refused --interval left $TMP/c"
sed 's/interval="1s"/interval="1d"/' "$TMP/iv.xml" >"$TMP/bad.xml"
expect_status 2 "$RTC" validate "$TMP/bad.xml"
expect_grep 'interval="1d": ' "$TMP/out"
# More intervals than a results.json can hold is said before measuring.
"$RTC" run --interval 1s --duration 168h --only PING -o "$TMP/d" "$TMP/iv.xml" >"$TMP/many" 2>&1 &
pid=$!
said() { grep -q "keeps 604800 intervals of each metric" "$TMP/many"; }
wait_for "the warning of 604800 intervals" "$START_WAIT" said
kill -TERM "$pid"; wait "$pid" 2>/dev/null
expect_no_leftovers "intervals"
finish
