# SPDX-License-Identifier: Apache-2.0
# The journal (reports/journal.h): a run killed with SIGKILL at any moment
# loses nothing it finished. At 24 points across a run of four requirements
# (one of them by time) the supervisor is killed outright; `rtconform report
# DIR` then renders every report from the journal, exit 3, and every
# requirement stderr said had finished is in it with that verdict and that
# sample count, every other one an error saying how far it got. A record cut
# short at the end is dropped and said, never read; a clean run leaves no
# journal; a run refuses a directory holding another's journal.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
req_file "$TMP/four.xml" four <<XML
  <requirement id="PING"><probe name="sem-pingpong"/>
    <run iterations="20000" runs="5" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="WAKE"><probe name="timer-wakeup"><param name="interval">1ms</param>
    <param name="dma-latency">off</param></probe>
    <run iterations="250" runs="4" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="TIMED"><probe name="sem-pingpong"/>
    <run iterations="5000" duration="2s" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="LAST"><probe name="selftest"/>
    <run iterations="1000" runs="3" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/></requirement>
XML

# A clean run: its journal is gone once the reports are written.
"$RTC" run -q -o "$TMP/clean" "$TMP/four.xml" >/dev/null 2>"$TMP/clean.err"
[ -e "$TMP/clean/results.json" ] && [ ! -e "$TMP/clean/journal" ] \
  && ok "a run that writes its reports leaves no journal" \
  || { fail "a clean run left its journal (or no results.json)"; diag <"$TMP/clean.err"; }
total_s="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["seconds"])' "$TMP/clean/results.json")"

# check DIR STDERR : DIR's reports, rendered from its journal, hold what
# STDERR said had finished, with its verdict and sample count.
check_recovered() {
  python3 - "$1/results.json" "$2" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
said = {}
for line in open(sys.argv[2], errors="replace"):
    # a done line names its deciding limit; a max or a percentile's says
    # its sample count "(n=N)", a mean's or a count's "(K runs)"
    m = re.match(r"\[\d+/\d+\] (\S+): (pass|fail|error|inconclusive)\b(.*)", line)
    if m:
        n = re.search(r"\(n=(\d+)\)", m.group(3))
        said[m.group(1)] = (m.group(2).upper(), int(n.group(1)) if n else None)
reqs = {r["id"]: r for f in doc["files"] for r in f["requirements"]}
for rid, (verdict, n) in said.items():
    r = reqs[rid]
    assert r["verdict"].upper() == verdict, f"{rid}: {r['verdict']} but stderr said {verdict}"
    count = r["metrics"][0]["count"]
    assert n is None or count == n, f"{rid}: n={count} but stderr said n={n}"
for rid, r in reqs.items():
    if rid in said:
        continue
    assert r["verdict"] == "error", f"{rid}: unfinished but {r['verdict']}"
    assert r["reason"].startswith(("incomplete:", "not measured:")), f"{rid}: {r['reason']}"
    if r["reason"].startswith("incomplete:"):
        assert r["metrics"][0]["count"] > 0, f"{rid}: cut short with no samples"
whole = len(said) == len(reqs)
assert doc["exit_status"] == (max(0 if r["verdict"] == "pass" else 1 for r in reqs.values()) if whole else 3)
assert doc["environment"]["rtconform.interrupted"] == ("no" if whole else "yes")
assert "read from the journal" in doc["environment"]["rtconform.journal"]
print(len(said), "finished,", sum(r["reason"] is not None and r["reason"].startswith("incomplete:") for r in reqs.values()), "cut short")
PY
}

