# SPDX-License-Identifier: Apache-2.0
# rtconform merge: a fleet report of several hosts' results.json (fleet.html
# with a column per host, junit.xml with a suite per host, results.json
# holding every host whole), a repeated host named and kept apart, the exit
# status of the fleet, bad input refused with nothing written, and the
# fleet results.json refused by `report` with a pointer to what to read.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }

# Three hosts: A (the fleet fixture, unlabelled), B (the fleet fixture
# again, under the label board-b), C (the passing fixture, label board-c).
"$RTC" run "$FIX/cli/fleet.xml" -q -o "$TMP/a" >/dev/null 2>&1
"$RTC" run "$FIX/cli/fleet.xml" -q --host-label board-b -o "$TMP/b" >/dev/null 2>&1
"$RTC" run "$FIX/cli/pass.xml" -q --host-label board-c -o "$TMP/c" >/dev/null 2>&1
# B's results.json alone, without the report.html beside it
mkdir "$TMP/b-alone" && mv "$TMP/b/results.json" "$TMP/b-alone/" && rm -r "$TMP/b" && mv "$TMP/b-alone" "$TMP/b"
# C as if measured by another build: the merge names its own build, not a host's
python3 - "$TMP/c/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rtconform_version"] = d["environment"]["rtconform.version"] = "9.9.9"
d["environment"]["rtconform.commit"] = "feedfacecafe"
json.dump(d, open(sys.argv[1], "w"))
PY
build_id
HOST_A="$(python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["environment"]
print("%s (id %s)" % (e["host.name"], e["host.id"]) if "host.id" in e else e["host.name"])' "$TMP/a/results.json")"

expect_status 3 "$RTC" merge "$TMP/a/results.json" "$TMP/b/results.json" "$TMP/c/results.json" -o "$TMP/fleet"
expect_grep "^board-b: at least one requirement could not be measured" "$TMP/out"
expect_grep "^board-c: every requirement passed" "$TMP/out"
# each (file, id) one requirement however many hosts measured it, each
# host's verdict of one a result, on the terminal as in fleet.html (issue 41)
expect_grep "^5 requirements on 3 hosts, 8 results: (3 passed, 2 failed, 2 errors, 1 skipped|4 passed, 2 failed, 2 errors, 0 skipped); exit status 3$" "$TMP/out"
expect_grep "^reports: .*/fleet/fleet.html, .*/fleet/junit.xml, .*/fleet/results.json$" "$TMP/out"
F="$TMP/fleet"

# junit.xml: valid, a suite per host, classnames qualified by the host
validate_junit "$F/junit.xml" --tests 8 --failures 2 --errors 2
[ "$(grep -c '<testsuite ' "$F/junit.xml")" = 3 ] && ok "junit.xml has 3 testsuites" || fail "junit.xml has not 3 testsuites"
# the merging rtconform's version and commit in every report it writes
[ "$(grep -c "<property name=\"rtconform.merge.version\" value=\"$VER\"/>" "$F/junit.xml")" = 3 ] \
  && ok "junit.xml has the merge's version in each suite" || fail "junit.xml lacks the merge's version in each suite"
[ "$(grep -c "<property name=\"rtconform.merge.commit\" value=\"$COMMIT\"/>" "$F/junit.xml")" = 3 ] \
  && ok "junit.xml has the merge's commit in each suite" || fail "junit.xml lacks the merge's commit in each suite"
expect_grep '<property name="rtconform.version" value="9.9.9"/>' "$F/junit.xml"
expect_grep "rtconform $VER \(commit $COMMIT\) merge\." "$F/fleet.html"
expect_no_grep 'feedfacecafe' "$F/fleet.html"
expect_grep "^\"rtconform_commit\": \"$COMMIT\",\$" "$F/results.json"
expect_grep '<testsuite name="board-b" ' "$F/junit.xml"
expect_grep '<testsuite name="board-c" ' "$F/junit.xml"
expect_grep 'classname="board-b\.cli-fleet\.sem-pingpong"' "$F/junit.xml"
expect_grep 'classname="board-c\.cli-pass\.sem-pingpong"' "$F/junit.xml"
expect_grep "<testsuite name=\"$(sed 's/[().]/\\&/g' <<<"$HOST_A")\" " "$F/junit.xml"

