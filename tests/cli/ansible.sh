# SPDX-License-Identifier: Apache-2.0
# ci/ansible: the playbook installs the package on every host of an
# inventory, runs a profile under each host's label, fetches results.json
# and merges them on the controller. Two hosts here, both the local machine
# (ansible_connection=local) under different labels; the package is built
# from this build tree (cpack) and unpacked into a directory per host
# (rtconform_install: extract), so the machine is left as it was found.
# What the controller keeps goes under ./rtconform-ansible of the directory
# the playbook runs in, never into ci/ansible; a host without a named
# working directory runs in a temporary one the role removes.
. "$(dirname "$0")/lib.sh"
# Started in ci/ansible (or anywhere in the sources), the playbook writes
# ./rtconform-ansible there: git must ignore it wherever it is (review 24:
# `git status` showed its rtconform-ansible/ in ci/ansible), as run's
# ./rtconform-results. Only in a git checkout of the sources.
if command -v git >/dev/null && git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  for d in rtconform-ansible/fleet/fleet.html ci/ansible/rtconform-ansible/fetched/h/results.json \
           ci/ansible/rtconform-results/junit.xml; do
    git -C "$SRC" check-ignore -q --no-index "$d" && ok "git ignores $d" || fail "git does not ignore $d"
  done
  git -C "$SRC" check-ignore -q --no-index ci/ansible/site.yml && fail "git ignores ci/ansible/site.yml" \
    || ok "git does not ignore ci/ansible/site.yml"
fi
for t in ansible-playbook:ansible-core cpack:cmake dpkg-deb:dpkg python3:python3; do
  command -v "${t%%:*}" >/dev/null || { fail "${t%%:*} is missing (Debian package ${t#*:}; ci/deps installs it)"; finish; }
done
BUILD="$(dirname "$RTC")"
if ! cpack --config "$BUILD/CPackConfig.cmake" -B "$TMP/pkg" -G DEB >"$TMP/cpack.log" 2>&1; then
  fail "cpack failed:"; cat "$TMP/cpack.log"; finish
fi
DEB="$(ls "$TMP"/pkg/rtconform_*.deb 2>/dev/null | head -1)"
[ -n "$DEB" ] || { fail "cpack made no .deb:"; cat "$TMP/cpack.log"; finish; }

cat >"$TMP/inventory.ini" <<INI
[rtconform]
board-1 ansible_connection=local rtconform_label=lab-rack1-a rtconform_workdir=$TMP/h1
board-2 ansible_connection=local rtconform_label=lab-rack1-b rtconform_tmpdir=$TMP/hosttmp
../escaped ansible_connection=local rtconform_label=lab-escaped-1 rtconform_workdir=$TMP/h3
..+escaped ansible_connection=local rtconform_label=lab-escaped-2 rtconform_workdir=$TMP/h4

[all:vars]
ansible_python_interpreter=$(command -v python3)
INI
# the profile as a file, the same on both "hosts"
cp "$FIX/cli/pass.xml" "$TMP/profile.xml"
# nothing of ansible's own (~/.ansible) outside the test either
mkdir -p "$TMP/home"
export HOME="$TMP/home" ANSIBLE_LOCAL_TEMP="$TMP/ansible-local" ANSIBLE_REMOTE_TEMP="$TMP/ansible-remote"
printf '[defaults]\n' >"$TMP/ansible.cfg" # none of the user's settings
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_CONFIG="$TMP/ansible.cfg"
# The controller's outputs by default: run from a directory of its own
# ($TMP/ctl), with no fetch or fleet directory given.
CTL="$TMP/ctl"
FETCHED="$CTL/rtconform-ansible/fetched"
mkdir -p "$CTL" "$TMP/hosttmp"
# what ci/ansible holds before the run (no file of a run may join it)
tree_of() { (cd "$SRC/ci/ansible" && find . | sort); }
tree_of >"$TMP/ansible-tree.before"
# a results.json an earlier run left in the fetch directory, of a host this
# run does not measure: never merged
mkdir -p "$FETCHED"
"$RTC" run "$FIX/cli/pass.xml" -q --host-label stale-board -o "$FETCHED/board-9" >/dev/null 2>&1
[ -f "$FETCHED/board-9/results.json" ] && ok "a stale results.json is planted in the fetch directory" || fail "no stale results.json planted"
if (cd "$CTL" && ansible-playbook -i "$TMP/inventory.ini" "$SRC/ci/ansible/site.yml" \
    -e rtconform_install=extract -e "rtconform_deb=$DEB" -e "rtconform_profile=$TMP/profile.xml" \
    -e rtconform_quick=true -e "rtconform_merge_bin=$RTC") >"$TMP/play.log" 2>&1; then
  ok "ansible-playbook runs site.yml to the end"
