# SPDX-License-Identifier: Apache-2.0
# The live view of `rtconform run` on a terminal (script(1) gives it one):
# under the requirement's line, the figures so far of each metric (samples,
# min, cur, mean, max), per CPU for timer-wakeup, redrawn in place and
# replaced by the verdict line at the end. Without a terminal (a CI log)
# the progress is the one line it always was, and no escape sequence.
# Behaviour only: no figure is judged, a busy machine only draws later.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || { fail "script(1) is missing (Debian package bsdutils)"; finish; }
# script(1)'s terminal is one that moves its cursor and shows colour
# whatever the caller's TERM (unset or dumb gets the log's lines).
export TERM=xterm

# selftest by time (2 s of samples, several draws), timer-wakeup by count.
req_file "$TMP/r.xml" live "" \
  "$(requirement SELF "$(probe selftest)" '<run iterations="1000" duration="2s"/>' \
       '<limit statistic="max" max="10s"/>')" \
  "$(requirement TW "$(probe timer-wakeup)" '<run iterations="300" runs="3"/>' \
       '<limit statistic="max" max="10s"/>')"

# On a terminal. script -e: its status is rtconform's.
expect_status 0 script -qfec "$(printf '%q ' "$RTC" run -o "$TMP/t" "$TMP/r.xml")" /dev/null
tr -d '\r' <"$TMP/out" >"$TMP/tty"
expect_grep 'metric +samples +min +cur +mean +max$' "$TMP/tty"
# A row with samples: a count, then four durations (min may be 0 ns).
dur='-?[0-9.]+ (ns|us|ms|s)'
expect_grep "^(.*\\[K)?  interval +[1-9][0-9]* +$dur +$dur +$dur +$dur\$" "$TMP/tty"
expect_grep "^(.*\\[K)?  wakeup cpu [0-9]+ +[1-9][0-9]* +$dur +$dur +$dur +$dur\$" "$TMP/tty"
# The harness's counts, one value per run.
expect_grep "^(.*\\[K)?  page-faults +[0-9]+ runs( +[0-9.]+){4}\$" "$TMP/tty"
# Redrawn in place (cursor up over the last draw), and the verdict line
# takes the view's place (cursor up, clear to the end of the screen).
expect_grep $'\033\\[[0-9]+A\033\\[K\\[1/2\\] SELF: ' "$TMP/tty"
expect_grep $'\033\\[[0-9]+A\033\\[J\\[1/2\\] SELF: .*pass' "$TMP/tty"
expect_grep $'\033\\[[0-9]+A\033\\[J\\[2/2\\] TW: .*pass' "$TMP/tty"

# One run of timer-wakeup (review 24): "warming up" is said only while the
# worker warms up, never under samples being measured; the measurement
# itself says how far it is and a time left, from its own samples.
req_file "$TMP/one.xml" one "" \
  "$(requirement W "$(probe timer-wakeup cpus=0)" '<run iterations="1200" runs="1" warmup="10"/>' \
       '<limit metric="wakeup" statistic="max" max="10s"/>')"
expect_status 0 script -qfec "$(printf '%q ' "$RTC" run -o "$TMP/w" "$TMP/one.xml")" /dev/null
tr -d '\r' <"$TMP/out" >"$TMP/one.tty"
if grep -aE -A2 'W: warming up' "$TMP/one.tty" | grep -aqE 'wakeup cpu 0 +[1-9][0-9]+ '; then
  fail "the live view says 'warming up' above samples being measured"
  diag <"$TMP/one.tty"
else
  ok "the live view says 'warming up' only before samples are measured"
fi
expect_grep 'W: 0/1 runs done, [0-9.]+ s, ~[0-9.]+ s left' "$TMP/one.tty"

# TERM=dumb (or no TERM): no cursor movement, no colour: the CI log's lines.
for term in dumb ""; do
  expect_status 0 env TERM="$term" script -qfec "$(printf '%q ' "$RTC" run -o "$TMP/d" "$TMP/one.xml")" /dev/null
  expect_no_grep $'\033' "$TMP/out"
  expect_grep '^\[1/1\] W: pass, ' "$TMP/out"
done

