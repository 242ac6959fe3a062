#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtconform-run.sh CMD... : the role runs rtconform through this, so that
# a run never outlives the task that started it. CMD runs in a process
# group of its own (rtconform, its worker and the worker's peers); the
# group is stopped (TERM, KILL after 10 s) and waited for
#   - on TERM, INT or HUP to this script, which then exits 128 + the signal;
#   - when the process that started this script (the Ansible module) ends
#     before CMD does: Ansible killed the task, or its worker went;
#   - at any other exit.
# Otherwise the exit status is CMD's. While it runs, rtconform-run.pid
# beside it holds its pid: the role waits for the file to go before it
# removes the directory, which the stopped rtconform still writes its
# reports into.
set -u
parent="$PPID"
pg=""
pidfile="$(dirname "$0")/rtconform-run.pid"
echo "$$" >"$pidfile"
stop_run() {
  [ -n "$pg" ] || return 0
  local i
  kill -TERM -- "-$pg" 2>/dev/null
  for ((i = 0; i < 100; i++)); do
    kill -0 -- "-$pg" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$pg" 2>/dev/null
  wait "$pg" 2>/dev/null
  pg=""
}
on_signal() { # NAME NUMBER
  trap - TERM INT HUP
  echo "rtconform-run: stopped by SIG$1: stopping rtconform" >&2
  stop_run
  exit $((128 + $2))
}
trap 'on_signal TERM 15' TERM
trap 'on_signal INT 2' INT
trap 'on_signal HUP 1' HUP
trap 'stop_run; rm -f "$pidfile"' EXIT
set -m
"$@" &
pg=$!
set +m
# The parent is looked at once a second: this script's parent changes
# (to a reaper) when the one that started it ends.
while kill -0 "$pg" 2>/dev/null; do
  ppid="$(awk '{ print $4 }' "/proc/$$/stat" 2>/dev/null)"
  if [ -n "$ppid" ] && [ "$ppid" != "$parent" ]; then
    echo "rtconform-run: the task that started rtconform has ended: stopping rtconform" >&2
    stop_run
    exit 1
  fi
  sleep 1 &
  wait $! 2>/dev/null
done
status=0
wait "$pg" || status=$?
pg=""
exit "$status"
