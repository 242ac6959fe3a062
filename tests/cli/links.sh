# SPDX-License-Identifier: Apache-2.0
# Links, attachments and CSV cells of reports rendered from results.json
# files that came from elsewhere (tests/fixtures/hostile/): a trace a file
# names is linked (report.html) and attached (junit.xml, as Jenkins' JUnit
# Attachments plugin reads it: tests/junit_check.py --attachments) only
# when it is a name a run gives its traces, and then from the directory
# the results.json was read from; anything else is shown as text. Every
# href of report.html and fleet.html is an anchor of the page or "./" and
# a percent-encoded path, host directories named `javascript:...`,
# `board#1`, `b?x` and `p%41` too. No text of an input makes an attachment
# line in the junit.xml of report, merge or compare. CSV file names and
# index.csv agree for any id, and no text cell starts a formula when split
# on ',' or ';'. A trace of a good name that is a symlink (to /etc/passwd),
# a directory or missing beside the results.json is neither linked nor
# attached, and says so. No junit.xml of report, merge or compare holds an
# attachment marker of the input anywhere (bodies, messages, names,
# properties). The LAVA lines of report --lava never have an empty name or
# one beginning with '-', and their "# " lines no control character.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
[ -n "$JUNIT_PY" ] || { fail "no python3 with junitparser (ci/deps installs python3-junitparser)"; finish; }
hostile_corpus

# bad_hrefs HTML : the hrefs of HTML that are neither "#anchor" nor "./"
# and a path of unreserved bytes, '/' and %XX (nothing when all are good)
bad_hrefs() {
  grep -oE 'href="[^"]*"' "$1" | grep -vE '^href="(#[A-Za-z0-9-]+|\./([A-Za-z0-9._~/-]|%[0-9A-F]{2})+)"$'
}
# expect_good_hrefs HTML
expect_good_hrefs() {
  local bad
  bad="$(bad_hrefs "$1")"
  [ -z "$bad" ] && ok "${1##*/}: every href is an anchor or ./ and an encoded path" \
    || { fail "${1##*/}: hrefs that are neither an anchor nor ./ and an encoded path:"; echo "$bad" | diag; }
  expect_no_grep 'href="javascript:' "$1"
}
# attachments JUNIT : the files the JUnit Attachments plugin would archive
attachments() { "$JUNIT_PY" "$JUNIT_CHECK" "$1" --attachments; }
# expect_attachments JUNIT WHAT [PATH...] : the plugin would archive
# exactly PATH... (nothing when none is given)
expect_attachments() {
  local j="$1" what="$2" got want
  shift 2
  got="$(attachments "$j")"
  want="$(printf '%s\n' "$@" | sed '/^$/d')"
  [ "$got" = "$want" ] && ok "${j#"$TMP"/}: $what" \
    || { fail "${j#"$TMP"/}: $what (it would archive:)"; echo "$got" | diag; }
}

# 1. Hostile traces: read (exit 0), shown as text, neither linked nor attached.
for c in javascript absolute attachment-newline dotdot; do
  f="$H/trace-$c.json"
  d="$TMP/$c"
  expect_status 0 "$RTC" report "$f" --html "$d/report.html" --junit "$d/junit.xml" \
    --summary "$d/summary.txt" --csv "$d/csv"
  expect_good_hrefs "$d/report.html"
  expect_no_grep 'href="[^#]' "$d/report.html"
  expect_grep '<th>Kernel trace</th><td> trace file ' "$d/report.html"
  expect_grep 'not linked: not a name rtconform gives a trace\)</td>' "$d/report.html"
  expect_attachments "$d/junit.xml" "trace-$c attaches nothing"
  validate_junit "$d/junit.xml" --tests 2 --failures 0 --errors 0 --skipped 0
  expect_grep 'PP-OTHER trace file: .* \(not linked or attached: not a name rtconform gives a trace\)' "$d/summary.txt"
done
expect_grep 'trace file javascript:alert\(document.domain\) \(not linked' "$TMP/javascript/report.html"
expect_grep 'trace file: x\?\[ \[ATTACHMENT\|/etc/passwd\]\]' "$TMP/attachment-newline/junit.xml"
expect_no_grep '^\[\[ATTACHMENT' "$TMP/attachment-newline/junit.xml"

