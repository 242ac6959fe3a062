# SPDX-License-Identifier: Apache-2.0
# The bash completion (completion/rtconform.bash) offers what the program
# has: subcommands, each command's options, the values an option takes,
# probe names and parameters, shipped profile names, files. It is sourced in
# a plain bash (no bash-completion package needed) and called the way bash
# calls it: COMP_WORDS, COMP_CWORD, then COMPREPLY is read.
. "$(dirname "$0")/lib.sh"
COMPLETION="$SRC/completion/rtconform.bash"
[ -r "$COMPLETION" ] || { fail "$COMPLETION missing"; finish; }

# offers WORD... -- CANDIDATE... : complete the words (the last one is being
# typed) and print one candidate a line.
cat >"$TMP/complete.sh" <<'SH'
source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_rtconform
printf '%s\n' "${COMPREPLY[@]}"
SH
offers() { bash "$TMP/complete.sh" "$COMPLETION" "$@" >"$TMP/offers" 2>"$TMP/offers.err"; }
# expect_offer WANT... -- WORDS... : each WANT is among the candidates.
expect_offer() {
  local want=() w
  while [ "$1" != -- ]; do want+=("$1"); shift; done; shift
  offers "$@"
  [ -s "$TMP/offers.err" ] && fail "completing '$*' wrote to stderr: $(head -3 "$TMP/offers.err")"
  for w in "${want[@]}"; do
    if grep -qxF -- "$w" "$TMP/offers"; then ok "completing '$*' offers '$w'"; else
      fail "completing '$*' does not offer '$w'; offered: $(tr '\n' ' ' <"$TMP/offers")"; fi
  done
}
expect_no_offer() {
  local bad="$1"; shift 2
  offers "$@"
  if grep -qxF -- "$bad" "$TMP/offers"; then fail "completing '$*' offers '$bad'"; else ok "completing '$*' does not offer '$bad'"; fi
}