# fleet.html: a column per host, linked to the host's report.html when
# there is one beside its results.json; the limited figure, the spread
expect_grep "<th><a href=\"\./\.\./a/report\.html\">$(sed 's/[().]/\\&/g' <<<"$HOST_A")</a></th>" "$F/fleet.html"
expect_grep '<th>board-b</th>' "$F/fleet.html"
expect_grep '<th><a href="\./\.\./c/report\.html">board-c</a></th>' "$F/fleet.html"
expect_grep '<td class="fail">FAIL [0-9.]+ ([nm]|µ)?s</td>' "$F/fleet.html"
expect_grep '<td class="error">ERROR</td>' "$F/fleet.html"
expect_grep '<td class="absent">-</td>' "$F/fleet.html"
expect_grep '<td>per-op max ≤ 1 ns</td>' "$F/fleet.html"
expect_grep 'worst: [^<]+</td>' "$F/fleet.html"
# requirements counted once however many hosts measured them (issue 41)
expect_status 3 "$RTC" merge "$TMP/a/results.json" "$TMP/b/results.json" -o "$TMP/two"
expect_grep '^3 requirements on 2 hosts, 6 results: 2 passed, 2 failed, 2 errors, 0 skipped; exit status 3$' "$TMP/out"
expect_grep '>3 requirements on 2 hosts, 6 results: 2 passed, 2 failed, 2 errors, 0 skipped\. ' "$TMP/two/fleet.html"
expect_grep '"requirements": ?3' "$TMP/two/results.json"
# a figure every host has alike (a count at 0) names no host as worst
expect_no_grep '<td>([^<]+) \.\. \1; worst: ' "$TMP/two/fleet.html"
expect_grep '<td>0 on every host that has it</td>' "$TMP/two/fleet.html"
xmllint --html --noout "$F/fleet.html" 2>"$TMP/lint" && ok "fleet.html parses" || { fail "fleet.html does not parse:"; cat "$TMP/lint"; }