else
  fail "ansible-playbook runs site.yml to the end:"; tail -40 "$TMP/play.log"; finish
fi
tree_of | diff "$TMP/ansible-tree.before" - >"$TMP/ansible-tree.diff" \
  && ok "the run left nothing in ci/ansible" || { fail "the run left files in ci/ansible:"; diag <"$TMP/ansible-tree.diff"; }
[ -s "$CTL/rtconform-ansible/fleet/fleet.html" ] && ok "the fleet report is in ./rtconform-ansible/fleet of the playbook's directory" \
  || fail "the fleet report is in ./rtconform-ansible/fleet of the playbook's directory ($CTL)"

# each host ran the unpacked package, not the build tree's rtconform:
# board-1 in the working directory it names, which is kept; board-2 in a
# temporary directory under its rtconform_tmpdir, which the role removed
bin="$TMP/h1/prefix/usr/bin/rtconform"
[ -x "$bin" ] && ok "the package is unpacked for host 1 and kept in its rtconform_workdir" \
  || fail "the package is unpacked for host 1 and kept in its rtconform_workdir ($bin)"
expect_grep "\"command\": \"$bin run " "$FETCHED/board-1/results.json"
expect_grep "\"command\": \"$TMP/hosttmp/rtconform\.[^/]+/prefix/usr/bin/rtconform run " "$FETCHED/board-2/results.json"
[ -z "$(ls -A "$TMP/hosttmp")" ] && ok "the role removed host 2's temporary directory" \
  || { fail "the role removed host 2's temporary directory; left:"; ls -lA "$TMP/hosttmp" | diag; }
F="$CTL/rtconform-ansible/fleet"
expect_grep '<th><a href="\./\.\./fetched/board-1/report\.html">lab-rack1-a</a></th>' "$F/fleet.html"
expect_grep '<th><a href="\./\.\./fetched/board-2/report\.html">lab-rack1-b</a></th>' "$F/fleet.html"
validate_junit "$F/junit.xml" --tests 8
expect_grep '<testsuite name="lab-rack1-a" ' "$F/junit.xml"
expect_grep '<testsuite name="lab-rack1-b" ' "$F/junit.xml"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
hosts = sorted(h["summary"]["host"] for h in d["hosts"])
assert hosts == ["lab-escaped-1", "lab-escaped-2", "lab-rack1-a", "lab-rack1-b"], hosts
assert d["duplicates"] == [], d["duplicates"]
' "$F/results.json" && ok "the fleet results.json holds the four hosts" || fail "the fleet results.json holds the four hosts"
expect_grep 'lab-rack1-a: every requirement passed' "$TMP/play.log"
expect_no_grep 'stale-board' "$F/fleet.html"
expect_no_grep 'stale-board' "$F/junit.xml"

# Host names become file names by one rule: '../escaped' and '..+escaped'
# land inside the fetch directory, each in a directory of its own (the
# cleaned name and a hash of the original), never outside it
[ ! -e "$CTL/rtconform-ansible/escaped" ] && ok "host ../escaped wrote nothing outside the fetch directory" \
  || { fail "host ../escaped wrote outside the fetch directory:"; ls -lR "$CTL/rtconform-ansible/escaped" | diag; }
esc="$(grep -l '"host.label": "lab-escaped-1"' "$FETCHED"/*/results.json 2>/dev/null)"
[[ "$esc" =~ ^$FETCHED/_\._escaped-[0-9a-f]{12}/results\.json$ ]] && ok "host ../escaped's results are in fetched/_._escaped-HASH" \
  || fail "host ../escaped's results are in fetched/_._escaped-HASH (found: '$esc')"
