# SPDX-License-Identifier: Apache-2.0
# Every command's options are written once, in its option table
# (cli/options.c, docs/cli-options.md); this checks each piece made from it
# against the table as the program lists it (`rtconform --list-options
# CMD`): getopt_long() takes every row (its long name and its letter), the
# command's --help has its line and names no option the table lacks, the
# man page the build makes (`rtconform --man-page`) documents it under its
# command, and the bash completion offers it. Then that the check can fail:
# a row the program does not have, and a page without an entry, are caught.
. "$(dirname "$0")/lib.sh"
command -v man >/dev/null || { fail "man missing: ci/deps installs man-db"; finish; }
COMPLETION="$SRC/completion/rtconform.bash"

# The page as the build makes it, rendered as plain text.
"$RTC" --man-page "$SRC/man/rtconform.1" >"$TMP/rtconform.1" && [ -s "$TMP/rtconform.1" ] \
  && ok "rtconform --man-page makes rtconform(1) from man/rtconform.1" \
  || fail "rtconform --man-page makes rtconform(1) from man/rtconform.1"
grep -q '^\.\\" rtconform-options ' "$TMP/rtconform.1" && fail "the made page still has a rtconform-options line" \
  || ok "the made page has every rtconform-options line replaced"
render() { LC_ALL=C MANWIDTH=80 man -l "$1" 2>/dev/null | col -b; }
render "$TMP/rtconform.1" >"$TMP/page"
expect_status 2 "$RTC" --list-options frobnicate
expect_grep "no command 'frobnicate'" "$TMP/out"
printf '.SS x\n.\\" rtconform-options frobnicate\n' >"$TMP/bad.1"
expect_status 2 "$RTC" --man-page "$TMP/bad.1"
expect_grep "no command 'frobnicate'" "$TMP/out"

# OPTIONS' subsection of CMD in rendered page TEXT, up to the next one.
man_section() {
  awk -v h="   $2" '$0 == h { on = 1; next } on && (/^   [^ ]/ || /^[A-Z]/) { exit } on' "$1"
}

# completes WORDS... : what the completion offers, one a line.
cat >"$TMP/complete.sh" <<'SH'
source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_rtconform
printf '%s\n' "${COMPREPLY[@]}"
SH
completes() { bash "$TMP/complete.sh" "$COMPLETION" "$@" 2>/dev/null; }

# check_cmd PROG CMD PAGE : every check of CMD's table, as PROG lists it,
# against PROG's getopt and --help, rendered page PAGE and the completion
# of PROG; returns the number of failures.
check_cmd() {
  local prog="$1" c="$2" page="$3" before=$FAILS name letter arg o v
  "$prog" --list-options "$c" >"$TMP/rows-$c" 2>/dev/null
  grep -qx -- "--help	-h	" "$TMP/rows-$c" && ok "$c's table lists --help" || fail "$c's table does not list --help"
  "$prog" "$c" --help >"$TMP/help-$c" 2>&1 || fail "$c --help fails"
  man_section "$page" "$c" >"$TMP/man-$c"
  completes "$prog" "$c" - >"$TMP/comp-$c"
  while IFS=$'\t' read -r name letter arg; do
    [ "$letter" = - ] && letter=""
    [ "$arg" = - ] && arg=""
    # getopt takes it: no "unknown option" nor "needs a value" for it
    # (an empty value is refused by the command itself, if at all)
    for o in $name $letter; do
      [ "$o" = --help ] || [ "$o" = -h ] && continue
      if [ -n "$arg" ]; then v=(""); else v=(); fi
      "$prog" "$c" "$o" "${v[@]}" --zz-no-such-option >"$TMP/got" 2>&1 </dev/null
      if grep -qE -- "(unknown option|option) '?$o'?( |$)|$o needs a value" "$TMP/got"; then
        fail "rtconform $c does not take $o: $(head -1 "$TMP/got")"
      else ok "rtconform $c takes $o"; fi
    done
    # --help has the row's line: "  -L, --NAME ARG" or "      --NAME ARG"
    local lead="    "
    [ -n "$letter" ] && lead="$letter, "
    grep -qF -- "  $lead$name${arg:+ $arg}" "$TMP/help-$c" && ok "$c --help has $name's line" \
      || fail "$c --help has no line for $name${arg:+ $arg}"
    # the page documents it under its command (long and short)
    [ "$name" = --help ] || for o in $name $letter; do
      grep -qE -- "(^|[[:space:],[])$o([[:space:],=]|$)" "$TMP/man-$c" && ok "rtconform(1) documents '$c $o'" \
        || fail "rtconform(1) does not document '$c $o'"
    done
    for o in $name $letter; do
      grep -qxF -- "$o" "$TMP/comp-$c" && ok "completing '$c -' offers $o" || fail "completing '$c -' does not offer $o"
    done
  done < <(sed 's/\t\t/\t-\t/; s/\t$/\t-/' "$TMP/rows-$c") # "-": none (read joins empty fields)
  # and --help names no option the table lacks (its synopsis, the options
  # its lines start with)
  { awk '/^usage:/ { u = 1 } /^$/ { u = 0 } u' "$TMP/help-$c" | grep -oE -- '(^|[][ ,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[][ ,]//'
    grep -oE -- '^  (-[A-Za-z], |    )--[A-Za-z][A-Za-z-]*' "$TMP/help-$c" | tr ', ' '\n\n' | grep -- '^-'
  } | sort -u | while read -r o; do
    cut -f1,2 "$TMP/rows-$c" | tr '\t' '\n' | grep -qxF -- "$o" || echo "$o"
  done >"$TMP/extra-$c"
  [ -s "$TMP/extra-$c" ] && fail "$c --help names options its table lacks: $(tr '\n' ' ' <"$TMP/extra-$c")" \
    || ok "$c --help names no option its table lacks"
  return $((FAILS - before))
}

