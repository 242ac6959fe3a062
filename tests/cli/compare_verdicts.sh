#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtconform compare judges each requirement's verdict as well as its
# figures (issue 24, item 2): a requirement that went from pass to fail, or
# to error (from fail too), is a regression whatever the noise rule says of
# its figures; the reverse an improvement. Shown in the table, the closing
# line, junit.xml, compare.html's banner, and in the exit status.
# The inputs are tests/fixtures/results/pass.json made over by
# tests/cli/variant_results.py: known figures, nothing measured. PP-OTHER's
# max limited to 180 us: 161.3 us passes in the baseline; the candidate's
# durations are 1.2 times as long (193.6 us: a fail), a move the 50 %
# tolerance calls the same. The fixture's three runs scatter (PP-OTHER's
# maxima 161 us, 4.3 us and 19 us), so the intervals of its figures'
# ratios straddle the tolerance: inconclusive, which this test of verdicts
# allows (--allow-inconclusive); docs/fleet.md, "The rule".
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
command -v xmllint >/dev/null || { fail "xmllint is missing (Debian package libxml2-utils)"; finish; }

VARIANT="$SRC/tests/cli/variant_results.py"
PASS="$FIX/results/pass.json"
python3 "$VARIANT" "$PASS" "$TMP/base.json" --max-max 180
python3 "$VARIANT" "$PASS" "$TMP/fail.json" --max-max 180 --scale 1.2
python3 "$VARIANT" "$PASS" "$TMP/error.json" --max-max 180 --error PP-OTHER "worker crashed"
python3 "$VARIANT" "$PASS" "$TMP/unjudged.json" --unjudged PP-FIFO
cmp_() { "$RTC" compare --allow-inconclusive "$@"; }

# ---- pass -> fail: a regression, though every figure is the same ---------
expect_status 1 cmp_ "$TMP/base.json" "$TMP/fail.json" -o "$TMP/c-fail"
T="$TMP/c-fail/compare.txt"
expect_grep '^PP-OTHER +- +verdict +pass +fail +- +- +-  WORSE$' "$T"
expect_grep '^ +the candidate failed per-op max 193\.6 us > 180 us \(n=600\)$' "$T"
expect_grep '^PP-OTHER +per-op +max .* INCONCLUSIVE \(limited\)$' "$T"
expect_grep '^9 figures: 0 worse, 4 inconclusive, 0 better, 5 same, 0 not compared, and 2 verdicts: 1 worse, 0 better, 1 unchanged \(tolerance 50%, interval 95%, inconclusive allowed\); exit status 1: a requirement.s verdict is worse than the baseline.s$' "$T"
# the output says what "(limited)" means, and that verdicts are compared
expect_grep '\(limited\): a limit of the requirement is on that statistic' "$T"
expect_grep "A requirement's verdict is compared too" "$T"
validate_junit "$TMP/c-fail/junit.xml" --tests 10 --failures 1 --skipped 4 --errors 0
expect_grep '<testcase name="PP-OTHER verdict" classname="compare\.cli-pass"' "$TMP/c-fail/junit.xml"
expect_grep '<failure type="Regression" message="verdict pass -&gt; fail, the candidate failed per-op max 193\.6 us &gt; 180 us \(n=600\): WORSE"' "$TMP/c-fail/junit.xml"
H="$TMP/c-fail/compare.html"
expect_grep '<div class="banner b-fail">REGRESSION — verdicts: 1 worse, 0 better, 1 unchanged; figures: 0 worse' "$H"
expect_grep '<tr class="worse"><td>PP-OTHER</td><td>-</td><td>verdict</td><td class="num">pass</td><td class="num">fail</td>' "$H"
# the histograms of the metric whose limit decided it are drawn
expect_grep '<h3>PP-OTHER per-op</h3>' "$H"
expect_grep 'its limit decided the verdict, pass -&gt; fail' "$H"

# ---- fail -> pass: an improvement, exit 0 --------------------------------
expect_status 0 cmp_ "$TMP/fail.json" "$TMP/base.json" -o "$TMP/c-pass"
expect_grep '^PP-OTHER +- +verdict +fail +pass +- +- +-  better$' "$TMP/out"
expect_grep '^ +the baseline failed per-op max 193\.6 us > 180 us \(n=600\)$' "$TMP/out"
expect_grep '2 verdicts: 0 worse, 1 better, 1 unchanged \(.*\); exit status 0: no figure is worse than the baseline, nor any verdict \(inconclusive figures allowed\)$' "$TMP/out"
validate_junit "$TMP/c-pass/junit.xml" --tests 10 --failures 0 --errors 0
expect_grep '<div class="banner b-undecided">INCONCLUSIVE \(allowed\) — verdicts: 0 worse, 1 better' "$TMP/c-pass/compare.html"