# Kill points spread over the clean run's length (and a little past it).
points=24 recovered=0 bad=0 before=0 after=0 cut=0
for k in $(seq 0 $((points - 1))); do
  d="$TMP/k$k"
  "$RTC" run --interval 1s -o "$d" "$TMP/four.xml" >/dev/null 2>"$d.err" &
  sup=$!
  sleep "$(python3 -c "import random; print(round($total_s * 1.1 * ($k + random.random()) / $points, 3))")"
  kill -KILL "$sup" 2>/dev/null
  wait "$sup" 2>/dev/null
  no_marked() { [ -z "$(marked_procs)" ]; }
  wait_for "the workers of killed run $k to end" "$END_WAIT" no_marked >/dev/null || true
  if [ ! -e "$d/journal/log" ]; then
    # Killed before the journal was made, or after the reports (while the
    # journal was being removed, its log first): nothing of it is lost.
    if [ -e "$d/results.json" ]; then after=$((after + 1)); else before=$((before + 1)); fi
    continue
  fi
  "$RTC" report "$d" >"$d.rep" 2>&1; st=$?
  if grep -q "no run to read" "$d.rep"; then before=$((before + 1)); continue; fi
  # 3: cut short; 0: every requirement had finished (the kill fell after
  # the last one, before the reports)
  want=3; [ "$(grep -c '^\[[0-9]/4\] ' "$d.err")" -eq 4 ] && want=0
  if [ "$st" -ne "$want" ]; then
    bad=$((bad + 1)); fail "kill $k: report of the journal: exit $st, expected $want"; diag <"$d.rep"; continue
  fi
  if check_recovered "$d" "$d.err" >"$d.chk" 2>&1; then
    recovered=$((recovered + 1)); grep -q " [1-9][0-9]* cut short" "$d.chk" && cut=$((cut + 1))
  else
    bad=$((bad + 1)); fail "kill $k: the recovered reports differ from what stderr said:"
    diag <"$d.chk"; diag <"$d.err"
  fi
done
[ "$bad" -eq 0 ] && [ "$recovered" -ge 12 ] \
  && ok "$recovered of $points kills rendered from the journal hold every finished requirement ($cut cut mid-requirement; $before before the journal began, $after after the reports)" \
  || fail "$recovered of $points kills recovered, $bad wrong ($before before, $after after)"
[ "$cut" -ge 3 ] && ok "$cut kills fell inside a requirement and kept its finished runs" \
  || fail "only $cut kills fell inside a requirement (expected at least 3)"

# A journal is never overwritten: a run into its directory is refused.
last="$TMP/k$((points / 2))"
if [ -e "$last/journal" ]; then
  sum_before="$(cat "$last/journal/log" | md5sum)"
  "$RTC" run -q -o "$last" "$TMP/four.xml" >"$TMP/again" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "the journal of a run that did not finish" "$TMP/again" \
    && [ "$(cat "$last/journal/log" | md5sum)" = "$sum_before" ] \
    && ok "a run into a directory with another run's journal is refused, exit 2, the journal untouched" \
    || { fail "a run over a journal: exit $st"; diag <"$TMP/again"; }
else
  skip "a run over a journal" "kill $((points / 2)) left no journal"
fi

# A journal killed before its head holds nothing measured, nor one whose
# log its run removed before it was killed: the next run replaces it.
mkdir -p "$TMP/nolog/journal"; : >"$TMP/nolog/journal/now.0"
"$RTC" run -q -o "$TMP/nolog" --only LAST "$TMP/four.xml" >"$TMP/nolog.out" 2>&1; st=$?
[ "$st" -eq 0 ] && [ ! -e "$TMP/nolog/journal" ] \
  && ok "a journal without its log does not keep a run out" || { fail "journal without log: exit $st"; diag <"$TMP/nolog.out"; }
mkdir -p "$TMP/empty/journal"; printf 'rtconform journal 2\n' >"$TMP/empty/journal/log"
"$RTC" run -q -o "$TMP/empty" --only LAST "$TMP/four.xml" >"$TMP/empty.out" 2>&1; st=$?
[ "$st" -eq 0 ] && [ -e "$TMP/empty/results.json" ] && [ ! -e "$TMP/empty/journal" ] \
  && ok "a journal with no run in it does not keep a run out" || { fail "empty journal: exit $st"; diag <"$TMP/empty.out"; }

# A torn last record (the append a kill or a full disk cut) is dropped and
# said; a damaged now file falls back to the other one.
src=""
for k in $(seq 0 $((points - 1))); do
  [ -e "$TMP/k$k/journal/log" ] && [ "$(grep -ac '^rtcj req' "$TMP/k$k/journal/log")" -ge 2 ] && { src="$TMP/k$k"; break; }
done
if [ -n "$src" ]; then
  mkdir -p "$TMP/torn"; cp -r "$src/journal" "$TMP/torn/"
  size="$(stat -c %s "$TMP/torn/journal/log")"
  truncate -s $((size - 7)) "$TMP/torn/journal/log"
  # as a kill inside that append leaves it: no now record written after it
  python3 - "$TMP/torn/journal" <<'PY'
