# SPDX-License-Identifier: Apache-2.0
# Shipped profiles by name: `run NAME`, `validate NAME`, `list NAME` and
# `list --profiles`; an existing file of that name wins; a name that is
# neither is exit status 2 with the shipped names listed (docs/install.md).
. "$(dirname "$0")/lib.sh"
PROFILES="$SRC/requirements/profiles"
cd "$TMP"

# list --profiles: every shipped file once, default first, with its count
expect_status 0 "$RTC" list --profiles
for f in "$PROFILES"/*.xml; do
  n="$(basename "$f" .xml)"
  expect_grep "^$n +[0-9]+ requirements  " "$TMP/out"
  # its expected run time, labelled as what it is (harness/estimate.h)
  expect_grep "^$n +[0-9]+ requirements  about +[1-9][0-9]* s \(estimate\)  " "$TMP/out"
done
[ "$(grep -c ' requirements  ' "$TMP/out")" = "$(ls "$PROFILES"/*.xml | wc -l)" ] && ok "list --profiles: one line per shipped profile" \
  || fail "list --profiles: one line per shipped profile expected"
[ "$(head -1 "$TMP/out" | awk '{print $1}')" = default ] && ok "default is listed first" || fail "default is not listed first"
expect_grep "^spy-memo +2 requirements  about +[0-9]+ s \(estimate\)  SPY memo" "$TMP/out"
# the longer profile is estimated longer: timer's 4 requirements wake up
# every period for seconds; spy-memo's 2 take 10 runs of fast round trips
est() { awk -v n="$1" '$1 == n { print $5 }' "$TMP/out"; }
[ "$(est timer)" -gt "$(est spy-memo)" ] && ok "list --profiles estimates timer ($(est timer) s) above spy-memo ($(est spy-memo) s)" \
  || fail "list --profiles estimates timer ($(est timer) s) not above spy-memo ($(est spy-memo) s)"
expect_grep "the others are in $PROFILES" "$TMP/out"

# validate and list by name: the shipped file's own path is reported
expect_status 0 "$RTC" validate creation spy-memo
expect_grep "^$PROFILES/creation.xml: valid" "$TMP/out"
expect_grep "^$PROFILES/spy-memo.xml: valid \(2 requirements\)" "$TMP/out"
expect_status 0 "$RTC" list spy-memo
expect_grep '^SEM-RT +sem-pingpong' "$TMP/out"

# run by name measures the shipped file (pass or fail: the machine decides)
st=0; "$RTC" run --quick --only SEM-OTHER -o "$TMP/o1" spy-memo >"$TMP/out" 2>&1 || st=$?
[ "$st" -le 1 ] && ok "run spy-memo exits 0 or 1" || { fail "run spy-memo exited $st"; cat "$TMP/out"; }
expect_grep "$PROFILES/spy-memo.xml" "$TMP/o1/results.json"
expect_grep 'SEM-OTHER' "$TMP/o1/summary.txt"

# an unknown name: status 2, the shipped names listed, nothing written
expect_status 2 "$RTC" run -o "$TMP/o2" spy-mem0
expect_grep "^spy-mem0: no such file, and no shipped profile of that name \(shipped profiles, in $PROFILES: default, creation, .*spy-memo, timer\)" "$TMP/out"
[ ! -e "$TMP/o2" ] && ok "an unknown profile name writes no report" || fail "an unknown profile name wrote reports"

# A path is always a path: ".xml" or a '/' is never looked up by name ...
expect_status 2 "$RTC" validate spy-memo.xml
expect_no_grep 'shipped profile' "$TMP/out"
expect_status 2 "$RTC" validate ./spy-memo
expect_no_grep 'shipped profile' "$TMP/out"
# ... and an existing file wins over a shipped name
cp "$FIX/cli/pass.xml" "$TMP/spy-memo"
expect_status 0 "$RTC" validate spy-memo
expect_grep '^spy-memo: valid' "$TMP/out"
expect_no_grep 'SEM-RT' "$TMP/out"

# list FILE: the columns are as wide as their longest entry, so an id over
# 16 characters or a probe over 14 keeps every line in step
req_file "$TMP/wide.xml" wide "" \
  "$(requirement A-VERY-LONG-REQUIREMENT-ID "$(probe priority-inherit)" '<limit statistic="max" max="1s"/>')" \
  "$(requirement B "$(probe selftest)" '<limit statistic="max" max="1s"/>')"
expect_status 0 "$RTC" list "$TMP/wide.xml"
expect_grep '^A-VERY-LONG-REQUIREMENT-ID priority-inherit other  ' "$TMP/out"
expect_grep '^B                          selftest         other  ' "$TMP/out"
expect_grep '^                           limit \(default\) max <= 1s$' "$TMP/out"

# list --profiles: a profile of one requirement is "1 requirement", in the
# same columns (an installed tree with a profile of one of its own)
mkdir -p "$TMP/inst/bin" "$TMP/inst/libexec/rtconform" "$TMP/inst/share/rtconform/profiles"
cp "$RTC" "$TMP/inst/bin/"
cp "$(dirname "$RTC")/rtconform-worker" "$(dirname "$RTC")/rtconform-nop" "$TMP/inst/libexec/rtconform/"
req_file "$TMP/inst/share/rtconform/profiles/one.xml" one "" \
  "$(requirement A "$(probe selftest)" '<limit statistic="max" max="1s"/>')"
cp "$PROFILES/spy-memo.xml" "$TMP/inst/share/rtconform/profiles/"
expect_status 0 "$TMP/inst/bin/rtconform" list --profiles
expect_grep '^one +1 requirement   about ' "$TMP/out"
expect_grep '^spy-memo +2 requirements  about ' "$TMP/out"
finish
