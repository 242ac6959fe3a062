# SPDX-License-Identifier: Apache-2.0
# `cmake --install` of this build: the files it installs and where, and the
# installed rtconform at work from a moved prefix, outside the trees: it finds
# its worker in libexec/rtconform and the shipped profiles in
# share/rtconform/profiles, and never falls back to the build tree
# (docs/install.md); and the Debian package cpack makes of it: under /usr
# whatever the build's prefix, recommending bash-completion.
. "$(dirname "$0")/lib.sh"
command -v cmake >/dev/null || { fail "cmake missing: ci/deps installs it"; finish; }
command -v dpkg-deb >/dev/null || { fail "dpkg-deb missing: Debian's dpkg has it"; finish; }
BUILD="$(dirname "$RTC")"
if ! cmake --install "$BUILD" --prefix "$TMP/prefix" >"$TMP/install.log" 2>&1; then
  fail "cmake --install failed:"; cat "$TMP/install.log"; finish
fi
(cd "$TMP/prefix" && find . -type f | sed 's|^\./||' | sort) >"$TMP/files"

# Every expected file is there, with the mode it needs.
expected="bin/rtconform libexec/rtconform/rtconform-worker libexec/rtconform/rtconform-nop
  libexec/rtconform/rtconform-worker-faults libexec/rtconform/rtconform-fault-sched.so
  libexec/rtconform/rtconform-fault-clock.so libexec/rtconform/rtconform-fault-ipc.so
  share/rtconform/schema/rtconform-requirements.xsd share/doc/rtconform/README.md
  share/doc/rtconform/install.md share/doc/rtconform/changelog.gz share/doc/rtconform/copyright"
