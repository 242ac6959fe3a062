# SPDX-License-Identifier: Apache-2.0
# Runs by time (<run duration>, --duration): a requirement runs about as
# long as asked and takes more samples than a run by count would; probes
# that cannot run by time are refused (exit 2, nothing written); progress
# lines for a CI log, the heartbeat, --quiet, and verdict colour on a
# terminal that NO_COLOR turns off.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || { fail "script(1) is missing (Debian package bsdutils)"; finish; }
# script(1)'s terminal is one that moves its cursor and shows colour
# whatever the caller's TERM (unset or dumb gets the log's lines).
export TERM=xterm
command -v python3 >/dev/null || { fail "python3 is missing"; finish; }

cat >"$TMP/d.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="dur">
  <requirement id="SELF"><probe name="selftest"/>
    <run iterations="200" duration="3s"/>
    <limit statistic="max" max="10s"/></requirement>
</requirements>
XML
samples() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["files"][0]["requirements"][0]; print(r["metrics"][0]["count"], r["seconds"], r["note"] or "")' "$1"
}

# duration="3s": at least 3 s measured, more samples than 10 runs of 200.
t0=$(now_us)
RTC_PROGRESS_INTERVAL=500ms "$RTC" run -o "$TMP/a" "$TMP/d.xml" >"$TMP/a.out" 2>"$TMP/a.err"
rc=$?; t1=$(now_us)
[ "$rc" -eq 0 ] && ok "the duration run exits 0" || { fail "duration run exited $rc"; cat "$TMP/a.out" "$TMP/a.err"; }
[ $((t1 - t0)) -ge 3000000 ] && ok "a 3 s duration takes at least 3 s" || fail "a 3 s duration took $(((t1 - t0) / 1000)) ms"
read -r n secs note < <(samples "$TMP/a/results.json")
[ "${n:-0}" -gt 2000 ] && ok "by time: more samples than 10 runs x 200" || fail "by time took $n samples, no more than 10 runs x 200"
python3 -c "import sys; sys.exit(0 if float('$secs') >= 3.0 else 1)" && ok "by time: results.json has seconds >= 3" || fail "seconds $secs < 3"
case "$note" in *"ran by time: "*) ok "by time: the note says it ran by time" ;; *) fail "note says nothing of the run by time: $note" ;; esac
# Progress for a CI log: the heartbeat while it runs, one line at its end.
# a CI log's running line: the time, the live max and the limit deciding so far
expect_grep '^\[1/1\] SELF: running, [0-9.]+ s of 3 s, interval max so far [0-9.]+ [nuµm]?s \(interval max <= 10 s\)$' "$TMP/a.err"
expect_grep '^\[1/1\] SELF: pass, interval max .* <= 10 s \(n=[0-9]+\) \([0-9.]+ s\)$' "$TMP/a.err"
expect_no_grep $'\033' "$TMP/a.err"
# The same requirement by count takes what it asks for.
sed 's/duration="3s"/runs="10"/' "$TMP/d.xml" >"$TMP/c.xml"
expect_status 0 "$RTC" run -o "$TMP/c" "$TMP/c.xml"
read -r n _ < <(samples "$TMP/c/results.json")
[ "$n" -eq 2000 ] && ok "by count: 2000 samples" || fail "by count: $n samples, not 2000"

# --duration on the command line overrides the file's runs, every requirement.
expect_status 0 "$RTC" run --quiet --duration 1s -o "$TMP/o" "$TMP/c.xml"
read -r n secs _ < <(samples "$TMP/o/results.json")
[ "$n" -gt 2000 ] && ok "--duration 1s takes more than 2000 samples" || fail "--duration 1s took $n samples"
# --quiet: nothing on stderr.
"$RTC" run -q --duration 1s -o "$TMP/q" "$TMP/c.xml" >/dev/null 2>"$TMP/q.err"
[ ! -s "$TMP/q.err" ] && ok "--quiet prints nothing" || { fail "--quiet printed:"; cat "$TMP/q.err"; }

