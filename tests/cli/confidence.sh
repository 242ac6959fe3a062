# SPDX-License-Identifier: Apache-2.0
# confidence= on a percentile limit (docs/requirements.md, "Confidence"):
# a limit judged on its percentile's confidence interval passes, fails, or
# is inconclusive (exit status 4) when the samples cannot decide it, and
# every report says so. The samples are selftest's samples=ramp, known
# values (iteration i of a run records (i + 1) us), so nothing depends on
# this machine's latency: 200 samples 1..200 us put p90 at about 180 us,
# its 95% interval at about 170..189 us.
. "$(dirname "$0")/lib.sh"

RAMP="$(probe selftest samples=ramp)"
req_file "$TMP/c.xml" confidence 'iterations="200" runs="1" warmup="0"' \
  "$(requirement HOLDS "$RAMP" '<limit statistic="p90" max="195us" confidence="95%"/>')" \
  "$(requirement UNDECIDED "$RAMP" '<limit statistic="p90" max="185us" confidence="95%"/>' \
     '<limit statistic="p90" max="185us"/>')" \
  "$(requirement MISSED "$RAMP" '<limit statistic="p90" max="165us" confidence="95%"/>')"

# One inconclusive beside one that passes: exit status 4
expect_status 4 "$RTC" run -o "$TMP/u" --only HOLDS --only UNDECIDED "$TMP/c.xml"
cp "$TMP/out" "$TMP/u.out"
expect_grep '^HOLDS +selftest +other +interval p90 <= 195 us at 95% +[0-9.]+ us +PASS$' "$TMP/u.out"
expect_grep '^UNDECIDED +selftest +other +interval p90 <= 185 us at 95% +[0-9.]+ us +INCONCLUSIVE$' "$TMP/u.out"
# the same limit without confidence= keeps the point estimate's verdict
expect_grep '^UNDECIDED +selftest +other +interval p90 <= 185 us +[0-9.]+ us +PASS$' "$TMP/u.out"
expect_grep '^ +inconclusive: p90 [0-9.]+ us, 95% interval \[[0-9.]+ us, [0-9.]+ us\] straddles max 185 us: not enough samples to decide: need about [0-9]+ \(n=200\)$' "$TMP/u.out"
expect_grep '^3 requirements: 1 passed, 0 failed, 1 inconclusive, 0 errors, 1 skipped .*exit status 4: the samples could not decide a limit at its stated confidence$' "$TMP/u.out"
expect_grep 'exit status 4' "$TMP/u/summary.txt"
expect_grep 'INCONCLUSIVE' "$TMP/u/summary.txt"

validate_junit "$TMP/u/junit.xml" --tests 2 --failures 1 --errors 0 --skipped 0 \
  --property HOLDS.verdict=pass --property UNDECIDED.verdict=inconclusive
msg="$(testcase_msg UNDECIDED "$TMP/u/junit.xml")"
[[ "$msg" =~ ^not\ enough\ samples\ to\ decide:\ need\ about\ [0-9]+\  ]] \
  && ok "junit.xml: UNDECIDED's failure says how many samples would decide it ($msg)" \
  || fail "junit.xml: UNDECIDED's failure message is '$msg'"
