# SPDX-License-Identifier: Apache-2.0
# README.md is the front page, and it cannot rot: under 120 lines; its
# requirement file is docs/examples/board.xml (less that file's SPDX
# comment) and rtconform validates it; its table has the columns rtconform
# prints, and the FAIL it reads aloud is a row of that table; its exit
# statuses are rtconform --help's, 0 to 4, in the same words; it gives the
# two commands, and the test command it gives is what CI runs (.ci/run);
# it links every page of docs/. What moved out of it is checked where it
# went (the package sets: cli.quickstart against docs/install.md).
. "$(dirname "$0")/lib.sh"
README="$SRC/README.md"
EXAMPLE="$SRC/docs/examples/board.xml"

n="$(wc -l <"$README")"
[ "$n" -lt 120 ] && ok "README.md is under 120 lines ($n)" || fail "README.md is under 120 lines (it has $n)"

# block LANG : README's first fenced block of LANG ("" for a bare ```)
block() {
  awk -v lang="$1" '/^```/ { if (!in_block) { in_block = 1; on = ($0 == "```" lang); next }
                             if (on) exit; in_block = 0; next }
                    on' "$README"
}

# The requirement file: the shipped example, and valid.
block xml >"$TMP/readme.xml"
[ -s "$TMP/readme.xml" ] && ok "README has a requirement file (\`\`\`xml)" || fail "README has a requirement file (\`\`\`xml)"
sed '1s| <!-- SPDX-License-Identifier: Apache-2.0 -->$||' "$EXAMPLE" >"$TMP/example.xml"
if diff -u --label docs/examples/board.xml --label README.md "$TMP/example.xml" "$TMP/readme.xml" >"$TMP/diff"; then
  ok "README's requirement file is docs/examples/board.xml"
else fail "README's requirement file is docs/examples/board.xml (less its SPDX comment):"; diag <"$TMP/diff"; fi
expect_status 0 "$RTC" validate "$TMP/readme.xml"
expect_grep 'readme.xml: valid \(1 requirement\)' "$TMP/out"
expect_status 0 "$RTC" validate "$EXAMPLE"
# The one command, on that file.
grep -qE '^(sudo )?build/rtconform run docs/examples/board\.xml' <(block sh) \
  && ok "README's first command runs docs/examples/board.xml" || fail "README's first command runs docs/examples/board.xml"

# The table: rtconform's columns, a row per limit of the file, and the
# totals line. The columns are the program's own: the summary a report of a
# fixture run writes starts with the same header.
block "" >"$TMP/table"
expect_status 0 "$RTC" report "$FIX/results/pass.json" --summary "$TMP/summary.txt"
if [ "$(head -1 "$TMP/table" | tr -s ' ')" = "$(head -1 "$TMP/summary.txt" | tr -s ' ')" ]; then
  ok "README's table has rtconform's columns ($(head -1 "$TMP/table" | tr -s ' '))"
else fail "README's table has rtconform's columns (README: '$(head -1 "$TMP/table")'; rtconform: '$(head -1 "$TMP/summary.txt")')"; fi
[ "$(grep -c '^WAKEUP ' "$TMP/table")" = "$(grep -c '<limit ' "$EXAMPLE")" ] \
  && ok "README's table has a row per limit of the example" || fail "README's table has a row per limit of the example"
expect_grep '^1 requirement: .*; exit status 1: ' "$TMP/table"
# The FAIL read aloud is the table's FAIL row, word for word, and says what
# the run's exit status is.
row="$(grep -E ' FAIL$' "$TMP/table" | head -1)"
if [ -n "$row" ] && grep -qF "\`$(echo "$row" | tr -s ' ')\`" <(tr -s ' ' <"$README"); then
  ok "README reads aloud its table's FAIL row ($(echo "$row" | tr -s ' '))"
else fail "README reads aloud its table's FAIL row ('$row')"; fi
awk '/^## A FAIL/ { on = 1; next } /^## / { on = 0 } on' "$README" | tr '\n' ' ' >"$TMP/fail"
grep -qF 'exits with status 1' "$TMP/fail" && ok "README's FAIL says the run exits with status 1" \
  || fail "README's FAIL says the run exits with status 1"

# The exit statuses: --help's, each in --help's words, and only those.
"$RTC" --help 2>&1 | awk '/^exit status:/ { on = 1 } on' | tr '\n' ' ' | tr -s ' ' \
  | sed 's/^exit status: //; s/ ([^)]*) *$//; s/, \([0-9]\) /\n\1 /g' | awk 1 >"$TMP/help-status"
[ "$(cut -d' ' -f1 "$TMP/help-status" | tr '\n' ' ')" = "0 1 2 3 4 " ] \
  && ok "rtconform --help gives exit statuses 0 to 4" \
  || { fail "rtconform --help gives exit statuses 0 to 4 (it gives:)"; diag <"$TMP/help-status"; }
awk '/^## Exit status/ { on = 1; next } /^## / { on = 0 } on' "$README" | tr '\n' ' ' | tr -s ' ' >"$TMP/status"
while read -r s words; do
  grep -qF -- "**$s** $words" "$TMP/status" && ok "README's exit status $s is --help's: $words" \
    || fail "README's exit status $s is --help's ('**$s** $words' is not in README's Exit status)"
done <"$TMP/help-status"
[ "$(grep -oE '\*\*[0-9]+\*\*' "$TMP/status" | tr '\n' ' ')" = "**0** **1** **2** **3** **4** " ] \
  && ok "README's exit statuses are 0 to 4, no other" || fail "README's exit statuses are 0 to 4, no other"
# And the program's: cli/cli.h's enum, as rtconform --help says.
for s in 0 1 2 3 4; do
  grep -qE "^[[:space:]]+EXIT_[A-Z_]+ = $s," "$SRC/harness/verdict.h" && ok "enum rtc_exit has $s" || fail "enum rtc_exit has $s"
done

# The two commands, and CI runs the test command README gives.
awk '/^## Two commands/ { on = 1; next } /^## / { on = 0 } on' "$README" >"$TMP/two"
for c in ci/quickstart ci/test; do
  grep -qE "^$c( |$)" "$TMP/two" && ok "README gives the command $c" || fail "README gives the command $c"
  [ -x "$SRC/$c" ] && ok "$c is an executable of the tree" || fail "$c is an executable of the tree"
done
expect_grep '^exec ci/test$' "$SRC/.ci/run"

# Every page of docs/ is linked from the front page.
for page in "$SRC"/docs/*.md; do
  grep -qF "(docs/${page##*/})" "$README" && ok "README links docs/${page##*/}" || fail "README links docs/${page##*/}"
done
finish
