# SPDX-License-Identifier: Apache-2.0
# Count metrics: limits on them (what a file may write, exit 2 with the
# line otherwise), the harness's page-fault and switch counts in every
# report, selftest's fault=touch failing a page-faults limit, and the
# built-in profile's real-time requirements taking no page fault.
. "$(dirname "$0")/lib.sh"

# ---- what a limit on a count may say ------------------------------------

# limit_refused NAME LIMIT WHY : a selftest requirement with LIMIT on line 4
# is invalid input (2) and the message names the file, the line and why.
limit_refused() { refused "$1" "<probe name=\"selftest\"/>
    $2" "$3" 4; }
limit_refused unit-on-count '<limit metric="page-faults" statistic="total" max="0us"/>' \
  'metric page-faults of probe selftest is a count: write max="0" without a unit$'
limit_refused cycles-on-count '<limit metric="involuntary-switches" statistic="max" min="1cycles"/>' \
  'metric involuntary-switches of probe selftest is a count: write min="1" without a unit$'
limit_refused bare-duration '<limit metric="interval" statistic="max" max="300"/>' \
  'metric interval of probe selftest is a duration: give max="300" a unit \(ns, us, .*s, ms, s or cycles\)$'
limit_refused default-metric-bare '<limit statistic="mean" max="5"/>' \
  'metric interval of probe selftest is a duration: give max="5" a unit'
limit_refused total-of-duration '<limit metric="interval" statistic="total" max="1s"/>' \
  'metric interval of probe selftest is a duration: statistic total does not apply \(expected min, mean, stddev, max, pNN'
limit_refused pct-of-count '<limit metric="page-faults" statistic="p99" max="0"/>' \
  'metric page-faults of probe selftest is a count: statistic p99 does not apply \(expected total, min, mean or max\)$'
limit_refused unknown-metric '<limit metric="minor-faults" statistic="total" max="0"/>' \
  "probe selftest has no metric 'minor-faults' \(expected interval, page-faults, major-faults or involuntary-switches\)"
# A bound that is neither a number nor a quantity is the loader's error.
cat >"$TMP/garbage.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="g">
  <requirement id="R"><probe name="selftest"/>
    <limit metric="page-faults" statistic="total" max="zero"/></requirement>
</requirements>
XML
expect_status 2 "$RTC" validate "$TMP/garbage.xml"
expect_grep "garbage.xml:3: max=\"zero\": " "$TMP/out"
# What may be written: counts bare, with total, min, mean and max.
cat >"$TMP/good.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="good">
  <requirement id="R"><probe name="selftest"/>
    <limit metric="page-faults" statistic="total" max="0"/>
    <limit metric="major-faults" statistic="max" max="0"/>
    <limit metric="involuntary-switches" statistic="mean" max="2.5"/>
    <limit metric="involuntary-switches" statistic="min" min="0" max="1000"/>
    <limit metric="interval" statistic="max" max="1s"/></requirement>
</requirements>
XML
expect_status 0 "$RTC" validate "$TMP/good.xml"
expect_status 0 "$RTC" list "$TMP/good.xml"
expect_grep 'limit page-faults total <= 0$' "$TMP/out"

# `rtconform list` gives each metric's kind, and the harness's metrics once.
expect_status 0 "$RTC" list
expect_grep '^    metric interval +\(duration\) ' "$TMP/out"
expect_grep '^Harness metrics: ' "$TMP/out"
for m in page-faults major-faults involuntary-switches; do
  [ "$(grep -c "^    metric $m (count) " "$TMP/out")" = 1 ] && ok "list names metric $m once, as a count" || fail "list: metric $m not listed once as a count"
done

# ---- fault=touch: the page-faults limit fails, and every report says so ---

req_file "$TMP/touch.xml" touch 'iterations="50" runs="3" warmup="5" timeout="60s"' <<XML
  <requirement id="TOUCH"><probe name="selftest"><param name="fault">touch</param></probe>
    <sched policy="fifo" priority="10"/>
    <limit metric="page-faults" statistic="total" max="0"/>
    <limit metric="interval" statistic="max" max="10s"/></requirement>
  <requirement id="CLEAN"><probe name="selftest"/>
    <limit metric="interval" statistic="max" max="10s"/></requirement>
XML
expect_status 1 "$RTC" run -o "$TMP/t" "$TMP/touch.xml"
expect_grep '^TOUCH +selftest +fifo:10 +page-faults total <= 0 +[1-9][0-9]* +FAIL$' "$TMP/out"
validate_junit "$TMP/t/junit.xml" --tests 2 --failures 1 --errors 0 --skipped 0 \
  --property TOUCH.verdict=fail --property TOUCH.page-faults.kind=count \
  --property TOUCH.page-faults.count=3 \
  --property CLEAN.page-faults.kind=count --property TOUCH.interval.kind=duration
# junit.xml: a count's values have no unit suffix; 16 pages a run
pf=$(prop TOUCH.page-faults.total "$TMP/t/junit.xml")
[ -n "$pf" ] && [ "$pf" -ge 48 ] && ok "TOUCH.page-faults.total is at least 3 runs x 16 pages" || fail "TOUCH.page-faults.total is '$pf', expected at least 3 runs x 16 pages"
expect_fact TOUCH.limits '^metric=page-faults statistic=total max=0 measured=[1-9][0-9]* verdict=fail text=total [1-9][0-9]* > 0 \(3 runs\)' "$TMP/t/junit.xml"
expect_fact TOUCH.page-faults '^kind=count count=3 total=[0-9]+ min=[0-9]+ mean=[0-9]+(\.[0-9]{3})? max=[0-9]+$' "$TMP/t/junit.xml"
[[ "$(prop TOUCH.page-faults "$TMP/t/junit.xml")" =~ _(ns|cycles)= ]] && fail "TOUCH.page-faults has a unit" \
  || ok "TOUCH.page-faults has no unit"
expect_grep '<failure [^>]*message="page-faults total [1-9][0-9]* &gt; 0 \(3 runs\)"' "$TMP/t/junit.xml"
# results.json: typed counts
if python3 - "$TMP/t/results.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "urn:rtconform:results:2", d["schema"]
for r in d["files"][0]["requirements"]:
    names = [m["name"] for m in r["metrics"]]
    assert names == ["interval", "page-faults", "major-faults", "involuntary-switches"], names
    assert r["metrics"][0]["kind"] == "duration"
    for m in r["metrics"][1:]:
        assert m["kind"] == "count", m
        assert set(m) == {"name", "kind", "statistics", "runs"}, sorted(m)
        assert len(m["runs"]) == 3 and all(type(v) is int for v in m["runs"]), m["runs"]
        st = m["statistics"]
        assert all(type(st[k]) is int for k in ("total", "min", "max")), st
        assert type(st["mean"]) is float, st
        assert st["total"] == sum(m["runs"]) and st["max"] == max(m["runs"]), m
t = d["files"][0]["requirements"][0]
pf = t["metrics"][1]
assert all(v >= 16 for v in pf["runs"]), pf["runs"]
lim = t["limits"][0]
assert lim["unit"] is None and lim["max"] == 0 and type(lim["measured"]) is int, lim
assert lim["measured"] == pf["statistics"]["total"] and lim["verdict"] == "fail", lim
PY
then ok "results.json holds each count's runs, statistics and limit"; else fail "results.json holds each count's runs, statistics and limit:"; sed 's/^/    /' "$TMP/py"; fi
# report.html: a table of per-run counts, no histogram for a count
[ "$(xpath_count '//table[@class="counts"]' "$TMP/t/report.html")" = 2 ] && ok "report.html has a counts table per requirement" \
  || fail "report.html: expected a counts table per requirement"
[ "$(xpath_count '//svg' "$TMP/t/report.html")" = 2 ] && ok "report.html has one histogram per requirement (interval), none for counts" \
  || fail "report.html: expected one histogram per requirement (interval), none for counts"
[ "$(xpath_count '//table[@class="counts"]/tr[1]/th' "$TMP/t/report.html")" = 8 ] && ok "report.html's counts table header names Run and the three counts" \
  || fail "report.html: the counts table's header should name Run and the three counts"
# summary.txt: a line per count
expect_grep '^  TOUCH page-faults: total [1-9][0-9]*, max [1-9][0-9]* per run, mean [0-9.]+ per run \(3 runs\)$' "$TMP/t/summary.txt"
expect_grep '^  CLEAN involuntary-switches: total [0-9]+, max [0-9]+ per run, mean [0-9.]+ per run \(3 runs\)$' "$TMP/t/summary.txt"
# every report again from results.json, byte for byte
mkdir -p "$TMP/t2"
expect_status 0 "$RTC" report "$TMP/t/results.json" --junit "$TMP/t2/junit.xml" \
  --summary "$TMP/t2/summary.txt" --html "$TMP/t2/report.html" --json "$TMP/t2/results.json"
for f in junit.xml summary.txt report.html results.json; do
  cmp -s "$TMP/t/$f" "$TMP/t2/$f" && ok "$f re-rendered from results.json is the same" || fail "$f re-rendered from results.json differs: $(cmp "$TMP/t/$f" "$TMP/t2/$f" 2>&1)"
done

# ---- the built-in profile's real-time requirements take no page fault ----

# A behaviour, measured here: after mlockall and prefaulting, every
# real-time path of the default profile runs without a page fault. Needs
# real-time privilege (root); the latency budgets are not this test's
# business, only the page-fault limits are.
if [ "$(id -u)" -ne 0 ]; then
  skip_all "the default profile's page-fault check needs root (SCHED_FIFO and mlockall)"
fi
expect_status 0 "$RTC" list "$SRC/requirements/profiles/default.xml"
rt_ids=$(awk '$3 ~ /^(fifo|rr):/ { printf "%s%s", sep, $1; sep = "," }' "$TMP/out")
[ -n "$rt_ids" ] && ok "the default profile has real-time requirements" || fail "no real-time requirement in the default profile"
"$RTC" run --only "$rt_ids" -o "$TMP/d" >"$TMP/d.out" 2>&1
python3 - "$TMP/d/results.json" "$rt_ids" "$("$RTC" --version)" >"$TMP/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = sys.argv[2].split(",")
sanitized = "sanitizer build" in sys.argv[3]
seen, limited = set(), 0
for r in d["files"][0]["requirements"]:
    if r["id"] not in want:
        continue
    seen.add(r["id"])
    assert r["measured"], f"{r['id']} was not measured: {r['reason']}"
    pf = next(m for m in r["metrics"] if m["name"] == "page-faults")
    print(f"{r['id']}: page-faults {pf['runs']} (total {pf['statistics']['total']})")
    for l in r["limits"]:
        if l["metric"] != "page-faults":
            continue
        limited += 1
        assert l["statistic"] == "total" and l["max"] == 0, l
        if sanitized:   # nothing is locked in a sanitizer build: faults are expected
            print(f"  {r['id']}: sanitizer build, page-faults limit {l['verdict']} (not judged)")
        else:
            assert l["verdict"] == "pass", f"{r['id']}: {l['text']}"
assert seen == set(want), (seen, want)
assert limited >= len(want) - 1, f"only {limited} page-faults limits"
PY
if [ $? -eq 0 ]; then ok "default profile, real-time requirements: measured, page-faults limits pass"; sed 's/^/    /' "$TMP/py"; else
  fail "default profile, real-time requirements: measured, page-faults limits pass:"; sed 's/^/    /' "$TMP/py"; tail -20 "$TMP/d.out"; fi
finish
