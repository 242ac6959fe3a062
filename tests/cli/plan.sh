# SPDX-License-Identifier: Apache-2.0
# Sample-size planning (harness/plan.h): `rtconform validate` says of each
# percentile limit how many samples it will take and what they establish
# (the estimate's and the 95% upper bound's ranks from the top), and
# `validate --plan` the iterations or duration the 10% rule needs and
# whether the file's setting reaches it; a setting short of the plan is
# named so, and is no error (exit 0). Measures nothing.
. "$(dirname "$0")/lib.sh"

F="$FIX/cli/plan.xml"
expect_status 0 "$RTC" validate "$F"
cp "$TMP/out" "$TMP/validate"
# the valid line on stdout, the per-CPU limit's warning beside it
expect_grep '^.*plan\.xml: valid \(7 requirements\)$' "$TMP/validate"
expect_grep '^  requirement PLAN-SHORT, p99\.9 of interval: 10,000 samples \(5 runs x 2,000 iterations\)$' "$TMP/validate"
expect_grep "^    p99\.9 with 10,000 samples: the estimate is the 11th largest sample, its 95% upper bound the 4th largest; the bound comes within 10% of the estimate's rank at about 388,000 samples$" "$TMP/validate"
expect_grep '^    p90 with 5,000 samples: the estimate is the 501st largest sample, its 95% upper bound the [0-9]+th largest' "$TMP/validate"
# by time: an estimate from the probe's pace
expect_grep "^  requirement PLAN-TIME, p99\.9 of interval: about [0-9,]+ samples in 60 s \(runs of 10,000 iterations of about .* each, from the probe's pace\)$" "$TMP/validate"
# a metric taken on each measured CPU is planned on one; 2,000 samples are
# too few for any upper bound of p99.9 (0.999^2000 = 0.135 > 0.025)
expect_grep '^  requirement PLAN-PERCPU, p99\.9 of wakeup: 2,000 samples on each measured CPU \(2 runs x 1,000 iterations\)$' "$TMP/validate"
expect_grep '^    p99\.9 with 2,000 samples: the estimate is the 3rd largest sample; too few samples for an upper bound at 95%; the bound comes within 10% of the estimate.s rank at about 388,000 samples$' "$TMP/validate"
# a limit that is no percentile is not planned
expect_no_grep 'PLAN-NONE' "$TMP/validate"

expect_status 0 "$RTC" validate --plan "$F"
cp "$TMP/out" "$TMP/plan"
expect_grep '^  requirement PLAN-SHORT \(by count, 5 runs x 2000 iterations\): short of the plan$' "$TMP/plan"
expect_grep '^    p99\.9 of interval at 95% needs about 388,000 samples: iterations="[0-9]+" at 5 runs \(the file.s iterations="2000" is short of the plan\)$' "$TMP/plan"
expect_grep '^  requirement PLAN-ENOUGH \(by count, 5 runs x 1000 iterations\): reaches the plan$' "$TMP/plan"
expect_grep '^    p90 of interval at 95% needs about 3,570 samples: iterations="715" at 5 runs' "$TMP/plan"
expect_grep '^  requirement PLAN-TIME \(by time, 60 s\): reaches the plan$' "$TMP/plan"
expect_grep "^    p99\.9 of interval at 95% needs about 388,000 samples: a duration of about .*, from the probe's pace \(the file's 60 s reaches the plan\)$" "$TMP/plan"
expect_grep '^  requirement PLAN-NONE: no percentile limit to plan$' "$TMP/plan"
# a min= rests on the lower bound: p1's plan is p99's from the bottom
expect_grep '^  requirement PLAN-LOW \(by count, 5 runs x 1000 iterations\): short of the plan$' "$TMP/plan"
expect_grep '^    p1 of interval at 95% needs about 38,[0-9]00 samples' "$TMP/plan"
# a limit's own confidence= is what it is planned at (more samples than at 95%)
expect_grep '^    p90 of interval at 99% needs about [0-9,]+ samples' "$TMP/plan"
n99="$(sed -n 's/^    p90 of interval at 99% needs about \([0-9,]*\) samples.*/\1/p' "$TMP/plan" | tr -d ,)"
[ -n "$n99" ] && [ "$n99" -gt 3570 ] && ok "a limit at 99% needs more samples than at 95% ($n99 > 3,570)" \
  || fail "the 99% plan: '$n99'"
