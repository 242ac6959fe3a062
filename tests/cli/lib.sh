# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the CLI integration tests. Each test is run by ctest as
#   bash tests/cli/NAME.sh BUILD/rtconform SOURCE_DIR
# and needs nothing outside the source and build trees.
#
# A test prints TAP (https://testanything.org): one line per check,
# "ok N - NAME" or "not ok N - NAME" followed by "# " diagnostic lines, and
# the plan "1..N" at the end (finish). A test whose prerequisite is missing
# (not root, too few CPUs) prints "1..0 # SKIP reason" and exits 77, which
# ctest reports as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt).
set -u
RTC="$1"
SRC="$2"
FIX="$SRC/tests/fixtures"
TMP="$(mktemp -d)"
# lib_exit: what every test does last (the EXIT trap; a script that sets
# its own EXIT trap calls it at the end of it): remove $TMP, then close the
# output and wait for the TAP filter below, so that a test has printed all
# it prints when it exits (a caller reading its output at once, as
# junit.sh does of a nested test, would otherwise find it half written).
lib_exit() {
  rm -rf "$TMP"
  exec >&- 2>&-
  [ -z "${TAP_FILTER:-}" ] || wait "$TAP_FILTER" 2>/dev/null || true
}
trap lib_exit EXIT
FAILS=0
CHECKS=0
SKIP_STATUS=77
# Everything the test prints goes through this filter, so that whatever a
# check shows after its "not ok" line (a command's output, a log) is a TAP
# diagnostic line. Started before RTC_TEST_MARK is set: it is not one of the
# test's processes (TAP_FILTER is its pid; see own_children).
exec > >(exec awk '/^(ok [0-9]|not ok [0-9]|1\.\.[0-9]|#|Bail out!)/ { print; fflush(); next }
                   { print "# " $0; fflush() }') 2>&1
TAP_FILTER=$!
# Every process a test starts inherits this mark (workers keep it across
# their exec), so leftovers of this test are found and nobody else's.
export RTC_TEST_MARK="rtc-cli-$$-$RANDOM"

# The checks: each is numbered (CHECKS + FAILS so far, plus one) and named.
# A check's name says in words what holds when it passes ("junit.xml has 2
# testcases"); when it fails, its message is that name, or the name with
# what was found ("junit.xml has 2 testcases (it has 3)").
# fail MSG... : a check that failed; MSG says what was wrong. Whatever the
#   caller prints next is its diagnostic.
# ok NAME : a check that passed, named NAME. Every script names each of its
#   checks: tests/cli/docs.sh fails on a bare `ok` (unnamed_oks). Only as a
#   safety net an `ok` without NAME is named by the line that called it
#   ("unnamed: SCRIPT:LINE: the line's text", shortened).
# diag : stdin as TAP diagnostic lines, indented under "# ".
tap_n() { echo $((CHECKS + FAILS + 1)); }
fail() { echo "not ok $(tap_n) - $*"; FAILS=$((FAILS + 1)); }
ok() {
  local name="$*"
  if [ -z "$name" ]; then
    local file="${BASH_SOURCE[1]:-?}" line="${BASH_LINENO[0]:-0}" text=""
    [ -r "$file" ] && text="$(sed -n "${line}p" "$file" | sed -E 's/^[[:space:]]+//; s/[[:space:]]*(&&|then|else)[[:space:]]+ok([^[:alnum:]_].*)?$//')"
    [ "${#text}" -le 100 ] || text="${text:0:97}..."
    name="unnamed: ${file##*/}:$line: $text"
  fi
  echo "ok $(tap_n) - $name"
  CHECKS=$((CHECKS + 1))
}
# unnamed_oks FILE... : the lines ("FILE:LINE:text") of the shell scripts
# FILE that call ok without a name: `ok` as a command word followed by
# nothing, `;`, `&&`, `||`, `}`, `)` or a line continuation. Comment lines
# are not looked at.
unnamed_oks() {
  grep -HnE '(^|[[:space:];&|{])ok[[:space:]]*($|[;&|})\\])' "$@" | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#'
}
diag() { sed 's/^/#     /'; }

# skip_all REASON : the rest of this test cannot run here because a
# prerequisite is missing (not root, too few CPUs): exit 77, which ctest
# shows as skipped. Before any check it prints "1..0 # SKIP REASON"; after
# checks that all passed, one "ok N - REASON # SKIP" and the plan. Never for
# a failure: after a failed check it finishes as failed.
skip_all() {
  if [ "$FAILS" -ne 0 ]; then echo "# cannot go on: $*"; finish; fi
  if [ "$CHECKS" -eq 0 ]; then
    echo "1..0 # SKIP $*"
  else
    echo "ok $(tap_n) - the rest # SKIP $*"
    CHECKS=$((CHECKS + 1))
    echo "1..$CHECKS"
  fi
  exit "$SKIP_STATUS"
}
# skip NAME REASON : one check that cannot be made here (a missing kernel
# feature), shown as "ok N - NAME # SKIP REASON"; the test goes on.
skip() { echo "ok $(tap_n) - $1 # SKIP $2"; CHECKS=$((CHECKS + 1)); }

# expect_status WANT CMD... : run CMD, stdout+stderr to $TMP/out, check
# status. Named "CMD exits WANT" (the command as given, arguments shortened
# to their last path component past 60 characters).
cmd_name() {
  local a out=""
  for a in "$@"; do
    case "$a" in */*) a="${a##*/}" ;; esac
    [ "${#a}" -le 60 ] || a="${a:0:57}..."
    out="$out${out:+ }$a"
  done
  echo "$out"
}
expect_status() {
  local want="$1" got=0; shift
  "$@" >"$TMP/out" 2>&1 || got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$(cmd_name "$@") exits $want (it exited $got); output:"; head -40 "$TMP/out" | diag
  else
    ok "$(cmd_name "$@") exits $want"
  fi
}