# results.json: every host, each input whole, the summaries, the totals
python3 - "$F/results.json" "$TMP/a/results.json" "$TMP/b/results.json" "$TMP/c/results.json" >"$TMP/check" 2>&1 <<'PY' && ok "the fleet results.json holds the three hosts' results whole, with summaries and totals" || { fail "the fleet results.json holds the three hosts' results whole, with summaries and totals:"; cat "$TMP/check"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "urn:rtconform:fleet:1", d["schema"]
assert len(d["hosts"]) == 3, len(d["hosts"])
for h, src in zip(d["hosts"], sys.argv[2:]):
    assert h["results"] == json.load(open(src)), "host from %s not held whole" % src
    assert h["summary"]["source"] == src, h["summary"]["source"]
names = [h["summary"]["host"] for h in d["hosts"]]
assert names[1:] == ["board-b", "board-c"], names
assert d["hosts"][0]["summary"]["report"] == "../a/report.html", d["hosts"][0]["summary"]["report"]
assert d["hosts"][1]["summary"]["report"] is None
r = {q["id"]: q for q in d["hosts"][1]["summary"]["requirements"]}
assert r["IMPOSSIBLE"]["verdict"] == "fail" and r["IMPOSSIBLE"]["limit"]["max"] == 1
assert r["IMPOSSIBLE"]["limit"]["measured"] > 1
assert r["TOO-SLOW"]["verdict"] == "error"
assert d["duplicates"] == [], d["duplicates"]
assert d["totals"]["hosts"] == 3 and d["totals"]["tests"] == 8, d["totals"]
assert d["totals"]["requirements"] == 5, d["totals"]
assert d["exit_status"] == 3
PY

# `report` refuses the fleet's results.json and says what to read instead
expect_status 2 "$RTC" report "$F/results.json" --html "$TMP/x.html"
expect_grep 'a fleet report of rtconform merge, which holds many hosts' "$TMP/out"
[ ! -e "$TMP/x.html" ] && ok "report writes nothing from a fleet results.json" || fail "report wrote from a fleet results.json"
# and so does merge itself
expect_status 2 "$RTC" merge "$F/results.json" -o "$TMP/fleet2"
expect_grep 'a fleet report of rtconform merge' "$TMP/out"
[ ! -e "$TMP/fleet2" ] && ok "a refused merge leaves no fleet2" || fail "a refused merge left $TMP/fleet2"

# A host given twice is named, and kept apart; never merged silently
expect_status 3 "$RTC" merge "$TMP/c/results.json" "$TMP/b/results.json" "$TMP/c/results.json" -o "$TMP/dup"
expect_grep "^rtconform merge: warning: $TMP/c/results.json: host board-c was merged before from $TMP/c/results.json; kept apart as board-c#2$" "$TMP/out"
expect_grep '<testsuite name="board-c#2" ' "$TMP/dup/junit.xml"
expect_grep '<th><a href="\./\.\./c/report\.html">board-c#2</a></th>' "$TMP/dup/fleet.html"
expect_grep 'host board-c appears more than once' "$TMP/dup/fleet.html"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["duplicates"] == [{"host": "board-c", "sources": [sys.argv[2], sys.argv[2]]}], d["duplicates"]
' "$TMP/dup/results.json" "$TMP/c/results.json" && ok "results.json lists the duplicates" || fail "duplicates not listed in results.json"

# another machine under the same label (another machine id): named apart,
# and the warning says it is another host
python3 - "$TMP/c/results.json" "$TMP/other.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
old = d["environment"].get("host.id", "")
d["environment"]["host.id"] = "00000000000000ff"
for f in d["files"]:  # its host title: "board-c (host NAME[, id ID])"
    if old and not old.startswith("unknown"):
        f["host"] = f["host"].replace(old, "00000000000000ff")
    else:
        f["host"] = f["host"][:-1] + ", id 00000000000000ff)"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 0 "$RTC" merge "$TMP/c/results.json" "$TMP/other.json" -o "$TMP/other"
expect_grep "^rtconform merge: warning: $TMP/other.json: another host goes by board-c \(from $TMP/c/results.json\); kept apart as board-c#2$" "$TMP/out"

# a host whose own label is "board-c#2": a repeated board-c is never given
# that name too, in either order; every testsuite name is one host's
python3 - "$TMP/c/results.json" "$TMP/c2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["host.label"] = "board-c#2"
for f in d["files"]:
    f["host"] = f["host"].replace("board-c", "board-c#2", 1)
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 0 "$RTC" merge "$TMP/c2.json" "$TMP/c/results.json" "$TMP/c/results.json" -o "$TMP/clash1"
expect_grep "kept apart as board-c#3$" "$TMP/out"
expect_status 0 "$RTC" merge "$TMP/c/results.json" "$TMP/c/results.json" "$TMP/c2.json" -o "$TMP/clash2"
expect_grep "kept apart as board-c#2#2$" "$TMP/out"
for d in clash1 clash2; do
	n=$(grep -o '<testsuite name="[^"]*"' "$TMP/$d/junit.xml" | sort | uniq -d | wc -l)
	[ "$n" = 0 ] && ok "$d: no two testsuites of one name" || fail "$d: two testsuites of one name: $(grep -o '<testsuite name="[^"]*"' "$TMP/$d/junit.xml")"
done

# exit status: 0 when every host passed, 1 when a limit failed somewhere
expect_status 0 "$RTC" merge "$TMP/c/results.json" -o "$TMP/pass"
expect_grep "^2 requirements on 1 host, 2 results: " "$TMP/out"
expect_grep "rtconform fleet: PASS on 1 host<" "$TMP/pass/fleet.html"
# hosts that measured without limits (rtconform probe): the fleet passed,
# but nothing was judged, and it says so as each host's own reports do
# (verdict_label_of), never PASS; one host that judged limits makes it a pass
"$RTC" probe selftest --iterations 50 -o "$TMP/n1" >/dev/null 2>&1
"$RTC" probe selftest --iterations 50 -o "$TMP/n2" >/dev/null 2>&1
expect_status 0 "$RTC" merge "$TMP/n1/results.json" "$TMP/n2/results.json" -o "$TMP/nolim"
expect_grep ": every requirement was measured; none had limits to judge \\(" "$TMP/out"
expect_no_grep "every requirement passed" "$TMP/out"
expect_grep "<title>rtconform fleet: measured, no limits on 2 hosts</title>" "$TMP/nolim/fleet.html"
expect_grep "<h1>rtconform fleet: measured, no limits on 2 hosts</h1>" "$TMP/nolim/fleet.html"
expect_no_grep "PASS" "$TMP/nolim/fleet.html"
expect_status 0 "$RTC" merge "$TMP/n1/results.json" "$TMP/c/results.json" -o "$TMP/somelim"
expect_grep "<h1>rtconform fleet: PASS on 2 hosts</h1>" "$TMP/somelim/fleet.html"
expect_grep "^board-c: every requirement passed" "$TMP/out"
"$RTC" run "$FIX/cli/impossible.xml" -q -o "$TMP/d" >/dev/null 2>&1
expect_status 1 "$RTC" merge "$TMP/c/results.json" "$TMP/d/results.json" -o "$TMP/fails"

# bad input: exit 2, named, nothing written (a directory made is removed)
expect_status 2 "$RTC" merge "$TMP/c/results.json" "$TMP/nosuch.json" -o "$TMP/bad"
expect_grep "$TMP/nosuch.json" "$TMP/out"
[ ! -e "$TMP/bad" ] && ok "a refused merge leaves no bad" || fail "a refused merge left $TMP/bad: $(ls -a "$TMP/bad")"
head -c 1000 "$TMP/c/results.json" >"$TMP/truncated.json"
mkdir "$TMP/bad2"
expect_status 2 "$RTC" merge "$TMP/c/results.json" "$TMP/truncated.json" -o "$TMP/bad2"
expect_grep "$TMP/truncated.json" "$TMP/out"
[ -z "$(ls -A "$TMP/bad2")" ] && ok "a refused merge leaves no file in bad2" || fail "a refused merge left files in $TMP/bad2: $(ls -A "$TMP/bad2")"
# a junit.xml is written for CI, never read back
expect_status 2 "$RTC" merge "$TMP/c/results.json" "$TMP/c/junit.xml" -o "$TMP/bad3"
expect_grep "$TMP/c/junit.xml: XML, not a results.json: .*render from the run's results.json" "$TMP/out"
[ ! -e "$TMP/bad3" ] && ok "a refused merge leaves no bad3" || fail "a refused merge left $TMP/bad3"
# an output over an input, no input, an empty -o
expect_status 2 "$RTC" merge "$TMP/c/results.json" -o "$TMP/c"
expect_grep 'would overwrite the input' "$TMP/out"
expect_status 2 "$RTC" merge -o "$TMP/none"
expect_status 2 "$RTC" merge "$TMP/c/results.json" -o ''
expect_status 0 "$RTC" merge --help
expect_grep '^usage: rtconform merge' "$TMP/out"

# The fleet's reports land together or not at all: on a filesystem with
# room for junit.xml and results.json but not fleet.html, none is left in
# place (junit.xml and results.json were). A 60 KiB tmpfs, as root only.
if [ "$(id -u)" -eq 0 ] && mkdir -p "$TMP/small" && mount -t tmpfs -o size=60k tmpfs "$TMP/small"; then
  merge_exit() { umount "$TMP/small" 2>/dev/null; lib_exit; }
  trap merge_exit EXIT
  expect_status 2 "$RTC" merge "$FIX/results/pass.json" -o "$TMP/small/out"
  expect_grep "cannot write '.*fleet\.html': No space left on device" "$TMP/out"
  left=$(find "$TMP/small" -mindepth 1 | wc -l)
  [ "$left" -eq 0 ] && ok "a fleet report that cannot be written whole leaves nothing" \
    || { fail "left behind on a full filesystem: $(find "$TMP/small" -mindepth 1 | tr '\n' ' ')"; }
  umount "$TMP/small"
else
  skip "a fleet report that cannot be written whole leaves nothing" "needs root to mount a small tmpfs"
fi
finish
