# SPDX-License-Identifier: Apache-2.0
# The command lines of tests/cli/cases.tsv: each exits with its status, and
# its output holds its pattern.
. "$(dirname "$0")/lib.sh"

n=0
while IFS=$'\t' read -r want pat args; do
  case "$want" in ''|'#'*) continue ;; esac
  eval "set -- $args"
  expect_status "$want" "$RTC" "$@"
  [ "$pat" = - ] || expect_grep "$pat" "$TMP/out"
  n=$((n + 1))
done <"$SRC/tests/cli/cases.tsv"
[ "$n" -gt 0 ] && ok "cases.tsv holds $n cases" || fail "cases.tsv holds no case"
finish