# expect_grep PATTERN FILE : FILE contains PATTERN (extended regex)
expect_grep() {
  if grep -Eq -- "$1" "$2"; then ok "${2##*/} has /$1/"; else fail "${2##*/} has /$1/ ($2 lacks it):"; head -30 "$2" | diag; fi
}
expect_no_grep() {
  if grep -Eq -- "$1" "$2"; then fail "${2##*/} lacks /$1/ ($2 has it):"; grep -E -m 5 -- "$1" "$2" | diag; else ok "${2##*/} lacks /$1/"; fi
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
  local what="${f#"$TMP"/}"
  if [ ! -s "$f" ]; then fail "$what was written"; return; fi
  if xmllint --noout --nonet --schema "$JUNIT_XSD" "$f" >"$TMP/xmllint" 2>&1; then
    ok "$what validates against junit.xsd"
  else
    fail "$what validates against junit.xsd:"; head -20 "$TMP/xmllint" | diag
  fi
  if [ -z "$JUNIT_PY" ]; then
    fail "cannot check $f: no python3 with junitparser (tried ${RTC_PYTHON:-/usr/bin/python3 python3}; ci/deps installs python3-junitparser)"
    return
  fi
  if "$JUNIT_PY" "$JUNIT_CHECK" "$f" "$@" >"$TMP/junit_check" 2>&1; then
    ok "junit_check $what $*"
  else
    fail "junit_check $what $*:"; head -20 "$TMP/junit_check" | diag
  fi
}

# prop NAME FILE : the value of junit.xml property NAME, or of field KEY
# of a compound property for NAME PROP.KEY (TOUCH.page-faults.total;
# tests/junit_check.py --get); empty when there is none.
prop() {
  [ -n "$JUNIT_PY" ] || { fail "prop $1: no python3 with junitparser (ci/deps installs python3-junitparser)"; return; }
  "$JUNIT_PY" "$JUNIT_CHECK" "$2" --get "$1" 2>/dev/null || true
}

