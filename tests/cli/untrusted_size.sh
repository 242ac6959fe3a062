# SPDX-License-Identifier: Apache-2.0
# report, compare and merge on results.json files that are not what a run
# writes: inputs that are no regular file (refused at once, never blocking),
# numbers no run can write (refused naming the field and the value), files
# whose parse tree would take far more memory than their size (refused
# within the budget), a large legitimate file (read within it), a byte
# order mark (skipped), and many requirements (matched in linear time).
# docs/failure-modes.md, "Numbers, memory and size".
. "$(dirname "$0")/lib.sh"
command -v /usr/bin/time >/dev/null || { fail "/usr/bin/time missing: ci/deps installs the time package"; finish; }
command -v python3 >/dev/null || { fail "python3 missing"; finish; }
PASS="$FIX/results/pass.json"
hostile_corpus
GEN="$SRC/tests/cli/big_results.py"
# AddressSanitizer keeps freed memory in quarantine and pads every chunk:
# resident memory says nothing about the reader's budget there, so the
# memory bounds are checked in the normal build only (the refusals are
# checked in both).
asan=0
"$RTC" --version | grep -q "sanitizer build" && asan=1
# Sizes: the sanitizer build reads several times slower and checks every
# allocation at exit, so it gets files a fifth the size (the rules it
# checks are the same; the memory and time bounds are the normal build's).
BIG=20000000 MANY=40000
[ "$asan" -eq 1 ] && BIG=4000000 MANY=8000

# refused_fast NAME STATUS PATTERN CMD... : CMD exits STATUS within 10 s
# and its message matches PATTERN.
refused_fast() {
  local name="$1" want="$2" pat="$3" st=0; shift 3
  timeout 10 "$@" >"$TMP/out" 2>&1 || st=$?
  if [ "$st" -eq "$want" ]; then ok "$name: exit $want within 10 s"
  else fail "$name: exit $st, expected $want within 10 s (124: it blocked)"; head -5 "$TMP/out" | diag; fi
  expect_grep "$pat" "$TMP/out"
}

# ---- inputs that are not regular files ----------------------------------
mkfifo "$TMP/fifo"
refused_fast "report of a FIFO" 2 'fifo: not a regular file \(a FIFO\)' \
  "$RTC" report "$TMP/fifo" --summary "$TMP/s.txt"
refused_fast "merge of a FIFO" 2 'not a regular file \(a FIFO\)' \
  "$RTC" merge "$PASS" "$TMP/fifo" -o "$TMP/m-fifo"
refused_fast "compare with a FIFO" 2 'not a regular file \(a FIFO\)' \
  "$RTC" compare "$TMP/fifo" "$PASS"
refused_fast "report of /dev/zero" 2 '/dev/zero: not a regular file \(a character device\)' \
  "$RTC" report /dev/zero --summary "$TMP/s.txt"
refused_fast "report of a directory" 2 'not a regular file \(a directory\)' \
  "$RTC" report "$TMP" --summary "$TMP/s.txt"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/sock"
refused_fast "report of a socket" 2 'sock: not a regular file \(a socket\)' \
  "$RTC" report "$TMP/sock" --summary "$TMP/s.txt"
[ ! -e "$TMP/s.txt" ] && ok "nothing written for an input that is no regular file" \
  || fail "a summary was written for an input that is no regular file"

# ---- a byte order mark is skipped ---------------------------------------
expect_status 0 "$RTC" report "$H/bom.json" --summary "$TMP/bom.txt"
"$RTC" report "$PASS" --summary "$TMP/plain.txt" >/dev/null 2>&1
cmp -s "$TMP/bom.txt" "$TMP/plain.txt" && ok "a results.json after a BOM gives the same summary" \
  || fail "a results.json after a BOM gives another summary than without"

# ---- numbers no run writes ----------------------------------------------
refused_fast "ns_per_unit 1e308" 2 \
  'refused-ns-per-unit-1e308.json: files\[0\]\.requirements\[0\]\.metrics\[0\]\.ns_per_unit: 1e\+308 is out of range' \
  "$RTC" report "$H/refused-ns-per-unit-1e308.json" --html "$TMP/r.html"
refused_fast "compare with a candidate's ns_per_unit 1e308" 2 'ns_per_unit: 1e\+308 is out of range' \
  "$RTC" compare "$PASS" "$H/refused-ns-per-unit-1e308.json"
refused_fast "ns_per_unit 5e-324" 2 'ns_per_unit: 4\.94[0-9]*e-324 is out of range' \
  "$RTC" report "$H/refused-ns-per-unit-denormal.json" --html "$TMP/r.html"
