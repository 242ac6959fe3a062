# SPDX-License-Identifier: Apache-2.0
# One owner per output directory (docs/reports.md, "Output directories"):
# run, report, merge and compare lock each directory they write into
# (flock on .rtconform.lock), and a second writer is refused at once,
# exit 2, naming the directory and the holder's pid, writing nothing and
# measuring nothing; a killed holder leaves no lock; a lock file removed
# between a command's open() and flock() is locked again at its path;
# merge and compare refuse a directory holding another kind of report set
# unless --force.
. "$(dirname "$0")/lib.sh"

LOCK=.rtconform.lock
# quick: a fraction of a second. slow: timer wake-ups every 2 ms, asleep
# in between (little CPU), about 3 s: two started together overlap even
# when a busy machine starts one of them late.
req_file "$TMP/quick.xml" quick '' \
  "$(requirement R "$(probe selftest)" '<run iterations="1000" runs="2" warmup="0"/>')"
req_file "$TMP/slow.xml" slow '' \
  "$(requirement W "$(probe timer-wakeup interval=2ms cpus=0)" '<sched policy="other"/>' \
     '<run iterations="750" runs="2" warmup="0"/>')"

# sums DIR : the checksum and name of each file of DIR (the lock file is
# hidden, and not among them)
sums() { (cd "$1" && sha256sum -- *) 2>/dev/null; }
# same_sums DIR WANT WHAT : DIR's files are still those of WANT
same_sums() {
  if sums "$1" | cmp -s - "$2"; then ok "$3 left ${1##*/}'s files as they were"
  else fail "$3 left ${1##*/}'s files as they were:"; sums "$1" | diff "$2" - | diag; fi
}
# label_of DIR : the host label of results.json, junit.xml and report.html
# of DIR, on one line ("a a a" when they agree)
label_of() {
  local j h x
  j="$(sed -n 's/^ *"host.label": "\(.*\)",\{0,1\}$/\1/p' "$1/results.json" 2>/dev/null | head -1)"
  x="$(xpath_str "//property[@name='host.label']/@value" "$1/junit.xml")"
  h="$(sed -n 's/.*<p id="host">Host: \([^ ]*\) (.*/\1/p' "$1/report.html" 2>/dev/null)"
  echo "${j:--} ${x:--} ${h:--}"
}
# locked_by PID FILE : the kernel lists a flock of PID on FILE
locked_by() {
  local ino
  ino="$(stat -c %i "$2" 2>/dev/null)" || return 1
  grep -Eq "^[0-9]+: FLOCK +ADVISORY +WRITE +$1 [0-9a-f]+:[0-9a-f]+:$ino " /proc/locks
}

# ---- (a) a directory another process holds: every command is refused
expect_status 0 "$RTC" run -q -o "$TMP/S" --host-label first "$TMP/quick.xml"
[ ! -e "$TMP/S/$LOCK" ] && ok "a run removes its lock file at the end" \
  || fail "a run removes its lock file at the end (it is still there)"
cp "$TMP/S/results.json" "$TMP/in.json"
sums "$TMP/S" >"$TMP/S.sums"
flock "$TMP/S/$LOCK" sleep 300 &
HOLDER=$!
if wait_for "flock holds S's lock file" 60 locked_by "$HOLDER" "$TMP/S/$LOCK"; then
  ino="$(stat -c %i "$TMP/S/$LOCK")"
  for cmd in "run -q -o $TMP/S --host-label second $TMP/quick.xml" \
             "report $TMP/in.json --html $TMP/S/report.html --json $TMP/S/results.json" \
             "merge $TMP/in.json -o $TMP/S" \
             "compare --allow-inconclusive $TMP/in.json $TMP/in.json -o $TMP/S"; do
    name="${cmd%% *}"
    # shellcheck disable=SC2086 # the words of the command
    expect_status 2 "$RTC" $cmd
    expect_grep "^rtconform $name: $TMP/S is in use: pid $HOLDER holds its lock $TMP/S/$LOCK; .*writes nothing" "$TMP/out"
    expect_no_grep '^ID +PROBE|^reports:' "$TMP/out"
    same_sums "$TMP/S" "$TMP/S.sums" "a refused $name"
    [ "$(stat -c %i "$TMP/S/$LOCK" 2>/dev/null)" = "$ino" ] && locked_by "$HOLDER" "$TMP/S/$LOCK" \
      && ok "a refused $name leaves the holder's lock file and its lock" \
      || fail "a refused $name leaves the holder's lock file and its lock"
  done
  # probe -o writes a run's reports too
  expect_status 2 "$RTC" probe selftest --iterations 100 -o "$TMP/S"
  expect_grep "^rtconform probe: $TMP/S is in use: pid $HOLDER holds its lock" "$TMP/out"
  expect_no_grep 'interval|^reports:' "$TMP/out"
  same_sums "$TMP/S" "$TMP/S.sums" "a refused probe"
  # a run with an output elsewhere but --csv in S is refused too, and
  # writes nothing, not even its other outputs
  expect_status 2 "$RTC" run -q -o "$TMP/S2" --csv "$TMP/S" "$TMP/quick.xml"
  expect_grep "^rtconform run: $TMP/S is in use: pid $HOLDER " "$TMP/out"
  [ ! -e "$TMP/S2" ] && ok "a refused run removes the -o directory it made" \
    || fail "a refused run removes the -o directory it made: $(ls -A "$TMP/S2")"
