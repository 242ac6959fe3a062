# SPDX-License-Identifier: Apache-2.0
# Every report of a run carries the machine's readiness checks (as
# `rtconform env` prints them) and the build (version and git commit);
# `rtconform report` renders them again from results.json and junit.xml,
# and says "not recorded" for a results.json from before them.
. "$(dirname "$0")/lib.sh"

expect_status 0 "$RTC" env
# "  warn  preempt  ..." lines: level and check name, in order
sed -n 's/^  \(ok\|note\|warn\|fail\) \+\([a-z_]\+\) .*/\1 \2/p' "$TMP/out" >"$TMP/env.checks"
[ -s "$TMP/env.checks" ] && ok "rtconform env prints readiness checks" || fail "rtconform env printed no readiness checks"
# --help names the real-time engineers' checks among its lines (issue 41)
expect_status 0 "$RTC" env --help
for c in smi cpuidle irq_affinity rcu_nocbs boost measure_cpus; do
  expect_grep "(^| )$c[ ,:]" "$TMP/out"
done
commit="$("$RTC" --version | sed -n 's/^rtconform [0-9.]* (commit \([^;)]*\).*/\1/p')"
[ -n "$commit" ] && ok "--version names a commit" || fail "--version names no commit"

R="$TMP/r"
expect_status 0 "$RTC" run --quick --only PP-OTHER -o "$R" "$FIX/cli/pass.xml"
cp "$TMP/out" "$TMP/run.out"

# summary.txt: the same checks, in the same order, then the build
sed -n '/^readiness of the machine/,/^$/p' "$R/summary.txt" >"$TMP/sum.ready"
expect_grep '^readiness of the machine \(.*\): [0-9]+ ok, [0-9]+ notes?, [0-9]+ warnings?, [0-9]+ failures?$' "$TMP/sum.ready"
sed -n 's/^  \(ok\|note\|warn\|fail\) \+\([a-z_]\+\) .*/\1 \2/p' "$TMP/sum.ready" >"$TMP/sum.checks"
cmp -s "$TMP/env.checks" "$TMP/sum.checks" && ok "summary.txt's checks are rtconform env's" ||
  fail "summary.txt's checks differ from rtconform env's: $(diff "$TMP/env.checks" "$TMP/sum.checks" | head -5)"
expect_grep "^measured with rtconform [0-9.]+ \\(commit $commit\\)\$" "$R/summary.txt"

# run's terminal: each check that warns or fails, one line each, as
# summary.txt lists them, before the first requirement measures (issue 24;
# on a VM the virtualization check warns, on bare metal there may be none)
sed -n 's/^  \(warn\|fail\) \+\([a-z_]\+\) \+\(.*\)$/rtconform run: readiness \1: \2: \3/p' "$TMP/sum.ready" >"$TMP/want.lines"
grep '^rtconform run: readiness ' "$TMP/run.out" >"$TMP/got.lines"
cmp -s "$TMP/want.lines" "$TMP/got.lines" && ok "run prints summary.txt's $(wc -l <"$TMP/want.lines") readiness warnings and failures, one line each" ||
  { fail "run's readiness lines are not summary.txt's warnings and failures:"; diff "$TMP/want.lines" "$TMP/got.lines" | diag; }
# --quiet keeps stderr empty: the reports have them
"$RTC" run -q --quick --only PP-OTHER -o "$TMP/rq" "$FIX/cli/pass.xml" >/dev/null 2>"$TMP/rq.err"
[ ! -s "$TMP/rq.err" ] && ok "run --quiet prints no readiness line" || { fail "run --quiet printed:"; diag <"$TMP/rq.err"; }
last_ready=$(grep -n '^rtconform run: readiness ' "$TMP/run.out" | tail -1 | cut -d: -f1)
first_req=$(grep -n '^\[1/1\] PP-OTHER' "$TMP/run.out" | head -1 | cut -d: -f1)
[ -n "$first_req" ] && [ "${last_ready:-0}" -lt "$first_req" ] && ok "the readiness lines come before the first requirement's" ||
  fail "the readiness lines (last at line ${last_ready:-none}) do not come before the first requirement's (line ${first_req:-none})"

