# SPDX-License-Identifier: Apache-2.0
# MANIFEST.sha256 and rtconform verify DIR: a run writes the manifest of its
# -o directory last (sha256sum -c reads it and passes); verify passes the
# directory as written, and fails naming the file when one byte of any file
# changed or a file is gone, also when results.json was edited together
# with its manifest line (the reports rendered again from it disagree);
# a malformed manifest is refused (2) naming the line; a file the manifest
# does not list is a warning, not a failure (docs/qualification.md).
. "$(dirname "$0")/lib.sh"

command -v sha256sum >/dev/null || { fail "sha256sum is missing (Debian package coreutils)"; finish; }

req_file "$TMP/v.xml" verify "" \
  "$(requirement ST "$(probe selftest)" '<run iterations="2000" runs="1"/>' \
     '<limit statistic="max" max="1ns"/>')"
expect_status 1 "$RTC" run -q --trace -o "$TMP/run" --csv "$TMP/run/csv" "$TMP/v.xml"
M="$TMP/run/MANIFEST.sha256"
[ -f "$M" ] && ok "the run wrote MANIFEST.sha256" || fail "the run wrote MANIFEST.sha256"
expect_grep '^[0-9a-f]{64}  results.json$' "$M"
expect_grep '^[0-9a-f]{64}  junit.xml$' "$M"
expect_grep '^[0-9a-f]{64}  csv/index.csv$' "$M"
expect_no_grep 'MANIFEST|\.rtconform\.lock|journal' "$M"
if LC_ALL=C sort -c -k2 "$M" 2>/dev/null; then ok "the manifest is sorted"; else fail "the manifest is sorted"; fi
have_trace=false
if grep -Eq '  trace-ST\.txt$' "$M"; then have_trace=true; ok "the saved trace is listed"; fi
expect_status 0 sh -c "cd '$TMP/run' && sha256sum --strict -c MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/run"
expect_grep 'OK: [0-9]+ files' "$TMP/out"

# fresh DIR: a copy of the run's directory to tamper with
fresh() { rm -rf "$TMP/t"; cp -a "$TMP/run" "$TMP/t"; }
# flip FILE: one byte of it changed (its middle byte, xor 1)
flip() {
  python3 - "$1" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 1
open(p, "wb").write(b)
PY
}
files="results.json report.html junit.xml summary.txt csv/runs.csv"
! $have_trace || files="$files trace-ST.txt"
for f in $files; do
  fresh
  flip "$TMP/t/$f"
  expect_status 1 "$RTC" verify "$TMP/t"
  expect_grep "t/$f: changed" "$TMP/out"
  expect_grep 'FAILED: [1-9][0-9]* problems? \(a file missing, changed or disagreeing with results.json: above\)' "$TMP/out"
done

fresh
rm "$TMP/t/report.html"
expect_status 1 "$RTC" verify "$TMP/t"
expect_grep 't/report.html: missing' "$TMP/out"

# a listed file replaced by a symbolic link to the same bytes: not the file
fresh
mv "$TMP/t/summary.txt" "$TMP/summary-elsewhere.txt"
ln -s "$TMP/summary-elsewhere.txt" "$TMP/t/summary.txt"
expect_status 1 "$RTC" verify "$TMP/t"
expect_grep 't/summary.txt: a symbolic link, not the file the manifest lists on line [0-9]+' "$TMP/out"

# a listed file's directory replaced by a symbolic link to a copy of it
# (the same bytes): read through it verify read outside DIR, and passed;
# now the link is named and fails (safeopen_below), and no file's bytes are
# read elsewhere: nor one of a hard-to-see link to /etc
fresh
mv "$TMP/t/csv" "$TMP/csv-elsewhere"
ln -s "$TMP/csv-elsewhere" "$TMP/t/csv"
expect_status 1 "$RTC" verify "$TMP/t"
expect_grep 't/csv/index.csv: its directory csv is a symbolic link, not the file the manifest lists on line [0-9]+' "$TMP/out"
rm -rf "$TMP/csv-elsewhere"