fi
kill "$(pgrep -P "$HOLDER" -x sleep)" "$HOLDER" 2>/dev/null
wait "$HOLDER" 2>/dev/null
# a lock file nobody holds (left by flock, naming nobody) is no lock
expect_status 0 "$RTC" run -q -o "$TMP/S" --host-label second "$TMP/quick.xml"
[ "$(label_of "$TMP/S")" = "second second second" ] && ok "S is the second run's once the lock is free" \
  || fail "S is the second run's once the lock is free ($(label_of "$TMP/S"))"

# ---- a lock file that is not one: rtconform may run as root in a
# directory others write, so it never writes through a symbolic link or
# into a file of another name, nor opens a FIFO
echo precious >"$TMP/precious"
mkdir "$TMP/H1" "$TMP/H2" "$TMP/H3"
ln -s "$TMP/precious" "$TMP/H1/$LOCK"
ln "$TMP/precious" "$TMP/H2/$LOCK"
mkfifo "$TMP/H3/$LOCK"
for h in H1:'a symbolic link, not a lock file' H2:'a file of more than one name, not a lock file' \
         H3:'not a regular file, so not a lock file'; do
  expect_status 2 "$RTC" run -q -o "$TMP/${h%%:*}" "$TMP/quick.xml"
  expect_grep "^rtconform run: cannot lock the output directory: $TMP/${h%%:*}/$LOCK: ${h#*:}\$" "$TMP/out"
  [ -z "$(ls "$TMP/${h%%:*}")" ] && ok "${h%%:*}: nothing written" || fail "${h%%:*}: nothing written ($(ls "$TMP/${h%%:*}"))"
done
[ "$(cat "$TMP/precious")" = precious ] && ok "the file the lock files name is left as it was" \
  || fail "the file the lock files name is left as it was"

# ---- (b) two runs started together into one directory, 5 times: one
# writes, the other is refused naming it, and the reports are all the
# winner's
for i in 1 2 3 4 5; do
  D="$TMP/D$i"
  "$RTC" run -q -o "$D" --host-label "a$i" "$TMP/slow.xml" >"$TMP/a.out" 2>&1 &
  pa=$!
  "$RTC" run -q -o "$D" --host-label "b$i" "$TMP/slow.xml" >"$TMP/b.out" 2>&1 &
  pb=$!
  sa=0; wait "$pa" || sa=$?
  sb=0; wait "$pb" || sb=$?
  # the winner's status is its verdicts' (0; 3 should a busy machine keep
  # a wake-up from being measured), never 2
  if [ "$sa" != 2 ] && [ "$sb" = 2 ]; then win="a$i"; wpid=$pa; lose="$TMP/b.out"
  elif [ "$sa" = 2 ] && [ "$sb" != 2 ]; then win="b$i"; wpid=$pb; lose="$TMP/a.out"
  else
    fail "round $i: one run writes, the other is refused (exit 2) (they exited $sa and $sb)"
    diag <"$TMP/a.out"; diag <"$TMP/b.out"; continue
  fi
  ok "round $i: one run writes, the other is refused (exit 2)"
  grep -q "^rtconform run: $D is in use: pid $wpid (.*run -q -o $D --host-label $win .*) holds its lock $D/$LOCK" "$lose" \
    && ok "round $i: the refused run names the winner's pid and command" \
    || { fail "round $i: the refused run names the winner's pid $wpid and command:"; diag <"$lose"; }
  grep -Eq '^ID +PROBE|^reports:' "$lose" && fail "round $i: the refused run measured nothing (it printed a table)" \
    || ok "round $i: the refused run measured nothing"
  [ "$(label_of "$D")" = "$win $win $win" ] \
    && ok "round $i: results.json, junit.xml and report.html are all $win's" \
    || fail "round $i: results.json, junit.xml and report.html are all $win's (labels: $(label_of "$D"))"
  [ ! -e "$D/$LOCK" ] && ok "round $i: no lock file is left" || fail "round $i: no lock file is left"