import os, re, sys
d = sys.argv[1]
logs = re.findall(rb"^rtcj \w+ \d+ (\d+) ", open(d + "/log", "rb").read(), re.M)
for k in ("now.0", "now.1"):
    p = d + "/" + k
    m = os.path.exists(p) and re.match(rb"rtcj now \d+ (\d+) ", open(p, "rb").read())
    if m and int(m.group(1)) >= int(logs[-1]):
        os.remove(p)
PY
  "$RTC" report "$TMP/torn" --json "$TMP/torn.json" >"$TMP/torn.out" 2>&1; st=$?
  [ "$st" -eq 3 ] && grep -q "a record cut short at its end ([0-9]* bytes) dropped" "$TMP/torn.out" \
    && ok "a torn last record is dropped and said (exit 3)" || { fail "torn record: exit $st"; diag <"$TMP/torn.out"; }
  python3 - "$src/journal/log" "$TMP/torn.json" >"$TMP/torn.chk" 2>&1 <<'PY' \
    && ok "the torn record's requirement is not read from it" || { fail "the torn record was read"; diag <"$TMP/torn.chk"; }
import json, re, sys
heads = [l for l in open(sys.argv[1], "rb") if l.startswith(b"rtcj req ")]
f, i = map(int, heads[-1].split()[4:6])
r = json.load(open(sys.argv[2]))["files"][f]["requirements"][i]
assert r["verdict"] == "error", r["verdict"]
PY
  # a byte flipped inside the payload: its CRC no longer holds
  cp -r "$src/journal" "$TMP/flip"; printf 'X' | dd of="$TMP/flip/log" bs=1 seek=200 conv=notrunc 2>/dev/null
  mkdir -p "$TMP/flipdir"; mv "$TMP/flip" "$TMP/flipdir/journal"
  "$RTC" report "$TMP/flipdir" --summary "$TMP/flip.txt" >"$TMP/flip.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "record 1 (at byte 20) is corrupt (its CRC does not hold) and records 2-[0-9]* follow it" "$TMP/flip.out" && [ ! -e "$TMP/flip.txt" ] \
    && ok "a damaged head is never read: exit 2, nothing written" || { fail "damaged head: exit $st"; diag <"$TMP/flip.out"; }
  # damage with more after it is not a torn end: refused, never dropped
  cp -r "$src/journal" "$TMP/mid"; mkdir -p "$TMP/middir"; mv "$TMP/mid" "$TMP/middir/journal"
  at="$(grep -abo '^rtcj req ' "$TMP/middir/journal/log" | head -1 | cut -d: -f1)"
  printf 'X' | dd of="$TMP/middir/journal/log" bs=1 seek=$((at + 200)) conv=notrunc 2>/dev/null
  "$RTC" report "$TMP/middir" --summary "$TMP/mid.txt" >"$TMP/mid.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "record [0-9]* (at byte $at) is corrupt (its CRC does not hold) and records* [0-9-]* follows* it" "$TMP/mid.out" && [ ! -e "$TMP/mid.txt" ] \
    && ok "a damaged record with more after it is refused (exit 2), not dropped as torn" \
    || { fail "damage mid-log: exit $st"; diag <"$TMP/mid.out"; }
  # a now file that holds no whole record is said, and the other one read
  mkdir -p "$TMP/nowdir"; cp -r "$src/journal" "$TMP/nowdir/"
  printf 'rtcj now 99 0 0 5000 0000' >"$TMP/nowdir/journal/now.0"
  "$RTC" report "$TMP/nowdir" --summary "$TMP/now.txt" >"$TMP/now.out" 2>&1; st=$?
  [ "$st" -ne 2 ] && grep -q "now.0 cut short or damaged, not read" "$TMP/now.out" \
    && ok "a now file with no whole record is said, not read" || { fail "bad now file: exit $st"; diag <"$TMP/now.out"; }
  # a requirement journaled twice is no run's journal
  mkdir -p "$TMP/dupdir"; cp -r "$src/journal" "$TMP/dupdir/"
  python3 - "$TMP/dupdir/journal/log" <<'PY'
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
m = re.search(rb"^rtcj req (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) [0-9a-f]{8}\n", data, re.M)
payload = data[m.end():m.end() + int(m.group(5))]
last = max(int(s) for s in re.findall(rb"^rtcj \w+ (\d+) ", data, re.M))
log = max(int(s) for s in re.findall(rb"^rtcj \w+ \d+ (\d+) ", data, re.M))
head = b"rtcj req %d %d %s %s %d %s " % (last + 1, log + 1, m.group(3), m.group(4), len(payload),
                                     m.group(6))