# a listed file or the manifest that is a FIFO, or a listed file that is a
# directory: named at once, never waited for (issue 38: verify blocked for
# good); the manifest a symbolic link: refused, not followed
for kind in fifo dir; do
  fresh
  rm "$TMP/t/summary.txt"
  if [ $kind = fifo ]; then mkfifo "$TMP/t/summary.txt"; what='a FIFO'; else mkdir "$TMP/t/summary.txt"; what='a directory'; fi
  expect_status 1 timeout 10 "$RTC" verify "$TMP/t"
  expect_grep "t/summary.txt: not a regular file \\($what\\), not the file the manifest lists on line [0-9]+" "$TMP/out"
  expect_grep 'FAILED: 1 problem ' "$TMP/out"
done
fresh
rm "$TMP/t/MANIFEST.sha256"; mkfifo "$TMP/t/MANIFEST.sha256"
expect_status 2 timeout 10 "$RTC" verify "$TMP/t"
expect_grep 't/MANIFEST.sha256: not a regular file \(a FIFO\)' "$TMP/out"
fresh
mv "$TMP/t/MANIFEST.sha256" "$TMP/manifest-elsewhere"
ln -s "$TMP/manifest-elsewhere" "$TMP/t/MANIFEST.sha256"
expect_status 2 "$RTC" verify "$TMP/t"
expect_grep 't/MANIFEST.sha256: not a regular file \(a symbolic link\)' "$TMP/out"

# results.json edited and its manifest line made to match: the hashes
# hold, the reports rendered again from it do not
fresh
sed -i 's/"host.kernel.release": "/&9.9-edited-/' "$TMP/t/results.json"
sum=$(sha256sum "$TMP/t/results.json" | cut -d' ' -f1)
sed -i "s/^[0-9a-f]\{64\}  results.json\$/$sum  results.json/" "$TMP/t/MANIFEST.sha256"
expect_status 0 sh -c "cd '$TMP/t' && sha256sum --strict -c MANIFEST.sha256"
expect_status 1 "$RTC" verify "$TMP/t"
expect_grep 't/(junit.xml|report.html|summary.txt): disagrees with results.json' "$TMP/out"
expect_no_grep ': changed' "$TMP/out"

# a malformed manifest: refused, naming the line
fresh
echo 'not a manifest line' >>"$TMP/t/MANIFEST.sha256"
n=$(wc -l <"$TMP/t/MANIFEST.sha256")
expect_status 2 "$RTC" verify "$TMP/t"
expect_grep "MANIFEST.sha256:$n: malformed" "$TMP/out"
fresh
sed -i '1s/  .*/  ..\/escape/' "$TMP/t/MANIFEST.sha256"
expect_status 2 "$RTC" verify "$TMP/t"
expect_grep 'MANIFEST.sha256:1: malformed: .*not a relative path' "$TMP/out"
fresh
sed -n 2p "$TMP/t/MANIFEST.sha256" >>"$TMP/t/MANIFEST.sha256"
expect_status 2 "$RTC" verify "$TMP/t"
expect_grep 'malformed: .* listed again \(first on line 2\)' "$TMP/out"
fresh
rm "$TMP/t/MANIFEST.sha256"
expect_status 2 "$RTC" verify "$TMP/t"
expect_grep 'no manifest' "$TMP/out"
expect_status 2 "$RTC" verify "$TMP/nowhere"
expect_status 2 "$RTC" verify

# a file the manifest does not list: named, a warning only
fresh
echo note >"$TMP/t/notes.txt"
expect_status 0 "$RTC" verify "$TMP/t"
expect_grep 'warning: .*t/notes.txt: not in the manifest' "$TMP/out"

# a report written outside the directory is not in its manifest
req_file "$TMP/p.xml" pass "" \
  "$(requirement ST "$(probe selftest)" '<run iterations="2000" runs="1"/>' \
     '<limit statistic="max" max="10s"/>')"
expect_status 0 "$RTC" run -q -o "$TMP/run2" --junit "$TMP/elsewhere.xml" "$TMP/p.xml"
expect_no_grep 'junit' "$TMP/run2/MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/run2"
# --sign and the signatures verify accepts: tests/cli/sign.sh