# --quiet on a terminal: nothing of it.
expect_status 0 script -qfec "$(printf '%q ' "$RTC" run -q -o "$TMP/q" "$TMP/r.xml")" /dev/null
expect_no_grep 'samples|\[1/2\]' "$TMP/out"

# No terminal: a line now and then, with the live max beside the elapsed
# time and the limit it is held to (issue 41), and no live view.
RTC_PROGRESS_INTERVAL=300ms "$RTC" run -o "$TMP/n" "$TMP/r.xml" >"$TMP/n.out" 2>"$TMP/n.err"
rc=$?
[ "$rc" -eq 0 ] && ok "the run without a terminal exits 0" || { fail "it exited $rc"; diag <"$TMP/n.err"; }
expect_grep "^\\[1/2\\] SELF: running, [0-9.]+ s of 2 s, interval max so far $dur \\(interval max <= 10 s\\)\$" "$TMP/n.err"
expect_grep "^\\[2/2\\] TW: running, [0-3]/3 runs done, [0-9.]+ s(, wakeup max so far $dur \\(wakeup max <= 10 s\\))?\$" "$TMP/n.err"
expect_no_grep $'\033' "$TMP/n.err"
expect_no_grep 'samples|min|mean' "$TMP/n.err"
# Every line is a heartbeat or a verdict line, or one of the readiness
# warnings printed before measuring (docs/reports.md), nothing else.
if grep -vE '^(\[[12]/2\] (SELF|TW): (running, .*|pass, .* \([0-9.]+ s\))|rtconform run: readiness (warn|fail): .*)$' "$TMP/n.err" >"$TMP/other"; then
  fail "stderr without a terminal has only progress lines; other lines:"; diag <"$TMP/other"
else
  ok "stderr without a terminal has only progress lines"
fi

# The deciding limit, not the first (issue 41): of two limits the second
# decides, by least headroom (max <= 5 s is tighter than max <= 10 s on the
# same figure), or by failing (max <= 1 ns); the CI log's line while it
# runs, the terminal's status line and the verdict line all name it.
req_file "$TMP/two.xml" two "" \
  "$(requirement TIGHT "$(probe selftest)" '<run iterations="1000" duration="1s"/>' \
       '<limit statistic="max" max="10s"/>' '<limit statistic="max" max="5s"/>')" \
  "$(requirement MISS "$(probe selftest)" '<run iterations="1000" duration="1s"/>' \
       '<limit statistic="max" max="10s"/>' '<limit statistic="max" max="1ns"/>')"
st=0; RTC_PROGRESS_INTERVAL=200ms "$RTC" run -o "$TMP/two" "$TMP/two.xml" >"$TMP/two.out" 2>"$TMP/two.err" || st=$?
[ "$st" -eq 1 ] && ok "two limits: exit 1 (MISS fails)" || { fail "two limits: exit $st"; diag <"$TMP/two.err"; }
expect_grep "^\\[1/2\\] TIGHT: running, .*, interval max so far $dur \\(interval max <= 5 s\\)\$" "$TMP/two.err"
expect_no_grep 'TIGHT: running, .*<= 10 s' "$TMP/two.err"
expect_grep "^\\[1/2\\] TIGHT: pass, interval max $dur <= 5 s \\(n=[0-9]+\\) \\([0-9.]+ s\\)\$" "$TMP/two.err"
expect_grep "^\\[2/2\\] MISS: running, .*, interval max so far $dur \\(interval max <= 1 ns\\)\$" "$TMP/two.err"
expect_grep "^\\[2/2\\] MISS: fail, interval max $dur > 1 ns \\(n=[0-9]+\\) \\([0-9.]+ s\\)\$" "$TMP/two.err"
# the same in junit.xml
validate_junit "$TMP/two/junit.xml" --property 'TIGHT.limit=interval max <= 5 s' \
  --property 'MISS.limit=interval max <= 1 ns' --property MISS.report=./report.html#r1-2
# and on a terminal, the status line above the live view (whose table
# shows the max)
st=0; script -qfec "$(printf '%q ' "$RTC" run -o "$TMP/two-t" --only TIGHT "$TMP/two.xml")" /dev/null >"$TMP/two.tty" 2>&1 || st=$?
expect_grep "TIGHT: [0-9.]+ s of 1 s, [^(]*\\(interval max <= 5 s\\)" "$TMP/two.tty"
finish