# expect_fact NAME ERE FILE : NAME's value (prop NAME FILE: a suite
# property, a test case's line, or a requirement's fact in the results.json
# beside FILE, where junit.xml no longer carries it) matches ERE.
expect_fact() {
  local v; v="$(prop "$1" "$3")"
  if [[ "$v" =~ $2 ]]; then ok "$1 matches /$2/"; else fail "$1 is '$v', not /$2/ (${3#"$TMP"/})"; fi
}

# wait_for WHAT TIMEOUT_S CMD... : run CMD (quietly) every 20 ms until it
# succeeds. A test waits for an event this way, never for a fixed time: a
# slow machine only waits longer. Past TIMEOUT_S (whole seconds) it fails,
# naming WHAT, and returns 1.
# START_WAIT: how long (s) a test waits for a worker to start (to measure,
# to hang, to be there at all). A sanitizer build on a busy 2-core machine
# took close to 30 s; the run such a test stops has a timeout far beyond it
# (300 s), so the stop always comes before the timeout. A run that starts
# at once waits no longer for it.
START_WAIT=120
# RUN_WAIT: how long (s) a test waits for a whole run it started in the
# background to write its reports: cli.robust's 1500 requirements took over
# 60 s in the sanitizer build under ci/busy. END_WAIT: how long it waits for
# a process to end once the event that ends it has come (SIGTERM to a run
# blocked on its output, a supervisor's death for its worker); the event is
# what is tested, how soon a loaded machine schedules the exit is not.
RUN_WAIT=600
END_WAIT=60
now_us() { echo "${EPOCHREALTIME//[.,]/}"; }
wait_for() {
  local what="$1" limit="$2"; shift 2
  local deadline=$(( $(now_us) + limit * 1000000 ))
  while :; do
    if "$@" >/dev/null 2>&1; then ok "$what (within $limit s)"; return 0; fi
    if [ "$(now_us)" -gt "$deadline" ]; then fail "waited $limit s for $what"; return 1; fi
    sleep 0.02
  done
}

# worker_of PID : the measuring worker of rtconform PID: its child running
# rtconform-worker (comm is cut to 15 characters). Nothing if there is none.
# The supervisor also runs `rtconform-worker --capabilities` for a moment
# (host/facts.c asks what the worker will be allowed): that child is not
# the worker. Under a sanitizer on a busy machine it lives long enough to be
# found, and a test that killed it left the real worker to its timeout.
worker_of() {
  local p
  for p in $(pgrep -P "$1" -x 'rtconform-worke'); do
    tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- '--capabilities' && continue
    [ -e "/proc/$p" ] && { echo "$p"; return 0; }
  done
}
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

# render_tools : each of chromium, pdftotext and pdftoppm that is missing is
# a failure naming its Debian package; false when one is. The pages are
# checked as people see them, rendered (tests/cli/html_render.sh,
# tests/cli/across_render.sh).
render_tools() {
  local tool missing=0
  for tool in chromium:chromium pdftotext:poppler-utils pdftoppm:poppler-utils; do
    if ! command -v "${tool%%:*}" >/dev/null; then
      fail "${tool%%:*} is not installed (Debian package ${tool#*:}; ci/deps installs it)"
      missing=1
    fi
  done
  [ "$missing" = 0 ]
}
# chrome ARGS... : headless Chromium with nothing of its own (a fresh
# profile, no network services); its output to $TMP/chrome.log.
chrome() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$TMP/profile.XXXXXX")" "$@" >"$TMP/chrome.log" 2>&1
}

# xpath_count EXPR FILE : number of nodes (xmllint --xpath count())
xpath_count() {
  xmllint --xpath "count($1)" "$2" 2>/dev/null
}
# xpath_str EXPR FILE : the string value of EXPR (xmllint --xpath string())
xpath_str() {
  xmllint --xpath "string($1)" "$2" 2>/dev/null
}

