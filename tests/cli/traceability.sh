# SPDX-License-Identifier: Apache-2.0
# Traceability (docs/reports.md, "Traceability"): the clauses a requirement
# cites reach every report as a matrix clause -> requirement -> probe ->
# verdict -> evidence; `rtconform report` renders it again from results.json
# alone, byte for byte, and `verify` agrees; a file citing a clause twice
# is refused at its line; a results.json whose matrix disagrees with its
# requirements, or whose clause is of the wrong type or too long, is
# refused naming the field, and nothing is written.
. "$(dirname "$0")/lib.sh"

req_file "$TMP/traced.xml" traced 'iterations="100" runs="2" warmup="10" timeout="30s"' <<XML
  <requirement id="A"><title>passes</title>
    <clause ref="POSIX.1-2017 XSH 2.8.4" title="Process Scheduling"/>
    <clause ref="POSIX.1-2017 XSH clock_nanosleep"/>
    <probe name="selftest"/><limit statistic="max" max="1s"/></requirement>
  <requirement id="B"><clause ref="POSIX.1-2017 XSH 2.8.4"/>
    <probe name="selftest"><param name="fault">fail</param></probe>
    <limit statistic="max" max="1s"/></requirement>
  <requirement id="C"><probe name="selftest"/><limit statistic="max" max="1s"/></requirement>
XML
expect_status 0 "$RTC" validate "$TMP/traced.xml"
D="$TMP/run"
expect_status 3 "$RTC" run -q -o "$D" --csv "$D/csv" "$TMP/traced.xml"
J="$D/results.json"

# results.json: each requirement's clauses, the outputs, one row per ref
# (by ref), the requirements citing it with verdict and evidence
m() { jq -c "$1" "$J" 2>&1; }
want() {
  local got; got="$(m "$1")"
  [ "$got" = "$2" ] && ok "results.json $1 is $2" || fail "results.json $1 is $got, expected $2"
}
want '.files[0].requirements[0].clauses' \
  '[{"ref":"POSIX.1-2017 XSH 2.8.4","title":"Process Scheduling"},{"ref":"POSIX.1-2017 XSH clock_nanosleep","title":null}]'
want '.files[0].requirements[2].clauses' '[]'
want '.outputs' '{"junit":"junit.xml","summary":"summary.txt","html":"report.html","json":"results.json","csv":"csv"}'
want '[.traceability.clauses[] | [.ref, .title, [.requirements[] | .id + ":" + .verdict]]]' \
  '[["POSIX.1-2017 XSH 2.8.4","Process Scheduling",["A:pass","B:error"]],["POSIX.1-2017 XSH clock_nanosleep",null,["A:pass"]]]'
want '.traceability.clauses[0].requirements[0].evidence' \
  '["results.json","report.html","junit.xml","summary.txt","csv/index.csv"]'
want '[.traceability.untraced[] | .id + ":" + .probe + ":" + .verdict]' '["C:selftest:pass"]'
# every evidence file is there
for f in $(jq -r '[.traceability.clauses[].requirements[].evidence[]] | unique | .[]' "$J"); do
  [ -f "$D/$f" ] && ok "evidence $f exists" || fail "evidence $f named but not written"
done

