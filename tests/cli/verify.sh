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
  expect_grep 'FAILED' "$TMP/out"
done

fresh
rm "$TMP/t/report.html"
expect_status 1 "$RTC" verify "$TMP/t"
expect_grep 't/report.html: missing' "$TMP/out"

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
# no output may take the manifest's name
expect_status 2 "$RTC" run -q -o "$TMP/run3" --junit "$TMP/run3/MANIFEST.sha256" "$TMP/p.xml"
expect_grep "overwritten by the run's manifest" "$TMP/out"
expect_status 2 "$RTC" run -q -o "$TMP/run3" --lava "$TMP/run3/MANIFEST.sha256" "$TMP/p.xml"
expect_grep 'names what rtconform keeps for itself' "$TMP/out"
finish