crc = zlib.crc32(payload, zlib.crc32(head)) & 0xffffffff
open(sys.argv[1], "ab").write(head + b"%08x\n" % crc + payload + b"\n")
PY
  "$RTC" report "$TMP/dupdir" --summary "$TMP/dup.txt" >"$TMP/dup.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "is a second record of requirement" "$TMP/dup.out" \
    && ok "a requirement journaled twice is refused (exit 2)" || { fail "duplicate record: exit $st"; diag <"$TMP/dup.out"; }
  # the end of a recovered run is its last record's time, not its files'
  # mtime: a copy made years later renders the same end
  mkdir -p "$TMP/copydir"; cp -r "$src/journal" "$TMP/copydir/"
  touch -d '2031-01-01 00:00:00' "$TMP/copydir/journal/"*
  "$RTC" report "$src/journal" --json "$TMP/orig-end.json" >/dev/null 2>&1
  "$RTC" report "$TMP/copydir" --json "$TMP/copy-end.json" >"$TMP/copy.out" 2>&1; st=$?
  e1="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ended"])' "$TMP/orig-end.json" 2>&1)"
  e2="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ended"])' "$TMP/copy-end.json" 2>&1)"
  [ "$st" -eq 3 ] && [ -n "$e1" ] && [ "$e1" = "$e2" ] && [[ "$e2" != 2031* ]] && grep -q "last written $e2" "$TMP/copy.out" \
    && ok "a recovered run's end comes from its records, not from the files' mtime ($e2)" \
    || { fail "recovered end: exit $st, original '$e1', copy '$e2'"; diag <"$TMP/copy.out"; }
  # a journal of another format is named as such, never misread
  mkdir -p "$TMP/v1dir"; cp -r "$src/journal" "$TMP/v1dir/"
  sed -i '1s/^rtconform journal 3$/rtconform journal 2/' "$TMP/v1dir/journal/log"
  "$RTC" report "$TMP/v1dir" --summary "$TMP/v1.txt" >"$TMP/v1.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "a journal of format 2, which this rtconform does not read (it reads format 3)" "$TMP/v1.out" \
    && [ ! -e "$TMP/v1.txt" ] && ok "a journal of an older format is refused by name (exit 2, nothing written)" \
    || { fail "format 1 journal: exit $st"; diag <"$TMP/v1.out"; }
  # a journal away from its run's directory has no place for its reports
  mkdir -p "$TMP/inc"; cp -r "$src/journal" "$TMP/inc/boardA"
  "$RTC" report "$TMP/inc/boardA" >"$TMP/inc.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "not in a run's directory" "$TMP/inc.out" && [ -z "$(ls "$TMP/inc" | grep -v boardA)" ] \
    && ok "a journal outside RUN/journal needs output options (exit 2, nothing written)" \
    || { fail "journal elsewhere: exit $st"; diag <"$TMP/inc.out"; }
  # outputs that are not regular files are refused, left as they were
  mkfifo "$TMP/fifo"
  "$RTC" report "$src" --summary "$TMP/fifo" >"$TMP/fifo.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && [ -p "$TMP/fifo" ] && grep -q "not a regular file (a FIFO)" "$TMP/fifo.out" \
    && ok "a report over a FIFO is refused, the FIFO left" || { fail "report over a FIFO: exit $st"; diag <"$TMP/fifo.out"; }
else
  skip "torn and damaged records" "no kill left a journal with two finished requirements"
fi

# A run still measuring: its journal is no killed run's; report waits for
# nothing and says who holds the directory.
"$RTC" run -q -o "$TMP/live" --duration 60s --only TIMED "$TMP/four.xml" >/dev/null 2>&1 &
live=$!
has_journal() { [ -s "$TMP/live/journal/log" ]; }
if wait_for "a run to start its journal" "$START_WAIT" has_journal; then
  "$RTC" report "$TMP/live" >"$TMP/live.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "is in use: pid $live" "$TMP/live.out" && ! grep -q "read from the journal" "$TMP/live.out" \
    && ok "report of a running run's directory is refused, naming the run" \
    || { fail "report of a live journal: exit $st"; diag <"$TMP/live.out"; }
  "$RTC" report "$TMP/live/journal" --summary "$TMP/live.txt" >"$TMP/live.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && [ ! -e "$TMP/live.txt" ] && ok "... and of its journal, even with outputs elsewhere" \
    || { fail "report of a live journal elsewhere: exit $st"; diag <"$TMP/live.out"; }
