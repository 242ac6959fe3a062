# Hostile use of the command line: each case once broke rtconform (see
# docs/failure-modes.md) and must now end with a clear message and the
# right exit status.
. "$(dirname "$0")/lib.sh"

# A FIFO with no writer as the requirements file: refused at once (status 2
# within 5 s), by validate and by run, naming the file; nothing written.
mkfifo "$TMP/fifo.xml"
expect_status 2 timeout 5 "$RTC" validate "$TMP/fifo.xml"
expect_grep 'fifo.xml: is not a regular file' "$TMP/out"
expect_status 2 timeout 5 "$RTC" run "$TMP/fifo.xml" -o "$TMP/fifo-out"
expect_grep 'fifo.xml: is not a regular file' "$TMP/out"
[ ! -e "$TMP/fifo-out" ] && ok || fail "a refused FIFO left $TMP/fifo-out"

finish
