# SPDX-License-Identifier: Apache-2.0
# Issue 38's output classes tried on the outputs cli.outputs does not reach
# (a hostile review): selftest -o through a link planted in a directory
# others may write, run --sign's tool writing beside the manifest, and a
# run into a -o whose name is not UTF-8 (its journal).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root: links of another user (chown -h)"

# ---- selftest -o: the record's directory is reached as every output's is
# (report_open_dir): a link planted in a 0777 directory, or another user's
# in a 1777 one, at the record's name or on the way to it is refused (exit
# 2, naming it) and nothing lands where it points. Before, mkdir said EEXIST
# and opendir followed the link to an empty directory of ours: the record
# was written there.
mkdir -m 0777 "$TMP/shared" "$TMP/sticky"
chmod 0777 "$TMP/shared"
chmod 1777 "$TMP/sticky"
mkdir "$TMP/target"
ln -s "$TMP/target" "$TMP/shared/rec"
ln -s "$TMP/target" "$TMP/shared/via"
ln -s "$TMP/target" "$TMP/sticky/rec"
chown -h nobody "$TMP/sticky/rec"
for o in shared/rec shared/via/rec sticky/rec; do
  got=0
  timeout 120 "$RTC" selftest -o "$TMP/$o" >"$TMP/st.out" 2>"$TMP/st.err" || got=$?
  if [ "$got" -eq 2 ] && grep -q "is a symbolic link in .*, which others may write: not followed" "$TMP/st.err"; then
    ok "selftest -o $o (a planted link) is refused, exit 2, naming the link"
  else
    fail "selftest -o $o (a planted link) is refused, exit 2, naming the link (exit $got):"
    diag <"$TMP/st.err"
  fi
  if [ -z "$(ls -A "$TMP/target")" ]; then ok "selftest -o $o wrote nothing where the link points"
  else fail "selftest -o $o wrote nothing where the link points:"; ls -A "$TMP/target" | diag
    rm -rf "${TMP:?}/target/"* "$TMP/target/".rtconform.lock
  fi
done

