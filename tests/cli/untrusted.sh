# SPDX-License-Identifier: Apache-2.0
# The hostile results.json corpus (tests/fixtures/hostile/cases.tsv, its
# README says the rule) through every reader: report with every writer, compare with the
# file as baseline, as candidate and against itself, and merge. A file named
# refused-*.json is refused by each with status 2 and a message naming it,
# and nothing is written; every other file is read. No reader crashes, hangs
# or trips a sanitizer on any of them (ctest runs this test in the
# AddressSanitizer + UBSan build too). What each case must look like when it
# is read is the business of the test named beside it in
# docs/failure-modes.md.
. "$(dirname "$0")/lib.sh"

BASE="$FIX/results/pass.json"
# generous: an ASan build on a busy machine reads pass.json in well under 5 s
LIMIT=120

# run_reader NAME CMD...: run CMD with a time limit, output in $TMP/out;
# sets $st. A crash, a hang or a sanitizer report fails at once.
run_reader() {
  local what="$1"; shift
  st=0
  timeout "$LIMIT" "$@" >"$TMP/out" 2>&1 || st=$?
  if [ "$st" -eq 124 ]; then
    fail "$what: still running after ${LIMIT} s"
  elif [ "$st" -ge 128 ]; then
    fail "$what: killed by signal $((st - 128))"; head -20 "$TMP/out" | diag
  elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$TMP/out"; then
    fail "$what: sanitizer report"; grep -m5 -E 'Sanitizer|runtime error:' "$TMP/out" | diag
    st=255
  fi
}

# nothing_in DIR WHAT: DIR does not exist or is empty
nothing_in() {
  if [ -z "$(ls -A "$1" 2>/dev/null)" ]; then ok "$2: nothing written"
  else fail "$2: wrote $(ls -A "$1" | tr '\n' ' ')"; fi
}

# report_all FILE NAME OUT: report FILE with every writer into OUT
report_all() {
  local out="$3"
  mkdir -p "$out"
  run_reader "report $2" "$RTC" report "$1" --html "$out/r.html" --json "$out/r.json" \
    --junit "$out/j.xml" --summary "$out/s.txt" --csv "$out/csv" --lava "$out/l.txt"
}

# refused_by_all FILE NAME MESSAGE: every reader refuses FILE, naming it;
# report's refusal holds MESSAGE
refused_by_all() {
  local f="$1" n="$2" want="$3" out="$TMP/o-$2"
  report_all "$f" "$n" "$out"
  [ "$st" -eq 2 ] && ok "report refuses $n" || { fail "report on $n exits $st, expected 2"; head -5 "$TMP/out" | diag; }
  expect_grep "$n" "$TMP/out"
  if grep -qF -- "$want" "$TMP/out"; then ok "$n: its message names $want"
  else fail "$n: its message lacks $want"; diag <"$TMP/out"; fi
  nothing_in "$out" "report $n"
  run_reader "compare $n as candidate" "$RTC" compare "$BASE" "$f" -o "$out/c"
  [ "$st" -eq 2 ] && ok "compare refuses $n as candidate" || fail "compare base $n exits $st, expected 2"
  expect_grep "$n" "$TMP/out"
  run_reader "compare $n as baseline" "$RTC" compare "$f" "$BASE" -o "$out/c"
  [ "$st" -eq 2 ] && ok "compare refuses $n as baseline" || fail "compare $n base exits $st, expected 2"
  nothing_in "$out" "compare $n"
  run_reader "merge $n" "$RTC" merge -o "$out/m" "$BASE" "$f"
  [ "$st" -eq 2 ] && ok "merge refuses $n" || fail "merge with $n exits $st, expected 2"
  expect_grep "$n" "$TMP/out"
  nothing_in "$out" "merge $n"
}