expect_grep '^    p99\.9 of wakeup at 95% needs about 388,000 samples on each measured CPU: iterations="[0-9]+" at 2 runs \(the file.s iterations="1000" is short of the plan\)$' "$TMP/plan"
# the iterations --plan names reach the plan when the file is given them
it="$(sed -n 's/^    p99\.9 of interval at 95% needs about [0-9,]* samples: iterations="\([0-9]*\)" at 5 runs.*/\1/p' "$TMP/plan")"
if [ -n "$it" ]; then
  sed "s/iterations=\"2000\" runs=\"5\"/iterations=\"$it\" runs=\"5\"/" "$F" >"$TMP/fixed.xml"
  expect_status 0 "$RTC" validate --plan "$TMP/fixed.xml"
  expect_grep '^  requirement PLAN-SHORT \(by count, 5 runs x [0-9]+ iterations\): reaches the plan$' "$TMP/out"
  # one iteration fewer is short of it
  sed "s/iterations=\"2000\" runs=\"5\"/iterations=\"$((it - 1))\" runs=\"5\"/" "$F" >"$TMP/fewer.xml"
  expect_status 0 "$RTC" validate --plan "$TMP/fewer.xml"
  expect_grep '^  requirement PLAN-SHORT \(by count, 5 runs x [0-9]+ iterations\): short of the plan$' "$TMP/out"
else
  fail "validate --plan names the iterations PLAN-SHORT needs"
fi
# a run by time too short for the plan is named so
sed 's/duration="1min"/duration="1s"/; s/iterations="10000" duration/iterations="100000000" duration/' "$F" >"$TMP/short.xml"
expect_status 0 "$RTC" validate --plan "$TMP/short.xml"
expect_grep '^  requirement PLAN-TIME \(by time, 1 s\): short of the plan$' "$TMP/out"

# A run by time says once, on its progress line, when a limit's metric has
# the samples its plan needs: p90's 3,570 come in the first moments of a
# second of selftest's empty intervals; p99.99999's 3.9 billion never do.
cat >"$TMP/bytime.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<requirements xmlns="urn:rtconform:requirements:1" name="plan-by-time" version="1">
  <requirement id="ENOUGH">
    <probe name="selftest"/>
    <run iterations="1000" duration="1s" warmup="0"/>
    <limit statistic="p90" max="1s"/>
    <limit statistic="p99.99999" max="1s"/>
  </requirement>
</requirements>
XML
RTC_PROGRESS_INTERVAL=500ms "$RTC" run -o "$TMP/run" "$TMP/bytime.xml" >"$TMP/run.out" 2>"$TMP/run.err"
expect_grep '^\[1/1\] ENOUGH: [0-9]{2}:[0-9]{2}:[0-9]{2}: enough samples for p90 at 95% \(3,570\)$' "$TMP/run.err"
n="$(grep -c 'enough samples for p90' "$TMP/run.err")"
[ "$n" = 1 ] && ok "the p90 plan is said to be reached once" || fail "the p90 plan is said to be reached once (it is said $n times)"
expect_no_grep 'enough samples for p99\.99999' "$TMP/run.err"
# said before the verdict
if awk '/enough samples for p90/ { e = NR } /ENOUGH: (pass|fail|error)/ { v = NR } END { exit !(e && v && e < v) }' "$TMP/run.err"; then
  ok "the plan is said to be reached before the verdict"
else
  fail "the plan is said to be reached before the verdict:"; diag <"$TMP/run.err"
fi
# A metric taken on every CPU is planned per CPU (validate --plan says "on
# each measured CPU"), so the progress line waits for every CPU to have the
# samples, not for their sum: 2 s of timer-wakeup at 1 ms gives each CPU
# some 2,000 samples, short of p90's 3,570, though two CPUs sum past it.
if [ "$(nproc)" -ge 2 ]; then
  cat >"$TMP/percpu.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<requirements xmlns="urn:rtconform:requirements:1" name="plan-per-cpu" version="1">
  <requirement id="PERCPU">
    <probe name="timer-wakeup"><param name="interval">1ms</param><param name="dma-latency">off</param></probe>
    <run iterations="100" duration="2s" warmup="0"/>
    <limit metric="wakeup" statistic="p90" max="1s"/>
  </requirement>
</requirements>
XML
  expect_status 0 "$RTC" validate --plan "$TMP/percpu.xml"
  expect_grep 'p90 of wakeup at 95% needs about 3,570 samples on each measured CPU' "$TMP/out"
  RTC_PROGRESS_INTERVAL=500ms "$RTC" run -o "$TMP/percpu" "$TMP/percpu.xml" >"$TMP/percpu.out" 2>"$TMP/percpu.err"
  least="$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["files"][0]["requirements"][0]; print(min(s["count"] for s in r["per_cpu"]))' "$TMP/percpu/results.json")"
  if [ "$least" -lt 3570 ]; then
    expect_no_grep 'enough samples for p90' "$TMP/percpu.err"
  else
    ok "# SKIP a CPU took $least samples in 2 s: the plan was reached"
  fi
else
  ok "# SKIP one CPU: no sum of series to tell from one"
fi

# --quiet says nothing of it
"$RTC" run --quiet -o "$TMP/runq" "$TMP/bytime.xml" >/dev/null 2>"$TMP/runq.err"
expect_no_grep 'enough samples' "$TMP/runq.err"

# an unknown option is refused (the help: tests/cli/cases.tsv)
expect_status 2 "$RTC" validate --plans "$F"
finish