# ---- run --sign: the tool signs a copy of the manifest as written, in a
# directory of its own, and never writes into -o (a link planted at its
# output name there had it write through it as root). A fake minisign on
# PATH records what it was given.
mkdir -p "$TMP/bin" "$TMP/k"
cat >"$TMP/bin/minisign" <<'SH'
#!/bin/sh
# minisign -S -s KEY -m FILE -x SIG: log the arguments, keep a copy of FILE
m= x=
while [ $# -gt 0 ]; do case "$1" in -m) m="$2"; shift ;; -x) x="$2"; shift ;; esac; shift; done
echo "m=$m x=$x" >>"$FAKE_LOG"
cp "$m" "$FAKE_LOG.signed"
echo "fake signature" >"$x"
SH
chmod +x "$TMP/bin/minisign"
echo "secret" >"$TMP/k/sec"
got=0
FAKE_LOG="$TMP/fake.log" PATH="$TMP/bin:$PATH" "$RTC" run -q --quick -o "$TMP/signed" \
  --sign "$TMP/k/sec" "$FIX/cli/pass.xml" >/dev/null 2>"$TMP/sign.err" || got=$?
if [ "$got" -eq 0 ]; then ok "run --sign (a fake minisign) exits 0"
else fail "run --sign (a fake minisign) exits 0 (exit $got):"; diag <"$TMP/sign.err"; fi
if [ "$(grep -c . "$TMP/fake.log" 2>/dev/null)" = 2 ] && ! grep -q "x=$TMP/signed" "$TMP/fake.log"; then
  ok "the signing tool writes its signature outside -o (trial and manifest)"
else fail "the signing tool writes its signature outside -o (trial and manifest):"; diag <"$TMP/fake.log"; fi
if cmp -s "$TMP/fake.log.signed" "$TMP/signed/MANIFEST.sha256"; then
  ok "what the tool signed is the manifest written"
else fail "what the tool signed is the manifest written"; fi
if [ "$(cat "$TMP/signed/MANIFEST.sha256.minisig" 2>/dev/null)" = "fake signature" ]; then
  ok "the signature is put beside the manifest"
else fail "the signature is put beside the manifest:"; ls -A "$TMP/signed" | diag; fi
if [ -z "$(find "$TMP/signed" -name '.*rtc*')" ]; then ok "no temporary file is left in -o"
else fail "no temporary file is left in -o:"; find "$TMP/signed" -name '.*rtc*' | diag; fi

# ---- -o whose name is not UTF-8: the journal's head record lists the
# command line, made valid UTF-8 as every string of results.json is; before,
# it failed to encode and the run went on without any journal ("journal:
# ...: Cannot allocate memory", every record lost).
nu="$(printf '%s/n\377\376' "$TMP")"
got=0
"$RTC" run -q --quick -o "$nu" "$FIX/cli/pass.xml" >/dev/null 2>"$TMP/nu.err" || got=$?
if [ "$got" -eq 0 ]; then ok "run -o NON-UTF-8 exits 0"
else fail "run -o NON-UTF-8 exits 0 (exit $got):"; diag <"$TMP/nu.err"; fi
expect_no_grep 'journal' "$TMP/nu.err"
expect_status 0 "$RTC" verify "$nu"

# ---- compare -o with standard output full: exit 3 for the table, and the
# reports written into -o are vouched for by their manifest as run's are
# (before: no MANIFEST.sha256, verify refused the directory).
got=0
"$RTC" compare "$FIX/results/pass.json" "$FIX/results/pass.json" -o "$TMP/cmp" >/dev/full \
  2>"$TMP/cmp.err" || got=$?
if [ "$got" -eq 3 ]; then ok "compare -o with standard output full exits 3"
else fail "compare -o with standard output full exits 3 (exit $got):"; diag <"$TMP/cmp.err"; fi
expect_status 0 "$RTC" verify "$TMP/cmp"

# ---- a full disk named as one: results.json's writer read errno after
# other calls had changed it, so merge and probe said "Input/output error"
# for a full disk; a tmpfs of 8 and 20 KiB in a mount namespace of its own.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
  mkdir -p "$TMP/small"
  for size in 8k 20k; do
    unshare -m bash -c "mount -t tmpfs -o size=$size tmpfs '$TMP/small' || exit 99
      '$RTC' merge -o '$TMP/small/m' '$FIX/results/pass.json' >/dev/null 2>'$TMP/full-$size.err'
      '$RTC' probe sem-pingpong --iterations 500 -o '$TMP/small/p' >/dev/null 2>>'$TMP/full-$size.err'
      true"
    expect_grep 'No space left on device' "$TMP/full-$size.err"
    expect_no_grep 'Input/output error' "$TMP/full-$size.err"
  done
else
  skip "a full disk named as one" "needs unshare -m to mount a small tmpfs"
fi

# ---- the journal's files cut short at their making (RLIMIT_FSIZE 1 KiB,
# its 4 KiB lost file the first to meet it): refused before measuring with
# the true reason; a short write sets no errno, and an earlier call's
# "No such file or directory" was named.
got=0
( ulimit -f 1; trap '' XFSZ; exec "$RTC" run -q --quick -o "$TMP/efbig" "$FIX/cli/pass.xml" ) \
  >/dev/null 2>"$TMP/efbig.err" || got=$?
if [ "$got" -eq 2 ]; then ok "run with files limited to 1 KiB is refused before measuring, exit 2"
else fail "run with files limited to 1 KiB is refused before measuring, exit 2 (exit $got):"
  diag <"$TMP/efbig.err"; fi
expect_grep 'journal/lost: File too large' "$TMP/efbig.err"
expect_no_grep 'No such file or directory' "$TMP/efbig.err"

# ---- a relative -o whose absolute path is longer than PATH_MAX (a working
# directory 22 levels of 200 bytes deep): refused before measuring, exit 2,
# saying so; before, run aborted after measuring ("out of memory building
# the reports", SIGABRT) and probe exited 3 the same way.
comp="$(printf 'a%.0s' $(seq 200))"
deep="$(
  cd "$TMP" || exit 1
  for _ in $(seq 22); do mkdir "$comp" && cd "$comp" || exit 1; done
  for c in "run -q --quick -o out $FIX/cli/pass.xml" "probe sem-pingpong --iterations 300 -o pr" \
           "compare $FIX/results/pass.json $FIX/results/pass.json -o cmp"; do
    got=0
    # shellcheck disable=SC2086  # the words of c are the arguments
    "$RTC" $c >/dev/null 2>err.txt || got=$?
    echo "${c%% *} $got $(grep -c 'is longer than PATH_MAX' err.txt) $(grep -c 'out of memory' err.txt) $(ls -A | grep -cv '^err.txt$')"
  done
)"
while read -r cmd got said oom left; do
  if [ "$got" = 2 ] && [ "$said" = 1 ] && [ "$oom" = 0 ] && [ "$left" = 0 ]; then
    ok "$cmd -o below a working directory past PATH_MAX is refused (exit 2, said, nothing left)"
  else
    fail "$cmd -o below a working directory past PATH_MAX is refused (exit $got, said $said, out of memory $oom, entries left $left)"
  fi
done <<<"$deep"

# ---- -o spelled with "." components at its end ("out/.", "m/./"): made as
# "out" is (the directory was opened one component at a time and "out"
# was not taken for the last one, so it was not made: "cannot create
# directory 'm/.': No such file or directory", exit 2).
expect_status 0 "$RTC" merge -o "$TMP/dots-m/./" "$FIX/results/pass.json"
expect_status 0 "$RTC" verify "$TMP/dots-m"
expect_status 0 "$RTC" run -q --quick -o "$TMP/dots-r/." "$FIX/cli/pass.xml"
expect_status 0 "$RTC" verify "$TMP/dots-r"

finish
