#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtconform compare, the holes a hostile review of the gate found (issue
# 37, items 3 and 4), each on tests/fixtures/results/pass.json made over
# by a few lines of Python (known figures, nothing measured):
#   - a metric the baseline measured that the candidate lacks is WORSE
#     (exit 1), not compared with --allow-missing (exit 0); one only the
#     candidate has is named in a note;
#   - a parameter written another way with the same meaning (1ms and
#     1000us, CPUs 0-1 and 0,1), a load at another path or spaced
#     otherwise, is no change; another value or argument is CHANGED;
#   - a candidate without a sample plan where the baseline has one says
#     that a change of plan cannot be seen;
#   - a figure that moved where its per-run stand-ins did not (p50 +15 %
#     on the same run means) is not called the same: its interval is
#     widened to its own ratio, INCONCLUSIVE at a 5 % tolerance, exit 1.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }

PASS="$FIX/results/pass.json"
# edit IN OUT STATEMENT...: IN with each Python statement run on d (the
# document); R(id) is a requirement, M(id, name) one of its metrics
edit() {
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def R(i):
    return next(r for f in d["files"] for r in f["requirements"] if r["id"] == i)
def M(i, n):
    return next(m for m in R(i)["metrics"] if m["name"] == n)
for s in sys.argv[3:]:
    exec(s)
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
}

# ---- a metric on one side only ----------------------------------------------
edit "$PASS" "$TMP/nowake.json" \
  'R("PP-OTHER")["metrics"] = [m for m in R("PP-OTHER")["metrics"] if m["name"] != "wakeup"]'
expect_status 1 "$RTC" compare "$PASS" "$TMP/nowake.json" -o "$TMP/c-nowake"
expect_grep '^PP-OTHER +wakeup +- +- +- +- +- +-  WORSE$' "$TMP/out"
expect_grep '^ +metric wakeup: measured in the baseline, not in the candidate$' "$TMP/out"
expect_grep '^8 figures: 1 worse, .*exit status 1: a figure is worse' "$TMP/out"
validate_junit "$TMP/c-nowake/junit.xml" --tests 8 --failures 1 --errors 0
expect_grep '<testcase name="PP-OTHER wakeup" .*' "$TMP/c-nowake/junit.xml"
expect_status 0 "$RTC" compare --allow-missing "$PASS" "$TMP/nowake.json"
expect_grep '^PP-OTHER +wakeup +- .*  not compared$' "$TMP/out"
expect_grep 'not in the candidate \(--allow-missing\)$' "$TMP/out"
# the other way round: new in the candidate, a note, nothing to fail
expect_status 0 "$RTC" compare "$TMP/nowake.json" "$PASS"
expect_grep '^note: PP-OTHER: metric wakeup is new in the candidate \(the baseline has none\), not compared$' "$TMP/out"

# ---- parameters by their meaning -----------------------------------------------
edit "$PASS" "$TMP/p-ms.json" 'R("PP-OTHER")["params"]["period"] = "1ms"' \
  'R("PP-OTHER")["params"]["cpus"] = "0-1"'
edit "$PASS" "$TMP/p-us.json" 'R("PP-OTHER")["params"]["period"] = "1000us"' \
  'R("PP-OTHER")["params"]["cpus"] = "0,1"'
edit "$PASS" "$TMP/p-other.json" 'R("PP-OTHER")["params"]["period"] = "1001us"' \
  'R("PP-OTHER")["params"]["cpus"] = "0,2"'
expect_status 0 "$RTC" compare "$TMP/p-ms.json" "$TMP/p-us.json"
expect_no_grep '  CHANGED$' "$TMP/out"
expect_status 1 "$RTC" compare "$TMP/p-ms.json" "$TMP/p-other.json"
expect_grep '^ +the requirement changed: period 1ms -> 1001us, cpus 0-1 -> 0,2; its verdicts are not compared$' "$TMP/out"

# the load as each host ran it: the tool's path is the host's, the spacing
# nobody's; another argument is a change. Not pinned reads so.
edit "$PASS" "$TMP/l1.json" 'R("PP-OTHER")["load"] = "/usr/bin/stress-ng --cpu 2"'
edit "$PASS" "$TMP/l2.json" 'R("PP-OTHER")["load"] = "/usr/local/bin/stress-ng  --cpu 2"'
edit "$PASS" "$TMP/l3.json" 'R("PP-OTHER")["load"] = "/usr/bin/stress-ng --cpu 3"' \
  'R("PP-OTHER")["cpu"] = 1'
expect_status 0 "$RTC" compare "$TMP/l1.json" "$TMP/l2.json"
expect_no_grep '  CHANGED$' "$TMP/out"
expect_status 1 "$RTC" compare "$TMP/l1.json" "$TMP/l3.json"
expect_grep '^ +the requirement changed: cpu not pinned -> 1, background load /usr/bin/stress-ng --cpu 2 -> /usr/bin/stress-ng --cpu 3; its' "$TMP/out"
# a candidate without a plan (older, or stripped of it) cannot show a cut
# of its iterations: a note says so
edit "$PASS" "$TMP/plan.json" \
  'for r in (r for f in d["files"] for r in f["requirements"]): r["plan"] = {"iterations": 200, "runs": 3, "warmup": 100, "duration_ns": 0}'
expect_status 0 "$RTC" compare "$TMP/plan.json" "$PASS"
expect_grep '^note: the candidate records no sample plan for 2 requirements \(a results.json written before it was kept\): a change of iterations, runs, warm-up or duration cannot be seen there$' "$TMP/out"

# ---- a figure that moved where its per-run values did not --------------------
edit "$PASS" "$TMP/p50.json" 'm = M("PP-FIFO", "per-op")' 'm["statistics_ns"]["p50"] *= 1.15' \
  'l = R("PP-FIFO")["limits"][0]' 'l["measured"] = m["statistics_ns"]["p50"]'
expect_status 1 "$RTC" compare --tolerance 5% "$PASS" "$TMP/p50.json"
expect_grep '^PP-FIFO +per-op +p50 .* \+15\.0% .* x1\.\.x1\.15  INCONCLUSIVE \(limited\)$' "$TMP/out"
# the rule as the table states it: an inconclusive figure fails unless
# its one-sided bound rules worse out (the gate since "not worse" passed)
expect_grep 'INCONCLUSIVE when it straddles an end of it, which fails the comparison as worse does unless its one-sided bound at the same level rules worse out \(inconclusive \(not worse\): it passes\)\.' "$TMP/out"
expect_grep "^ +the figure's own ratio lies outside the interval of its per-run means; the interval is widened to it" "$TMP/out"
# ... and a run against itself is still exactly the same
expect_status 0 "$RTC" compare --tolerance 0 "$TMP/p50.json" "$TMP/p50.json"
expect_grep '^PP-FIFO +per-op +p50 .* x1\.\.x1  same \(limited\)$' "$TMP/out"
finish