refused_fast "ns_per_unit 0" 2 'ns_per_unit: 0 is out of range' \
  "$RTC" report "$H/refused-ns-per-unit-zero.json" --html "$TMP/r.html"
refused_fast "cycles_per_unit 1e300" 2 'cycles_per_unit: 1\.0*[0-9]*e\+300 is out of range' \
  "$RTC" merge "$H/refused-cycles-per-unit-huge.json" -o "$TMP/m-cyc"
refused_fast "a statistic of 1e308" 2 'statistics_ns\.max: 1e\+308 is out of range' \
  "$RTC" report "$H/refused-statistic-1e308.json" --summary "$TMP/s.txt"
refused_fast "1001 runs" 2 'requirements\[0\]\.runs: expected an integer from 0 to 1000' \
  "$RTC" report "$H/refused-runs-too-many.json" --summary "$TMP/s.txt"
[ ! -e "$TMP/r.html" ] && [ ! -e "$TMP/s.txt" ] \
  && ok "nothing written for a refused number" || fail "a report was written for a refused number"

# ---- memory: within a multiple of the file -------------------------------
# bounded NAME STATUS PATTERN FILE CMD... : CMD on FILE (A+B: two) exits STATUS, says
# PATTERN, and its peak resident memory is at most 4 x FILE + 24 MiB (the
# reader counts its trees and its view against 3 x + 16 MiB, and takes the
# text one requirement at a time: reports/read/read.h, json_split.h; the
# writers print results.json a requirement at a time, the XML ones into
# one buffer: docs/failure-modes.md).
bounded() {
  local name="$1" want="$2" pat="$3" file="$4" st=0; shift 4
  /usr/bin/time -f '%M' -o "$TMP/rss" "$@" >"$TMP/out" 2>&1 || st=$?
  if [ "$st" -eq "$want" ]; then ok "$name: exit $want"
  else fail "$name: exit $st, expected $want"; head -5 "$TMP/out" | diag; fi
  expect_grep "$pat" "$TMP/out"
  local kb size limit
  kb=$(tail -1 "$TMP/rss")
  size=0  # FILE may be A+B: the inputs of compare, together
  local IFS=+ part
  for part in $file; do size=$(( size + $(stat -c %s "$part") )); done
  limit=$(( size * 4 / 1024 + 24576 ))
  if [ "$asan" -eq 1 ]; then
    skip "$name: peak RSS ${kb} KiB" "the memory bound is checked in the normal build, not under AddressSanitizer"
  elif [ "${kb:-99999999}" -le "$limit" ]; then
    ok "$name: peak RSS ${kb} KiB <= 4 x the file + 24 MiB ($limit KiB)"
  else
    fail "$name: peak RSS ${kb} KiB > 4 x the file + 24 MiB ($limit KiB)"
  fi
}
python3 "$GEN" "$PASS" "$TMP/big.json" legit "$BIG"
MB=$((BIG / 1000000))
bounded "a $MB MB results.json of pass.json's requirements: report, every report" 0 'reports: ' \
  "$TMP/big.json" "$RTC" report "$TMP/big.json" --summary "$TMP/big.txt" --html "$TMP/big.html" \
  --json "$TMP/big-again.json" --junit "$TMP/big.xml"
# (a run's file says "selected" and "clauses" of each requirement, and its
# totals count the inconclusive ones; big.json, made from an older
# pass.json, does not)
cmp -s "$TMP/big.json" <(grep -v -e '^     "selected": true,$' -e '^  "inconclusive": 0,$' \
                           -e '^     "clauses": \[\],$' \
                           "$TMP/big-again.json" | head -c -1) \
  && ok "its results.json, written a requirement at a time, is the file again" \
  || fail "its results.json, written again, differs from the file"
rm -f "$TMP/big.html" "$TMP/big-again.json" "$TMP/big.xml"
bounded "a $MB MB results.json: merge (it renders the host's results.json again)" 0 'fleet' \
  "$TMP/big.json" "$RTC" merge "$TMP/big.json" -o "$TMP/m-big"
cp "$TMP/big.json" "$TMP/big2.json"
bounded "a $MB MB results.json: compare with a copy of it (the same runs: the same)" 0 'exit status 0: no figure is worse' \
  "$TMP/big.json+$TMP/big2.json" "$RTC" compare "$TMP/big.json" "$TMP/big2.json" -o "$TMP/c-big"
rm -f "$TMP/big2.json"
rm -rf "$TMP/m-big" "$TMP/c-big"
# The same file written compact (no indent: some 12 x its size as one tree,
# refused before the reader took a requirement at a time) reads as well.
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), separators=(",", ":"))' \
  "$TMP/big.json" "$TMP/compact.json"