read_by_all() {
  local f="$1" n="$2" out="$TMP/o-$2"
  report_all "$f" "$n" "$out"
  [ "$st" -eq 0 ] && ok "report reads $n" || { fail "report on $n exits $st, expected 0"; head -5 "$TMP/out" | diag; }
  # what report wrote from it reads back
  if [ -s "$out/r.json" ]; then
    run_reader "report of the re-written $n" "$RTC" report "$out/r.json" --summary "$out/s2.txt"
    [ "$st" -eq 0 ] && ok "the results.json written from $n reads" || fail "the results.json written from $n: exit $st"
  fi
  run_reader "compare $n with itself" "$RTC" compare "$f" "$f"
  case "$st" in 0|1) ok "compare $n with itself: exit $st";; *) fail "compare $n with itself exits $st"; head -5 "$TMP/out" | diag;; esac
  local dir
  for dir in "$BASE $f" "$f $BASE"; do
    # shellcheck disable=SC2086
    run_reader "compare $dir" "$RTC" compare $dir -o "$out/c"
    [ "$st" -le 2 ] && ok "compare ($n): exit $st" || fail "compare ($n): exit $st"
  done
  run_reader "merge $n" "$RTC" merge -o "$out/m" "$BASE" "$f"
  case "$st" in 0|1|3) ok "merge reads $n: exit $st";; *) fail "merge with $n exits $st"; head -5 "$TMP/out" | diag;; esac
  # the fleet results.json is JSON (a value a builder refused once left a hole)
  if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/m/results.json" 2>/dev/null
  then ok "merge with $n writes a results.json that is JSON"
  else fail "merge with $n: its results.json is not JSON"; fi
  harmless_pages "$n" "$out"/r.html "$out"/c/compare.html "$out"/m/fleet.html
}

# harmless_pages NAME PAGE...: the pages run no script and link nowhere but
# into themselves (#...) or to relative paths rtconform made (./...)
harmless_pages() {
  local n="$1" p; shift
  for p in "$@"; do
    [ -s "$p" ] || { fail "$n: $(basename "$p") not written"; continue; }
    if grep -qiE '<script|<[a-z][^>]* on[a-z]+=' "$p"; then
      fail "$n: $(basename "$p") holds a script or an event handler"
    else ok "$n: no script in $(basename "$p")"; fi
    if grep -oiE '(href|src)="[^"]*"' "$p" | grep -qviE '^(href|src)="(#|\./)'; then
      fail "$n: $(basename "$p") links outside itself: $(grep -oiE '(href|src)="[^"]*"' "$p" | grep -viE '^(href|src)="(#|\./)' | head -3 | tr '\n' ' ')"
    else ok "$n: $(basename "$p") links only to #... and ./..."; fi
  done
}

# the corpus (tests/fixtures/hostile/cases.tsv written out): each row read or
# refused as its exit status says, a refusal holding the row's message; it
# must hold both kinds, or this test proves nothing
hostile_corpus
ok "cases.tsv makes $(wc -l <"$H.list") files"
nrefused=0 nread=0
while IFS=$'\t' read -r n want_st want; do
  case "$want_st" in
    2) nrefused=$((nrefused + 1)); refused_by_all "$H/$n" "$n" "$want" ;;
    *) nread=$((nread + 1)); read_by_all "$H/$n" "$n" ;;
  esac
done <"$H.list"
[ "$nrefused" -gt 0 ] && ok "the corpus has $nrefused files to refuse" || fail "no refused-*.json in cases.tsv"
[ "$nread" -gt 0 ] && ok "the corpus has $nread hostile files to read" || fail "no readable hostile file in cases.tsv"

# the percentiles' confidence intervals of confidence-kept.json (pass.json
# with the intervals a run writes; the refused-confidence-* rows are made
# from it) come out of report's results.json as they went in
run_reader "report confidence-kept.json" "$RTC" report "$H/confidence-kept.json" \
  --json "$TMP/conf1.json"
run_reader "report its results.json" "$RTC" report "$TMP/conf1.json" --json "$TMP/conf2.json"
if python3 - "$H/confidence-kept.json" "$TMP/conf2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ms = lambda d: [m.get("confidence") for f in d["files"] for r in f["requirements"] for m in r["metrics"]]
sys.exit(0 if ms(a) == ms(b) and any(ms(a)) else 1)
PY
then ok "confidence-kept.json's intervals are written again as they were read"
else fail "confidence-kept.json's intervals changed through report"; fi

# the base itself reads: a refusal above is about the one field changed
read_by_all "$BASE" pass.json
finish