fi
kill -TERM "$live" 2>/dev/null; wait "$live" 2>/dev/null

# An output may not name what a run keeps for itself in its directory.
mkdir -p "$TMP/own"
expect_status 2 "$RTC" run -q --metrics "$TMP/own/journal/log" -o "$TMP/own" "$TMP/four.xml"
expect_grep "names what rtconform keeps for itself" "$TMP/out"
expect_status 2 "$RTC" run -q --lava "$TMP/own/.rtconform.lock" -o "$TMP/own" "$TMP/four.xml"
[ -z "$(ls -A "$TMP/own")" ] && ok "nothing is left in the directory" || fail "left in own/: $(ls -A "$TMP/own")"
# Nor a directory an output goes into: -o own/journal would pass for a
# killed run's journal, -o or --csv own/.rtconform.lock (a directory) would
# refuse every later lock of own/, own/MANIFEST.sha256 its manifest; every
# command's -o is refused so, and nothing is made.
for o in journal .rtconform.lock MANIFEST.sha256; do
  expect_status 2 "$RTC" run -q -o "$TMP/own/$o" "$TMP/four.xml"
  expect_grep "\-o/--output $TMP/own/$o: names what rtconform keeps for itself" "$TMP/out"
  expect_status 2 "$RTC" run -q -o "$TMP/own/r" --csv "$TMP/own/$o" "$TMP/four.xml"
  expect_grep "\-\-csv $TMP/own/$o: names what rtconform keeps for itself" "$TMP/out"
done
expect_status 2 "$RTC" probe selftest -o "$TMP/own/journal"
expect_grep "names what rtconform keeps for itself" "$TMP/out"
[ -z "$(ls -A "$TMP/own")" ] && ok "nothing is made in the directory" || fail "left in own/: $(ls -A "$TMP/own")"

# Not a journal: a log without the first line is refused, naming it.
mkdir -p "$TMP/fake/journal"; echo '{"schema": 1}' >"$TMP/fake/journal/log"
"$RTC" report "$TMP/fake" >"$TMP/fake.out" 2>&1; st=$?
[ "$st" -eq 2 ] && grep -q "fake/journal/log: not an rtconform journal" "$TMP/fake.out" \
  && ok "a journal directory whose log is not one is refused by name" || { fail "fake journal: exit $st"; diag <"$TMP/fake.out"; }
# records LOG : the log's records, one line each: start end kind LOG.
records() {
  python3 -c 'import re, sys
data = open(sys.argv[1], "rb").read()
at = data.index(b"\n") + 1
while at < len(data):
    m = re.match(rb"rtcj (\w+) \d+ (\d+) \d+ \d+ (\d+) \d+ [0-9a-f]{8}\n", data[at:])
    end = at + m.end() + int(m.group(3)) + 1
    print(at, end, m.group(1).decode(), m.group(2).decode())
    at = end' "$1"
}

# A whole journal, kept: once the run has begun, its summary.txt is made a
# directory, so its reports cannot all be written. Three short requirements
# and one of 2 s by time, in which the directory is made.
req_file "$TMP/quick.xml" quick <<XML
  <requirement id="A"><probe name="selftest"/><run iterations="1000" runs="3" warmup="0" timeout="60s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="B"><probe name="selftest"/><run iterations="1000" runs="3" warmup="0" timeout="60s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="C"><probe name="selftest"/><run iterations="1000" runs="3" warmup="0" timeout="60s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="D"><probe name="sem-pingpong"/><run iterations="5000" duration="2s" warmup="0" timeout="120s"/>
    <limit statistic="max" max="60s"/></requirement>
XML
# kept_run DIR XML : run XML into DIR in the background (its stderr in
# $TMP/NAME.err, NAME DIR's last component), summary.txt made a directory once its journal is there; its pid
# in $kept_pid.
kept_run() {
  local dir="$1" xml="$2"
  "$RTC" run -q -o "$dir" "$xml" >/dev/null 2>"$TMP/$(basename "$dir").err" &
  kept_pid=$!
  wait_for "the run into $(basename "$dir") to begin its journal" "$START_WAIT" test -s "$dir/journal/log" \
    && mkdir -p "$dir/summary.txt/x"
}
kept_run "$TMP/whole" "$TMP/quick.xml"
wait "$kept_pid"; st=$?
[ "$st" -eq 3 ] && grep -q "keeps every figure" "$TMP/whole.err" && grep -q "^rtcj end" "$TMP/whole/journal/log" \
  && ok "a run whose reports fail keeps its whole journal" || { fail "kept journal: exit $st"; diag <"$TMP/whole.err"; }
