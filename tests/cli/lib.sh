# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the CLI integration tests. Each test is run by ctest as
#   bash tests/cli/NAME.sh BUILD/rtconform SOURCE_DIR
# and needs nothing outside the source and build trees.
set -u
RTC="$1"
SRC="$2"
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
  local want="$1" got=0; shift
  "$@" >"$TMP/out" 2>&1 || got=$?
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

# The project's own JUnit schema (what CI consumers accept of rtconform's
# junit.xml) and checker (a real consumer: junitparser reads it).
JUNIT_XSD="$SRC/tests/schemas/junit.xsd"
JUNIT_CHECK="$SRC/tests/junit_check.py"
# junit_python : an interpreter that can import junitparser, or nothing.
# RTC_PYTHON if set; else Debian's (python3-junitparser installs there),
# then the python3 on PATH.
junit_python() {
  local py
  for py in ${RTC_PYTHON:-/usr/bin/python3 python3}; do
    if command -v "$py" >/dev/null && "$py" -c 'import junitparser' 2>/dev/null; then
      command -v "$py"; return 0
    fi
  done
  return 1
}
JUNIT_PY="$(junit_python || true)"

# validate_junit FILE [CHECK-OPTIONS...] : FILE is valid against
# tests/schemas/junit.xsd (xmllint), and junit_check.py finds its totals
# consistent and as CHECK-OPTIONS expect (--tests N --failures N --errors N
# --skipped N --property NAME[=VALUE]; see tests/junit_check.py).
validate_junit() {
  local f="$1"; shift
  if [ ! -s "$f" ]; then fail "$f was not written"; return; fi
  if xmllint --noout --nonet --schema "$JUNIT_XSD" "$f" >"$TMP/xmllint" 2>&1; then ok; else
    fail "$f does not validate against tests/schemas/junit.xsd:"; sed 's/^/    /' "$TMP/xmllint" | head -20
  fi
  if [ -z "$JUNIT_PY" ]; then
    fail "cannot check $f: no python3 with junitparser (tried ${RTC_PYTHON:-/usr/bin/python3 python3}; ci/deps installs python3-junitparser)"
    return
  fi
  if "$JUNIT_PY" "$JUNIT_CHECK" "$f" "$@" >"$TMP/junit_check" 2>&1; then ok; else
    fail "junit_check.py $f $*:"; sed 's/^/    /' "$TMP/junit_check" | head -20
  fi
}

# prop NAME FILE : the value of junit.xml property NAME, or of field KEY
# of a compound property for NAME PROP.KEY (TOUCH.page-faults.total;
# tests/junit_check.py --get); empty when there is none.
prop() {
  [ -n "$JUNIT_PY" ] || { fail "prop $1: no python3 with junitparser (ci/deps installs python3-junitparser)"; return; }
  "$JUNIT_PY" "$JUNIT_CHECK" "$2" --get "$1" 2>/dev/null || true
}

# wait_for WHAT TIMEOUT_S CMD... : run CMD (quietly) every 20 ms until it
# succeeds. A test waits for an event this way, never for a fixed time: a
# slow machine only waits longer. Past TIMEOUT_S (whole seconds) it fails,
# naming WHAT, and returns 1.
now_us() { echo "${EPOCHREALTIME//[.,]/}"; }
wait_for() {
  local what="$1" limit="$2"; shift 2
  local deadline=$(( $(now_us) + limit * 1000000 ))
  while :; do
    if "$@" >/dev/null 2>&1; then ok; return 0; fi
    if [ "$(now_us)" -gt "$deadline" ]; then fail "waited $limit s for $what"; return 1; fi
    sleep 0.02
  done
}

# worker_of PID : the measuring worker of rtconform PID: its child running
# rtconform-worker (comm is cut to 15 characters). Nothing if there is none.
worker_of() { pgrep -P "$1" -x 'rtconform-worke' | head -1; }
# threads_of PID : how many threads PID has (0 once it is gone)
threads_of() { ls "/proc/$1/task" 2>/dev/null | wc -l; }
# worker_measuring PID : rtconform PID's worker is inside a probe that has
# a peer: it has started its peer process or a second thread (sem-pingpong's
# peer, timer-wakeup's measuring threads). Neither exists during set-up.
worker_measuring() {
  local w
  w="$(worker_of "$1")"
  [ -n "$w" ] || return 1
  [ -n "$(pgrep -P "$w")" ] || [ "$(threads_of "$w")" -ge 2 ]
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
no_marked_procs() { [ -z "$(marked_procs)" ]; }
# expect_no_leftovers WHAT : no rtconform, worker, peer or load of this test
# is left. A process that is on its way out (killed with its parent) is
# given time to go; one still there after 30 s is left behind.
expect_no_leftovers() {
  wait_for "$1: processes to end" 30 no_marked_procs && return 0
  local l
  l="$(marked_procs)"
  if [ -n "$l" ]; then echo "    left: $(ps -o pid,ppid,stat,comm -p "$(echo $l | tr ' ' ,)" | tail -n +2)"; fi
  return 1
}

# help_options CMD : the options `rtconform CMD --help` declares, one a
# line, by the rule completion/rtconform.bash follows: its synopsis (from
# "usage:" to the first blank line) and its option lines (blanks, then '-'),
# never its prose.
help_options() {
  "$RTC" "$1" --help | awk '/^usage:/ { u = 1 } /^$/ { u = 0 } u || /^ +-/' \
    | grep -oE -- '(^|[][ ,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[][ ,]//' | sort -u
}

# preload LIB... : an LD_PRELOAD value that brings LIB into $RTC and the
# worker it execs; a sanitizer build's runtimes must come first among the
# preloaded objects, so they lead.
preload() {
  echo "$(ldd "$RTC" | awk '/libasan|libubsan/ { printf "%s ", $3 }')$*"
}

finish() {
  echo "$CHECKS passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
  exit $?
}

# build_id : VER and COMMIT of $RTC, as `rtconform --version` names them
# ("rtconform 0.1.0 (commit 4429df1e77e3)"; a sanitizer build adds
# "; sanitizer build: ..." after the commit).
build_id() {
  local line
  line="$("$RTC" --version | head -1)"
  VER="$(echo "$line" | awk '{ print $2 }')"
  COMMIT="$(echo "$line" | sed -E 's/.*\(commit ([^;)]*).*/\1/')"
}