# testcase_msg ID J : the failure message of requirement ID in junit.xml J
testcase_msg() {
  xpath_str "//testcase[@name='$1' or starts-with(@name, '$1: ')]/failure/@message" "$2"
}
# expect_count_judged J ID METRIC MAX : ID's count METRIC total is reported
# in junit.xml J and judged by its limit "total <= MAX": above MAX, ID
# failed and its failure names "METRIC total V > MAX"; else that limit is
# not among ID's failures. For a count that depends on the machine (RR
# slices over two quanta on a busy VM): how it is judged does not.
expect_count_judged() {
  local j="$1" id="$2" m="$3" max="$4" v verdict msg
  v="$(prop "$id.$m.total" "$j")"
  if ! [[ "$v" =~ ^[0-9]+$ ]]; then fail "$id.$m.total is reported (it is '$v')"; return; fi
  verdict="$(prop "$id.verdict" "$j")"
  msg="$(testcase_msg "$id" "$j")"
  echo "# $id.$m.total=$v, verdict $verdict${msg:+: $msg}"
  if [ "$v" -gt "$max" ]; then
    [ "$verdict" = fail ] && [[ "$msg" == *"$m total $v > $max"* ]] \
      && ok "$id: $m total $v > $max is judged a failure" \
      || fail "$id: $m total $v > $max is judged a failure (verdict '$verdict', failure '$msg')"
  else
    { [ "$verdict" = pass ] || [ "$verdict" = fail ]; } && [[ "$msg" != *"$m total"* ]] \
      && ok "$id: $m total $v <= $max is not a failure" \
      || fail "$id: $m total $v <= $max is not a failure (verdict '$verdict', failure '$msg')"
  fi
}

