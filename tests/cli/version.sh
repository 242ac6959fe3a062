# SPDX-License-Identifier: Apache-2.0
# The build's identity: `rtconform --version` and `env` name the version and
# the git commit the binary was built from (cmake/build_id.cmake): 12 hex
# digits of HEAD, "-dirty" when tracked files had changes, "unknown" outside
# a git work tree. The commit of this build is compared with the source
# tree's; the script's other cases run on a scratch repository and on an
# exported tree (git archive), configured but only the commit generated.
. "$(dirname "$0")/lib.sh"

if ! command -v git >/dev/null; then
  fail "git is not installed (ci/deps installs it): the build identity cannot be checked"; finish
fi
GIT="git -c user.name=rtconform-test -c user.email=test@invalid -c init.defaultBranch=main"

# Of the tree the test runs from, what the build says it was built from.
commit_of() {
  local top
  top="$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" || { echo unknown; return; }
  [ "$(realpath "$top")" = "$(realpath "$1")" ] || { echo unknown; return; }
  local c
  c="$(git -C "$1" rev-parse --short=12 HEAD)"
  git -C "$1" diff --quiet HEAD -- || c="$c-dirty"
  echo "$c"
}

expect_status 0 "$RTC" --version
expect_grep '^rtconform [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)[;)]' "$TMP/out"
want="$(commit_of "$SRC")"
expect_grep "^rtconform [0-9.]+ \\(commit $want[;)]" "$TMP/out"
expect_status 0 "$RTC" env
expect_grep "^rtconform.commit +$want\$" "$TMP/out"

# The script alone: a clean repository, then a changed tracked file, a
# staged one, an untracked file (not a change), a subfolder of a repository
# (not its own tree) and no git at all.
id_of() { # id_of SRC [GIT] : the commit build_id.cmake writes for SRC
  rm -f "$TMP/id.c"
  cmake -DSRC="$1" -DOUT="$TMP/id.c" -DGIT="${2-$(command -v git)}" \
    -P "$SRC/cmake/build_id.cmake" >"$TMP/id.log" 2>&1 || { echo "cmake failed: $(cat "$TMP/id.log")"; return; }
  sed -n 's/^const char runinfo_commit\[\] = "\(.*\)";$/\1/p' "$TMP/id.c"
}
expect_id() { # expect_id WANT WHAT SRC [GIT]
  local got; got="$(id_of "$3" "${4-$(command -v git)}")"
  if [ "$got" = "$1" ]; then ok "$2: build_id.cmake says '$1'"; else fail "$2: build_id.cmake says '$got', expected '$1'"; fi
}
R="$TMP/repo"
mkdir -p "$R/sub"
echo one >"$R/a.txt"; echo two >"$R/sub/b.txt"
$GIT -C "$R" init -q && $GIT -C "$R" add . && $GIT -C "$R" commit -qm one || fail "cannot make a scratch repository"
head="$(git -C "$R" rev-parse --short=12 HEAD)"
expect_id "$head" "a clean tree" "$R"
echo untracked >"$R/c.txt"
expect_id "$head" "an untracked file" "$R"
echo changed >>"$R/a.txt"
expect_id "$head-dirty" "a changed tracked file" "$R"
$GIT -C "$R" add a.txt
expect_id "$head-dirty" "a staged change" "$R"
expect_id "unknown" "a folder inside a repository" "$R/sub"
expect_id "unknown" "no git" "$R" ""

# An exported tree (a release tarball): configured from scratch, the target
# that writes the commit says unknown. Only that target is built.
E="$TMP/export"
mkdir -p "$E"
if [ "$(commit_of "$SRC")" = unknown ]; then
  cp -a "$SRC/." "$E/" && rm -rf "$E"/build*   # this tree is an export already
else
  git -C "$SRC" archive HEAD | tar -x -C "$E" || fail "git archive of $SRC failed"
fi
if cmake -S "$E" -B "$E/build" >"$TMP/cfg.log" 2>&1 &&
   cmake --build "$E/build" --target rtc_build_id >>"$TMP/cfg.log" 2>&1; then
  ok "an exported tree configures and builds rtc_build_id"
  expect_grep '^const char runinfo_commit\[\] = "unknown";$' "$E/build/build_id.c"
else
  fail "an exported tree configures and builds rtc_build_id:"; tail -20 "$TMP/cfg.log" | sed 's/^/    /'
fi
finish
