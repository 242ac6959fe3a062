# SPDX-License-Identifier: Apache-2.0
# SIGINT or SIGTERM during a run: workers stopped, a complete and valid report
# written, unfinished requirements marked "interrupted", exit status 3.
. "$(dirname "$0")/lib.sh"
req_file "$TMP/long.xml" long <<XML
  <requirement id="LONG"><probe name="sem-pingpong"/>
    <run iterations="100000000" runs="1" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="NEXT"><probe name="sem-pingpong"/><run iterations="10" runs="1"/>
    <limit statistic="max" max="60s"/></requirement>
XML
for sig in INT TERM; do
  "$RTC" run -o "$TMP/$sig" "$TMP/long.xml" >"$TMP/out" 2>&1 &
  pid=$!
  # signal it while LONG is being measured: its worker has started the peer
  wait_for "SIG$sig: LONG's worker to measure" "$START_WAIT" worker_measuring "$pid"
  kill -"$sig" "$pid"
  wait "$pid"; st=$?
  [ "$st" -eq 3 ] && ok "SIG$sig: exit 3" || fail "SIG$sig: exit $st, expected 3"
  validate_junit "$TMP/$sig/junit.xml" --tests 2 --failures 0 --errors 2 --skipped 0 \
    --property rtconform.interrupted=yes
  [ "$(xpath_count '//testcase' "$TMP/$sig/junit.xml")" = 2 ] && ok "SIG$sig: junit.xml has 2 testcases" || fail "SIG$sig: expected 2 testcases"
  [ "$(xpath_count '//error[contains(@message,"interrupted")]' "$TMP/$sig/junit.xml")" = 2 ] && ok "SIG$sig: both requirements are marked interrupted" \
    || fail "SIG$sig: expected both requirements marked interrupted"
  expect_no_leftovers "SIG$sig"
done
finish
