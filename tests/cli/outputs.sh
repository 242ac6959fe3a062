# SPDX-License-Identifier: Apache-2.0
# What a command writes, written safely or refused clearly (issue 38): a
# selftest on a full disk (no crash, no record claimed, the lock released,
# exit 3), a run into / (its manifest written and signed), a planted link
# in a shared -o, a refused command removing the -o directory it made,
# explain --json of a directory always JSON, and standard output closed
# or full for every command that prints (exit 3, said on stderr).
. "$(dirname "$0")/lib.sh"

is_root() { [ "$(id -u)" -eq 0 ]; }

# ---- selftest on a full disk: a 200 KiB tmpfs, in a mount namespace of
# its own (gone with it), the checks made inside it.
if is_root && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
  mkdir -p "$TMP/small"
  unshare -m bash -c "mount -t tmpfs -o size=200k tmpfs '$TMP/small' || exit 99
    '$RTC' selftest -o '$TMP/small/rec' >'$TMP/st.out' 2>'$TMP/st.err'; echo \$? >'$TMP/st.rc'
    ls -A '$TMP/small/rec' >'$TMP/st.ls'"
  if [ "$(cat "$TMP/st.rc" 2>/dev/null)" = 3 ]; then
    ok "selftest on a full disk exits 3"
  else
    fail "selftest on a full disk exits 3 (it exited $(cat "$TMP/st.rc" 2>/dev/null)):"
    tail -20 "$TMP/st.err" | diag
  fi
  expect_grep "cannot write '$TMP/small/rec/validation.json': No space left on device" "$TMP/st.err"
  expect_grep 'validation record in .* is incomplete: no MANIFEST.sha256 vouches for it' "$TMP/st.err"
  expect_no_grep 'double free|AddressSanitizer|Aborted' "$TMP/st.err"
  expect_grep 'NO RECORD: it could not be written into' "$TMP/st.out"
  expect_no_grep 'record in ' "$TMP/st.out"
  expect_no_grep '^(\.rtconform\.lock|MANIFEST\.sha256)$' "$TMP/st.ls"
else
  skip "selftest on a full disk" "needs root and unshare -m to mount a small tmpfs"
fi

# ---- standard output full or closed: every command that prints says so
# on stderr and exits 3 (one check for all, cli_close_stdout); with
# /dev/null the same command exits 0 (or its own status).
RES="$FIX/results/pass.json"
"$RTC" run -q --quick -o "$TMP/sorun" "$FIX/cli/pass.xml" >/dev/null 2>&1
printing=(
  "env" "list" "list --profiles" "validate $FIX/cli/pass.xml"
  "explain $FIX/explain/sem-pingpong.txt" "explain --json $FIX/explain/sem-pingpong.txt"
  "--version" "--help" "run --help" "report $RES --summary $TMP/so-summary.txt"
  "compare $RES $RES" "probe selftest --iterations 1000" "merge -o $TMP/somerge $RES"
  "verify $TMP/sorun"
)
for c in "${printing[@]}"; do
  # shellcheck disable=SC2086  # the words of c are the arguments
  "$RTC" $c >/dev/null 2>"$TMP/so.err"; want=$?
  [ "$want" -le 1 ] || { fail "rtconform $c runs (exit $want):"; diag <"$TMP/so.err"; continue; }
  for to in full closed; do
    got=0
    if [ "$to" = full ]; then "$RTC" $c >/dev/full 2>"$TMP/so.err" || got=$?
    else "$RTC" $c >&- 2>"$TMP/so.err" || got=$?; fi
    if [ "$got" -eq 3 ] && grep -Eq "standard output.*(No space left on device|Bad file descriptor|a write failed)" "$TMP/so.err"; then
      ok "$(cmd_name $c) with standard output $to exits 3 and says so"
    else
      fail "$(cmd_name $c) with standard output $to exits 3 and says so (exit $got; stderr:)"
      diag <"$TMP/so.err"
    fi
  done