# Requirements documents. A test writes its documents with these, not with
# a header of its own, so that every document starts the same way:
# req_file FILE NAME [DEFAULTS [ELEMENT...]] : write FILE ("-": stdout), the
#   requirements document NAME:
#     line 1   <requirements xmlns="urn:rtconform:requirements:1" name="NAME" version="1">
#     line 2   <defaults DEFAULTS/>   (only when DEFAULTS is not empty)
#     then     each ELEMENT on a line of its own, or, with no ELEMENT,
#              stdin as it is (a heredoc, a loop, `requirement` calls)
#     last     </requirements>
#   The version is 1, or REQ_VERSION when that is set (REQ_VERSION=2
#   req_file ...); REQ_VERSION= (empty) leaves the attribute out. A test
#   that greps "FILE:LINE:" counts its lines from this layout.
#   (req_file_text NAME [DEFAULTS [ELEMENT...]] is the same text on stdout.)
# requirement ID PROBE [CHILD...] : one requirement element on stdout,
#   indented for req_file: `  <requirement id="ID">PROBE`, then each CHILD
#   that is not empty (its <sched>, <run>, <load>, <limit> elements) on a
#   line of its own, indented 4, the last closed by </requirement>:
#     requirement TW "$(probe timer-wakeup)" '<limit statistic="max" max="1ms"/>'
#   gives
#       <requirement id="TW"><probe name="timer-wakeup"/>
#         <limit statistic="max" max="1ms"/></requirement>
# probe NAME [PARAM=VALUE...] : the element <probe name="NAME"/>, or with
#   parameters <probe name="NAME"><param name="PARAM">VALUE</param>...</probe>
#   (split at the first '='; VALUE is written as given, not escaped).
req_file() {
  local file="$1"
  shift
  if [ "$file" = - ]; then req_file_text "$@"; else req_file_text "$@" >"$file"; fi
}
req_file_text() {
  local name="$1" defaults="${2:-}" version="${REQ_VERSION-1}"
  shift $(($# < 2 ? $# : 2))
  echo "<requirements xmlns=\"urn:rtconform:requirements:1\" name=\"$name\"${version:+ version=\"$version\"}>"
  [ -z "$defaults" ] || echo "  <defaults $defaults/>"
  if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi
  echo "</requirements>"
}
requirement() {
  local out="  <requirement id=\"$1\">$2" child
  shift 2
  for child in "$@"; do
    [ -z "$child" ] || out="$out
    $child"
  done
  echo "$out</requirement>"
}
probe() {
  local name="$1" kv params=""
  shift
  for kv in "$@"; do params="$params<param name=\"${kv%%=*}\">${kv#*=}</param>"; done
  if [ -z "$params" ]; then echo "<probe name=\"$name\"/>"; else echo "<probe name=\"$name\">$params</probe>"; fi
}

# req_doc NAME BODY : $TMP/NAME.xml, a requirements document NAME (no
# version) with one requirement R whose content is BODY (the <probe> and
# what follows it), BODY on line 3.
req_doc() {
  REQ_VERSION= req_file "$TMP/$1.xml" "$1" "" "  <requirement id=\"R\">" "    $2" "  </requirement>"
}

# refused NAME BODY WHY [LINE] : `rtconform validate` refuses the document
# NAME whose requirement R is BODY (req_doc; BODY starts on line 3): it
# exits 2, and its message names the file, LINE (3 unless given) and the
# requirement, then says WHY (an extended regex):
# "FILE:LINE: requirement R: WHY".
refused() {
  req_doc "$1" "$2"
  expect_status 2 "$RTC" validate "$TMP/$1.xml"
  expect_grep "^$TMP/$1.xml:${4:-3}: requirement R: $3" "$TMP/out"
}
# refused_params PROBE NAME PARAMS WHY [MORE] : refused, for requirement R
# <probe name="PROBE">PARAMS</probe> followed by MORE (its sched, limits),
# on the probe's line: "FILE:3: requirement R: probe PROBE: WHY".
refused_params() {
  refused "$2" "<probe name=\"$1\">$3</probe>${5:+
    $5}" "probe $1: $4"
}

# own_children : the children of this test's shell (pid, stat, comm), but
# the TAP filter and the ps that lists them.
own_children() {
  ps -o pid=,stat=,comm= --ppid $$ >"$TMP/own_children"
  grep -v -e ' ps$' -e "^ *$TAP_FILTER " "$TMP/own_children"
}

# unpriv_copy : copy what a user other than root runs (rtconform,
# rtconform-worker, rtconform-nop) to $TMP/ubin, readable and runnable by
# everyone, and set URTC to its rtconform. The build tree may be where only
# its owner can enter (a clone in a mode-0700 directory, as mktemp -d
# makes); $TMP (under /tmp) is opened to everyone for that, and is removed
# with everything in it when the test ends. Files such a user reads must be
# copied under $TMP too (mode 644).
unpriv_copy() {
  local d="$TMP/ubin" f
  chmod 755 "$TMP"
  mkdir -p "$d" && chmod 755 "$d"
  for f in rtconform rtconform-worker rtconform-nop; do
    cp "$(dirname "$RTC")/$f" "$d/$f" && chmod 755 "$d/$f" || fail "cannot copy $f to $d"
  done
  URTC="$d/rtconform"
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
  if [ -n "$l" ]; then echo "left: $(ps -o pid,ppid,stat,comm -p "$(echo $l | tr ' ' ,)" | tail -n +2)" | diag; fi
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

# hostile_corpus : the hostile results.json corpus, every row of
# tests/fixtures/hostile/cases.tsv written out (tests/cli/derive_hostile.py),
# in $H ($TMP/hostile), and its cases in $H.list: NAME<TAB>EXIT<TAB>MESSAGE
# per line. A table that cannot be written out fails the test at once.
hostile_corpus() {
  H="$TMP/hostile"
  mkdir -p "$H"
  python3 "$SRC/tests/cli/derive_hostile.py" "$FIX/hostile/cases.tsv" "$FIX" "$H" >"$H.list" \
    || { fail "derive_hostile.py cannot write tests/fixtures/hostile/cases.tsv out"; finish; }
}

# finish : the plan and a count; exit 0 when every check passed.
finish() {
  echo "1..$((CHECKS + FAILS))"
  echo "# $CHECKS passed, $FAILS failed"
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