# ---- to error: worse, from pass and from fail ----------------------------
expect_status 1 cmp_ "$TMP/base.json" "$TMP/error.json"
expect_grep '^PP-OTHER +- +verdict +pass +error +- +- +-  WORSE$' "$TMP/out"
expect_grep '^ +not measured in the candidate: worker crashed$' "$TMP/out"
expect_status 1 cmp_ "$TMP/fail.json" "$TMP/error.json"
expect_grep '^PP-OTHER +- +verdict +fail +error +- +- +-  WORSE$' "$TMP/out"
# measured, but a limit could not be judged: its figures the same, the
# verdict worse
expect_status 1 cmp_ "$PASS" "$TMP/unjudged.json"
expect_grep '^PP-FIFO +- +verdict +pass +error +- +- +-  WORSE$' "$TMP/out"
expect_grep '^ +the candidate could not be judged: p50 per-op cannot be computed from 600 samples$' "$TMP/out"
expect_grep '2 verdicts: 1 worse, 0 better, 1 unchanged \(.*\); exit status 1' "$TMP/out"

# ---- from error: better; error after error: no verdict changed ----------
expect_status 0 cmp_ "$TMP/error.json" "$TMP/base.json"
expect_grep '^PP-OTHER +- +verdict +error +pass +- +- +-  better$' "$TMP/out"
expect_grep '^ +not measured in the baseline: worker crashed$' "$TMP/out"
expect_status 0 cmp_ "$TMP/error.json" "$TMP/error.json"
expect_grep '^PP-OTHER +- +- .* not compared$' "$TMP/out"
expect_grep '2 verdicts: 0 worse, 0 better, 2 unchanged \(.*\); exit status 0' "$TMP/out"

# ---- missing from the candidate: a regression unless --allow-missing ----
# (issue 24 review, B) a candidate that skipped (--only) or lacks a
# requirement the baseline measured must not pass the gate silently; one
# only the candidate has is new, noted, not compared
python3 "$VARIANT" "$PASS" "$TMP/skip.json" --max-max 180 --skip PP-FIFO
python3 "$VARIANT" "$PASS" "$TMP/drop.json" --max-max 180 --drop PP-FIFO
expect_status 1 cmp_ "$TMP/base.json" "$TMP/skip.json" -o "$TMP/c-skip"
T="$TMP/c-skip/compare.txt"
expect_grep '^PP-FIFO +- +verdict +pass +missing +- +- +-  WORSE$' "$T"
expect_grep '^ +measured in the baseline \(pass\), skipped in the candidate: not selected \(--only\)$' "$T"
expect_grep ', and 1 requirement missing from the candidate \(tolerance 50%, interval 95%, inconclusive allowed\); exit status 1: a requirement the baseline measured is missing from the candidate$' "$T"
validate_junit "$TMP/c-skip/junit.xml" --failures 1 --errors 0 --skipped 0
expect_grep '<testcase name="PP-FIFO" classname="compare\.cli-pass"' "$TMP/c-skip/junit.xml"
expect_grep '<failure type="Regression" message="measured in the baseline \(pass\), skipped in the candidate: not selected \(--only\): WORSE"' "$TMP/c-skip/junit.xml"
expect_grep '<div class="banner b-fail">REGRESSION — verdicts: 0 worse, 0 better, 1 unchanged; 1 requirement missing from the candidate;' "$TMP/c-skip/compare.html"
expect_status 1 cmp_ "$TMP/base.json" "$TMP/drop.json"
expect_grep '^PP-FIFO +- +verdict +pass +missing +- +- +-  WORSE$' "$TMP/out"
expect_grep '^ +measured in the baseline \(pass\), not in the candidate$' "$TMP/out"
expect_no_grep 'only in the baseline' "$TMP/out"
# allowed: not compared, exit 0, junit.xml skips it
expect_status 0 cmp_ --allow-missing "$TMP/base.json" "$TMP/skip.json" -o "$TMP/c-skip-ok"
expect_grep '^PP-FIFO +- +verdict +pass +missing +- +- +-  not compared$' "$TMP/out"
expect_grep '1 requirement missing from the candidate \(allowed\) .*exit status 0: no figure is worse than the baseline, nor any verdict \(missing requirements allowed\)$' "$TMP/out"
validate_junit "$TMP/c-skip-ok/junit.xml" --failures 0 --errors 0 --skipped 1
expect_status 0 cmp_ --allow-missing "$TMP/base.json" "$TMP/drop.json"
# the other way: new in the candidate, not a regression; skipped in the
# baseline, not compared
expect_status 0 cmp_ "$TMP/drop.json" "$TMP/base.json"
expect_grep '^note: PP-FIFO: new in the candidate \(the baseline has no such requirement\), not compared$' "$TMP/out"
expect_status 0 cmp_ "$TMP/skip.json" "$TMP/base.json"
expect_grep '^PP-FIFO +- +- .* not compared$' "$TMP/out"

# the same run twice: no verdict row at all
expect_status 0 cmp_ "$TMP/base.json" "$TMP/base.json"
expect_no_grep '^[^ ]+ +- +verdict ' "$TMP/out"
finish