records "$TMP/whole/journal/log" >"$TMP/whole.recs" 2>&1
nrec="$(wc -l <"$TMP/whole.recs")"
# journal_of NAME : a copy of the whole journal in $TMP/NAME/journal
journal_of() { rm -rf "${TMP:?}/$1"; mkdir -p "$TMP/$1"; cp -r "$TMP/whole/journal" "$TMP/$1/"; }
if [ "$nrec" -ge 6 ]; then
  # B's record (the third) cut out: a gap, named, never a plausible run
  read -r bs be _ <<<"$(sed -n 3p "$TMP/whole.recs")"
  journal_of gap
  { head -c "$bs" "$TMP/whole/journal/log"; tail -c +$((be + 1)) "$TMP/whole/journal/log"; } >"$TMP/gap/journal/log"
  "$RTC" report "$TMP/gap" --summary "$TMP/gap.txt" >"$TMP/gap.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "gap/journal/log: record 3 of $nrec missing: record 4 (at byte $bs) follows record 2" "$TMP/gap.out" \
    && [ ! -e "$TMP/gap.txt" ] && ! grep -q "read from the journal" "$TMP/gap.out" \
    && ok "the second requirement's record cut out: named, refused (exit 2), nothing written" \
    || { fail "a record cut out: exit $st"; diag <"$TMP/gap.out"; }
  # one bit flipped in the middle of B's record, whole records after it
  journal_of bit
  python3 -c 'import sys; p, at = sys.argv[1], int(sys.argv[2]); d = bytearray(open(p, "rb").read()); d[at] ^= 4; open(p, "wb").write(d)' \
    "$TMP/bit/journal/log" $(( (bs + be) / 2 ))
  "$RTC" report "$TMP/bit" --summary "$TMP/bit.txt" >"$TMP/bit.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "record 3 (at byte $bs) is corrupt (its CRC does not hold) and records 4-$nrec follow it" "$TMP/bit.out" \
    && [ ! -e "$TMP/bit.txt" ] && ok "a bit flipped in a middle record: corrupt, named with what follows (exit 2)" \
    || { fail "a flipped bit: exit $st"; diag <"$TMP/bit.out"; }
  # the log's last records cut whole, D's now record counting them
  read -r cs _ <<<"$(sed -n 4p "$TMP/whole.recs")"
  journal_of tail
  head -c "$cs" "$TMP/whole/journal/log" >"$TMP/tail/journal/log"
  "$RTC" report "$TMP/tail" --summary "$TMP/tail.txt" >"$TMP/tail.out" 2>&1; st=$?
  [ "$st" -eq 2 ] && grep -q "record 4 of 4 missing at the end of the log: now.[01], written after them" "$TMP/tail.out" \
    && [ ! -e "$TMP/tail.txt" ] && ok "records cut from the log's end, a now record counting them: named, refused (exit 2)" \
    || { fail "records cut from the end: exit $st"; diag <"$TMP/tail.out"; }
  # a tear in the last requirement's record, at each of its first 80 bytes
  # (header and first payload bytes) and in its middle: the killed run's
  # report, D cut short
  read -r ls le _ <<<"$(sed -n "$((nrec - 1))p" "$TMP/whole.recs")"
  bad=""
  for cut in $(seq $((ls + 1)) $((ls + 80))) $(( (ls + le) / 2 )); do
    journal_of torn2
    head -c "$cut" "$TMP/whole/journal/log" >"$TMP/torn2/journal/log"
    "$RTC" report "$TMP/torn2" --summary "$TMP/torn2.txt" >"$TMP/torn2.out" 2>&1; st=$?
    { [ "$st" -eq 3 ] && grep -q "a record cut short at its end ($((cut - ls)) bytes) dropped" "$TMP/torn2.out" \
      && grep -q "^D .* ERROR" "$TMP/torn2.txt"; } || { bad="$cut: exit $st"; break; }
  done
  [ -z "$bad" ] && ok "a tear at any of the last record's first 80 bytes or its middle: dropped, the killed run's report (exit 3)" \
    || { fail "a torn last record, cut at byte $bad"; diag <"$TMP/torn2.out"; }