# report.html: the section, rows spanning their clause, links relative to it
H="$D/report.html"
expect_grep '<h2>Traceability</h2>' "$H"
expect_grep '<td rowspan="2" class="nowrap">POSIX.1-2017 XSH 2.8.4</td><td rowspan="2">Process Scheduling</td><td><a href="#r1-1">A</a></td>' "$H"
expect_grep '<td><a href="#r1-2">B</a></td><td class="nowrap">selftest</td><td><span class="v v-error">ERROR</span></td><td><a href="./results.json">' "$H"
expect_grep '<a href="./csv/index.csv">csv/index.csv</a>' "$H"
expect_grep 'Cite no clause \(1\): <a href="#r1-3">C</a>' "$H"
expect_grep '<th>Clauses</th><td>POSIX.1-2017 XSH 2.8.4 \(Process Scheduling\)<br/>POSIX.1-2017 XSH clock_nanosleep</td>' "$H"
# summary.txt's block and junit.xml's property
S="$D/summary.txt"
expect_grep '^  POSIX.1-2017 XSH 2.8.4 \(Process Scheduling\)$' "$S"
expect_grep '^    -> B: ERROR$' "$S"
expect_grep '^  citing no clause: C$' "$S"
validate_junit "$D/junit.xml" --property 'A.clauses=POSIX.1-2017 XSH 2.8.4; POSIX.1-2017 XSH clock_nanosleep' \
  --property 'B.clauses=POSIX.1-2017 XSH 2.8.4'
expect_no_grep 'name="C.clauses"' "$D/junit.xml"

# rendered again from results.json alone: the same bytes; verify agrees
R="$TMP/again"
mkdir -p "$R"
expect_status 0 "$RTC" report "$J" --html "$R/report.html" --json "$R/results.json" \
  --summary "$R/summary.txt" --junit "$R/junit.xml"
for f in report.html results.json summary.txt; do
  cmp -s "$D/$f" "$R/$f" && ok "report renders $f again, same bytes" || fail "report renders $f differently"
done
expect_status 0 "$RTC" verify "$D"

# a report written elsewhere is no evidence report.html can link
expect_status 3 "$RTC" run -q -o "$TMP/r2" --junit "$TMP/elsewhere-junit.xml" "$TMP/traced.xml"
got="$(jq -c '[.outputs.junit, .traceability.clauses[0].requirements[0].evidence]' "$TMP/r2/results.json")"
[ "$got" = '[null,["results.json","report.html","summary.txt"]]' ] && ok "junit.xml elsewhere: not evidence" \
  || fail "junit.xml elsewhere: outputs and evidence are $got"

# a clause cited twice by one requirement: refused at its line
req_file "$TMP/twice.xml" twice <<XML
  <requirement id="A">
    <clause ref="POSIX.1-2017 XSH 2.8.4"/>
    <clause ref="POSIX.1-2017 XSH 2.8.4" title="again"/>
    <probe name="selftest"/></requirement>
XML
expect_status 2 "$RTC" validate "$TMP/twice.xml"
expect_grep "^$TMP/twice.xml:4: duplicate clause 'POSIX.1-2017 XSH 2.8.4' \(first at line 3\)" "$TMP/out"
expect_status 2 "$RTC" run -q -o "$TMP/never" "$TMP/twice.xml"
[ ! -e "$TMP/never" ] && ok "nothing written for a refused file" || fail "$TMP/never was made"

# hostile results.json: refused naming the field, nothing written
# (the refused-trace-* rows of tests/fixtures/hostile/cases.tsv are these,
# for cli.untrusted)
hostile() {
  local name="$1" filter="$2" field="$3"
  jq "$filter" "$J" >"$TMP/$name.json"
  mkdir -p "$TMP/o-$name"
  expect_status 2 "$RTC" report "$TMP/$name.json" --html "$TMP/o-$name/r.html" \
    --json "$TMP/o-$name/r.json" --summary "$TMP/o-$name/s.txt"
  expect_grep "$name.json: $field" "$TMP/out"
  [ -z "$(ls -A "$TMP/o-$name")" ] && ok "$name: nothing written" || fail "$name: wrote $(ls "$TMP/o-$name")"
}
hostile forged-verdict '.traceability.clauses[0].requirements[1].verdict = "pass"' \
  'traceability.clauses\[0\].requirements\[1\].verdict: disagrees with the matrix built from the requirements, which has "error" there'
hostile forged-row '.traceability.clauses += [{"ref": "X", "title": null, "requirements": []}]' \
  'traceability.clauses\[2\]: not in the matrix'