for f in "$SRC"/requirements/profiles/*.xml; do
  expected="$expected share/rtconform/profiles/$(basename "$f")"
done
for f in $expected; do
  grep -qx "$f" "$TMP/files" && ok "cmake --install installs $f" || fail "cmake --install did not install $f"
done
for f in bin/rtconform libexec/rtconform/rtconform-worker libexec/rtconform/rtconform-nop \
    libexec/rtconform/rtconform-worker-faults; do
  [ -x "$TMP/prefix/$f" ] && ok "$f is executable" || fail "$f is not executable"
done
# Nothing beside them: no helper in bin, no test program, nothing elsewhere.
others="$(grep -Ev '^(bin/rtconform|libexec/rtconform/rtconform-(worker|nop|worker-faults|fault-sched\.so|fault-clock\.so|fault-ipc\.so)|share/rtconform/(profiles|schema)/[^/]+|share/doc/rtconform/([^/]+\.md|changelog\.gz|copyright)|share/man/man[1-8]/rtconform[^/]*|share/bash-completion/completions/rtconform)$' "$TMP/files")"
[ -z "$others" ] && ok "nothing else is installed" || fail "unexpected installed files: $others"
[ "$(grep -c '^share/rtconform/profiles/' "$TMP/files")" = "$(ls "$SRC"/requirements/profiles/*.xml | wc -l)" ] \
  && ok "the installed profiles are those of requirements/profiles" || fail "the installed profiles differ from requirements/profiles"

# The Debian package (cpack, as docs/install.md makes it) installs under
# /usr whatever this build's prefix (CMAKE_INSTALL_PREFIX: /usr/local unless
# configured): a package made in a build left at the default installed
# under /usr/local, which Debian policy forbids. It recommends
# bash-completion, which loads the completion it ships.
prefix="$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")"
echo "# this build's prefix: ${prefix:-unknown}"
[ "$prefix" != /usr ] || echo "# (the package's /usr is the build's prefix here: the check cannot tell them apart)"
deb=""
if cpack --config "$BUILD/CPackConfig.cmake" -B "$TMP/pkg" -G DEB >"$TMP/cpack.log" 2>&1; then
  deb="$(ls "$TMP"/pkg/rtconform_*.deb 2>/dev/null | head -1)"
fi
if [ -n "$deb" ]; then
  ok "cpack -G DEB makes a package of this build"
  dpkg-deb -c "$deb" | awk '{ print $6 }' >"$TMP/deb-files"
  outside="$(grep -Ev '^\./(usr/)?$' "$TMP/deb-files" | grep -Ev '^\./usr/' ; grep -E '^\./usr/local(/|$)' "$TMP/deb-files")"
  [ -z "$outside" ] && ok "every path of the package is under /usr, none under /usr/local" \
    || { fail "every path of the package is under /usr, none under /usr/local; these are not:"; echo "$outside" | head -20 | diag; }
  for f in ./usr/bin/rtconform ./usr/libexec/rtconform/rtconform-worker ./usr/share/rtconform/profiles/default.xml \
           ./usr/share/bash-completion/completions/rtconform; do
    grep -qx "$f" "$TMP/deb-files" && ok "the package has $f" || fail "the package has $f"
  done
  dpkg-deb -I "$deb" postinst >"$TMP/postinst" 2>&1
  expect_grep '^worker="/usr/libexec/rtconform/rtconform-worker"$' "$TMP/postinst"
  [ "$(dpkg-deb -f "$deb" Recommends)" = bash-completion ] && ok "the package recommends bash-completion" \
    || fail "the package recommends bash-completion (Recommends: '$(dpkg-deb -f "$deb" Recommends)')"
else
  fail "cpack -G DEB makes a package of this build:"; diag <"$TMP/cpack.log"
fi

# The Maintainer field (RTC_PACKAGE_MAINTAINER) is "Name <address>" with a
# mail domain, or the configure fails and says why: lintian's
# bogus-mail-host refused packages made with localhost or a one-label host.
# configure_maintainer NAME VALUE: configure a build without tests with it.
configure_maintainer() {
  cmake -S "$SRC" -B "$TMP/cfg-$1" -DRTC_TESTS=OFF "-DRTC_PACKAGE_MAINTAINER=$2" >"$TMP/cfg-$1.log" 2>&1
}
for m in "Lab <lab@localhost>" "Lab <lab@box>" "Lab <lab@box.localdomain>" "lab@example.org"; do
  if configure_maintainer bad "$m"; then
    fail "configuring with RTC_PACKAGE_MAINTAINER='$m' fails"
  else
    tr -s ' \n' '  ' <"$TMP/cfg-bad.log" | grep -qF "RTC_PACKAGE_MAINTAINER \"$m\" is not \"Name <user@mail.domain>\"" \
      && ok "configuring with RTC_PACKAGE_MAINTAINER='$m' fails, saying why" \
      || { fail "configuring with RTC_PACKAGE_MAINTAINER='$m' fails, saying why:"; tail -8 "$TMP/cfg-bad.log" | diag; }
  fi
  rm -rf "$TMP/cfg-bad"
done
if configure_maintainer good "Jane Doe <jane.doe@lab.example.com>" &&
   grep -qF 'set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Jane Doe <jane.doe@lab.example.com>")' "$TMP/cfg-good/CPackConfig.cmake"; then
  ok "a maintainer 'Jane Doe <jane.doe@lab.example.com>' is the package's"
else
  fail "a maintainer 'Jane Doe <jane.doe@lab.example.com>' is the package's:"; tail -8 "$TMP/cfg-good.log" | diag
fi
rm -rf "$TMP/cfg-good"

# A moved prefix keeps working: everything is found relative to bin/.
mv "$TMP/prefix" "$TMP/moved"
I="$TMP/moved/bin/rtconform"
mkdir "$TMP/cwd" && cd "$TMP/cwd"
expect_status 0 "$I" list --profiles
expect_grep "the others are in $TMP/moved/share/rtconform/profiles\)" "$TMP/out"
expect_grep '^spy-memo +2 requirements' "$TMP/out"
expect_status 0 "$I" validate creation
expect_grep "^$TMP/moved/share/rtconform/profiles/creation.xml: valid" "$TMP/out"
# the worker and rtconform-nop (fork-exec) run from libexec/rtconform
st=0
"$I" run --quick --only SEM-OTHER,SPAWN-OTHER -o "$TMP/o1" creation spy-memo >"$TMP/out" 2>&1 || st=$?
[ "$st" -le 1 ] && ok "the installed run exits 0 or 1" || { fail "installed run exited $st:"; cat "$TMP/out"; }
expect_grep "$TMP/moved/share/rtconform/profiles/spy-memo.xml" "$TMP/o1/results.json"
expect_fact SEM-OTHER.verdict '^(pass|fail)$' "$TMP/o1/junit.xml"
expect_fact SPAWN-OTHER.verdict '^(pass|fail)$' "$TMP/o1/junit.xml"

# selftest from the installed prefix: its helpers (the fault worker and
# libraries) and profiles are the installed ones; every case that runs
# matches (as another user, the root cases are not run: exit 0 too).
expect_status 0 "$I" selftest -o "$TMP/selftest"
expect_grep "^selftest: [0-9]+ cases: [0-9]+ matched, 0 did not match, [0-9]+ not run, 0 errors" "$TMP/out"
expect_status 0 "$I" verify "$TMP/selftest"

# Without its worker the installed rtconform says where it looked, and
# does not take the build tree's (exit 3, nothing measured).
rm "$TMP/moved/libexec/rtconform/rtconform-worker"
expect_status 3 "$I" run --quick -o "$TMP/o2" spy-memo
expect_grep "cannot locate rtconform-worker: it is neither beside $TMP/moved/bin/rtconform nor in $TMP/moved/bin/\.\./libexec/rtconform" "$TMP/out"
# Without its profile directory, "default" is still built in and the
# error for another name says no directory was found.
rm -r "$TMP/moved/share/rtconform/profiles"
expect_status 0 "$I" validate default
expect_status 2 "$I" validate spy-memo
expect_grep 'no profile directory was found for this rtconform; built in: default\)' "$TMP/out"
finish