else
  fail "a whole journal: $nrec records found in its log, where 6 or more were written"; diag <"$TMP/whole.recs"
fi

# A long run's journal within the reader's memory bound: 320 requirements of
# a timer probe (5.7 MiB of records as the run writes them, whose JSON trees
# take about 9 times their text) read, not refused as "more than a run writes".
python3 "$(dirname "$0")/journal_many.py" "$SRC/tests/fixtures/journal/timer" 320 "$TMP/many320"
"$RTC" report "$TMP/many320" --json "$TMP/many320.json" >"$TMP/many320.rep" 2>&1; st=$?
[ "$st" -eq 3 ] && grep -q "320 of 320 requirements finished" "$TMP/many320.rep" \
  && ok "a journal of 320 timer requirements is read within the memory bound" \
  || { fail "a journal of 320 timer requirements: exit $st"; diag <"$TMP/many320.rep"; }
rm -rf "$TMP/many320" "$TMP/many320.json"

# A file size limit (ulimit -f, a CI job's or a unit's LimitFSIZE=): a write
# past it fails with EFBIG, which the journal handles as a full disk (the
# record waits, the run goes on and says what never reached the journal);
# SIGXFSZ used to end the run there, its head record torn, nothing said.
req_file "$TMP/fsize.xml" fsize <<XML
  <requirement id="F1"><probe name="selftest"/><run iterations="1000" runs="2" warmup="0" timeout="60s"/><limit statistic="max" max="60s"/></requirement>
  <requirement id="F2"><probe name="selftest"/><run iterations="1000" runs="2" warmup="0" timeout="60s"/><limit statistic="max" max="60s"/></requirement>
XML
(ulimit -f 8; exec "$RTC" run -q -o "$TMP/fsize" "$TMP/fsize.xml") >/dev/null 2>"$TMP/fsize.err"; st=$?
[ "$st" -eq 3 ] && grep -q "journal: .*/journal/log: File too large: the run goes on" "$TMP/fsize.err" \
  && grep -q "never reached the journal: .*File too large; the reports written now hold them" "$TMP/fsize.err" \
  && ok "a file size limit: writes past it fail with EFBIG and are said (exit 3), no SIGXFSZ" \
  || { fail "ulimit -f 8: exit $st (153: killed by SIGXFSZ)"; diag <"$TMP/fsize.err"; }
rm -rf "$TMP/fsize"

# A full disk (a small tmpfs with 80 KiB free, as root only): a run of 31
# requirements (30 short, the last 3 s by time) outgrows it. When room comes
# during the run, the records that waited are written and the journal is
# whole; when it never comes, the run says what never reached the journal,
# and `report` of it names them, never "not measured".
{ echo '<requirements xmlns="urn:rtconform:requirements:1" name="many" version="1">'
  for i in $(seq 1 30); do
    echo "  <requirement id=\"R$i\"><probe name=\"selftest\"/><run iterations=\"1000\" runs=\"3\" warmup=\"0\" timeout=\"60s\"/><limit statistic=\"max\" max=\"60s\"/></requirement>"
  done
  echo '  <requirement id="LONG"><probe name="sem-pingpong"/><run iterations="5000" duration="3s" warmup="0" timeout="120s"/><limit statistic="max" max="60s"/></requirement>'
  echo '</requirements>'; } >"$TMP/many.xml"
