# SPDX-License-Identifier: Apache-2.0
# Bad input: exit status 2, a message naming the file (and line) and what is
# wrong, nothing measured, no report created or overwritten; hostile XML
# takes no more than 100 MB and 5 s and reads no other file.
. "$(dirname "$0")/lib.sh"
command -v /usr/bin/time >/dev/null || { fail "/usr/bin/time missing: ci/deps installs the time package"; finish; }

# bounded: status 2 within 5 s and 100 MB of resident memory
bounded_invalid() {
  local f="$1" what="$2"
  /usr/bin/time -f '%M' -o "$TMP/rss" timeout 5 "$RTC" validate "$f" >"$TMP/out" 2>&1
  local st=$?
  if [ "$st" -eq 2 ]; then ok "$what: exit 2 within 5 s"; else fail "$what: exit $st, expected 2 within 5 s"; sed 's/^/    /' "$TMP/out" | head; fi
  local kb; kb=$(tail -1 "$TMP/rss")
  if [ "${kb:-999999}" -le 102400 ]; then ok "$what: uses at most 100 MB"; else fail "$what: used ${kb} KiB (limit 100 MB)"; fi
  expect_grep "$(basename "$f")" "$TMP/out"
  expect_no_grep 'root:x:0:0' "$TMP/out"
}

# 100,000 levels of nesting
{
  echo '<requirements xmlns="urn:rtconform:requirements:1" name="deep" version="1">'
  for _ in $(seq 100000); do printf '<a>'; done
  for _ in $(seq 100000); do printf '</a>'; done
  echo '</requirements>'
} >"$TMP/deep.xml"
bounded_invalid "$TMP/deep.xml" "deep nesting"

# a 100 MB file
{
  echo '<requirements xmlns="urn:rtconform:requirements:1" name="big" version="1"><title>'
  head -c 104857600 /dev/zero | tr '\0' 'x'
  echo '</title></requirements>'
} >"$TMP/big.xml"
bounded_invalid "$TMP/big.xml" "100 MB file"
expect_grep 'too large' "$TMP/out"
rm -f "$TMP/big.xml"

# billion laughs, external entity, external DTD, XInclude (fixtures of the loader tests)
for f in "$FIX"/invalid/*.xml; do
  bounded_invalid "$f" "$(basename "$f")"
done

# semantic problems only the probe table knows, all reported in one pass
req_file "$TMP/semantic.xml" sem <<XML
  <requirement id="A"><probe name="sem-pong"/><limit statistic="max" max="1ms"/></requirement>
  <requirement id="B"><probe name="sem-pingpong"><param name="colour">red</param></probe>
    <limit statistic="max" max="1ms"/></requirement>
  <requirement id="C"><probe name="sem-pingpong"/><limit metric="jitter" statistic="max" max="1ms"/></requirement>
XML
expect_status 2 "$RTC" validate "$TMP/semantic.xml"
expect_grep "semantic.xml:2: requirement A: unknown probe 'sem-pong' \\(expected sem-pingpong" "$TMP/out"
expect_grep "semantic.xml:3: requirement B: probe sem-pingpong has no parameter 'colour' \\(expected mechanism" "$TMP/out"
expect_grep "semantic.xml:5: requirement C: probe sem-pingpong has no metric 'jitter' \\(expected per-op" "$TMP/out"

# the same through `run`: nothing measured, an existing report is not touched
mkdir -p "$TMP/keep"
echo "previous report" >"$TMP/keep/junit.xml"
for f in "$FIX"/invalid/*.xml "$TMP/deep.xml"; do
  expect_status 2 "$RTC" run -o "$TMP/keep" "$f"
done
[ "$(cat "$TMP/keep/junit.xml")" = "previous report" ] && ok "invalid input leaves the previous junit.xml" || fail "invalid input overwrote junit.xml"
[ ! -e "$TMP/keep/summary.txt" ] && ok "invalid input creates no summary.txt" || fail "invalid input created summary.txt"

# bad command lines (more in tests/cli/cases.tsv)
# an output path that cannot be written is found before anything is measured
expect_status 2 "$RTC" run -o /proc/rtconform-cannot-write "$FIX/cli/pass.xml"
expect_grep '/proc/rtconform-cannot-write' "$TMP/out"
expect_no_grep 'PP-OTHER' "$TMP/out"
touch "$TMP/afile"
expect_status 2 "$RTC" run --junit "$TMP/afile/junit.xml" "$FIX/cli/pass.xml"
expect_grep 'afile' "$TMP/out"
finish