done
# Refused for bad input, it keeps 2 (nothing of it was to be printed).
expect_status 2 bash -c "exec '$RTC' validate '$FIX/cli/invalid-probe.xml' >/dev/full"

# ---- explain --json DIR is JSON whichever traces fail: each one in its
# place, a failed one {"file", "error"} (the first failing printed "[,").
mkdir -p "$TMP/traces" "$TMP/notraces"
printf 'not a trace\n' >"$TMP/traces/trace-A.txt"
cp "$FIX/explain/sem-pingpong.txt" "$TMP/traces/trace-B.txt"
: >"$TMP/traces/trace-C.txt"
expect_status 2 "$RTC" explain --json "$TMP/traces"
"$RTC" explain --json "$TMP/traces" >"$TMP/traces.json" 2>/dev/null
if python3 -m json.tool "$TMP/traces.json" >/dev/null 2>"$TMP/json.err" &&
   python3 - "$TMP/traces.json" "$TMP/traces" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
d = sys.argv[2]
assert [e.get("file") for e in a] == [d + "/trace-A.txt", None, d + "/trace-C.txt"], a
assert "not a trace line" in a[0]["error"] and a[2]["error"], a
assert a[1]["requirement"] == "SEM" and "error" not in a[1], a[1]
PY
then ok "explain --json DIR whose first trace fails is a JSON array of 3, the failed ones {file, error}"
else fail "explain --json DIR whose first trace fails is a JSON array of 3, the failed ones {file, error}:"
  diag <"$TMP/json.err"; { head -c 600 "$TMP/traces.json"; echo; } | diag
fi
"$RTC" explain --json "$TMP/notraces" >"$TMP/none.json" 2>/dev/null
if python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$TMP/none.json"; then
  ok "explain --json DIR without traces prints []"
else fail "explain --json DIR without traces prints []:"; diag <"$TMP/none.json"; fi

# ---- run -o /: the directory is the root of a chroot on a tmpfs, in a
# mount namespace of its own (the real / is never written; the system's
# directories are bound in read-only). Its manifest lists the four reports
# and --sign signs it (before: no manifest, nothing signed, exit 0); the
# files, copied out, verify. compare -o / and merge -o / the same.
# in_root SCRIPT : run sh -c SCRIPT chrooted there; $TMP/ro is bound in
# read-write at its own path, the build and source trees and $TMP/k
# read-only.
in_root() {
  unshare -m bash -c '
    set -e
    R="$1"; shift
    mount -t tmpfs tmpfs "$R"
    for d in usr bin sbin lib lib64 lib32 libx32 etc; do
      [ -e "/$d" ] || continue
      if [ -L "/$d" ]; then ln -s "$(readlink "/$d")" "$R/$d"; continue; fi
      mkdir -p "$R/$d"; mount --bind "/$d" "$R/$d"; mount -o remount,bind,ro "$R/$d"
    done
    for d in proc sys dev; do mkdir -p "$R/$d"; mount --rbind "/$d" "$R/$d"; done
    for d in "$B" "$S" "$K"; do
      mkdir -p "$R$d"; mount --bind "$d" "$R$d"; mount -o remount,bind,ro "$R$d"
    done
    mkdir -p "$R$O"; mount --bind "$O" "$R$O"
    exec chroot "$R" /bin/sh -c "$1"' in_root "$TMP/root" "$1"
}
if is_root && command -v unshare >/dev/null && command -v chroot >/dev/null &&
   command -v minisign >/dev/null && unshare -m true 2>/dev/null; then
  mkdir -p "$TMP/root" "$TMP/k" "$TMP/ro"
  minisign -G -W -p "$TMP/k/pub" -s "$TMP/k/sec" >/dev/null 2>&1
  req_file "$TMP/k/p.xml" pass "" \
    "$(requirement ST "$(probe selftest)" '<run iterations="2000" runs="1"/>' \
       '<limit statistic="max" max="10s"/>')"
  RA="$(realpath "$RTC")" FA="$(realpath "$FIX")"
  export B="${RA%/*}" S="$(realpath "$SRC")" K="$TMP/k" O="$TMP/ro"
  in_root "'$RA' run -q -o / --sign '$TMP/k/sec' '$TMP/k/p.xml' >'$TMP/ro/run.out' 2>&1
    echo \$? >'$TMP/ro/run.rc'
    mkdir '$TMP/ro/copy'
    cp /junit.xml /summary.txt /report.html /results.json /MANIFEST.sha256* '$TMP/ro/copy/' 2>/dev/null
    true"
  in_root "'$RA' compare -o / '$FA/results/pass.json' '$FA/results/pass.json' >/dev/null 2>&1
    cat /MANIFEST.sha256 >'$TMP/ro/cmp.manifest' 2>/dev/null; true"
  if [ "$(cat "$TMP/ro/run.rc" 2>/dev/null)" = 0 ]; then ok "run -o / --sign exits 0"
  else fail "run -o / --sign exits 0 (it exited $(cat "$TMP/ro/run.rc" 2>/dev/null)):"
    diag <"$TMP/ro/run.out"; fi
  expect_grep '^reports: /junit.xml, /summary.txt, /report.html, /results.json$' "$TMP/ro/run.out"
  for f in junit.xml summary.txt report.html results.json; do
    expect_grep "^[0-9a-f]{64}  $f\$" "$TMP/ro/copy/MANIFEST.sha256"
  done
  expect_status 0 minisign -Vq -p "$TMP/k/pub" -m "$TMP/ro/copy/MANIFEST.sha256"
  expect_status 0 "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/ro/copy"
  # compare exits 1 or 0 by its figures; its manifest lists its three files
  expect_grep '^[0-9a-f]{64}  compare.txt$' "$TMP/ro/cmp.manifest"