# Subcommands: every one the usage text lists, and only those that match.
cmds=$("$RTC" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$cmds" ] && ok "rtconform --help lists commands" || fail "rtconform --help lists no commands"
# shellcheck disable=SC2086
expect_offer $cmds --help --version -- "$RTC" ""
expect_offer validate -- "$RTC" va
expect_no_offer run -- "$RTC" va

# Options: each command's, from its option table (every row of every
# table is offered: tests/cli/options.sh).
expect_offer --junit --json -- "$RTC" run --j
# merge's and compare's --force (into a directory of another report set)
expect_offer --force -- "$RTC" merge res.json --f
expect_offer --force -- "$RTC" compare res.json res.json --fo
expect_offer --duration --output --json -- "$RTC" probe sem-pingpong -
# only declared options: run's text mentions "rtconform list --profiles",
# which is list's; list declares it in its synopsis
help_options run | grep -qx -- --profiles && fail "help_options run gives --profiles" || ok "help_options run does not give --profiles"
expect_no_offer --profiles -- "$RTC" run --pro
expect_offer --profiles -- "$RTC" list --pro

# Values: a FILE option completes files, a DIR option directories, a choice
# its words.
mkdir -p "$TMP/w/sub" && touch "$TMP/w/req.xml" "$TMP/w/res.json" "$TMP/w/trace-R.txt"
cd "$TMP/w" || exit 1
expect_offer req.xml sub -- "$RTC" run --junit ""
expect_offer sub -- "$RTC" run -o ""
expect_offer sub -- "$RTC" probe sem-pingpong -o ""
expect_no_offer req.xml -- "$RTC" run -o ""
expect_offer fifo rr other -- "$RTC" probe sem-pingpong --policy ""
expect_offer max -- "$RTC" probe --policy fifo sem-pingpong --priority ""

# --only: the requirement ids of the files named (none: the default
# profile's), after a comma the next id of the list.
req_file "$TMP/w/ids.xml" ids '' '  <requirement id="ALPHA"><probe name="selftest"/></requirement>' \
  '  <requirement id="BETA"><probe name="selftest"/></requirement>'
expect_offer ALPHA BETA -- "$RTC" run ids.xml --only ""
expect_offer BETA -- "$RTC" run --quick ids.xml --only B
expect_no_offer SEM-RT -- "$RTC" run ids.xml --only ""
expect_offer ALPHA,BETA -- "$RTC" run ids.xml --only ALPHA,
expect_offer SEM-RT -- "$RTC" run --only ""

# Probe names, and the parameters of the probe named.
probes=$("$RTC" list | awk '/^[a-z][a-z0-9-]*$/ { print $1 }')
[ "$(echo "$probes" | wc -l)" -ge 5 ] && ok "rtconform list names at least 5 probes" || fail "rtconform list names too few probes: $probes"
# shellcheck disable=SC2086
expect_offer $probes -- "$RTC" probe ""
expect_offer sem-pingpong -- "$RTC" probe --iterations 100 sem-p
expect_no_offer sem-pingpong -- "$RTC" probe sem-pingpong ""
expect_offer mechanism= peer= placement= -- "$RTC" probe sem-pingpong --param ""
# A parameter's values, as `rtconform list` declares them for the probe
# named ("param mechanism posix-sem|...|eventfd (default posix-sem): ...").
# bash splits `--param mechanism=` at '=' (COMP_WORDBREAKS): the words are
# "--param" "mechanism" "=" (and "po" when typed on), and the reply replaces
# only what follows '=': the values alone. Written as one word (a
# COMP_WORDBREAKS without '='), the reply is the whole NAME=VALUE.
mech=$("$RTC" list | awk '/^[^ ]/ { on = ($1 == "sem-pingpong") } on && $1 == "param" && $2 == "mechanism" { print $3 }' | tr '|' ' ')
[ "$(echo "$mech" | wc -w)" -ge 3 ] && ok "rtconform list declares sem-pingpong's mechanisms ($mech)" \
  || fail "rtconform list declares sem-pingpong's mechanisms (found '$mech')"
# shellcheck disable=SC2086
expect_offer $mech -- "$RTC" probe sem-pingpong --param mechanism =
expect_offer posix-sem posix-named-sem -- "$RTC" probe sem-pingpong --param mechanism = po
expect_no_offer pipe -- "$RTC" probe sem-pingpong --param mechanism = po
expect_offer process thread -- "$RTC" probe --runs 2 sem-pingpong --param peer =
expect_offer mechanism=posix-sem mechanism=pipe -- "$RTC" probe sem-pingpong --param mechanism=
expect_offer mechanism=posix-sem -- "$RTC" probe sem-pingpong --param mechanism=po
expect_no_offer mechanism=pipe -- "$RTC" probe sem-pingpong --param mechanism=po
# only the named probe's values, and none for a free value (a count)
expect_no_offer posix-sem -- "$RTC" probe thread-create --param mechanism =
offers "$RTC" probe overhead --param batch =
[ ! -s "$TMP/offers" ] || [ -z "$(tr -d '\n' <"$TMP/offers")" ] && ok "completing overhead's --param batch= (a <count>) offers nothing" \
  || fail "completing overhead's --param batch= (a <count>) offers nothing; offered: $(tr '\n' ' ' <"$TMP/offers")"

# Written --param=NAME= (review 24: it offered nothing): bash splits it as
# "--param" "=" "mechanism" "="; and an option's value after '=' (--output=).
expect_offer $mech -- "$RTC" probe sem-pingpong --param = mechanism =
expect_offer posix-sem -- "$RTC" probe sem-pingpong --param = mechanism = po
expect_no_offer pipe -- "$RTC" probe sem-pingpong --param = mechanism = po
expect_offer process thread -- "$RTC" probe --iterations = 100 sem-pingpong --param = peer =
expect_offer fifo rr other -- "$RTC" probe sem-pingpong --policy =
expect_offer fifo -- "$RTC" probe sem-pingpong --policy = fi
expect_offer sub -- "$RTC" run req.xml --output =

# Requirement files for run, validate and list; report takes a run's output.
expect_offer req.xml sub -- "$RTC" run ""
expect_no_offer res.json -- "$RTC" validate ""
expect_offer res.json sub -- "$RTC" report ""
expect_no_offer req.xml -- "$RTC" report ""
# merge takes results.json files, and -o a directory
expect_offer res.json sub -- "$RTC" merge ""
expect_no_offer req.xml -- "$RTC" merge ""
expect_offer sub -- "$RTC" merge res.json -o ""
# compare takes a baseline's and a candidate's results.json
expect_offer res.json sub -- "$RTC" compare ""
expect_offer res.json sub -- "$RTC" compare res.json ""
expect_no_offer req.xml -- "$RTC" compare ""
# explain takes a saved trace (trace-<ID>.txt)
expect_offer trace-R.txt sub -- "$RTC" explain ""
expect_no_offer res.json -- "$RTC" explain ""
expect_offer --json -- "$RTC" explain trace-R.txt --j
expect_offer --lava -- "$RTC" run --la
expect_offer --lava -- "$RTC" report res.json --la

# File names are completed as file names (compopt -o filenames): bash
# quotes a name with a blank and ends a directory with '/' instead of a
# space (review 24: `compare out5<TAB>` put a space after the directory).
# Options and probe names are not. compopt only works inside a completion
# bash runs, so the stand-in records what was asked of it.
cat >"$TMP/complete-opt.sh" <<'SH'
compopt() { echo "compopt $*" >>"$COMPOPT_LOG"; }
source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_rtconform
printf '%s\n' "${COMPREPLY[@]}"
SH
mkdir -p "out5" && touch "my results.json"
filenames() {
  : >"$TMP/compopt"
  COMPOPT_LOG="$TMP/compopt" bash "$TMP/complete-opt.sh" "$COMPLETION" "$@" >"$TMP/offers" 2>&1
}
for words in "compare out" "report " "merge res.json -o " "run " "validate " "run --junit "; do
  # shellcheck disable=SC2086
  filenames "$RTC" $words ""
  grep -qx 'compopt -o filenames' "$TMP/compopt" && ok "completing '$words' completes file names" \
    || fail "completing '$words' does not set -o filenames"
done
filenames "$RTC" compare out
grep -qx out5 "$TMP/offers" && ok "compare out offers out5" || fail "compare out does not offer out5: $(tr '\n' ' ' <"$TMP/offers")"
filenames "$RTC" compare my
grep -qxF "my results.json" "$TMP/offers" && ok "a name with a blank is one candidate" \
  || fail "a name with a blank is not one candidate: $(tr '\n' '|' <"$TMP/offers")"
for words in "run --j" "probe sem" "probe sem-pingpong --policy f"; do
  # shellcheck disable=SC2086
  filenames "$RTC" $words
  grep -q 'filenames' "$TMP/compopt" && fail "completing '$words' sets -o filenames" \
    || ok "completing '$words' does not set -o filenames"
done

# Profile names, from `rtconform list --profiles` ("NAME  N requirements
# TITLE" a line). Of the program under test when it has profiles by name;
# the parsing itself through a stand-in that answers as it does.
if "$RTC" list --help | grep -q -- --profiles; then
  profiles=$("$RTC" list --profiles | awk '$2 ~ /^[0-9]+$/ && $3 ~ /^requirement/ { print $1 }')
  echo "$profiles" | grep -qx spy-memo && ok "rtconform list --profiles lists spy-memo" || fail "rtconform list --profiles does not list spy-memo"
  # shellcheck disable=SC2086
  expect_offer $profiles -- "$RTC" run ""
else
  echo "note: $RTC has no list --profiles yet; profile names checked through the stand-in only"
fi
cat >"$TMP/fake-rtconform" <<SH
#!/bin/bash
if [ "\$*" = "list --profiles" ]; then
  printf '%-20s %3d requirements  %s\n' default 9 "built in" spy-memo 2 "SPY memo" posix-rt-must-fail 12 "must fail"
  echo "(default is built in; the others are in /usr/share/rtconform/profiles)"
  exit 0
fi
exec "$RTC" "\$@"
SH
chmod +x "$TMP/fake-rtconform"
expect_offer default spy-memo posix-rt-must-fail req.xml -- "$TMP/fake-rtconform" run ""
expect_offer spy-memo -- "$TMP/fake-rtconform" validate sp
expect_no_offer "(default" -- "$TMP/fake-rtconform" run ""

# verify --gpg-key: the fingerprints of the keyring's primary keys
if command -v gpg >/dev/null; then
  export GNUPGHOME="$TMP/gnupg"; mkdir -m 700 "$GNUPGHOME"
  gpg --batch --quiet --passphrase '' --quick-gen-key 'Lab <lab@example.org>' ed25519 sign never >/dev/null 2>&1
  fpr=$(gpg --batch --with-colons --list-keys | awk -F: '/^fpr/ { print $10; exit }')
  expect_offer "$fpr" -- "$RTC" verify --gpg-key ""
  gpgconf --kill all 2>/dev/null; unset GNUPGHOME
else
  skip "verify --gpg-key offers the keyring's fingerprints" "gpg is not installed"
fi

# The check can fail: a completion that offers nothing is caught.
printf '_rtconform() { COMPREPLY=(); }\n' >"$TMP/empty.bash"
bash "$TMP/complete.sh" "$TMP/empty.bash" "$RTC" "" >"$TMP/offers"
grep -qx run "$TMP/offers" && fail "the empty completion offered run" || ok "the empty completion does not offer run"
finish
