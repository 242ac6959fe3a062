#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Shows that tests/check_layers.py fails on a forbidden include, on a
# relative include, on an include of a header private to other modules
# ("layers: private to ..."), on a module table in docs/architecture.md that differs
# from the build's, and passes a tree that keeps to its edges.
set -euo pipefail
checker="$(cd "$(dirname "$0")" && pwd)/check_layers.py"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/low" "$t/high" "$t/docs"
printf 'low low\nhigh high low\n' > "$t/modules.txt"
doc() { printf '# x\n\n## The modules and their edges\n\n| module | folder | may use | why |\n|---|---|---|---|\n| low | `low/` | nothing | a |\n| high | `high/` | %s | b |\n\n## Next\n\n| a | b | c |\n' "$1" > "$t/docs/architecture.md"; }
doc low
printf '/* */\n' > "$t/low/a.h"
printf '#include "low/a.h"\n' > "$t/high/b.h"
python3 "$checker" "$t/modules.txt" "$t" > "$t/out" || { cat "$t/out"; echo "FAIL: a clean tree was refused"; exit 1; }
printf '#include "high/b.h"\n' > "$t/low/c.c"
if python3 "$checker" "$t/modules.txt" "$t" > "$t/out"; then
  cat "$t/out"; echo "FAIL: low including high was not refused"; exit 1
fi
grep -q 'low/c.c:1: module low may not use module high' "$t/out" || { cat "$t/out"; echo "FAIL: message"; exit 1; }
printf '#include "a.h"\n' > "$t/low/c.c"
if python3 "$checker" "$t/modules.txt" "$t" > "$t/out"; then
  cat "$t/out"; echo "FAIL: a relative include was not refused"; exit 1
fi
grep -q 'is not a path from the repository root' "$t/out" || { cat "$t/out"; echo "FAIL: message"; exit 1; }
rm "$t/low/c.c"
printf '/* layers: private to low */\n' > "$t/low/p.h"
printf '#include "low/p.h"\n' > "$t/low/d.c"
python3 "$checker" "$t/modules.txt" "$t" > "$t/out" || { cat "$t/out"; echo "FAIL: a private header in its own module was refused"; exit 1; }
printf '#include "low/p.h"\n' > "$t/high/e.c"
if python3 "$checker" "$t/modules.txt" "$t" > "$t/out"; then
  cat "$t/out"; echo "FAIL: high including a header private to low was not refused"; exit 1
fi
grep -q 'high/e.c:1: module high may not include "low/p.h": it is private to low' "$t/out" \
  || { cat "$t/out"; echo "FAIL: message"; exit 1; }
rm "$t/high/e.c" "$t/low/d.c" "$t/low/p.h"
python3 "$checker" "$t/modules.txt" "$t" > "$t/out" || { cat "$t/out"; echo "FAIL: the clean tree again was refused"; exit 1; }
doc nothing
if python3 "$checker" "$t/modules.txt" "$t" > "$t/out"; then
  cat "$t/out"; echo "FAIL: a module table with other edges was not refused"; exit 1
fi
grep -q 'docs/architecture.md: module high: may use nothing, the build.s edges are low' "$t/out" \
  || { cat "$t/out"; echo "FAIL: message"; exit 1; }
doc low
printf 'low low\nhigh high low\nmid mid low\n' > "$t/modules.txt"
if python3 "$checker" "$t/modules.txt" "$t" > "$t/out"; then
  cat "$t/out"; echo "FAIL: a module missing from the table was not refused"; exit 1
fi
grep -q 'module mid of the build is not in the module table' "$t/out" || { cat "$t/out"; echo "FAIL: message"; exit 1; }
echo "check_layers selftest: 6 passed, 0 failed"