else
  skip "run -o / writes and signs its manifest" \
    "needs root, unshare -m, chroot and minisign for a chroot on a tmpfs"
fi

# ---- a command refused (exit 2) removes the -o directory it made, never
# one that was there. The refusal after the checks made it: the journal
# (a tmpfs of 3 or 4 inodes: room for the directory and the lock file, not
# the journal), or the lock (a flock() that says yes and does nothing,
# tests/fake/fake_flock.c, refused at the kernel) for every command with
# an output directory.
req_file "$TMP/quick.xml" quick '' \
  "$(requirement R "$(probe selftest)" '<run iterations="1000" runs="2" warmup="0"/>')"
if is_root && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
  mkdir -p "$TMP/plant"
  for n in 3 4; do
    unshare -m sh -c "mount -t tmpfs -o nr_inodes=$n none '$TMP/plant' || exit 99
      '$RTC' run -q -o '$TMP/plant/d' '$TMP/quick.xml' >'$TMP/j.out' 2>&1; echo \$? >'$TMP/j.rc'
      ls -A '$TMP/plant' >'$TMP/j.ls'"
    if [ "$(cat "$TMP/j.rc")" = 2 ] && grep -q journal "$TMP/j.out" && ! [ -s "$TMP/j.ls" ]; then
      ok "a run refused for its journal ($n inodes) removes the -o directory it made"
    else
      fail "a run refused for its journal ($n inodes) removes the -o directory it made (exit $(cat "$TMP/j.rc"), left: $(cat "$TMP/j.ls")):"
      diag <"$TMP/j.out"
    fi
  done
else
  skip "a run refused for its journal removes the -o directory it made" "needs root and unshare -m"