hostile ref-number '.files[0].requirements[0].clauses[0].ref = 284' \
  'files\[0\].requirements\[0\].clauses\[0\].ref: expected a string'
hostile ref-long ".files[0].requirements[0].clauses[1].ref = \"$(printf 'x%.0s' $(seq 129))\"" \
  'files\[0\].requirements\[0\].clauses\[1\].ref: has 129 characters, more than the 128'
hostile no-matrix 'del(.traceability)' 'traceability: missing'
hostile outputs-escape '.outputs.html = "../../report.html"' 'outputs.html: "../../report.html": expected null'

# merge keeps each host's results.json whole, the matrix with it
# (exit 3: B is an error)
expect_status 3 "$RTC" merge -o "$TMP/fleet" "$J" "$FIX/results/pass.json"
got="$(jq -c '[.hosts[].results | has("traceability"), (.traceability.clauses | length), ([.files[].requirements[].clauses | length] | add)]' "$TMP/fleet/results.json")"
[ "$got" = '[true,2,3,false,0,0]' ] && ok "merge carries clauses and the matrix" || fail "merge's hosts hold $got, expected [true,2,3,false,0,0]"

# Many clauses: 300 requirements citing 16 each, 3200 refs. The matrix is
# built in memory linear in the citations (a row's room once cost the
# citations left after it: some 500 MB here), and read back entry by entry
# within the reader's budget. (RSS bound: not under AddressSanitizer.)
python3 - "$TMP/many.xml" <<'PY'
import sys
out = ['<requirements xmlns="urn:rtconform:requirements:1" name="many">',
       '  <defaults iterations="1" runs="1" warmup="0"/>']
for i in range(300):
    cl = "".join('<clause ref="SPEC %d.%d"/>' % ((i * 7 + k) % 200, k) for k in range(16))
    out.append('  <requirement id="R%d">%s<probe name="selftest"/></requirement>' % (i, cl))
out.append("</requirements>")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
/usr/bin/time -f '%M' -o "$TMP/rss" "$RTC" run -q -o "$TMP/many" "$TMP/many.xml" >"$TMP/out" 2>&1
st=$?
[ "$st" -eq 0 ] && ok "300 requirements of 16 clauses run" || { fail "300 requirements of 16 clauses: exit $st"; head -5 "$TMP/out" | diag; }
got="$(jq -c '[(.traceability.clauses | length), ([.traceability.clauses[].requirements | length] | add)]' "$TMP/many/results.json")"
[ "$got" = '[3200,4800]' ] && ok "a row for each of 3200 refs, 4800 citations" || fail "rows and citations: $got"
kb="$(tail -1 "$TMP/rss")"
if "$RTC" --version | grep -q "sanitizer build"; then
  skip "run's peak RSS ${kb} KiB" "the memory bound is checked in the normal build"
elif [ "${kb:-999999}" -le 65536 ]; then ok "run's peak RSS ${kb} KiB <= 64 MiB"
else fail "run's peak RSS ${kb} KiB > 64 MiB"; fi
expect_status 0 "$RTC" report "$TMP/many/results.json" --json "$TMP/many-again.json"
cmp -s "$TMP/many/results.json" "$TMP/many-again.json" && ok "read back and written again, the same bytes" \
  || fail "many clauses: results.json written again differs"

# the fixtures: traced.json (the hostile refused-trace-*.json are made from
# it) reads and shows its matrix; pass.json, written before clauses were
# kept, reads with none and shows no section
for f in traced pass; do
  expect_status 0 "$RTC" report "$FIX/results/$f.json" --html "$TMP/$f.html" --summary "$TMP/$f.txt"
done
expect_grep '<h2>Traceability</h2>' "$TMP/traced.html"
expect_grep '^    -> B: PASS$' "$TMP/traced.txt"
expect_no_grep 'Traceability' "$TMP/pass.html"
expect_no_grep '^traceability' "$TMP/pass.txt"
finish
