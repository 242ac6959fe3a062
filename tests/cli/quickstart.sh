# SPDX-License-Identifier: Apache-2.0
# ci/deps installs sets of packages (run, test, all: each holds the one
# before), and ci/quickstart takes the light one: it installs `ci/deps run`,
# builds without tests, prints a line per step (the steps' output goes to
# build/quickstart.log) and exits with rtconform's status. The sets are held
# honest: every package a test or CI script says ci/deps installs is in the
# set of the command that runs it, and docs/install.md names the sets and
# what ci/quickstart installs. ci/quickstart itself runs here on stand-ins
# for ci/deps, cmake, rtconform and systemd-detect-virt: nothing is
# installed, built or measured. It says what ci/deps installed ("installed
# nothing" too), and calls a FAIL on a virtual machine the verdict to
# expect there, with why and what to do.
. "$(dirname "$0")/lib.sh"
DEPS="$SRC/ci/deps"

# The sets, as ci/deps --list prints them.
for s in run test all; do
  if "$DEPS" --list "$s" >"$TMP/$s" 2>"$TMP/$s.err" && [ -s "$TMP/$s" ]; then
    ok "ci/deps --list $s prints $(wc -l <"$TMP/$s") packages"
  else
    fail "ci/deps --list $s prints the set:"; diag <"$TMP/$s.err"
  fi
done
expect_status 2 "$DEPS" --list everything
expect_grep '^usage: ci/deps ' "$TMP/out"
# subset SMALL BIG : every package of set SMALL is in set BIG
subset() {
  local extra
  extra="$(grep -vxF -f "$TMP/$2" "$TMP/$1" | tr '\n' ' ')"
  [ -z "$extra" ] && ok "the $1 set is part of the $2 set" || fail "the $1 set is part of the $2 set (not in $2: $extra)"
}
subset run test
subset test all
# run: the build without tests, and nothing of the test tools or the cross build
for p in build-essential cmake pkg-config libxml2-dev libjansson-dev stress-ng; do
  grep -qxF "$p" "$TMP/run" && ok "the run set has $p" || fail "the run set has $p"
done
for p in chromium clang gcc-aarch64-linux-gnu ansible-core lintian gnuplot-nox yamllint check; do
  grep -qxF "$p" "$TMP/run" && fail "the run set lacks $p (a test tool)" || ok "the run set lacks $p (a test tool)"
  grep -qxF "$p" "$TMP/test" && ok "the test set has $p" || fail "the test set has $p"
done
grep -q : "$TMP/run" && fail "the run set names no foreign architecture ($(grep : "$TMP/run" | tr '\n' ' '))" \
  || ok "the run set names no foreign architecture"
# Only a set with a cross build's packages adds the arm64 architecture.
expect_status 0 "$DEPS" --dry-run run
expect_grep '^ci/deps: set run: [0-9]+ packages; foreign architectures: none needed$' "$TMP/out"
expect_no_grep 'architecture arm64|the arm64 architecture' "$TMP/out"
expect_status 0 "$DEPS" --dry-run test
expect_grep '^ci/deps: set test: [0-9]+ packages; foreign architectures: arm64$' "$TMP/out"