fi
FAKE="$(cd "$(dirname "$RTC")" && pwd)/tests/libfake_flock.so"
if [ -f "$FAKE" ]; then
  nolock() { FAKE_FLOCK_IGNORE=1 LD_PRELOAD="$(preload "$FAKE")" "$RTC" "$@"; }
  refused_removes() { # WHAT DIR CMD... : CMD exits 2 for the lock and DIR is gone
    local what="$1" dir="$2" st=0; shift 2
    nolock "$@" >"$TMP/nl.out" 2>&1 || st=$?
    if [ "$st" = 2 ] && grep -q "not trusted" "$TMP/nl.out" && ! [ -e "$dir" ]; then
      ok "$what refused for its lock (exit 2) removes the directory it made"
    else
      fail "$what refused for its lock (exit 2) removes the directory it made (exit $st; ${dir##*/} $([ -e "$dir" ] && echo left || echo gone)):"
      diag <"$TMP/nl.out"
    fi
  }
  refused_removes "run -o" "$TMP/n-run" run -q -o "$TMP/n-run" "$TMP/quick.xml"
  refused_removes "run --csv" "$TMP/n-csv" run -q -o "$TMP/n-csvrun" --csv "$TMP/n-csv" "$TMP/quick.xml"
  [ -e "$TMP/n-csvrun" ] && fail "run --csv refused for its lock removes its -o directory too" \
    || ok "run --csv refused for its lock removes its -o directory too"
  refused_removes "probe -o" "$TMP/n-probe" probe selftest -o "$TMP/n-probe" --iterations 1000
  refused_removes "compare -o" "$TMP/n-cmp" compare -o "$TMP/n-cmp" "$RES" "$RES"
  refused_removes "merge -o" "$TMP/n-merge" merge -o "$TMP/n-merge" "$RES"
  refused_removes "selftest -o" "$TMP/n-st" selftest -o "$TMP/n-st"
  refused_removes "report --csv" "$TMP/n-rcsv" report "$RES" --summary "$TMP/n-s.txt" --csv "$TMP/n-rcsv"
  # one that was there stays, empty as it was
  mkdir "$TMP/was"
  nolock run -q -o "$TMP/was" "$TMP/quick.xml" >"$TMP/nl.out" 2>&1
  [ -d "$TMP/was" ] && [ -z "$(ls -A "$TMP/was")" ] \
    && ok "a refused run leaves an -o directory that was there, empty" \
    || { fail "a refused run leaves an -o directory that was there, empty"; ls -A "$TMP/was" | diag; }
else
  fail "no $FAKE (built with the tests)"
fi

# ---- a link planted in a shared -o (a directory others may write) on the
# way to an output is never followed: refused before measuring, naming it;
# planted while the run measures, the write is refused (exit 3); nothing
# is written through it. One the user made where no one else writes is
# followed. With a real --csv directory in it, the manifest lists the
# export.
mkdir -m 0777 "$TMP/shared" "$TMP/shared2"
mkdir "$TMP/elsewhere" "$TMP/elsewhere2" "$TMP/own" "$TMP/real"
chmod 0777 "$TMP/shared" "$TMP/shared2" # whatever the umask
ln -s "$TMP/elsewhere" "$TMP/shared/csv"
expect_status 2 "$RTC" run -q -o "$TMP/shared" --csv "$TMP/shared/csv" "$TMP/quick.xml"
expect_grep "'$TMP/shared/csv' is a symbolic link in $TMP/shared, which others may write: not followed" "$TMP/out"
[ -z "$(ls -A "$TMP/elsewhere")" ] && [ ! -e "$TMP/shared/results.json" ] \
  && ok "nothing measured, nothing written through the planted --csv link" \
  || { fail "nothing measured, nothing written through the planted --csv link"; ls -A "$TMP/elsewhere" "$TMP/shared" | diag; }
ln -s "$TMP/elsewhere" "$TMP/shared/sub"
expect_status 2 "$RTC" run -q -o "$TMP/shared" --junit "$TMP/shared/sub/j.xml" "$TMP/quick.xml"
expect_grep "'$TMP/shared/sub' is a symbolic link in $TMP/shared, which others may write" "$TMP/out"
rm "$TMP/shared/csv" "$TMP/shared/sub"
mkdir "$TMP/shared/csv"
expect_status 0 "$RTC" run -q -o "$TMP/shared" --csv "$TMP/shared/csv" "$TMP/quick.xml"
expect_grep '^[0-9a-f]{64}  csv/runs.csv$' "$TMP/shared/MANIFEST.sha256"
ln -s "$TMP/real" "$TMP/own/csv"
chmod 0755 "$TMP/own"
expect_status 0 "$RTC" run -q -o "$TMP/own" --csv "$TMP/own/csv" "$TMP/quick.xml"
[ -f "$TMP/real/runs.csv" ] && ok "a link in a directory only we write is followed" \
  || fail "a link in a directory only we write is followed"
