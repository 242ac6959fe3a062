# SPDX-License-Identifier: Apache-2.0
# docs/probes.md is written by hand; `rtconform list` is the truth. The
# summary table must name exactly the probes the program has, with their
# parameters and metrics in its order; every probe needs a section whose
# parameter table gives the same parameters, defaults and (for a choice)
# allowed values, and which names each metric. A mismatch fails with a diff.
# And docs/ci.md's rule for the CLI tests' TAP output: every check in
# tests/cli/*.sh is named in words, none is a bare `ok` (unnamed_oks).
# And docs/qualification.md's operational requirements cite only tests
# that exist.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DOC="$SRC/docs/probes.md"

expect_status 0 "$RTC" list
cp "$TMP/out" "$TMP/list"
grep -q '^sem-pingpong$' "$TMP/list" || { fail "rtconform list printed no probes:"; sed 's/^/    /' "$TMP/list"; finish; }

# What the program says, one fact a line:
#   probe P | param P N NAME | metric P N NAME | section P
#   param-default P NAME D | param-values P NAME a|b|c (choices only)
#   harness-metric N NAME KIND (the harness's metrics, listed after the probes)
awk '
  /^Harness metrics/ { harness = 1; nm = 0; next }
  harness && /^    metric / { k = $3; gsub(/[()]/, "", k); print "harness-metric " (++nm) " " $2 " " k; next }
  /^[a-z]/ { p = $1; np = 0; nm = 0; print "probe " p; print "section " p; next }
  /^    param / {
    rest = $0; sub(/^    param +[^ ]+ +/, "", rest)     # VALUES (default D): help
    v = rest; sub(/ \(default .*/, "", v)
    d = rest; sub(/^[^(]*\(default /, "", d); sub(/\).*/, "", d)
    print "param " p " " (++np) " " $2
    print "param-default " p " " $2 " " d
    if (v !~ /^</) print "param-values " p " " $2 " " v  # <count>, <duration>: free text in the doc
    next
  }
  /^    metric / { print "metric " p " " (++nm) " " $2 }
' "$TMP/list" | sort >"$TMP/want"

# What the doc says, the same way.
awk '
  function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); gsub(/`/, "", s); return s }
  # cells of a table row into c[1..n] (an escaped \| stays in its cell)
  function row(line,   n, i) {
    gsub(/\\\|/, "\001", line); sub(/^\|/, "", line); sub(/\|[ \t]*$/, "", line)
    n = split(line, c, "|")
    for (i = 1; i <= n; i++) c[i] = trim(c[i])
    return n
  }
  # a choice list: "a, b, c" of plain words -> "a|b|c"; anything else -> ""
  function choices(s,   n, w, i, out) {
    n = split(s, w, /, /)
    for (i = 1; i <= n; i++) { if (w[i] !~ /^[A-Za-z0-9_.-]+$/) return ""; out = out (i > 1 ? "|" : "") w[i] }
    return out
  }
  function list(kind, p, s,   n, w, i) {
    if (s == "-" || s == "") return
    n = split(s, w, /, */)
    for (i = 1; i <= n; i++) print kind " " p " " i " " w[i]
  }
  # the summary table: the first whose header starts with "probe"
  !done_summary && /^\| *probe *\|/ {
    n = row($0)
    for (i = 1; i <= n; i++) col[c[i]] = i
    in_summary = 1; next
  }
  in_summary && /^\|/ {
    if ($0 ~ /^\|[- |]+\|$/) next
    row($0); p = c[col["probe"]]
    print "probe " p
    list("param", p, c[col["parameters"]])
    list("metric", p, c[col["metrics"]])
    next
  }
  in_summary { in_summary = 0; done_summary = 1 }
  /^## [a-z0-9-]+$/ { sec = $2; print "section " sec; in_params = 0; next }
  /^## / { sec = ""; next }
  sec != "" && /^\| *parameter *\| *values *\| *default *\|/ { in_params = 1; next }
  in_params && /^\|/ {
    if ($0 ~ /^\|[- |]+\|$/) next
    row($0)
    print "param-default " sec " " c[1] " " c[3]
    v = choices(c[2]); if (v != "") print "param-values " sec " " c[1] " " v
    next
  }
  in_params { in_params = 0 }
  # the harness metrics: a table headed "| harness metric | kind | ..."
  /^\| *harness metric *\| *kind *\|/ { in_harness = 1; nh = 0; next }
  in_harness && /^\|/ {
    if ($0 ~ /^\|[- |]+\|$/) next
    row($0); print "harness-metric " (++nh) " " c[1] " " c[2]
    next
  }
  in_harness { in_harness = 0 }
' "$DOC" | sort >"$TMP/have"

[ -s "$TMP/have" ] || fail "found nothing in $DOC (no summary table?)"
grep -q '^harness-metric 3 ' "$TMP/want" || fail "rtconform list printed no harness metrics"
if diff -u --label 'rtconform list' --label docs/probes.md "$TMP/want" "$TMP/have" >"$TMP/diff"; then
  ok "docs/probes.md matches rtconform list"
else
  fail "docs/probes.md does not match rtconform list (- only in the program, + only in the doc):"
  sed 's/^/    /' "$TMP/diff"
fi

# Every metric is named in its probe's section (`name` or a table row).
while read -r _ p _ m; do
  awk -v p="$p" '/^## / { on = ($2 == p) } on' "$DOC" >"$TMP/section"
  if grep -Fq "\`$m\`" "$TMP/section" || grep -Fq "| $m |" "$TMP/section"; then ok "docs/probes.md: section '## $p' names its metric '$m'"
  else fail "docs/probes.md: section '## $p' never names its metric '$m'"; fi
done < <(grep '^metric ' "$TMP/want")

# ---- every check of the CLI tests has a name (docs/ci.md, TAP output)
# unnamed_oks finds each way a bare ok is written, and no named one.
# (written here as @ok, which is no call, so that this file has no bare ok)
sed 's/@ok/ok/' >"$TMP/oks.sh" <<'SH'
[ -s f ] && @ok || fail "f is empty"
if [ -s f ]; then @ok; else fail "f is empty"; fi
if [ -s f ]; then fail "f is not empty"; else @ok; fi
[ -s f ] && @ok \
  || fail "f is empty"
case "$x" in y) @ok ;; *) fail "x is not y" ;; esac
  @ok
[ -s f ] && @ok "f has something" || fail "f is empty"
# ok, or a comment that says ok
grep '^  ok +mlockall' f; sed 's/\(ok\|note\)//' f
SH
unnamed_oks "$TMP/oks.sh" | cut -d: -f2 | tr '\n' ' ' >"$TMP/oks.lines"
if [ "$(cat "$TMP/oks.lines")" = "1 2 3 4 6 7 " ]; then ok "unnamed_oks finds every bare ok, and no named one"
else fail "unnamed_oks finds every bare ok, and no named one (it finds lines $(cat "$TMP/oks.lines"), not 1 2 3 4 6 7)"; fi
if unnamed_oks "$SRC"/tests/cli/*.sh >"$TMP/unnamed"; then
  fail "every check of tests/cli/*.sh is named (these call ok without a name):"; sed "s|^$SRC/||" "$TMP/unnamed" | diag
else ok "every check of tests/cli/*.sh is named"; fi
# ---- docs/qualification.md: every test its operational requirements cite
# as proof exists (unit.NAME is tests/test_NAME.c, cli.NAME is tests/cli/NAME.sh).
# missing_tests FILE : the cited names in FILE's `| OR-` rows with no test.
missing_tests() {
  grep '^| OR-' "$1" | grep -oE '\b(unit|cli)\.[a-z0-9_]+' | sort -u | while read -r t; do
    case "$t" in
      unit.*) [ -f "$SRC/tests/test_${t#unit.}.c" ] || echo "$t" ;;
      cli.*) [ -f "$SRC/tests/cli/${t#cli.}.sh" ] || echo "$t" ;;
    esac
  done
}
printf '| OR-1 | x | unit.histogram, cli.no_such_test, unit.nope |\n| OR-2 | y | cli.docs |\n' >"$TMP/or.md"
if [ "$(missing_tests "$TMP/or.md" | tr '\n' ' ')" = "cli.no_such_test unit.nope " ]; then
  ok "missing_tests finds cited tests that do not exist, and no others"
else fail "missing_tests finds cited tests that do not exist (it finds: $(missing_tests "$TMP/or.md" | tr '\n' ' '))"; fi
[ "$(grep -c '^| OR-' "$SRC/docs/qualification.md")" -ge 10 ] && ok "docs/qualification.md lists the operational requirements" \
  || fail "docs/qualification.md has fewer than 10 operational requirements (| OR- rows)"
missing_tests "$SRC/docs/qualification.md" >"$TMP/missing"
if [ -s "$TMP/missing" ]; then fail "docs/qualification.md cites tests that do not exist:"; diag <"$TMP/missing"
else ok "every test docs/qualification.md cites as proof exists"; fi
# ---- the selftest cases (selftest/selftest_cases.c's st_cases table) and
# docs/qualification.md: its case table lists each exactly, and every case
# an operational requirement cites is one (`schema-*`: the schema cases).
awk '/^const struct st_case st_cases\[\]/ { on = 1; next } on && /^};/ { on = 0 }
  on && match($0, /^\t\{ "[a-z0-9-]+"/) { s = substr($0, RSTART + 4, RLENGTH - 5); print s }' \
  "$SRC/selftest/selftest_cases.c" | sort >"$TMP/cases.code"
[ "$(wc -l <"$TMP/cases.code")" -ge 10 ] && ok "the selftest case table is read from selftest/selftest_cases.c" \
  || fail "fewer than 10 selftest cases read from selftest/selftest_cases.c (its table changed shape?)"
QDOC="$SRC/docs/qualification.md"
awk '/^## Selftest/ { on = 1; next } /^## / { on = 0 } on' "$QDOC" \
  | grep -oE '^\| `[a-z0-9*-]+`' | sed 's/^| `//; s/`$//' | sort >"$TMP/cases.doc"
while read -r c; do
  if grep -qxF "$c" "$TMP/cases.doc" || { case "$c" in schema-*) grep -qxF 'schema-*' "$TMP/cases.doc" ;; *) false ;; esac; }; then
    ok "docs/qualification.md's selftest table lists case $c"
  else fail "docs/qualification.md's selftest table does not list case $c"; fi
done <"$TMP/cases.code"
grep '^| OR-' "$QDOC" | grep -o 'selftest .*' | grep -oE '`[a-z0-9*-]+`' | tr -d '`' | sort -u >"$TMP/cases.cited"
while read -r c; do
  case "$c" in
    *'*') grep -q "^${c%\*}" "$TMP/cases.code" ;;
    *) grep -qxF "$c" "$TMP/cases.code" ;;
  esac && ok "operational requirements cite selftest case $c, which exists" \
    || fail "docs/qualification.md cites selftest case $c, which selftest/selftest_cases.c does not have"
done <"$TMP/cases.cited"
[ -s "$TMP/cases.cited" ] && ok "the operational requirements cite selftest cases" || fail "no selftest case cited by an OR row"
finish
