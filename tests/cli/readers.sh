# SPDX-License-Identifier: Apache-2.0
# Every command that reads a file someone else may have put there refuses a
# FIFO at once (never waiting for a writer) and a symbolic link in the
# path's last component (never followed, even to a good file), naming what
# it is, and reads through a link in a directory above it: one open for
# all, base/safeopen.c (docs/failure-modes.md, "Files rtconform reads").
# Here: run and validate (a requirements file), report, compare and merge
# (a results.json), report DIR (a killed run's journal), explain (a trace,
# and a directory's traces: issue 38 quoted a planted link's target).
# verify's files: tests/cli/verify.sh and sign.sh.
. "$(dirname "$0")/lib.sh"

# refused WANT PATTERN CMD...: CMD exits WANT within 10 s, PATTERN in what
# it says
refused() {
  local want="$1" pat="$2"; shift 2
  expect_status "$want" timeout 10 "$@"
  expect_grep "$pat" "$TMP/out"
}
LINK='not a regular file \(a symbolic link\)'
FIFO='not a regular file \(a FIFO\)'

req_file "$TMP/p.xml" readers "" \
  "$(requirement ST "$(probe selftest)" '<run iterations="1000" runs="1"/>' \
     '<limit statistic="max" max="10s"/>')"
expect_status 0 "$RTC" run -q -o "$TMP/run" "$TMP/p.xml"
mkdir "$TMP/in"
ln -s "$TMP/p.xml" "$TMP/in/link.xml"
ln -s "$TMP/run/results.json" "$TMP/in/link.json"
mkfifo "$TMP/in/fifo.xml" "$TMP/in/fifo.json"

# a requirements file
for cmd in "run -o $TMP/rl" validate; do
  refused 2 "in/link.xml: is $LINK; give the path of a requirements file" "$RTC" $cmd "$TMP/in/link.xml"
  refused 2 "in/fifo.xml: is $FIFO" "$RTC" $cmd "$TMP/in/fifo.xml"
done
[ ! -e "$TMP/rl" ] && ok "nothing measured of a linked requirements file" \
  || fail "something was written for a linked requirements file: $(ls "$TMP/rl")"
# a results.json
refused 2 "in/link.json: $LINK" "$RTC" report "$TMP/in/link.json" --summary "$TMP/s.txt"
refused 2 "in/link.json: $LINK" "$RTC" compare "$TMP/run/results.json" "$TMP/in/link.json"
refused 2 "in/link.json: $LINK" "$RTC" merge "$TMP/run/results.json" "$TMP/in/link.json" -o "$TMP/m"
refused 2 "in/fifo.json: $FIFO" "$RTC" report "$TMP/in/fifo.json" --summary "$TMP/s.txt"
[ ! -e "$TMP/s.txt" ] && [ ! -e "$TMP/m" ] && ok "no report written from a linked results.json" \
  || fail "a report was written from a linked results.json"

# a trace: named, and a directory's trace-*.txt
EX="$SRC/tests/fixtures/explain"
mkdir "$TMP/tr"
cp "$EX/timer-wakeup.txt" "$TMP/tr/real.txt"
ln -s "$TMP/tr/real.txt" "$TMP/tr/link.txt"
refused 2 "tr/link.txt: $LINK" "$RTC" explain "$TMP/tr/link.txt"
mkdir "$TMP/planted"
printf 'SECRET-FIRST-LINE no trace\n' >"$TMP/secret"
ln -s "$TMP/secret" "$TMP/planted/trace-X.txt"
refused 2 "planted/trace-X.txt: $LINK" "$RTC" explain "$TMP/planted"
expect_no_grep 'SECRET-FIRST-LINE' "$TMP/out"
refused 2 "planted/trace-X.txt: $LINK" "$RTC" explain --json "$TMP/planted"
expect_no_grep 'SECRET-FIRST-LINE' "$TMP/out"

# a killed run's journal (the supervisor killed once it journaled a
# requirement): read as it is, refused as a link or a FIFO
req_file "$TMP/k.xml" killed "" \
  "$(requirement ST "$(probe selftest)" '<run iterations="1000" runs="1" warmup="0"/>' \
     '<limit statistic="max" max="10s"/>')" \
  "$(requirement TIMED "$(probe sem-pingpong)" '<run iterations="5000" duration="60s" warmup="0" timeout="120s"/>' \
     '<limit statistic="max" max="60s"/>')"
"$RTC" run -q -o "$TMP/k" "$TMP/k.xml" >/dev/null 2>&1 &
sup=$!
wait_for "the run to journal a requirement" 30 grep -aq '^rtcj req' "$TMP/k/journal/log"
kill -KILL "$sup" 2>/dev/null; wait "$sup" 2>/dev/null
if [ -f "$TMP/k/journal/log" ]; then
  cp -a "$TMP/k" "$TMP/k-copy"
  expect_status 3 "$RTC" report "$TMP/k-copy" --summary "$TMP/k-copy.txt"
  mv "$TMP/k/journal/log" "$TMP/log-elsewhere"
  ln -s "$TMP/log-elsewhere" "$TMP/k/journal/log"
  refused 2 "journal/log: $LINK" "$RTC" report "$TMP/k" --summary "$TMP/k.txt"
  rm "$TMP/k/journal/log"; mkfifo "$TMP/k/journal/log"
  refused 2 "journal/log: $FIFO" "$RTC" report "$TMP/k" --summary "$TMP/k.txt"
  [ ! -e "$TMP/k.txt" ] && ok "no report written from a linked journal" || fail "a report was written from a linked journal"
else
  fail "the killed run left no journal/log"
fi

# a link in a directory above the file is followed: the user named the path
ln -s "$TMP" "$TMP/up"
expect_status 0 "$RTC" validate "$TMP/up/p.xml"
expect_status 0 "$RTC" report "$TMP/up/run/results.json" --summary "$TMP/up-s.txt"
expect_status 0 "$RTC" explain "$TMP/up/tr/real.txt"
expect_status 0 "$RTC" verify "$TMP/up/run"
finish
