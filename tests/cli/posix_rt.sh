# SPDX-License-Identifier: Apache-2.0
# The shipped behaviour profile, requirements/profiles/posix-rt.xml: it is
# valid, every requirement is measured (none is an error), and each
# behaviour rule holds on this machine: violations total is 0 for every
# requirement (early and overrun-errors for the timer ones). Only the
# counts are asserted: the profile's latency bounds (priority-inherit's
# inversion, timer-semantics' past-deadline) are figures of the machine,
# not of the code, and are reported, not tested.
. "$(dirname "$0")/lib.sh"
profile="$SRC/requirements/profiles/posix-rt.xml"
if [ "$(id -u)" -ne 0 ]; then
  skip_all "this test runs SCHED_FIFO requirements and must run as root"
fi
expect_status 0 "$RTC" validate "$profile"
expect_grep 'valid \(([0-9]+) requirements\)' "$TMP/out"
n="$(sed -n 's/.*valid (\([0-9]*\) requirements).*/\1/p' "$TMP/out")"
"$RTC" run -o "$TMP/prt" "$profile" >"$TMP/out" 2>&1
st=$?
# A real-time task of someone else's above the probe's priority on a
# selected CPU (another suite's behaviour tests on a shared machine) is an
# error the probes report by design, naming it (docs/probes.md): accepted,
# and that requirement's counts are not judged. Any other error fails.
FOREIGN='real-time task above priority [0-9]+ holds a selected CPU|a task above priority [0-9]+ holds their CPU'
foreign_ids="$(xmllint --xpath '//testcase[error]/@name' "$TMP/prt/junit.xml" 2>/dev/null | grep -o 'name="[^"]*"' | sed 's/name="//; s/[:"].*//')"
nerr=0; nforeign=0
for id in $foreign_ids; do
  nerr=$((nerr + 1))
  testcase_err="$(xpath_str "//testcase[@name='$id' or starts-with(@name, '$id: ')]/error/@message" "$TMP/prt/junit.xml")"
  if [[ "$testcase_err" =~ $FOREIGN ]]; then nforeign=$((nforeign + 1)); echo "# $id: error, a foreign real-time task: $testcase_err"; fi
done
{ [ "$st" -eq 0 ] || [ "$st" -eq 1 ] || { [ "$st" -eq 3 ] && [ "$nerr" -eq "$nforeign" ]; }; } \
  && ok "posix-rt.xml: exit $st, every error ($nforeign) a foreign real-time task" \
  || { fail "posix-rt.xml: exit $st ($nerr errors, $nforeign of a foreign real-time task)"; head -40 "$TMP/out" | diag; }
validate_junit "$TMP/prt/junit.xml" --tests "$n" --errors "$nforeign"
ids="$(grep -o '<requirement id="[^"]*"' "$profile" | sed 's/.*id="//; s/"$//')"
[ "$(echo "$ids" | wc -l)" -eq "$n" ] && ok "every id of posix-rt.xml is found" || fail "ids of posix-rt.xml not found"
# MIGRATE's rule is broken now and then by the kernel on a virtual machine
# (docs/probes.md, rt-migrate): its count is checked to be there, and shown.
# DEADLINE counts misses (shown, like MIGRATE's) and admission errors, the timer requirements
# (timer-semantics) early wake-ups and overrun errors, not violations.
for id in $ids; do
  if [ "$(prop "$id.verdict" "$TMP/prt/junit.xml")" = error ]; then
    echo "# $id: error (above), its counts are not judged"; continue
  fi
  case "$id" in
  DEADLINE)
    for m in misses admission-errors; do
      v="$(prop "DEADLINE.$m.total" "$TMP/prt/junit.xml")"
      if [ "$m" = admission-errors ]; then
        [ "$v" = 0 ] && ok "DEADLINE.$m.total is 0" || fail "DEADLINE.$m.total is '$v', not 0"
      else
        # A job that misses its deadline here is the VM's doing (its vCPUs
        # stall; the same misses come and go with the build of a month
        # before): the count must be there, and is shown, not judged.
        # DEADLINE-OVERRUN below shows the check counts misses.
        [[ "$v" =~ ^[0-9]+$ ]] && ok "DEADLINE.$m.total is reported" || fail "DEADLINE.$m.total is '$v'"
        echo "DEADLINE.$m.total=$v"
      fi
    done ;;
  MIGRATE)
    v="$(prop MIGRATE.violations.total "$TMP/prt/junit.xml")"
    [[ "$v" =~ ^[0-9]+$ ]] && ok "MIGRATE.violations.total is reported" || fail "MIGRATE.violations.total is '$v'"
    echo "MIGRATE.violations.total=$v" ;;
  TIMER*)
    for m in early overrun-errors; do
      [ "$(prop "$id.$m.total" "$TMP/prt/junit.xml")" = 0 ] && ok "$id.$m.total is 0" || fail "$id.$m.total is not 0"
    done ;;
  *)
    [ "$(prop "$id.violations.total" "$TMP/prt/junit.xml")" = 0 ] && ok "$id.violations.total is 0" || fail "$id.violations.total is not 0" ;;
  esac