# 2. A trace a run wrote, beside the results.json read: linked by its name,
# attached by its absolute path; beside a results.json of another
# directory, attached from that one.
mkdir -p "$TMP/legit"
python3 - "$FIX/results/pass.json" "$TMP/legit/results.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(t.replace('"trace": null,', '"trace": "trace-PP-OTHER~2.txt",', 1))
PY
echo "trace" >"$TMP/legit/trace-PP-OTHER~2.txt"
L="$(realpath "$TMP/legit")"
expect_status 0 "$RTC" report "$TMP/legit/results.json" --html "$TMP/legit/report.html" \
  --junit "$TMP/legit/junit.xml" --summary "$TMP/legit/summary.txt"
expect_grep '<a href="\./trace-PP-OTHER~2\.txt">trace-PP-OTHER~2\.txt</a>' "$TMP/legit/report.html"
expect_good_hrefs "$TMP/legit/report.html"
expect_attachments "$TMP/legit/junit.xml" "the run's trace is attached" "$L/trace-PP-OTHER~2.txt"
expect_grep "^\[\[ATTACHMENT\|$L/trace-PP-OTHER~2\.txt\]\]\$" "$TMP/legit/junit.xml"
expect_grep 'PP-OTHER trace file: trace-PP-OTHER~2\.txt$' "$TMP/legit/summary.txt"

# 3. merge: host directories whose names a browser would take for a scheme,
# a fragment, a query or an escape, given with -o . (the fleet in their
# parent); the hostile traces and the good one among the hosts.
M="$TMP/m"
mkdir -p "$M"
i=0
for dir in 'javascript:alert(1);x' 'board#1' 'b?x' 'p%41' legit trace-javascript \
           trace-attachment-newline id-attachment; do
  mkdir -p "$M/$dir"
  case "$dir" in
    legit) cp "$TMP/legit/results.json" "$TMP/legit/trace-PP-OTHER~2.txt" "$M/$dir/" ;;
    trace-*|id-*) cp "$H/$dir.json" "$M/$dir/results.json" ;;
    *) cp "$FIX/results/pass.json" "$M/$dir/results.json" ;;
  esac
  echo '<!DOCTYPE html><title>host</title>' >"$M/$dir/report.html"
  i=$((i + 1))
done
(cd "$M" && "$RTC" merge -o . 'javascript:alert(1);x/results.json' 'board#1/results.json' \
   'b?x/results.json' 'p%41/results.json' legit/results.json trace-javascript/results.json \
   trace-attachment-newline/results.json id-attachment/results.json) >"$TMP/out" 2>&1
st=$?
[ "$st" -eq 0 ] && ok "merge of $i hosts with hostile names exits 0" || { fail "merge exits 0 (it exited $st)"; diag <"$TMP/out"; }
expect_good_hrefs "$M/fleet.html"
for h in './javascript%3Aalert%281%29%3Bx/report.html' './board%231/report.html' \
         './b%3Fx/report.html' './p%2541/report.html' './legit/report.html'; do
  grep -qF "href=\"$h\"" "$M/fleet.html" && ok "fleet.html links $h" || fail "fleet.html does not link $h"
done
expect_attachments "$M/junit.xml" "the fleet attaches the good trace alone" \
  "$(realpath "$M/legit")/trace-PP-OTHER~2.txt"
validate_junit "$M/junit.xml" --tests 16

# 4. Text of the input with an attachment marker (an id, a background
# load) makes no attachment line in report's junit.xml, nor in compare's,
# whose notes quote the load that differs.
for c in id-attachment load-attachment; do
  expect_status 0 "$RTC" report "$H/$c.json" --junit "$TMP/$c/junit.xml"
  expect_grep '\[ \[ATTACHMENT\|/etc/passwd\]\]' "$TMP/$c/junit.xml"
  expect_attachments "$TMP/$c/junit.xml" "report: $c attaches nothing"
done
"$RTC" compare "$FIX/results/pass.json" "$H/load-attachment.json" -o "$TMP/cmp" >"$TMP/out" 2>&1
[ -s "$TMP/cmp/junit.xml" ] && ok "compare wrote junit.xml" || { fail "compare wrote no junit.xml"; diag <"$TMP/out"; }
expect_grep '<system-out>.*background load none -&gt; stress-ng \[ \[ATTACHMENT\|/etc/passwd\]\]' "$TMP/cmp/junit.xml"
expect_attachments "$TMP/cmp/junit.xml" "compare: a load's marker attaches nothing"
expect_good_hrefs "$TMP/cmp/compare.html"

# 5. CSV: every histogram file is named in index.csv as it is called, none
# begins with '-', and no text cell starts a formula when split on ',' or
# ';' (past blanks and quotes); the numbers stay numbers.
for c in id-dash id-formula file-formula; do
  expect_status 0 "$RTC" report "$H/$c.json" --csv "$TMP/csv-$c"
  python3 - "$TMP/csv-$c" >"$TMP/check" 2>&1 <<'PY'