done

# ---- (c) merge and compare into another kind of report set
sums "$TMP/S" >"$TMP/S.sums"
expect_status 2 "$RTC" merge "$TMP/in.json" -o "$TMP/S"
expect_grep "^rtconform merge: $TMP/S holds results.json, of a run's reports \(rtconform run\); this fleet report would .*--force" "$TMP/out"
same_sums "$TMP/S" "$TMP/S.sums" "merge refused"
expect_status 2 "$RTC" compare --allow-inconclusive "$TMP/in.json" "$TMP/in.json" -o "$TMP/S"
expect_grep "^rtconform compare: $TMP/S holds results.json, of a run's reports \(rtconform run\); this comparison's reports would .*--force" "$TMP/out"
same_sums "$TMP/S" "$TMP/S.sums" "compare refused"
[ ! -e "$TMP/S/$LOCK" ] && ok "a refused merge or compare leaves no lock file" \
  || fail "a refused merge or compare leaves no lock file"
# a run's directory without its results.json is still a run's
rm "$TMP/S/results.json"
expect_status 2 "$RTC" merge "$TMP/in.json" -o "$TMP/S"
expect_grep "^rtconform merge: $TMP/S holds report.html, of a run's reports" "$TMP/out"
cp -r "$TMP/S" "$TMP/S-c"
# --force writes there anyway
expect_status 0 "$RTC" merge --force "$TMP/in.json" -o "$TMP/S"
[ -s "$TMP/S/fleet.html" ] && grep -q '"schema": "urn:rtconform:fleet:1"' "$TMP/S/results.json" \
  && ok "merge --force wrote its fleet report into the run's directory" \
  || fail "merge --force wrote its fleet report into the run's directory"
expect_status 0 "$RTC" compare --force --allow-inconclusive "$TMP/in.json" "$TMP/in.json" -o "$TMP/S-c"
[ -s "$TMP/S-c/compare.html" ] && ok "compare --force wrote its comparison into the run's directory" \
  || fail "compare --force wrote its comparison into the run's directory"
# the same kind again is no conflict: a fleet over a fleet, a comparison
# over a comparison
expect_status 0 "$RTC" merge "$TMP/in.json" -o "$TMP/F"
expect_status 0 "$RTC" merge "$TMP/in.json" -o "$TMP/F"
expect_status 0 "$RTC" compare --allow-inconclusive "$TMP/in.json" "$TMP/in.json" -o "$TMP/C"
expect_status 0 "$RTC" compare --allow-inconclusive "$TMP/in.json" "$TMP/in.json" -o "$TMP/C"
# each other's kinds are refused, naming the file that tells
expect_status 2 "$RTC" compare --allow-inconclusive "$TMP/in.json" "$TMP/in.json" -o "$TMP/F"
expect_grep "^rtconform compare: $TMP/F holds results.json, of a fleet report \(rtconform merge\)" "$TMP/out"
expect_status 2 "$RTC" merge "$TMP/in.json" -o "$TMP/C"
expect_grep "^rtconform merge: $TMP/C holds compare.txt, of a comparison \(rtconform compare -o\)" "$TMP/out"
# what cannot be told is not taken: a lone junit.xml, a results.json of
# another schema
mkdir "$TMP/J"; echo '<testsuites/>' >"$TMP/J/junit.xml"
expect_status 2 "$RTC" merge "$TMP/in.json" -o "$TMP/J"
expect_grep "^rtconform merge: $TMP/J holds junit.xml, beside no report that tells whose it is" "$TMP/out"
[ "$(cat "$TMP/J/junit.xml")" = '<testsuites/>' ] && ok "the lone junit.xml is left as it was" \
  || fail "the lone junit.xml is left as it was"
mkdir "$TMP/O"; echo '{"schema": "urn:example:other", "x": 1}' >"$TMP/O/results.json"
expect_status 2 "$RTC" compare --allow-inconclusive "$TMP/in.json" "$TMP/in.json" -o "$TMP/O"
expect_grep "^rtconform compare: $TMP/O holds results.json, a file rtconform cannot tell" "$TMP/out"