esc2="$(grep -l '"host.label": "lab-escaped-2"' "$FETCHED"/*/results.json 2>/dev/null)"
[[ "$esc2" =~ ^$FETCHED/_\._escaped-[0-9a-f]{12}/results\.json$ ]] && [ "$esc" != "$esc2" ] \
  && ok "hosts ../escaped and ..+escaped clean up alike but keep a directory each" \
  || fail "hosts ../escaped and ..+escaped keep a directory each (found '$esc' and '$esc2')"

# A profile that looks like an option is refused before anything runs
printf '[rtconform]\nboard-5 ansible_connection=local rtconform_workdir=%s\n[all:vars]\nansible_python_interpreter=%s\n' \
  "$TMP/h5" "$(command -v python3)" >"$TMP/inventory5.ini"
if ansible-playbook -i "$TMP/inventory5.ini" "$SRC/ci/ansible/site.yml" \
    -e rtconform_install=none -e rtconform_profile=--only=X -e "rtconform_fetch_dir=$TMP/fetched5" \
    -e "rtconform_fleet_dir=$TMP/fleet5" -e "rtconform_merge_bin=$RTC" >"$TMP/play5.log" 2>&1; then
  fail "the playbook refuses rtconform_profile --only=X"
else
  ok "the playbook refuses rtconform_profile --only=X"
fi
expect_grep "rtconform_profile '--only=X' starts with '-'" "$TMP/play5.log"
[ ! -e "$TMP/h5" ] && ok "nothing ran on the host for rtconform_profile --only=X" || fail "the role went on with rtconform_profile --only=X"
# A run never outlives its task: the role runs rtconform through
# rtconform-run.sh, which stops rtconform (and its worker) when it gets
# SIGTERM (exit 143) or when the Ansible module that started it goes.
req_file "$TMP/long.xml" long "" "$(requirement LONG "$(probe sem-pingpong)" '<sched policy="other"/>' \
  '<run iterations="100000000" runs="1" warmup="0" timeout="300s"/>')"
# stop_case NAME HOW : run the long profile on one host and, once it
# measures, HOW is "term" (SIGTERM to rtconform-run.sh) or "parent"
# (SIGKILL to the module that started it); nothing of the run may be left,
# neither a process nor the temporary directory it ran in (under
# $TMP/tmp-NAME: its name is the role's, the script found by a pattern).
stop_case() {
  local name="$1" how="$2" play wrapper="$TMP/tmp-$1/rtconform\.[^/ ]+/rtconform-run\.sh" w="" r
  mkdir -p "$TMP/tmp-$name"
  printf '[rtconform]\n%s ansible_connection=local rtconform_tmpdir=%s\n[all:vars]\nansible_python_interpreter=%s\n' \
    "$name" "$TMP/tmp-$name" "$(command -v python3)" >"$TMP/$name.ini"
  PATH="$(dirname "$RTC"):$PATH" ansible-playbook -i "$TMP/$name.ini" "$SRC/ci/ansible/site.yml" \
    -e rtconform_install=none -e "rtconform_profile=$TMP/long.xml" -e "rtconform_fetch_dir=$TMP/f-$name" \
    -e "rtconform_fleet_dir=$TMP/fl-$name" -e "rtconform_merge_bin=$RTC" >"$TMP/$name.log" 2>&1 &
  play=$!
  # the script by its path, unique to this test; rtconform is its child
  run_measuring() {
    w="$(pgrep -f "^/bin/bash $wrapper |bash $wrapper " | head -1)" && [ -n "$w" ] || return 1
    r="$(pgrep -P "$w" -x rtconform)" && worker_measuring "$r"
  }
  if wait_for "$name: the role's rtconform to measure" "$START_WAIT" run_measuring; then
    if [ "$how" = term ]; then kill -TERM "$w"; else kill -KILL "$(ps -o ppid= -p "$w" | tr -d ' ')"; fi
  fi
  wait "$play"
  expect_no_leftovers "$name: the playbook's run" || { fail "$name: the run outlived its task"; marked_procs | xargs -r kill -TERM; }
  [ -z "$(ls -A "$TMP/tmp-$name")" ] && ok "$name: the role removed the stopped run's temporary directory" \
    || { fail "$name: the role removed the stopped run's temporary directory; left:"; ls -lA "$TMP/tmp-$name" | diag; }
}
stop_case stop-term term
expect_grep 'rtconform-run: stopped by SIGTERM' "$TMP/stop-term.log"
expect_grep '"rc": 143' "$TMP/stop-term.log"
stop_case stop-parent parent
finish