# Every package a script says "ci/deps installs" (its message for a missing
# tool) is in the set of the command that runs it: ci/bench.d's in all, the
# tests' and the other ci scripts' in test (this file's prose aside).
(cd "$SRC" && grep -roE --exclude=quickstart.sh 'ci/deps installs [a-z0-9][a-z0-9.+-]*((, | and )[a-z0-9][a-z0-9.+-]*)*' tests ci) \
  | while IFS=: read -r file text; do
      set_of=test; case "$file" in ci/bench.d/*) set_of=all ;; esac
      for p in $(echo "${text#ci/deps installs }" | sed 's/,/ /g; s/ and / /g'); do
        case "$p" in it | the | them) continue ;; esac
        echo "$file $set_of $p"
      done
    done | sort -u >"$TMP/named"
[ "$(wc -l <"$TMP/named")" -ge 5 ] && ok "scripts name at least 5 packages ci/deps installs" \
  || { fail "scripts name at least 5 packages ci/deps installs:"; diag <"$TMP/named"; }
while read -r file set_of p; do
  grep -qxF "$p" "$TMP/$set_of" && ok "$file: '$p' is in the $set_of set" \
    || fail "$file says ci/deps installs '$p', but the $set_of set lacks it"
done <"$TMP/named"

# lab: a set of its own, for ci/lab: the run set, the cross build and
# what boots the guests (ci/lab's checks name them), and ci/test's lab
# stage asks for it.
"$DEPS" --list lab >"$TMP/lab" 2>"$TMP/lab.err" && [ -s "$TMP/lab" ] \
  && ok "ci/deps --list lab prints $(wc -l <"$TMP/lab") packages" \
  || { fail "ci/deps --list lab prints the set:"; diag <"$TMP/lab.err"; }
subset run lab
for p in qemu-system-x86 qemu-system-arm busybox-static cpio gcc-aarch64-linux-gnu python3; do
  grep -qxF "$p" "$TMP/lab" && ok "the lab set has $p" || fail "the lab set has $p"
done
grep -qxF qemu-system-x86 "$TMP/all" && fail "the all set lacks QEMU (the lab's own)" \
  || ok "the all set lacks QEMU (the lab's own)"
expect_grep '^  "\$top/ci/deps" lab ' "$SRC/ci/test"

# Who asks for which set.
expect_grep '"\$top/ci/deps" run$' "$SRC/ci/quickstart"
expect_grep '^stage deps "" "\$top/ci/deps" test$' "$SRC/ci/test"
expect_grep '^"\$top/ci/deps" all$' "$SRC/ci/bench"
# ci/test's build says RTC_TESTS=ON: quickstart's RTC_TESTS=OFF in the same
# build directory's cache would otherwise leave ci/test without tests
expect_grep '^  cmake -B build .*-DRTC_TESTS=ON' "$SRC/ci/test"

# docs/install.md says what each command installs: the three sets, and
# the run set package by package (README points there).
INSTALL_DOC="$SRC/docs/install.md"
for s in run test all; do
  expect_grep "\`ci/deps $s\`" "$INSTALL_DOC"
done
while read -r p; do
  grep -qF "\`$p\`" "$INSTALL_DOC" && ok "docs/install.md names the run set's $p" || fail "docs/install.md names the run set's $p"
done <"$TMP/run"
expect_grep '\(docs/install\.md\)' "$SRC/README.md"

# ci/quickstart on stand-ins: a copy of the script in a tree of its own,
# its ci/deps, cmake and rtconform recording how they are called and
# printing as much as the real ones.
T="$TMP/tree"
mkdir -p "$T/ci" "$TMP/stubs"
cp "$SRC/ci/quickstart" "$T/ci/quickstart"
export QS_CALLS="$TMP/calls" QS_STUBS="$TMP/stubs"
cat >"$T/ci/deps" <<'SH'
#!/bin/bash
echo "deps $*" >>"$QS_CALLS"
if [ "${QS_DEPS_PRESENT:-0}" = 1 ]; then echo "ci/deps: all packages present"; exit 0; fi
echo "ci/deps: installing package-1 package-2"
for i in $(seq 40); do echo "Get:$i http://deb.debian.org/debian bookworm/main package-$i"; done
SH
# what this machine is: systemd-detect-virt --vm says QS_VIRT (none: bare
# metal), and /sys and /proc are read under $TMP/root (empty: no
# hypervisor there either), so that no case depends on the machine the
# test runs on
cat >"$TMP/stubs/systemd-detect-virt" <<'SH'
#!/bin/bash
echo "${QS_VIRT:-none}"
[ "${QS_VIRT:-none}" != none ]
SH
mkdir -p "$TMP/root"
cat >"$TMP/stubs/cmake" <<'SH'
#!/bin/bash
echo "cmake $*" >>"$QS_CALLS"
if [ "$1" = --build ]; then
  for i in $(seq 150); do echo "[ $((i * 100 / 150))%] Building C object CMakeFiles/x.dir/x$i.c.o"; done
  [ "${QS_BUILD_FAIL:-0}" = 0 ] || { echo "x7.c:1: error: a stand-in compile error"; exit 4; }
  cp "$QS_STUBS/rtconform" "$2/rtconform"
else
  for i in $(seq 30); do echo "-- Looking for thing $i - found"; done
fi
SH
cat >"$TMP/stubs/rtconform" <<'SH'
#!/bin/bash
echo "rtconform $*" >>"$QS_CALLS"
echo "[1/1] STANDIN: pass" >&2
exit "${QS_STATUS:-0}"
SH
chmod +x "$T/ci/deps" "$TMP/stubs/cmake" "$TMP/stubs/rtconform" "$TMP/stubs/systemd-detect-virt"
# quickstart STATUS : run the copy, rtconform's stand-in exiting STATUS;
# its output in $TMP/qs.out, its exit status in $QS_RC
quickstart() {
  rm -rf "$T/build" "$QS_CALLS"
  QS_RC=0
  (cd "$TMP" && PATH="$TMP/stubs:$PATH" QS_STATUS="$1" RTC_QUICKSTART_ROOT="$TMP/root" bash "$T/ci/quickstart") \
    >"$TMP/qs.out" 2>&1 || QS_RC=$?
}
for st in 0 1 3; do
  quickstart "$st"
  [ "$QS_RC" = "$st" ] && ok "ci/quickstart exits $st when rtconform does" \
    || { fail "ci/quickstart exits $st when rtconform does (it exited $QS_RC):"; diag <"$TMP/qs.out"; }
done
expect_grep '^deps run$' "$QS_CALLS"
expect_grep '^cmake -B build .*-DRTC_TESTS=OFF' "$QS_CALLS"
expect_grep "^rtconform run -o $T/rtconform-results\$" "$QS_CALLS"
expect_no_grep 'Building C object|Get:|Looking for' "$TMP/qs.out"
expect_grep 'Building C object CMakeFiles/x.dir/x150.c.o' "$T/build/quickstart.log"
expect_grep '^Get:40 ' "$T/build/quickstart.log"
expect_grep '^\[1/1\] STANDIN: pass$' "$TMP/qs.out"
expect_grep "^quickstart: reports are in $T/rtconform-results .*; exit status 3\$" "$TMP/qs.out"
n="$(grep -c '^quickstart: ' "$TMP/qs.out")"
[ "$n" -le 7 ] && ok "ci/quickstart prints a line per step ($n lines)" \
  || { fail "ci/quickstart prints a line per step (it printed $n):"; diag <"$TMP/qs.out"; }
# What ci/deps installed, in one line: the packages, or "installed nothing"
# when ci/deps found them all (the words quickstart reads are ci/deps' own).
expect_grep '^quickstart: packages: installed package-1 package-2$' "$TMP/qs.out"
expect_grep '^ *echo "ci/deps: installing \$\{missing\[\*\]\}"$' "$SRC/ci/deps"
expect_grep '^ *echo "ci/deps: all packages present"$' "$SRC/ci/deps"
QS_DEPS_PRESENT=1 quickstart 0
expect_grep '^quickstart: packages: installed nothing ' "$TMP/qs.out"
expect_no_grep 'installed package-' "$TMP/qs.out"
# A FAIL on a virtual machine is the verdict to expect there: quickstart
# says so, why, and to run on the target, whichever way the machine tells
# it is virtual (systemd-detect-virt, Xen's /sys/hypervisor/type, the CPU's
# hypervisor flag); not on bare metal, not for a pass or an error.
# vm_note WHAT : the note is there, naming WHAT as the hypervisor
vm_note() {
  if grep -qxF "quickstart: FAIL is the verdict to expect here: this is a virtual machine ($1)." "$TMP/qs.out" \
     && grep -qF 'run rtconform on the target board itself' "$TMP/qs.out" \
     && grep -qF 'says nothing of the hardware under it' "$TMP/qs.out"; then
    ok "a FAIL on a virtual machine ($1) is called the verdict to expect there, with why and what to do"
  else fail "a FAIL on a virtual machine ($1) is called the verdict to expect there, with why and what to do:"; diag <"$TMP/qs.out"; fi
}
# no_vm_note WHAT : the note is not there
no_vm_note() {
  if grep -q 'verdict to expect' "$TMP/qs.out"; then fail "no virtual-machine note $1:"; diag <"$TMP/qs.out"
  else ok "no virtual-machine note $1"; fi
}
QS_VIRT=kvm quickstart 1
[ "$QS_RC" = 1 ] && ok "ci/quickstart on a VM still exits 1 for a FAIL" || fail "ci/quickstart on a VM still exits 1 for a FAIL (it exited $QS_RC)"
vm_note kvm
quickstart 1
no_vm_note "for a FAIL on bare metal"
QS_VIRT=kvm quickstart 0
no_vm_note "for a pass on a VM"
QS_VIRT=kvm quickstart 3
no_vm_note "for an error on a VM"
mkdir -p "$TMP/root/sys/hypervisor" && echo xen >"$TMP/root/sys/hypervisor/type"
quickstart 1
vm_note xen
rm -r "$TMP/root/sys"; mkdir -p "$TMP/root/proc"
printf 'processor\t: 0\nflags\t\t: fpu vme sse2 hypervisor lahf_lm\n' >"$TMP/root/proc/cpuinfo"
quickstart 1
vm_note "a hypervisor (the CPU's hypervisor flag)"
printf 'processor\t: 0\nflags\t\t: fpu vme sse2 lahf_lm\n' >"$TMP/root/proc/cpuinfo"
quickstart 1
no_vm_note "for a FAIL where cpuinfo has no hypervisor flag"
# A step that fails: its status, the end of the log on the terminal, no run.
QS_BUILD_FAIL=1 quickstart 0
[ "$QS_RC" = 4 ] && ok "ci/quickstart exits with a failed build's status" \
  || { fail "ci/quickstart exits with a failed build's status (4; it exited $QS_RC):"; diag <"$TMP/qs.out"; }
expect_grep '^quickstart: build failed \(exit status 4\); the end of .*/build/quickstart.log:$' "$TMP/qs.out"
expect_grep 'a stand-in compile error' "$TMP/qs.out"
expect_no_grep '^rtconform ' "$QS_CALLS"
finish