# check_words PROG WORDS CMDS... : man/options.txt (WORDS), whose blocks
# are the rows' words, against PROG's tables: a block for every row (its
# command's, or a shared "*" one), a row for every block; returns the
# number of failures. The build's own check (cli_words_check, run by
# --man-page) refuses the same faults in the embedded copy.
check_words() {
  local prog="$1" words="$2" before=$FAILS c name rest; shift 2
  grep '^== ' "$words" | sed 's/^== //' >"$TMP/blocks"
  for c in "$@"; do
    "$prog" --list-options "$c" | cut -f1 | while read -r name; do
      [ "$name" = --help ] && continue
      grep -qxF -- "$c $name" "$TMP/blocks" || grep -qxF -- "* $name" "$TMP/blocks" || echo "$c $name"
    done
  done >"$TMP/wordless"
  [ -s "$TMP/wordless" ] && fail "man/options.txt has no words for: $(tr '\n' ';' <"$TMP/wordless")" \
    || ok "man/options.txt has words for every row"
  while read -r c name; do
    [ "$c $name" = "* --help" ] && continue
    if [ "$c" = "*" ]; then
      for rest in "$@"; do "$prog" --list-options "$rest"; done | cut -f1 | grep -qxF -- "$name"
    else
      "$prog" --list-options "$c" 2>/dev/null | cut -f1 | grep -qxF -- "$name"
    fi || echo "$c $name"
  done <"$TMP/blocks" >"$TMP/rowless"
  [ -s "$TMP/rowless" ] && fail "man/options.txt has words of no row: $(tr '\n' ';' <"$TMP/rowless")" \
    || ok "every block of man/options.txt is a row's"
  return $((FAILS - before))
}

cmds=$("$RTC" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(echo "$cmds" | wc -w)" -ge 11 ] && ok "rtconform --help lists the 11 commands" || fail "rtconform --help lists too few commands: $cmds"
for c in $cmds; do
  check_cmd "$RTC" "$c" "$TMP/page"
done
check_words "$RTC" "$SRC/man/options.txt" $cmds
# and it can fail: a block renamed leaves its row without words and is of no row
sed 's/^== run --runs$/== run --rnus/' "$SRC/man/options.txt" >"$TMP/words-drift"
saved=$FAILS saved_checks=$CHECKS
check_words "$RTC" "$TMP/words-drift" $cmds >"$TMP/words.out"
FAILS=$saved CHECKS=$saved_checks
for want in "has no words for: run --runs" "has words of no row: run --rnus"; do
  grep -qF -- "$want" "$TMP/words.out" && ok "the check catches a drift: $want" \
    || { fail "the check misses a drift: $want"; grep '^not ok' "$TMP/words.out" | diag; }
done
# the shared output rows are one: the same line in run's and report's --help
for o in --junit --summary --html --json --csv --lava --junit-skipped; do
  a=$(grep -A3 -- "^      $o " "$TMP/help-run" | head -1) b=$(grep -A3 -- "^      $o " "$TMP/help-report" | head -1)
  [ -n "$a" ] && [ "$a" = "$b" ] && ok "run and report share $o's row" || fail "run's and report's $o differ: '$a' / '$b'"
done

# The check can fail: a program whose table has a row its getopt, --help
# and page know nothing of, whose --help has a line of no row, and a page
# without run --runs.
cat >"$TMP/drift" <<SH
#!/bin/bash
if [ "\$1" = --list-options ] && [ "\$2" = run ]; then
  "$RTC" "\$@"; printf -- '--bogus\t\tN\n'; exit 0
fi
if [ "\$1" = run ] && [ "\$2" = --help ]; then
  "$RTC" run --help; echo "      --ghost X         a line of no row"; exit 0
fi
exec "$RTC" "\$@"
SH
chmod +x "$TMP/drift"
sed '/^\.BR \\-\\-runs /,/^\.TP/d' "$TMP/rtconform.1" >"$TMP/broken.1"
grep -q '^\.BR \\-\\-runs ' "$TMP/rtconform.1" && ok "the made page has run --runs' tag line" || fail "the made page has no '.BR \\-\\-runs' line"
render "$TMP/broken.1" >"$TMP/broken"
saved=$FAILS saved_checks=$CHECKS
check_cmd "$TMP/drift" run "$TMP/broken" >"$TMP/drift.out"; n=$?
FAILS=$saved CHECKS=$saved_checks
for want in "does not take --bogus" "no line for --bogus N" "does not document 'run --bogus'" \
            "does not document 'run --runs'" "names options its table lacks: --ghost"; do
  grep -qF -- "$want" "$TMP/drift.out" && ok "the check catches a drift: $want" \
    || { fail "the check misses a drift: $want"; grep '^not ok' "$TMP/drift.out" | diag; }
done
[ "$n" -ge 5 ] && ok "the drifted table fails at least 5 checks ($n)" || fail "the drifted table fails only $n checks"
finish