# results.json written elsewhere: the reports in the directory are checked
# by their digests; a stale results.json there (not the run's) is not used
mkdir -p "$TMP/run4"
cp "$TMP/run/results.json" "$TMP/run4/results.json"
expect_status 0 "$RTC" run -q -o "$TMP/run4" --json "$TMP/run4.json" "$TMP/p.xml"
expect_no_grep 'results.json' "$TMP/run4/MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/run4"
expect_grep 'run4/results.json: not in the manifest' "$TMP/out"
expect_grep 'the manifest lists no results.json: the reports are checked by their digests only' "$TMP/out"

# a run that writes nothing into -o DIR leaves that directory's manifest
mkdir -p "$TMP/other" "$TMP/else"
echo keep >"$TMP/other/MANIFEST.sha256"
expect_status 0 "$RTC" run -q -o "$TMP/other" --junit "$TMP/else/j.xml" --summary "$TMP/else/s.txt" \
  --html "$TMP/else/r.html" --json "$TMP/else/r.json" "$TMP/p.xml"
[ "$(cat "$TMP/other/MANIFEST.sha256")" = keep ] && ok "a run writing elsewhere leaves -o DIR's manifest" \
  || fail "a run writing elsewhere leaves -o DIR's manifest"

# merge -o and compare -o write the manifest of their set too; verify
# checks a fleet's by digests (its results.json is no run's) and a
# comparison's (no results.json) the same way
expect_status 1 "$RTC" merge "$TMP/run2/results.json" "$TMP/run/results.json" -o "$TMP/fleet"
for f in fleet.html junit.xml results.json; do expect_grep "^[0-9a-f]{64}  $f\$" "$TMP/fleet/MANIFEST.sha256"; done
expect_status 0 sh -c "cd '$TMP/fleet' && sha256sum --strict -c MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/fleet"
expect_grep "a fleet's \(rtconform merge\): its reports are checked by their digests only" "$TMP/out"
flip "$TMP/fleet/fleet.html"
expect_status 1 "$RTC" verify "$TMP/fleet"
expect_grep 'fleet/fleet.html: changed' "$TMP/out"
"$RTC" compare "$TMP/run2/results.json" "$TMP/run2/results.json" -o "$TMP/cmp" >/dev/null 2>&1
for f in compare.txt compare.html junit.xml; do expect_grep "^[0-9a-f]{64}  $f\$" "$TMP/cmp/MANIFEST.sha256"; done
expect_status 0 sh -c "cd '$TMP/cmp' && sha256sum --strict -c MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/cmp"
flip "$TMP/cmp/compare.txt"
expect_status 1 "$RTC" verify "$TMP/cmp"
expect_grep 'cmp/compare.txt: changed' "$TMP/out"