import csv, os, re, sys
d = sys.argv[1]
bad = []
rows = list(csv.reader(open(os.path.join(d, "index.csv"), newline="")))
named = [r[0] for r in rows[1:]]
files = sorted(f for f in os.listdir(d)
               if f not in ("index.csv", "runs.csv", "intervals.csv", "confidence.csv"))
if sorted(named) != files:
    bad.append("index.csv names %r, the directory has %r" % (sorted(named), files))
bad += ["%s begins with '-'" % f for f in files if f.startswith("-")]
start = re.compile(r"(^|[,;\r\n])[ \"]*[=+\-@\t\r]")
runs = list(csv.reader(open(os.path.join(d, "runs.csv"), newline="")))
for name, table, text in (("index.csv", rows, range(4)), ("runs.csv", runs, range(3))):
    for r in table[1:]:
        for k in text:
            if start.search(r[k]):
                bad.append("%s: cell %r starts a formula" % (name, r[k]))
    # the same lines split on ';' as a spreadsheet set so would
    for line in open(os.path.join(d, name), newline="").read().split("\n"):
        for piece in line.split(";")[1:]:
            if re.match(r"[ \"]*[=+\-@\t\r]", piece):
                bad.append("%s: ';' piece %r starts a formula" % (name, piece))
for r in runs[1:]:
    if r[6]:
        float(r[6])  # a number, as the tool wrote it
print("\n".join(bad) if bad else "%d files, all named, no formula" % len(files))
sys.exit(1 if bad else 0)
PY
  [ $? -eq 0 ] && ok "$c: index.csv names every file as it is, no cell starts a formula" \
    || { fail "$c: CSV names or cells:"; diag <"$TMP/check"; }
done
[ -s "$TMP/csv-id-dash/_2_3.per-op.csv" ] && ok "id -2+3 gives _2_3.per-op.csv" || fail "no _2_3.per-op.csv for id -2+3"
expect_grep "^_2_3\.per-op\.csv,cli-pass,\"'-2\+3\",per-op," "$TMP/csv-id-dash/index.csv"
expect_grep "^x__1_1_y\.per-op\.csv,cli-pass,\"x;'=1\+1;y\",per-op," "$TMP/csv-id-formula/index.csv"
expect_grep "^\"'@SUM\(1\+1\)\*cmd\|' /C calc'!A0\",PP-OTHER,per-op,batch,1," "$TMP/csv-file-formula/runs.csv"
# 6. A trace of a good name that is no regular file beside the results.json:
# a symlink (Jenkins' plugin would copy what it points to), a directory,
# nothing. Neither linked nor attached, by report or merge; shown as text.
for c in symlink dir missing; do
  d="$TMP/sl-$c"
  mkdir -p "$d"
  sed 's/"trace": null,/"trace": "trace-PP-OTHER.txt",/' "$FIX/results/pass.json" >"$d/results.json"
  case "$c" in
    symlink) ln -s /etc/passwd "$d/trace-PP-OTHER.txt" ;;
    dir) mkdir "$d/trace-PP-OTHER.txt" ;;
  esac
  expect_status 0 "$RTC" report "$d/results.json" --html "$d/report.html" --junit "$d/junit.xml" \
    --summary "$d/summary.txt"
  expect_attachments "$d/junit.xml" "a trace that is a $c attaches nothing"
  expect_no_grep 'ATTACHMENT' "$d/junit.xml"
  expect_no_grep 'href="[^#]' "$d/report.html"
  expect_grep 'trace file trace-PP-OTHER\.txt \(not linked: no regular file of that name beside the results\)</td>' "$d/report.html"
  expect_grep 'PP-OTHER trace file: trace-PP-OTHER\.txt \(not linked or attached: no regular file of that name beside the results\)$' "$d/summary.txt"
done
M2="$TMP/m2"
mkdir -p "$M2/sl" "$M2/legit"
cp -P "$TMP/sl-symlink/results.json" "$TMP/sl-symlink/trace-PP-OTHER.txt" "$M2/sl/"
cp "$TMP/legit/results.json" "$TMP/legit/trace-PP-OTHER~2.txt" "$M2/legit/"
"$RTC" merge -o "$M2/out" "$M2/sl/results.json" "$M2/legit/results.json" >"$TMP/out" 2>&1 \
  && ok "merge of a host with a trace symlink exits 0" || { fail "merge of a host with a trace symlink"; diag <"$TMP/out"; }