# fill FREE_KIB : the tmpfs filled to FREE_KIB free
fill() {
  rm -f "$TMP/small/filler"
  local avail; avail="$(df -k --output=avail "$TMP/small" | tail -1)"
  head -c $(( (avail - $1) * 1024 )) /dev/zero >"$TMP/small/filler"
}
# verdicts JSON : each requirement's id, verdict and reason, one line each
verdicts() {
  python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    for r in f["requirements"]:
        print(r["id"], r["verdict"], r.get("reason") or "")' "$1"
}
if [ "$(id -u)" -eq 0 ] && mkdir -p "$TMP/small" && mount -t tmpfs -o size=4m tmpfs "$TMP/small"; then
  journal_exit() { umount "$TMP/small" 2>/dev/null; lib_exit; }
  trap journal_exit EXIT
  # room again during the run
  fill 80
  kept_run "$TMP/small/later" "$TMP/many.xml"
  wait_for "the journal's first failed write" 60 grep -q "journal: .*No space left on device: the run goes on" "$TMP/later.err"
  rm -f "$TMP/small/filler"
  wait "$kept_pid"; st=$?
  [ "$st" -eq 3 ] && grep -q "journal: .*/journal/log: written after all: the records that waited are in it, and it is whole" "$TMP/later.err" \
    && grep -q "keeps every figure" "$TMP/later.err" \
    && ok "a full disk, then room: the records that waited are written, the journal whole" \
    || { fail "room again: exit $st"; diag <"$TMP/later.err"; }
  [ "$(grep -c 'No space left' "$TMP/later.err")" -eq 1 ] && ok "... the failure said once" \
    || { fail "the failure said more than once"; diag <"$TMP/later.err"; }
  "$RTC" report "$TMP/small/later" --json "$TMP/later.json" >"$TMP/later.rep" 2>&1; st=$?
  [ "$st" -eq 0 ] && grep -q "31 of 31 requirements finished" "$TMP/later.rep" && ! grep -q "never reached" "$TMP/later.rep" \
    && [ "$(verdicts "$TMP/later.json" | grep -c ' pass $')" -eq 31 ] \
    && ok "report of it renders every requirement as measured (exit 0)" \
    || { fail "room again, report: exit $st"; diag <"$TMP/later.rep"; verdicts "$TMP/later.json" 2>&1 | diag; }
  # no room ever
  fill 80
  "$RTC" run -q -o "$TMP/small/never" "$TMP/many.xml" >/dev/null 2>"$TMP/never.err"; st=$?
  [ "$st" -eq 3 ] && grep -q "journal: records [0-9]*-[0-9]* of [0-9]* ([0-9]* finished requirements among them) never reached the journal: .*No space left on device; the reports written now hold them" "$TMP/never.err" \
    && grep -q "the journal .* keeps the run but records .*, which never reached it" "$TMP/never.err" \
    && ok "a full disk, no room ever: the run says what never reached the journal" \
    || { fail "no room: exit $st"; diag <"$TMP/never.err"; }
  ! grep -q "I/O error" "$TMP/never.err" \
    && ok "a full disk: libxml2's own I/O error lines are not printed beside rtconform's message" \
    || { fail "a full disk: libxml2 printed its errors"; diag <"$TMP/never.err"; }
  rm -f "$TMP/small/filler"
  "$RTC" report "$TMP/small/never" --json "$TMP/never.json" >"$TMP/never.rep" 2>&1; st=$?
  verdicts "$TMP/never.json" >"$TMP/never.v" 2>&1
  [ "$st" -eq 3 ] && grep -q "never reached the journal (the run could not write them: No space left on device), with [1-9][0-9]* finished requirements" "$TMP/never.rep" \
    && grep -q "finished, but its record never reached the journal" "$TMP/never.v" \
    && ! grep -q "not measured" "$TMP/never.v" \
    && [ "$(grep -c ' pass $' "$TMP/never.v")" -ge 1 ] \
    && ok "report of it names what never reached the journal (exit 3), no requirement 'not measured'" \
    || { fail "no room, report: exit $st"; diag <"$TMP/never.rep"; diag <"$TMP/never.v"; }
  # the disk full at the reports, the journal whole: each report that
  # cannot be written says the disk is full (results.json said "Input/output
  # error": errno was cleared between the failed write and its check)
  grep -v LONG "$TMP/many.xml" >"$TMP/short.xml"
  json_said="" eio=0
  for free in 150 200 260 330; do
    fill "$free"
    "$RTC" run -q -o "$TMP/small/full$free" "$TMP/short.xml" >/dev/null 2>"$TMP/full$free.err"
    grep -q "Input/output error" "$TMP/full$free.err" && { eio=$((eio + 1)); diag <"$TMP/full$free.err"; }
    grep -q "results.json': building the JSON failed: No space left on device" "$TMP/full$free.err" && json_said="$json_said $free"
    rm -rf "$TMP/small/full$free"
  done
  rm -f "$TMP/small/filler"
  [ "$eio" -eq 0 ] && [ -n "$json_said" ] \
    && ok "the disk full at the reports: results.json's failure says No space left on device (at$json_said KiB free), never an I/O error" \
    || fail "the disk full at the reports: $eio runs said Input/output error; results.json's ENOSPC said at:$json_said"
  umount "$TMP/small"
else
  skip "a full disk" "needs root to mount a small tmpfs"
fi
expect_no_leftovers "journal"
finish