if is_root; then
  mkdir -m 1777 "$TMP/sticky"
  chmod 1777 "$TMP/sticky"
  ln -s "$TMP/elsewhere" "$TMP/sticky/csv"
  chown -h nobody "$TMP/sticky/csv"
  expect_status 2 "$RTC" run -q -o "$TMP/sticky" --csv "$TMP/sticky/csv" "$TMP/quick.xml"
  expect_grep "'$TMP/sticky/csv' is a symbolic link in $TMP/sticky, which others may write" "$TMP/out"
else
  skip "a link of another user's in a sticky directory is refused" "needs root to chown the link"
fi
# planted while it measures (a run of about 3 s: timer wake-ups every 2 ms)
req_file "$TMP/slow.xml" slow '' \
  "$(requirement W "$(probe timer-wakeup interval=2ms cpus=0)" '<sched policy="other"/>' \
     '<run iterations="750" runs="2" warmup="0"/>')"
mkdir "$TMP/shared2/csv"
"$RTC" run -q -o "$TMP/shared2" --csv "$TMP/shared2/csv" "$TMP/slow.xml" >"$TMP/late.out" 2>&1 &
late=$!
# both its locks: -o's and, since the one output path locks every output's
# directory, the --csv directory's (taken just after)
wait_for "the run into shared2 holds its lock" 20 test -e "$TMP/shared2/.rtconform.lock" -a \
  -e "$TMP/shared2/csv/.rtconform.lock"
mv "$TMP/shared2/csv" "$TMP/shared2/csv.real"
ln -s "$TMP/elsewhere2" "$TMP/shared2/csv"
st=0; wait "$late" || st=$?
if [ "$st" = 3 ] && [ -z "$(ls -A "$TMP/elsewhere2")" ] && grep -q "shared2/csv/.*symbolic links" "$TMP/late.out"; then
  ok "a --csv link planted while the run measures is not written through (exit 3)"
else
  fail "a --csv link planted while the run measures is not written through (exit $st; elsewhere2: $(ls -A "$TMP/elsewhere2" | head -3)):"
  diag <"$TMP/late.out"
fi

# A trace saved into a shared -o goes through a temporary file of its own
# (O_EXCL, O_NOFOLLOW): one planted as a link to a file of root's is
# removed, never written through.
if is_root && grep -qw tracefs /proc/filesystems; then
  cat >"$TMP/traced.xml" <<XML
<requirements xmlns="urn:rtconform:requirements:1" name="trace">
  <defaults iterations="2000" runs="1" warmup="10" timeout="60s"/>
  <requirement id="BREACH"><probe name="sem-pingpong"/><sched policy="fifo" priority="max"/>
    <limit metric="per-op" statistic="max" max="60s"/>
    <trace threshold="1ns"/></requirement>
</requirements>
XML
  mkdir -m 0777 "$TMP/shtrace"
  chmod 0777 "$TMP/shtrace"
  echo "root's file" >"$TMP/victim"
  ln -s "$TMP/victim" "$TMP/shtrace/trace-BREACH.txt.tmp"
  expect_status 0 "$RTC" run -q -o "$TMP/shtrace" "$TMP/traced.xml"
  [ "$(cat "$TMP/victim")" = "root's file" ] && [ -s "$TMP/shtrace/trace-BREACH.txt" ] \
    && ok "a trace's planted temporary link is not written through, the trace is saved" \
    || { fail "a trace's planted temporary link is not written through, the trace is saved"; head -c 300 "$TMP/victim" | diag; }
else
  skip "a trace's planted temporary link is not written through" "needs root and tracefs"
fi

finish