expect_attachments "$M2/out/junit.xml" "the fleet attaches the regular file, never the symlink" \
  "$(realpath "$M2/legit")/trace-PP-OTHER~2.txt"

# 7. A marker in every text a results.json holds (ids, titles, reasons,
# limit texts, loads, parameters, the environment), with a failure, a skip
# and an error: no junit.xml of report, merge or compare holds it anywhere.
AE="$H/attachment-everywhere.json"
expect_status 0 "$RTC" report "$AE" --junit "$TMP/ae/junit.xml"
validate_junit "$TMP/ae/junit.xml" --tests 3 --failures 1 --errors 1 --skipped 1
"$RTC" merge -o "$TMP/ae/m" "$AE" >"$TMP/out" 2>&1
"$RTC" compare "$AE" "$AE" -o "$TMP/ae/c" >"$TMP/out" 2>&1
"$RTC" compare "$FIX/results/pass.json" "$AE" -o "$TMP/ae/c1" >"$TMP/out" 2>&1
for j in "$TMP/ae/junit.xml" "$TMP/ae/m/junit.xml" "$TMP/ae/c/junit.xml" "$TMP/ae/c1/junit.xml"; do
  [ -s "$j" ] && ok "${j#"$TMP"/} written" || fail "${j#"$TMP"/} not written"
  if grep -qiF '[[ATTACHMENT|' "$j"; then
    fail "${j#"$TMP"/} holds an attachment marker:"; grep -inF '[[ATTACHMENT|' "$j" | head -5 | diag
  else ok "${j#"$TMP"/} holds no attachment marker anywhere"; fi
  expect_grep '\[ \[ATTACHMENT\|/etc/passwd\]\]' "$j"
done
for elem in '<failure [^>]*message="per-op x&#10;\[ \[ATTACHMENT' '<skipped>x$' \
            '<error [^>]*message="x&#10;\[ \[ATTACHMENT' '<testcase name="x&#10;\[ \[ATTACHMENT' \
            '<property name="host\.name" value="x&#10;\[ \[ATTACHMENT\|/etc/passwd\]\]"/>'; do
  expect_grep "$elem" "$TMP/ae/junit.xml"
done
# a property's name is never one from outside (a requirement's id and its
# parameters name none: they are in results.json, issue 41); a value from
# outside is defused (above)
expect_no_grep '<property name="x' "$TMP/ae/junit.xml"
expect_grep '<testcase name="x&#10;\[ \[ATTACHMENT' "$TMP/ae/c/junit.xml"

# 8. LAVA (report --lava): an empty id is "_", an id beginning with '-'
# begins with '_'; a reason's control characters are escaped on its "# "
# line as base/termsafe.h escapes them; every other line is NAME RESULT or
# NAME RESULT VALUE UNIT with a name that is neither empty nor an option.
for c in id-empty id-dash reason-controls attachment-everywhere; do
  expect_status 0 "$RTC" report "$H/$c.json" --lava "$TMP/lava-$c.txt"
  awk '!/^#/ && (NF != 2 && NF != 4 || /^[ -]/) { bad = 1 } END { exit bad }' "$TMP/lava-$c.txt" \
    && ok "$c: every LAVA line is NAME RESULT [VALUE UNIT], no name empty or beginning with '-'" \
    || { fail "$c: a LAVA line with an empty name or one beginning with '-':"; diag <"$TMP/lava-$c.txt"; }
  LC_ALL=C.UTF-8 grep -qP '[\x00-\x09\x0b-\x1f\x7f\x{80}-\x{9f}\x{2028}\x{2029}]' "$TMP/lava-$c.txt" \
    && { fail "$c: a control character in the LAVA lines:"; cat -A "$TMP/lava-$c.txt" | diag; } \
    || ok "$c: no control character in the LAVA lines"
done
expect_grep '^_ pass$' "$TMP/lava-id-empty.txt"
expect_grep '^_-per-op-mean pass ' "$TMP/lava-id-empty.txt"
expect_grep '^_2_3 pass$' "$TMP/lava-id-dash.txt"
expect_grep '^# PP-FIFO: error: esc \\x1b\[2J osc \\x1b\]0;pwned\\x07 bel \\x07 cr \\x0d lf \\x0a nel \\u0085 csi \\u009b31m ls \\u2028 ps \\u2029 del \\x7f end$' "$TMP/lava-reason-controls.txt"
expect_grep '^PP-FIFO fail$' "$TMP/lava-reason-controls.txt"
finish