# Its reports are 3 to 4 times larger than it, so they are written onto
# their files as they are made, never held whole.
bounded "the same, compact: report, every report" 0 'reports: ' "$TMP/compact.json" \
  "$RTC" report "$TMP/compact.json" --summary "$TMP/compact.txt" --html "$TMP/compact.html" \
  --json "$TMP/compact-again.json" --junit "$TMP/compact.xml"
cmp -s "$TMP/big.txt" "$TMP/compact.txt" && ok "compact or indented, the same summary" \
  || fail "the compact file's summary differs"
bounded "the same, compact: merge" 0 'fleet' "$TMP/compact.json" \
  "$RTC" merge "$TMP/compact.json" -o "$TMP/m-compact"
rm -rf "$TMP/big.json" "$TMP/compact"* "$TMP/m-compact"
# One long string (30 MB of "<" as host.os, 20 MB of '"' as a note): the
# writers escape it a piece at a time, and cut an attribute after 64 KiB
# (libxml2 holds an attribute whole), so it costs no multiple of itself.
python3 - "$PASS" "$TMP/long.json" "$BIG" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[3])
d["environment"]["host.os"] = "<" * n
# host.kernel.release: a suite property of the lean junit.xml, so a long one is an
# attribute junit.xml must cut (host.os is no longer one of its properties)
d["environment"]["host.kernel.release"] = "<" * n
d["files"][0]["requirements"][0]["note"] = '"' * (n // 2)
json.dump(d, open(sys.argv[2], "w"))
PY
bounded "one long string: report, every report" 0 'reports: ' "$TMP/long.json" \
  "$RTC" report "$TMP/long.json" --summary "$TMP/l.txt" --html "$TMP/l.html" --json "$TMP/l.json" \
  --junit "$TMP/l.xml"
grep -q 'cut: [0-9]* bytes in all' "$TMP/l.xml" && ok "a long attribute is cut, saying so" \
  || fail "junit.xml has no cut attribute"
python3 - "$TMP/long.json" "$TMP/l.json" <<'PY' && ok "results.json keeps the long strings whole" \
  || fail "results.json lost a long string"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["environment"]["host.os"] == b["environment"]["host.os"]
assert a["environment"]["host.kernel.release"] == b["environment"]["host.kernel.release"]
assert a["files"][0]["requirements"][0]["note"] == b["files"][0]["requirements"][0]["note"]
PY
bounded "one long string: merge" 0 'fleet' "$TMP/long.json" "$RTC" merge "$TMP/long.json" -o "$TMP/m-long"
rm -rf "$TMP/long.json" "$TMP"/l.* "$TMP/m-long"

for kind in empty triples; do
  python3 "$GEN" "$PASS" "$TMP/$kind.json" "$kind" "$BIG"
  bounded "$((BIG / 1000000)) MB of $kind elements: report" 2 \
    "$kind\.json: reading it needs more than [0-9]+ MiB, the limit for a file of this size" \
    "$TMP/$kind.json" "$RTC" report "$TMP/$kind.json" --summary "$TMP/s.txt"
  bounded "$((BIG / 1000000)) MB of $kind elements: merge" 2 "$kind\.json: reading it needs more than" \
    "$TMP/$kind.json" "$RTC" merge "$TMP/$kind.json" -o "$TMP/m-$kind"
  expect_no_grep 'not JSON' "$TMP/out"
  rm -f "$TMP/$kind.json"
done

# ---- many requirements: merge and compare are linear --------------------
# CPU time (user + system: the machine may be busy) of merge and of compare
# against report writing its four reports from the same file of $MANY
# requirements. Matching by a scan per requirement took 1.6e9 comparisons
# here, several times report's time; by the index it takes about as long.
# (time writes "Command exited with non-zero status 2" first for compare)
cpu() { tail -1 "$TMP/cpu" | awk '{ printf "%.2f", $1 + $2 }'; }
python3 "$GEN" "$PASS" "$TMP/many.json" skipped "$MANY"
/usr/bin/time -f '%U %S' -o "$TMP/cpu" "$RTC" report "$TMP/many.json" --summary "$TMP/m.txt" \
  --json "$TMP/m.json" --junit "$TMP/m.xml" --html "$TMP/m.html" >/dev/null 2>&1
t_report=$(cpu)
/usr/bin/time -f '%U %S' -o "$TMP/cpu" "$RTC" merge "$TMP/many.json" -o "$TMP/m-many" \
  >/dev/null 2>&1
t_merge=$(cpu)
/usr/bin/time -f '%U %S' -o "$TMP/cpu" "$RTC" compare "$TMP/many.json" "$TMP/many.json" \
  >"$TMP/cmp.out" 2>&1
t_compare=$(cpu)
expect_grep 'no requirement was measured in both runs' "$TMP/cmp.out"
for w in merge compare; do
  t=$([ "$w" = merge ] && echo "$t_merge" || echo "$t_compare")
  if [ "$asan" -eq 1 ]; then
    skip "$w of $MANY requirements: ${t} s CPU against report's ${t_report} s" "the ratio is checked in the normal build"
  elif awk -v a="$t" -v b="$t_report" 'BEGIN { exit !(a <= 2 * b + 1) }'; then
    ok "$w of $MANY requirements: ${t} s CPU, within 2 x report's ${t_report} s + 1 s"
  else
    fail "$w of $MANY requirements: ${t} s CPU, more than 2 x report's ${t_report} s + 1 s"
  fi
done
# ---- names alike: de-duplicated in linear time, repeats refused ------------
# 4096 series of one CPU (700 KB): CSV named each by a scan of those before
# (47 s); no run writes two series of a CPU, so it is refused
python3 - "$PASS" "$TMP/cpus.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = {"cpu": 0, "count": 1, "min_ns": 100.0, "mean_ns": 100.0, "max_ns": 100.0,
     "p99_ns": 100.0, "overflow": 0,
     "histogram": {"highest": 1000, "buckets": [[500, 500, 1]]}}