done
# Traceability (docs/qualification.md): a row for each POSIX.1-2017 clause
# the profile cites, in byte order, each citing requirement with its own
# verdict; the Linux-only requirements cite none (the profile's header).
want_refs="$(grep -o '<clause ref="[^"]*"' "$profile" | sed 's/.*ref="//; s/"$//' | LC_ALL=C sort -u)"
got_refs="$(jq -r '.traceability.clauses[].ref' "$TMP/prt/results.json")"
[ -n "$want_refs" ] && [ "$got_refs" = "$want_refs" ] && ok "a matrix row for each of the $(echo "$want_refs" | wc -l) clauses cited" \
  || { fail "matrix rows differ from the clauses cited:"; diff <(echo "$want_refs") <(echo "$got_refs") | diag; }
got="$(jq -r '[.traceability.untraced[].id] | join(" ")' "$TMP/prt/results.json")"
[ "$got" = "WAKE-FUTEX MIGRATE DEADLINE TIMERFD" ] && ok "the Linux-only requirements cite no clause" || fail "untraced: '$got'"
bad=0
while read -r id v; do
  [ "$(prop "$id.verdict" "$TMP/prt/junit.xml")" = "$v" ] || { bad=$((bad + 1)); echo "# $id: $v in the matrix"; }
done < <(jq -r '.traceability.clauses[].requirements[] | .id + " " + .verdict' "$TMP/prt/results.json")
[ "$bad" -eq 0 ] && ok "each requirement in the matrix has its own verdict" || fail "$bad matrix verdicts differ from junit.xml's"
expect_grep '<h2>Traceability</h2>' "$TMP/prt/report.html"
# Each check can fail: posix-rt-must-fail.xml breaks every rule on purpose,
# and every requirement must FAIL with its count above 0.
broken="$SRC/requirements/profiles/posix-rt-must-fail.xml"
expect_status 1 "$RTC" run -o "$TMP/broken" "$broken"
nb="$(grep -c '<requirement id=' "$broken")"
validate_junit "$TMP/broken/junit.xml" --tests "$nb" --failures "$nb" --errors 0
for id in PREEMPT-INVERT WAKE-ARRIVAL PI-NONE MIGRATE-ASCENDING RR-FIFO; do
  [[ "$(prop "$id.violations.total" "$TMP/broken/junit.xml")" =~ ^[1-9][0-9]*$ ]] && ok "$id.violations.total is above 0" || fail "$id.violations.total is not above 0"
done
[[ "$(prop DEADLINE-OVERRUN.misses.total "$TMP/broken/junit.xml")" =~ ^[1-9][0-9]*$ ]] && ok "DEADLINE-OVERRUN.misses.total is above 0" || fail "DEADLINE-OVERRUN.misses.total is not above 0"
[[ "$(prop TIMER-COARSE.early.total "$TMP/broken/junit.xml")" =~ ^[1-9][0-9]*$ ]] && ok "TIMER-COARSE.early.total is above 0" || fail "TIMER-COARSE.early.total is not above 0"
# TIMER-MISSED's busy stretches miss 2 periods each, 49 stretches in each
# of 3 runs of 500 wake-ups: at least 294 (more when the machine adds some).
v="$(prop TIMER-MISSED.missed.total "$TMP/broken/junit.xml")"
[[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -ge 294 ] && ok "TIMER-MISSED.missed.total $v is at least 294" || fail "TIMER-MISSED.missed.total is '$v', not at least 294"
[ "$(prop TIMER-MISSED.verdict "$TMP/broken/junit.xml")" = fail ] && ok "TIMER-MISSED fails on missed total <= 0" || fail "TIMER-MISSED did not fail"
[[ "$(prop TOUCH.page-faults.total "$TMP/broken/junit.xml")" =~ ^[1-9][0-9]*$ ]] && ok "TOUCH.page-faults.total is above 0" || fail "TOUCH.page-faults.total is not above 0"
finish