# linear in the manifest's length (issue 38: an 80,000-line manifest took
# 16-21 s, each line checked against every line before it, each file on
# disk looked up in the whole list). Work is judged by how it grows, not by
# a time alone: 8 times the lines may take 8 times as long, not 64 times
# (a bound of 24 leaves room for a busy machine). mkbig DIR N [files]: N
# lines, the last listing the first again (malformed: the whole list is
# read and checked, no file opened); with files, N distinct lines and each
# file there, empty.
mkbig() {
  python3 - "$@" <<'PY'
import os, sys
d, n, files = sys.argv[1], int(sys.argv[2]), len(sys.argv) > 3
os.makedirs(d)
e = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
names = ["f%07d.txt" % i for i in range(n)]
with open(os.path.join(d, "MANIFEST.sha256"), "w") as f:
    f.writelines("%s  %s\n" % (e, x) for x in names)
    if not files:
        f.write("%s  %s\n" % (e, names[0]))
for x in names if files else []:
    open(os.path.join(d, x), "w").close()
PY
}
# best_ms DIR WANT: the fastest of three verify runs of DIR (ms), each
# exiting WANT (else said on stderr)
best_ms() {
  local best=0 t0 t1 st i
  for i in 1 2 3; do
    t0=$(now_us); st=0; "$RTC" verify "$1" >"$TMP/big.out" 2>&1 || st=$?; t1=$(now_us)
    [ "$st" = "$2" ] || { echo "verify $1 exited $st, not $2" >&2; tail -3 "$TMP/big.out" >&2; }
    if [ $best = 0 ] || [ $(( (t1 - t0) / 1000 )) -lt $best ]; then best=$(( (t1 - t0) / 1000 )); fi
  done
  echo $(( best > 0 ? best : 1 ))
}
# linear N1 N2 MS1 MS2 WHAT: MS2 (N2 lines) at most 3 * N2/N1 times MS1,
# and under 20 s
linear() {
  if [ $(( $4 * $1 )) -le $(( 3 * $3 * $2 )) ] && [ "$4" -lt 20000 ]; then
    ok "verify of $5 is linear: $1 lines $3 ms, $2 lines $4 ms"
  else
    fail "verify of $5 is not linear: $1 lines $3 ms, $2 lines $4 ms (at most $(( 3 * $2 / $1 ))x wanted)"
  fi
}
mkbig "$TMP/big10k" 10000; mkbig "$TMP/big80k" 80000
a=$(best_ms "$TMP/big10k" 2); b=$(best_ms "$TMP/big80k" 2)
expect_grep 'MANIFEST.sha256:80001: malformed: .f0000000.txt. listed again \(first on line 1\)' "$TMP/big.out"
linear 10000 80000 "$a" "$b" "a manifest (read, checked for repeats)"
rm -rf "$TMP/big10k" "$TMP/big80k"
mkbig "$TMP/big10k" 10000 files; mkbig "$TMP/big80k" 80000 files
a=$(best_ms "$TMP/big10k" 0); b=$(best_ms "$TMP/big80k" 0)
expect_grep 'big80k: OK: 80000 files as the manifest lists them' "$TMP/big.out"
linear 10000 80000 "$a" "$b" "a directory of as many files (hashed, looked up)"
rm -rf "$TMP/big10k" "$TMP/big80k"

# probe -o DIR and a killed run's reports made again from its journal
# (report DIR) are vouched for as run's are: the manifest written last,
# and verify passes the directory (issue 41)
expect_status 0 "$RTC" probe selftest --iterations 1000 -o "$TMP/probe"
expect_grep '^[0-9a-f]{64}  results.json$' "$TMP/probe/MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/probe"
req_file "$TMP/kill.xml" kill "" \
  "$(requirement FIRST "$(probe selftest)" '<run iterations="1000" runs="1"/>')" \
  "$(requirement LONG "$(probe sem-pingpong)" '<run iterations="1000" duration="60s"/>')"
"$RTC" run --interval 1s -o "$TMP/killed" "$TMP/kill.xml" >/dev/null 2>"$TMP/killed.err" &
sup=$!
first_done() { grep -q '^\[1/2\] FIRST' "$TMP/killed.err" && [ -e "$TMP/killed/journal/log" ]; }
wait_for "the killed run's first requirement to finish" "$END_WAIT" first_done
kill -KILL "$sup" 2>/dev/null
wait "$sup" 2>/dev/null
wait_for "the killed run's worker to end" "$END_WAIT" no_marked_procs
expect_status 3 "$RTC" report "$TMP/killed"
expect_grep '^[0-9a-f]{64}  report\.html$' "$TMP/killed/MANIFEST.sha256"
expect_status 0 "$RTC" verify "$TMP/killed"
expect_grep 'OK: [0-9]+ files' "$TMP/out"

# no output may take the manifest's name
expect_status 2 "$RTC" run -q -o "$TMP/run3" --junit "$TMP/run3/MANIFEST.sha256" "$TMP/p.xml"
expect_grep "overwritten by the run's manifest" "$TMP/out"
expect_status 2 "$RTC" run -q -o "$TMP/run3" --lava "$TMP/run3/MANIFEST.sha256" "$TMP/p.xml"
expect_grep 'names what rtconform keeps for itself' "$TMP/out"
finish
