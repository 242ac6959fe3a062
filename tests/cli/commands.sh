# SPDX-License-Identifier: Apache-2.0
# Every subcommand's --help, list, validate, probe, env, and usage errors.
. "$(dirname "$0")/lib.sh"

expect_status 0 "$RTC" --help
expect_grep 'validate' "$TMP/out"
expect_status 0 "$RTC" --version
expect_grep '^rtconform [0-9]+\.[0-9]+' "$TMP/out"
for c in run validate list probe env report; do
  expect_status 0 "$RTC" "$c" --help
  expect_grep "usage: rtconform $c" "$TMP/out"
done
expect_status 2 "$RTC"
expect_status 2 "$RTC" frobnicate
expect_grep "unknown command 'frobnicate'" "$TMP/out"

# list: probes with parameters and allowed values
expect_status 0 "$RTC" list
expect_grep '^sem-pingpong' "$TMP/out"
expect_grep 'param placement +same-cpu\|cross-cpu' "$TMP/out"
expect_grep 'metric per-op' "$TMP/out"
# list FILE: the file's requirements
expect_status 0 "$RTC" list "$SRC/requirements/profiles/spy-memo.xml"
expect_grep '^SEM-RT +sem-pingpong +fifo:max' "$TMP/out"
expect_grep 'limit per-op mean <= 50us' "$TMP/out"

# validate: every shipped profile is valid; an invalid file exits 2 with file:line
for f in "$SRC"/requirements/profiles/*.xml; do
  expect_status 0 "$RTC" validate "$f"
done
expect_status 2 "$RTC" validate "$FIX/cli/invalid-probe.xml"
expect_grep 'invalid-probe.xml:5: requirement BAD: probe sem-pingpong: parameter mechanism has no value .carrier-pigeon. \(expected posix-sem' "$TMP/out"
expect_status 2 "$RTC" validate
expect_status 2 "$RTC" validate "$FIX/cli/pass.xml" "$TMP/missing.xml"
expect_grep 'missing.xml' "$TMP/out"

# probe: an ad-hoc measurement prints statistics
expect_status 0 "$RTC" probe sem-pingpong --iterations 100 --param placement=same-cpu
expect_grep 'per-op' "$TMP/out"
expect_grep 'mean' "$TMP/out"
expect_status 2 "$RTC" probe sem-pingpong --param placement=moon
expect_grep "placement has no value 'moon'" "$TMP/out"
expect_status 2 "$RTC" probe no-such-probe
# bad --policy/--priority values: the option and the value are named, with
# the same rules (requirements/loader.c) a file's <sched> gets
expect_status 2 "$RTC" probe sem-pingpong --policy idle
expect_grep "^rtconform probe: --policy: unknown scheduling policy 'idle' \(expected other, fifo or rr\)" "$TMP/out"
expect_status 2 "$RTC" probe sem-pingpong --policy fifo --priority 100
expect_grep '^rtconform probe: --priority: priority 100 is out of range for fifo \(expected [0-9]+\.\.[0-9]+ or max\)' "$TMP/out"
expect_status 2 "$RTC" probe sem-pingpong --policy rr --priority high
expect_grep "^rtconform probe: --priority: priority 'high' is not a number" "$TMP/out"
expect_status 2 "$RTC" probe sem-pingpong --priority 10
expect_grep '^rtconform probe: --priority needs --policy fifo or rr' "$TMP/out"

# env: the fingerprint
expect_status 0 "$RTC" env
expect_grep '^host.kernel.release' "$TMP/out"
expect_grep '^timebase.name' "$TMP/out"
finish
