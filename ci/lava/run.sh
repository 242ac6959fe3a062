#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The steps of ci/lava/rtconform.yaml: install the rtconform package, run a
# profile, and report each line of `rtconform run --lava` with
# lava-test-case when LAVA's helper is there (else print the lines). A
# failing or unmeasurable requirement is reported and the script goes on;
# it exits non-zero only when nothing could be reported (an invalid
# profile, a package that does not install).
#
# Environment (the test definition's parameters):
#   PROFILE     shipped profile name or requirements file (default: default)
#   QUICK       "true": --quick
#   BACKGROUND  stress-ng arguments for a load during the run; empty: none
#   DEB         path or http(s) URL of the .deb to install; empty: none
#   LABEL       --host-label for the reports; empty: the host name
#   OUT         report directory (default ./rtconform-results)
#   RTCONFORM   an rtconform to use as it is, installing nothing (the
#               build tree's, for tests)
#
# Every parameter is data: PROFILE goes after `--` and one starting with
# '-' is refused (a file of that name is ./-name). A LAVA job timeout ends
# the script with SIGTERM: the trap stops what it started (stress-ng and
# rtconform, each in a process group of its own, so their children go too),
# waits for them and exits 128 + the signal; at any other exit it stops
# them as well.
set -uo pipefail
PROFILE="${PROFILE:-default}"
QUICK="${QUICK:-false}"
BACKGROUND="${BACKGROUND:-}"
DEB="${DEB:-}"
LABEL="${LABEL:-}"
OUT="${OUT:-./rtconform-results}"

say() { echo "rtconform-lava: $*"; }

# The process groups this script started (a job's pid is its group's id:
# each starts with job control on, see start_group).
groups=()
# start_group VAR CMD... : CMD in the background in a process group of its
# own; its pid into VAR.
start_group() {
  local var="$1"; shift
  set -m
  "$@" &
  printf -v "$var" '%s' "$!"
  set +m
  groups+=("${!var}")
}
# stop_group PGID : TERM to the group, KILL to what is left of it after
# 10 s, then reap its leader.
stop_group() {
  local pg="$1" i
  kill -TERM -- "-$pg" 2>/dev/null || { wait "$pg" 2>/dev/null; return 0; }
  for ((i = 0; i < 100; i++)); do
    kill -0 -- "-$pg" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$pg" 2>/dev/null
  wait "$pg" 2>/dev/null
  return 0
}
stop_all() {
  local pg
  for pg in "${groups[@]}"; do stop_group "$pg"; done
  groups=()
}
on_signal() { # NAME NUMBER
  trap - TERM INT HUP
  say "stopped by SIG$1: stopping what this script started"
  stop_all
  exit $((128 + $2))
}
trap 'on_signal TERM 15' TERM
trap 'on_signal INT 2' INT
trap 'on_signal HUP 1' HUP
trap stop_all EXIT

install_package() {
  local deb="$DEB"
  if [ -z "$deb" ]; then return 0; fi
  if [[ "$deb" == http://* || "$deb" == https://* ]]; then
    local tmp; tmp="$(mktemp -d)"
    deb="$tmp/rtconform.deb"
    if command -v wget >/dev/null; then wget -q -O "$deb" "$DEB"; else curl -fsSL -o "$deb" "$DEB"; fi \
      || { say "cannot download $DEB"; return 1; }
  fi
  case "$deb" in /*) ;; *) deb="./$deb" ;; esac
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "$deb" || { say "cannot install $deb"; return 1; }
}

# report NAME RESULT [VALUE UNIT]: one test case.
report() {
  if command -v lava-test-case >/dev/null; then
    if [ $# -ge 4 ]; then
      lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
    else
      lava-test-case "$1" --result "$2"
    fi
  else
    echo "$*"
  fi
}

if [ -n "${RTCONFORM:-}" ]; then
  RTC="$RTCONFORM"
else
  install_package || exit 1
  RTC="$(command -v rtconform)" || { say "rtconform is not installed (set DEB)"; exit 1; }
fi

case "$PROFILE" in
  -*) say "PROFILE '$PROFILE' starts with '-': it is a profile name or a file, never an option (a file of that name is ./$PROFILE)"
      report rtconform-run fail
      exit 1 ;;
esac
args=(run -o "$OUT" --lava "$OUT/lava.txt")
[ "$QUICK" = "true" ] && args+=(--quick)
[ -n "$LABEL" ] && args+=(--host-label "$LABEL")
args+=(-- "$PROFILE")
mkdir -p -- "$OUT"
rm -f -- "$OUT/lava.txt"

load=""
if [ -n "$BACKGROUND" ]; then
  command -v stress-ng >/dev/null || { say "BACKGROUND is set but stress-ng is not installed"; exit 1; }
  # shellcheck disable=SC2086 # BACKGROUND is a list of arguments
  start_group load stress-ng $BACKGROUND --timeout 0 >"$OUT/stress-ng.log" 2>&1
  say "background load: stress-ng $BACKGROUND (pid $load)"
fi
# In the background, so that a signal runs its trap at once (bash runs a
# trap only once the foreground command has ended; wait ends early).
start_group run "$RTC" "${args[@]}"
status=0
wait "$run" || status=$?
stop_all
say "rtconform exited $status"

if [ ! -f "$OUT/lava.txt" ]; then
  say "no results were written (exit status $status)"
  report rtconform-run fail
  exit 1
fi
while IFS= read -r line; do
  case "$line" in
    "#"*) line="${line#\#}"; say "${line# }" ;;   # the build or a reason: the log only
    "") ;;
    *)
      # shellcheck disable=SC2086 # a line is NAME RESULT [VALUE UNIT]
      report $line ;;
  esac
done <"$OUT/lava.txt"
exit 0