d["files"][0]["requirements"][0]["per_cpu"] = [s] * 4096
json.dump(d, open(sys.argv[2], "w"))
PY
refused_fast "4096 series of CPU 0" 2 'per_cpu\[1\]\.cpu: 0 again' \
  "$RTC" report "$TMP/cpus.json" --csv "$TMP/csv-cpus"
# more environment keys than a run writes (some 50; 4096 allowed)
python3 - "$PASS" "$TMP/env.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i in range(4097):
    d["environment"]["x" * 200 + "%07d" % i] = ""
json.dump(d, open(sys.argv[2], "w"))
PY
refused_fast "4097 environment keys beyond a run's" 2 'environment: has 4146 entries, more than the 4096' \
  "$RTC" merge "$TMP/env.json" -o "$TMP/m-env"
[ ! -e "$TMP/csv-cpus" ] && [ ! -e "$TMP/m-env" ] && ok "nothing written for repeats" \
  || fail "something was written for a refused file"
# 1000 requirements of distinct ids that all make the name "a________"
# (LAVA, CSV): suffixes went on by a scan of every name given out for each
# try, cubic; now the CPU time is about that of writing results.json
python3 "$GEN" "$PASS" "$TMP/alike.json" collide 1000
/usr/bin/time -f '%U' -o "$TMP/cpu" "$RTC" report "$TMP/alike.json" --json "$TMP/a.json" \
  >/dev/null 2>&1
t_json=$(tail -1 "$TMP/cpu")
/usr/bin/time -f '%U' -o "$TMP/cpu" timeout 300 "$RTC" report "$TMP/alike.json" \
  --lava "$TMP/a.lava" --csv "$TMP/csv-alike" >/dev/null 2>&1
t_names=$(tail -1 "$TMP/cpu")
expect_grep '^a________-1000 pass$' "$TMP/a.lava"
[ -e "$TMP/csv-alike/a________.per-op~1000.csv" ] && ok "CSV: the 1000th file of one name is ~1000" \
  || fail "CSV: no a________.per-op~1000.csv"
if awk -v a="$t_names" -v b="$t_json" 'BEGIN { exit !(a <= 3 * b + 1) }'; then
  ok "LAVA and CSV of 1000 names alike: ${t_names} s CPU, within 3 x results.json's ${t_json} s + 1 s"
else
  fail "LAVA and CSV of 1000 names alike: ${t_names} s CPU, more than 3 x results.json's ${t_json} s + 1 s"
fi
rm -rf "$TMP/csv-alike" "$TMP/alike.json" "$TMP/cpus.json" "$TMP/env.json"

# ---- merge: a path that is not UTF-8, a host name cut mid-character ------
# both went into the fleet results.json as nothing ("command": ,) with exit 0
mkdir -p "$TMP/m"$'/h\xff' "$TMP/m/b"
cp "$PASS" "$TMP/m"$'/h\xff'/results.json
cp "$H/host-name-cut-mid-character.json" "$TMP/m/b/results.json"
expect_status 0 "$RTC" merge -o "$TMP/m/out" "$TMP/m"$'/h\xff'/results.json "$TMP/m/b/results.json"
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit("h\ufffd" not in d["command"])' \
  "$TMP/m/out/results.json"; then ok "merge: the fleet results.json is JSON, the path's byte as U+FFFD"
else fail "merge: the fleet results.json is not JSON, or the path is not there"; fi
finish
