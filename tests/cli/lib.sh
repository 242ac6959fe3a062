# Shared helpers for the CLI integration tests. Each test is run by ctest as
#   bash tests/cli/NAME.sh BUILD/rtconform SOURCE_DIR SHARED_DIR
set -u
RTC="$1"
SRC="$2"
SHARED="$3"
FIX="$SRC/tests/fixtures"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FAILS=0
CHECKS=0
# Every process a test starts inherits this mark (workers keep it across
# their exec), so leftovers of this test are found and nobody else's.
export RTC_TEST_MARK="rtc-cli-$$-$RANDOM"

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { CHECKS=$((CHECKS + 1)); }

# expect_status WANT CMD... : run CMD, stdout+stderr to $TMP/out, check status
expect_status() {
  local want="$1"; shift
  "$@" >"$TMP/out" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ]; then
    fail "'$*' exited $got, expected $want; output:"; sed 's/^/    /' "$TMP/out" | head -40
  else
    ok
  fi
}

# expect_grep PATTERN FILE : FILE contains PATTERN (extended regex)
expect_grep() {
  if grep -Eq -- "$1" "$2"; then ok; else fail "'$2' lacks /$1/"; sed 's/^/    /' "$2" | head -30; fi
}
expect_no_grep() {
  if grep -Eq -- "$1" "$2"; then fail "'$2' has /$1/"; else ok; fi
}

# validate_junit FILE : valid against both shared JUnit schemas
validate_junit() {
  for xsd in "$SHARED/schemas/junit/jenkins-junit.xsd" "$SHARED/schemas/junit/junit-10.xsd"; do
    if [ ! -f "$xsd" ]; then fail "schema $xsd is missing"; continue; fi
    if xmllint --noout --schema "$xsd" "$1" >"$TMP/xmllint" 2>&1; then ok; else
      fail "$1 does not validate against $(basename "$xsd")"; sed 's/^/    /' "$TMP/xmllint" | head -20
    fi
  done
}

# xpath_count EXPR FILE : number of nodes (xmllint --xpath count())
xpath_count() {
  xmllint --xpath "count($1)" "$2" 2>/dev/null
}

# marked_procs : pids (other than this shell and its subshells) carrying our mark
marked_procs() {
  local d pid
  for d in /proc/[0-9]*; do
    pid="${d#/proc/}"
    [ "$pid" = "$$" ] || [ "$pid" = "$BASHPID" ] && continue
    if { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qx "RTC_TEST_MARK=$RTC_TEST_MARK"; then
      # a tr/grep of this very scan has gone by the time it is listed
      [ -d "$d" ] && grep -q "^PPid:[[:space:]]*$BASHPID\$" "$d/status" 2>/dev/null && continue
      echo "$pid"
    fi
  done
}
# expect_no_leftovers WHAT : no rtconform, worker, peer or load of this test is left
expect_no_leftovers() {
  sleep 0.2
  local l
  l="$(marked_procs)"
  if [ -n "$l" ]; then
    fail "$1: processes left: $(ps -o pid,ppid,stat,comm -p "$(echo $l | tr ' ' ,)" | tail -n +2)"
  else
    ok
  fi
}

finish() {
  echo "$CHECKS passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
  exit $?
}