# ---- (d) a killed holder leaves no lock
"$RTC" run -q -o "$TMP/K" --host-label killed --duration 120s "$TMP/slow.xml" >/dev/null 2>&1 &
K=$!
if wait_for "the run into K records its pid in the lock file" "$START_WAIT" grep -qx "pid $K" "$TMP/K/$LOCK"; then
  expect_status 2 "$RTC" run -q -o "$TMP/K" "$TMP/quick.xml"
  expect_grep "^rtconform run: $TMP/K is in use: pid $K \(.*--host-label killed .*\) holds its lock" "$TMP/out"
  kill -9 "$K"
  wait "$K" 2>/dev/null
  grep -qx "pid $K" "$TMP/K/$LOCK" && ok "the killed run's lock file is left, naming it" \
    || fail "the killed run's lock file is left, naming it"
  # report takes the lock the dead run left (the journal it reads is
  # cli.journal's business: killed this early it may hold no run yet);
  # the journal is removed so that the next run may write K
  "$RTC" report "$TMP/K" >"$TMP/out" 2>&1
  expect_no_grep "is in use" "$TMP/out"
  rm -rf "$TMP/K/journal"
  expect_status 0 "$RTC" run -q -o "$TMP/K" --host-label after "$TMP/quick.xml"
  [ "$(label_of "$TMP/K")" = "after after after" ] && ok "the next run writes K" \
    || fail "the next run writes K ($(label_of "$TMP/K"))"
  [ ! -e "$TMP/K/$LOCK" ] && ok "the next run removes the lock file at its end" \
    || fail "the next run removes the lock file at its end"
else
  kill -9 "$K" 2>/dev/null
  wait "$K" 2>/dev/null
fi
# ---- the lock file removed between a command's open() and its flock(),
# as by its last holder at its end (tests/fake/fake_flock.c): the command
# locks the file at the path again, so the next writer is still refused
FAKE="$(cd "$(dirname "$RTC")" && pwd)/tests/libfake_flock.so"
if [ -f "$FAKE" ]; then
  ok "the fake flock library is built"
  LD_PRELOAD="$(preload "$FAKE")" "$RTC" run -q -o "$TMP/R" --duration 120s "$TMP/slow.xml" \
    >"$TMP/r.out" 2>&1 &
  R=$!
  if wait_for "a run whose lock file was removed under it records its pid in a new one" \
      "$START_WAIT" grep -qx "pid $R" "$TMP/R/$LOCK"; then
    expect_status 2 "$RTC" run -q -o "$TMP/R" "$TMP/quick.xml"
    expect_grep "^rtconform run: $TMP/R is in use: pid $R " "$TMP/out"
  fi
  # SIGTERM while it measures: the run stops, writes its reports, and its
  # lock file goes
  has_worker() { [ -n "$(worker_of "$1")" ]; }
  wait_for "the run into R measures" "$START_WAIT" has_worker "$R"
  kill -TERM "$R"
  st=0; wait "$R" || st=$?
  [ "$st" = 3 ] && [ -s "$TMP/R/results.json" ] && [ ! -e "$TMP/R/$LOCK" ] \
    && ok "the interrupted run wrote its reports and removed its lock file" \
    || { fail "the interrupted run wrote its reports and removed its lock file (exit $st):"; diag <"$TMP/r.out"; ls -A "$TMP/R" | diag; }
  # a flock() that says yes and does nothing is no lock: checked at the
  # kernel (/proc/locks), refused before anything is measured
  FAKE_FLOCK_IGNORE=1 LD_PRELOAD="$(preload "$FAKE")" "$RTC" run -q -o "$TMP/I" "$TMP/quick.xml" \
    >"$TMP/i.out" 2>&1; st=$?
  [ "$st" = 2 ] && grep -q "lists no lock of this process on it: not trusted" "$TMP/i.out" \
    && [ ! -e "$TMP/I/results.json" ] \
    && ok "a flock() that accepts and ignores is refused (exit 2), nothing measured" \
    || { fail "an ignored flock(): exit $st"; diag <"$TMP/i.out"; }
else
  fail "no $FAKE (built with the tests)"
fi

# the killed run's worker follows its supervisor (PR_SET_PDEATHSIG)
wait_for "no process of this test is left" "$END_WAIT" test -z "$(marked_procs)"

finish
