# SPDX-License-Identifier: Apache-2.0
# ci/ansible: the playbook installs the package on every host of an
# inventory, runs a profile under each host's label, fetches results.json
# and merges them on the controller. Two hosts here, both the local machine
# (ansible_connection=local) under different labels; the package is built
# from this build tree (cpack) and unpacked into a directory per host
# (rtconform_install: extract), so the machine is left as it was found.
. "$(dirname "$0")/lib.sh"
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
board-2 ansible_connection=local rtconform_label=lab-rack1-b rtconform_workdir=$TMP/h2

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
# a results.json an earlier run left in the fetch directory, of a host this
# run does not measure: never merged
mkdir -p "$TMP/fetched"
"$RTC" run "$FIX/cli/pass.xml" -q --host-label stale-board -o "$TMP/fetched/board-9" >/dev/null 2>&1
[ -f "$TMP/fetched/board-9/results.json" ] && ok "a stale results.json is planted in the fetch directory" || fail "no stale results.json planted"
if ansible-playbook -i "$TMP/inventory.ini" "$SRC/ci/ansible/site.yml" \
    -e rtconform_install=extract -e "rtconform_deb=$DEB" -e "rtconform_profile=$TMP/profile.xml" \
    -e rtconform_quick=true -e "rtconform_fetch_dir=$TMP/fetched" -e "rtconform_fleet_dir=$TMP/fleet" \
    -e "rtconform_merge_bin=$RTC" >"$TMP/play.log" 2>&1; then
  ok "ansible-playbook runs site.yml to the end"
else
  fail "ansible-playbook runs site.yml to the end:"; tail -40 "$TMP/play.log"; finish
fi

# each host ran the unpacked package, not the build tree's rtconform
for h in 1 2; do
  bin="$(ls "$TMP"/h$h/prefix/usr/{,local/}bin/rtconform 2>/dev/null | head -1)"
  [ -x "$bin" ] && ok "the package is unpacked for host $h" || fail "the package was not unpacked for host $h"
  expect_grep "\"command\": \"$bin run " "$TMP/fetched/board-$h/results.json"
done
F="$TMP/fleet"
expect_grep '<th><a href="\./\.\./fetched/board-1/report\.html">lab-rack1-a</a></th>' "$F/fleet.html"
expect_grep '<th><a href="\./\.\./fetched/board-2/report\.html">lab-rack1-b</a></th>' "$F/fleet.html"
validate_junit "$F/junit.xml" --tests 4
expect_grep '<testsuite name="lab-rack1-a" ' "$F/junit.xml"
expect_grep '<testsuite name="lab-rack1-b" ' "$F/junit.xml"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
hosts = sorted(h["summary"]["host"] for h in d["hosts"])
assert hosts == ["lab-rack1-a", "lab-rack1-b"], hosts
assert d["duplicates"] == [], d["duplicates"]
' "$F/results.json" && ok "the fleet results.json holds both hosts" || fail "the fleet results.json does not hold both hosts"
expect_grep 'lab-rack1-a: every requirement passed' "$TMP/play.log"
expect_no_grep 'stale-board' "$F/fleet.html"
expect_no_grep 'stale-board' "$F/junit.xml"
finish