[ "$(xpath_str "//testcase[@name='UNDECIDED']/failure/@type" "$TMP/u/junit.xml")" = inconclusive ] \
  && ok "junit.xml: the failure's type is inconclusive" || fail "junit.xml: the failure's type is not inconclusive"
[ "$(xpath_count '//testcase[@name="HOLDS"]/failure' "$TMP/u/junit.xml")" = 0 ] \
  && ok "junit.xml: HOLDS has no failure" || fail "junit.xml: HOLDS has a failure"

J="$TMP/u/results.json"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1" "$J"; }
[ "$(py 'print(d["exit_status"], d["totals"]["inconclusive"], d["totals"]["passed"])')" = "4 1 1" ] \
  && ok "results.json: exit_status 4, 1 inconclusive, 1 passed" || fail "results.json: $(py 'print(d["exit_status"], d["totals"])')"
[ "$(py 'r=d["files"][0]["requirements"]; print(r[0]["verdict"], r[1]["verdict"], r[1]["limits"][0]["verdict"], r[1]["limits"][1]["verdict"], r[1]["limits"][0]["confidence"], "confidence" in r[1]["limits"][1])')" = "pass inconclusive inconclusive pass 0.95 False" ] \
  && ok "results.json: verdicts, the limit's level, none on the limit without confidence=" \
  || fail "results.json: $(py 'print([(x["verdict"], [l["verdict"] for l in x["limits"]]) for x in d["files"][0]["requirements"]])')"
need="$(py 'print(d["files"][0]["requirements"][1]["limits"][0]["need"])')"
[[ "$need" =~ ^[0-9]+$ ]] && [ "$need" -gt 200 ] && [[ "$msg" == *"need about $need "* ]] \
  && ok "results.json: need $need, as junit.xml says" || fail "results.json: need '$need' (junit: $msg)"

# report renders the same reports from results.json, and they keep exit status 4
expect_status 0 "$RTC" report "$J" --summary "$TMP/u/again.txt" --json "$TMP/u/again.json" \
  --junit "$TMP/u/again.xml" --html "$TMP/u/again.html" --lava "$TMP/u/lava.txt"
cmp -s "$TMP/u/summary.txt" "$TMP/u/again.txt" && ok "report: summary.txt again, byte for byte" || fail "report: another summary.txt"
cmp -s "$J" "$TMP/u/again.json" && ok "report: results.json again, byte for byte" || fail "report: another results.json"
cmp -s "$TMP/u/junit.xml" "$TMP/u/again.xml" && ok "report: junit.xml again, byte for byte" || fail "report: another junit.xml"
expect_grep 'exit status 4: the samples could not decide' "$TMP/u/again.txt"
expect_grep 'class="banner b-inconclusive"' "$TMP/u/again.html"
expect_grep 'v-inconclusive' "$TMP/u/again.html"
expect_grep '^UNDECIDED fail$' "$TMP/u/lava.txt"
expect_grep '^# UNDECIDED-interval-p90: inconclusive: .*not enough samples to decide: need about' "$TMP/u/lava.txt"
# a reader re-judges the stored interval: an inconclusive limit whose
# interval lies below its max is refused
python3 - "$J" "$TMP/forged.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l = d["files"][0]["requirements"][1]["limits"][0]
l["upper"] = 184000.0
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_status 2 "$RTC" report "$TMP/forged.json" --summary "$TMP/forged.txt"
expect_grep 'limits\[0\]\.verdict.*"inconclusive", but its 95% interval .* makes it "pass"' "$TMP/out"

# ... and totals that do not count the inconclusive one are refused
python3 - "$J" "$TMP/forged2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["totals"]["inconclusive"] = 0
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_status 2 "$RTC" report "$TMP/forged2.json" --summary "$TMP/forged2.txt"
expect_grep 'totals\.inconclusive.*expected 1' "$TMP/out"

# ... and a limit's interval is its metric's p90 interval, which results.json
# keeps at the limit's level (its ranks and buckets checked): HOLDS's upper
# bound moved down, its verdict still pass, is refused naming it
python3 - "$J" "$TMP/forged3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["files"][0]["requirements"][0]
m = next(m for m in r["metrics"] if m["name"] == r["limits"][0]["metric"])
assert m["confidence"]["p90"]["hi_ns"] == r["limits"][0]["upper"], "not the metric's interval"
r["limits"][0]["upper"] *= 0.99
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_status 2 "$RTC" report "$TMP/forged3.json" --summary "$TMP/forged3.txt"
expect_grep 'requirements\[0\]\.limits\[0\]\.upper: .*, but metrics\[0\]\.confidence\.p90\.hi_ns is ' "$TMP/out"

# ... and so is a limit whose metric keeps no interval of its statistic
# (the interval nulled or removed, or a percentile that is not reported):
# its bounds are still its histogram's, so UNDECIDED cannot be made to pass
# by moving its upper bound below the max once the interval is gone
for how in null del; do
  python3 - "$J" "$TMP/forged4-$how.json" "$how" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["files"][0]["requirements"][1]
m = next(m for m in r["metrics"] if m["name"] == r["limits"][0]["metric"])
if sys.argv[3] == "null":
    m["confidence"]["p90"] = None
else:
    del m["confidence"]
l = r["limits"][0]
l["upper"], l["verdict"], l["need"] = 184000.0, "pass", None
r["verdict"] = "pass"
d["totals"]["inconclusive"] -= 1
d["totals"]["passed"] += 1
d["exit_status"] = 0
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
  expect_status 2 "$RTC" report "$TMP/forged4-$how.json" --summary "$TMP/forged4.txt"
  expect_grep "requirements\[1\]\.limits\[0\]\.upper: 184000, but rank [0-9]+ of metrics\[0\]'s 200 samples at level 0\.95 gives .* on its histogram" "$TMP/out"
done
req_file "$TMP/c95.xml" confidence 'iterations="200" runs="1" warmup="0"' \
  "$(requirement P95 "$RAMP" '<limit statistic="p95" max="195us" confidence="95%"/>' \
     '<limit statistic="p95" max="195us" confidence="99%"/>')"
expect_status 4 "$RTC" run -q -o "$TMP/p95" "$TMP/c95.xml"
for i in 0 1; do
  python3 - "$TMP/p95/results.json" "$TMP/forged5.json" "$i" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["files"][0]["requirements"][0]
l = r["limits"][int(sys.argv[3])]
assert l["verdict"] == "inconclusive" and l["upper"] > 195000, l
l["upper"], l["verdict"], l["need"] = 194000.0, "pass", None
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
  expect_status 2 "$RTC" report "$TMP/forged5.json" --summary "$TMP/forged5.txt"
  expect_grep "requirements\[0\]\.limits\[$i\]\.upper: 194000, but rank [0-9]+ of metrics\[0\]'s 200 samples" "$TMP/out"
done
expect_status 0 "$RTC" report "$TMP/p95/results.json" --summary "$TMP/p95/again.txt"

# compare: the same run where UNDECIDED's limit is 195 us (it passes) as
# the baseline: its limit changed, so pass -> inconclusive is CHANGED, not
# compared as a verdict (exit 1, 0 with --allow-changed), either way; the
# unchanged limit beside it on the same statistic is paired with its own
# (pass -> inconclusive of one requirement is worse: unit.compare)
sed 's/max="185us" confidence="95%"/max="195us" confidence="95%"/' "$TMP/c.xml" >"$TMP/c2.xml"
expect_status 0 "$RTC" run -q -o "$TMP/p" --only HOLDS --only UNDECIDED "$TMP/c2.xml"
expect_status 1 "$RTC" compare "$TMP/p/results.json" "$J"
expect_grep '^UNDECIDED +- +verdict +pass +inconclusive( +-)+ +CHANGED$' "$TMP/out"
expect_grep '^ +the requirement changed: limit interval p90 195 us -> 185 us; its verdicts are not compared$' "$TMP/out"
expect_status 0 "$RTC" compare --allow-changed "$TMP/p/results.json" "$J"
expect_status 1 "$RTC" compare "$J" "$TMP/p/results.json"
expect_grep '^UNDECIDED +- +verdict +inconclusive +pass( +-)+ +CHANGED$' "$TMP/out"
expect_grep '^ +the requirement changed: limit interval p90 185 us -> 195 us; its verdicts are not compared$' "$TMP/out"

# merge: the fleet counts it, and exits 4 with no failure on any host
expect_status 4 "$RTC" merge "$J" "$TMP/p/results.json" -o "$TMP/fleet"
expect_grep '^3 requirements on 2 hosts, 6 results: 3 passed, 0 failed, 1 inconclusive, 0 errors, 2 skipped; exit status 4$' "$TMP/out"
expect_grep 'class="inconclusive"' "$TMP/fleet/fleet.html"
expect_grep '"inconclusive": ?1' "$TMP/fleet/results.json"
validate_junit "$TMP/fleet/junit.xml" --tests 4 --failures 1 --errors 0

# With the failure too: 1 wins over 4
expect_status 1 "$RTC" run -o "$TMP/f" "$TMP/c.xml"
expect_grep '^MISSED +selftest +other +interval p90 <= 165 us at 95% +[0-9.]+ us +FAIL$' "$TMP/out"
expect_grep '^3 requirements: 1 passed, 1 failed, 1 inconclusive, 0 errors, 0 skipped .*exit status 1' "$TMP/out"
validate_junit "$TMP/f/junit.xml" --tests 3 --failures 2 --errors 0 --skipped 0 \
  --property MISSED.verdict=fail --property UNDECIDED.verdict=inconclusive
[[ "$(testcase_msg MISSED "$TMP/f/junit.xml")" == *"95% interval ["*"] > max 165 us: fails (n=200)" ]] \
  && ok "junit.xml: MISSED fails on its interval" || fail "junit.xml: MISSED: $(testcase_msg MISSED "$TMP/f/junit.xml")"

# confidence= that cannot be used is refused, with file, line, value and why
bad() {
  req_doc "$1" "$RAMP
    <limit statistic=\"$2\" max=\"1ms\" confidence=\"$3\"/>"
  expect_status 2 "$RTC" validate "$TMP/$1.xml"
  expect_grep "^$TMP/$1.xml:4: $4" "$TMP/out"
  expect_status 2 "$RTC" run -o "$TMP/$1" "$TMP/$1.xml"
  [ ! -e "$TMP/$1" ] && ok "$1: nothing measured" || fail "$1: run wrote $TMP/$1"
}
bad conf-pct p90 95 'confidence="95": not a percentage'
bad conf-range p90 100% 'confidence="100%": must lie strictly between 50% and 100%'
bad conf-half p90 50% 'confidence="50%": must lie strictly between 50% and 100%'
bad conf-max max 95% 'confidence="95%" on statistic max: the observed max is not a quantile, so no confidence bound applies'
bad conf-mean mean 99% 'confidence="99%" on statistic mean: the observed mean is not a quantile'
# the default of <defaults> too
REQ_VERSION= req_file "$TMP/conf-def.xml" conf-def 'confidence="1.5"' \
  "$(requirement R "$RAMP" '<limit statistic="p90" max="1ms"/>')"
expect_status 2 "$RTC" validate "$TMP/conf-def.xml"
expect_grep "^$TMP/conf-def.xml:2: <defaults> confidence=\"1.5\": not a percentage" "$TMP/out"

# "need about N" is never the samples already taken, or fewer: a lower
# bound is a bucket's lower edge, so the samples of the bucket straddling
# the bound count against it (they counted for it, and a min limit of
# 5519 samples that could not be decided was said to need about 3957)
req_file "$TMP/need.xml" confidence 'runs="1" warmup="0"' \
  "$(requirement NEEDMIN "$RAMP" '<run iterations="5519"/>' \
     '<limit statistic="p90" min="4939.505us" confidence="95%"/>')" \
  "$(requirement NEEDMAX "$RAMP" '<run iterations="4462"/>' \
     '<limit statistic="p99" max="4412.918us" confidence="95%"/>')"
expect_status 4 "$RTC" run -q -o "$TMP/need" "$TMP/need.xml"
python3 - "$TMP/need/results.json" >"$TMP/need.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["files"][0]["requirements"]:
    l = r["limits"][0]
    n = r["metrics"][0]["count"]
    ok = l["verdict"] == "inconclusive" and (l["need"] is None or l["need"] > n)
    print(r["id"], "ok" if ok else "bad", l["need"], n, l["text"])
PY
expect_grep '^NEEDMIN ok ' "$TMP/need.txt"
expect_grep '^NEEDMAX ok ' "$TMP/need.txt"

# a count metric has no percentiles: an interval added to one is refused
python3 - "$J" "$TMP/forged6.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ms = d["files"][0]["requirements"][1]["metrics"]
c = next(i for i, m in enumerate(ms) if m["kind"] == "count")
ms[c]["confidence"] = ms[0]["confidence"]
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_status 2 "$RTC" report "$TMP/forged6.json" --summary "$TMP/forged6.txt"
expect_grep 'requirements\[1\]\.metrics\[[0-9]+\]\.confidence: a count metric has no percentiles' "$TMP/out"

# a limit at a confidence that could not be judged (too few samples by
# time: an error) has no interval, and its file still reads
req_file "$TMP/few.xml" confidence 'iterations="100" duration="1s" warmup="0"' \
  "$(requirement FEW '<probe name="timer-wakeup"><param name="interval">1ms</param></probe>' \
     '<limit statistic="p99.9" max="1s" confidence="95%"/>' \
     '<limit statistic="p95" max="1s" confidence="95%"/>')"
expect_status 3 "$RTC" run -q -o "$TMP/few" "$TMP/few.xml"
expect_status 0 "$RTC" report "$TMP/few/results.json" --summary "$TMP/few/again.txt"

finish