# Bad values and refused probes: exit 2, nothing written.
expect_status 2 "$RTC" run --duration 24 -o "$TMP/x" "$TMP/c.xml"
expect_grep 'rtconform run: --duration "24": missing unit \(expected s, min or h' "$TMP/out"
expect_status 2 "$RTC" run --duration 8d -o "$TMP/x" "$TMP/c.xml"
expect_grep "unknown unit 'd'" "$TMP/out"
expect_status 2 "$RTC" run --duration 200h -o "$TMP/x" "$TMP/c.xml"
expect_grep 'out of range \(expected 1s \.\. 168h' "$TMP/out"
expect_status 2 "$RTC" run --duration 1h --runs 3 -o "$TMP/x" "$TMP/c.xml"
expect_grep 'give one, not both' "$TMP/out"
expect_status 2 env RTC_PROGRESS_INTERVAL=soon "$RTC" run -o "$TMP/x" "$TMP/c.xml"
expect_grep 'RTC_PROGRESS_INTERVAL="soon"' "$TMP/out"
expect_grep 'RTC_PROGRESS_INTERVAL="soon": not a duration \(expected a number then ns, us, .{1,2}s, ms, s, min or h' "$TMP/out"
# ... the units of --duration too (a minute: no heartbeat in a short run)
env RTC_PROGRESS_INTERVAL=1min "$RTC" run -o "$TMP/x1" "$TMP/c.xml" >"$TMP/out" 2>&1
expect_no_grep 'RTC_PROGRESS_INTERVAL|running, ' "$TMP/out"
# --duration written as two units: the message quotes what was typed
expect_status 2 "$RTC" run --duration 1h30min -o "$TMP/x2" "$TMP/c.xml"
expect_grep "--duration \"1h30min\": '1h30min' is not one number and one unit \(expected a number then s, min or h" "$TMP/out"
expect_no_grep 'h30s|us, ' "$TMP/out"
cat >"$TMP/rr.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="rr">
  <requirement id="SELF"><probe name="selftest"/></requirement>
  <requirement id="RR"><probe name="rr-quantum"/><sched policy="rr" priority="10"/></requirement>
</requirements>
XML
expect_status 2 "$RTC" run --duration 1h -o "$TMP/x" "$TMP/rr.xml"
expect_grep "^rtconform run: --duration: $TMP/rr.xml:3: requirement RR: probe rr-quantum cannot run by time" "$TMP/out"
sed 's/priority="10"\/>/priority="10"\/><run duration="1h"\/>/' "$TMP/rr.xml" >"$TMP/rr2.xml"
expect_status 2 "$RTC" validate "$TMP/rr2.xml"
expect_grep "rr2.xml:3: requirement RR: duration: probe rr-quantum cannot run by time" "$TMP/out"
[ ! -e "$TMP/x" ] && ok "a refused run by time writes no -o directory" || fail "a refused run wrote $TMP/x"
# --only leaves the refused one out, and the run goes on.
expect_status 0 "$RTC" run -q --duration 1s --only SELF -o "$TMP/y" "$TMP/rr.xml"

# A run by time that is interrupted says how far it got in its own terms:
# recorded runs of the run by time, not "N of M runs" of a planned count.
cat >"$TMP/long.xml" <<'XML'
<?xml version="1.0"?>
<requirements xmlns="urn:rtconform:requirements:1" name="long">
  <requirement id="LONG"><probe name="sem-pingpong"/>
    <run iterations="1000" duration="60s" warmup="0"/>
    <limit statistic="max" max="60s"/></requirement>
</requirements>
XML
"$RTC" run -q -o "$TMP/int" "$TMP/long.xml" >"$TMP/int.out" 2>&1 &
pid=$!
wait_for "the run by time to measure" "$START_WAIT" worker_measuring "$pid"
sleep 0.3
kill -INT "$pid"
wait "$pid"; st=$?
[ "$st" -eq 3 ] && ok "an interrupted run by time exits 3" || fail "interrupted run by time: exit $st, expected 3"
expect_grep 'interrupted \(after [0-9]+ recorded runs? of a 60 s run by time\)' "$TMP/int/summary.txt"
expect_no_grep 'of [0-9]+ runs' "$TMP/int/summary.txt"

# Colour on a terminal: the verdict in green; NO_COLOR=1 (any non-empty
# value) turns it off; an empty NO_COLOR does not.
short=(run --iterations 200 --runs 2 -o "$TMP/t" "$TMP/c.xml")
script -qec "'$RTC' ${short[*]}" /dev/null >"$TMP/tty.out" 2>&1
expect_grep $'SELF: \033\\[32mpass\033\\[0m' "$TMP/tty.out"
NO_COLOR=1 script -qec "'$RTC' ${short[*]}" /dev/null >"$TMP/nc.out" 2>&1
expect_grep 'SELF: pass, ' "$TMP/nc.out"
expect_no_grep $'\033\\[3[0-9]m' "$TMP/nc.out"
NO_COLOR= script -qec "'$RTC' ${short[*]}" /dev/null >"$TMP/ec.out" 2>&1
expect_grep $'\033\\[32mpass' "$TMP/ec.out"
# The verdict table on a terminal standard output: its VERDICT column in
# colour (-q: no progress, so the table is all there is), none with NO_COLOR
# or when standard output is a pipe.
script -qec "'$RTC' ${short[*]} -q" /dev/null >"$TMP/tab.out" 2>&1
expect_grep $'  \033\\[32mPASS\033\\[0m' "$TMP/tab.out"
NO_COLOR=1 script -qec "'$RTC' ${short[*]} -q" /dev/null >"$TMP/tabnc.out" 2>&1
expect_grep '  PASS' "$TMP/tabnc.out"
expect_no_grep $'\033' "$TMP/tabnc.out"
"$RTC" "${short[@]}" -q 2>/dev/null | cat >"$TMP/pipe.out"
expect_no_grep $'\033' "$TMP/pipe.out"
# Never colour in the files.
expect_no_grep $'\033' "$TMP/t/summary.txt"
finish