# results.json: the same checks; the commit in the environment
python3 - "$R/results.json" "$TMP/env.checks" "$commit" >"$TMP/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = [l.split() for l in open(sys.argv[2])]
got = [[c["level"], c["name"]] for c in d["readiness"]]
assert got == want, (got, want)
for c in d["readiness"]:
    assert c["finding"], c
    assert c["remedy"] is None or c["remedy"], c
assert d["environment"]["rtconform.commit"] == sys.argv[3], d["environment"]["rtconform.commit"]
PY
if [ $? -eq 0 ]; then ok "results.json has the same readiness checks and the commit"; else fail "results.json has the same readiness checks and the commit:"; sed 's/^/    /' "$TMP/py"; fi

# junit.xml: one property, the tally then the checks that warn or fail by
# level and name ("...; warn: a, b; fail: c"), and the commit; every check,
# "level", name and finding, in report.html (and results.json, above)
validate_junit "$R/junit.xml" --property "rtconform.commit=$commit" --property readiness
ready="$(prop readiness "$R/junit.xml")"
while read -r level name; do
  case "$level" in
    warn|fail) [[ "$ready" =~ \;\ $level:\ ([a-z_0-9]+,\ )*$name(,|\;|$) ]] \
      && ok "junit.xml's readiness names $level $name" || fail "junit.xml's readiness '$ready' lacks $level $name" ;;
    *) [[ "$ready" =~ [:,]\ $name(,|\;|$) ]] && fail "junit.xml's readiness '$ready' names $level $name" \
      || ok "junit.xml's readiness leaves $level $name out" ;;
  esac
  expect_no_grep "readiness\\.$name" "$R/junit.xml"
  expect_grep "<tr><td><span class=\"v r-$level\">$level</span></td><td>$name</td><td>" "$R/report.html"
done <"$TMP/env.checks"

# report.html: every check after the verdicts; the warnings and failures
# alone also before them
expect_grep '<div class="req" id="readiness"><h2>Readiness of the machine</h2>' "$R/report.html"
expect_grep "rtconform [0-9.]+ \\(commit $commit\\)\\. This report" "$R/report.html"
ready_at=$(grep -bo 'id="readiness"' "$R/report.html" | cut -d: -f1)
verdicts_at=$(grep -bo '<h2>Verdicts</h2>' "$R/report.html" | cut -d: -f1)
[ "$ready_at" -gt "$verdicts_at" ] && ok "report.html: the full readiness section is after the verdicts" || fail "report.html: the full readiness section is not after the verdicts"
alarm_at=$(grep -bo 'id="readiness-alarm"' "$R/report.html" | cut -d: -f1)
if grep -Eq '^(warn|fail) ' "$TMP/env.checks"; then
  [ -n "$alarm_at" ] && [ "$alarm_at" -lt "$verdicts_at" ] && ok "report.html: readiness warnings before the verdicts, as a check warns" ||
    fail "report.html: no readiness warnings before the verdicts although a check warns"
else
  [ -z "$alarm_at" ] && ok "report.html: no readiness warnings, as every check is ok or a note" || fail "report.html: readiness warnings although every check is ok or a note"
fi

# (rendered again from results.json, summary.txt and its readiness are the
# same bytes: cli.reports, on runs of pass.xml)

# A results.json from before the checks were recorded: rendered, "not recorded"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["readiness"]; json.dump(d, open(sys.argv[2], "w"))' \
  "$R/results.json" "$TMP/old.json"
expect_status 0 "$RTC" report "$TMP/old.json" --summary "$TMP/old.txt" --html "$TMP/old.html" --junit "$TMP/old.xml"
expect_grep '^readiness of the machine: not recorded' "$TMP/old.txt"
expect_grep 'Not recorded: this report comes from a run' "$TMP/old.html"
expect_no_grep 'name="readiness\.' "$TMP/old.xml"
finish
