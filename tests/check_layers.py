#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that no source file includes a header of a module it may not use.

The modules and their allowed dependencies are declared once, in
cmake/modules.cmake; CMake writes them to <build>/modules.txt as lines
"name folder dep...". A file belongs to the module whose folder is the
longest prefix of its path. It may include headers of its own module and
of every module reachable through the declared dependencies. Includes are
written relative to the repository root ("base/units.h"); a quoted include
that does not name a file of the repository is refused as well, so no
relative path ("../x.h") can slip past the check.

Usage: check_layers.py MODULES_TXT SOURCE_DIR
Exit 0 when every include is allowed, 1 with one line per violation.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_modules(path):
    mods = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, folder, *deps = line.split()
        mods[name] = (folder.rstrip("/") + "/", deps)
    return mods


def closure(mods, name, seen=None):
    seen = set() if seen is None else seen
    for d in mods[name][1]:
        if d not in seen:
            seen.add(d)
            closure(mods, d, seen)
    return seen


def owner(mods, relpath):
    best = None
    for name, (folder, _) in mods.items():
        if relpath.startswith(folder) and (best is None or len(folder) > len(mods[best][0])):
            best = name
    return best


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    mods = read_modules(sys.argv[1])
    top = sys.argv[2]
    allowed = {m: closure(mods, m) | {m} for m in mods}
    problems, files = [], 0
    for name, (folder, _) in sorted(mods.items()):
        for root, _, names in os.walk(os.path.join(top, folder)):
            for fn in sorted(names):
                if not fn.endswith((".c", ".h", ".S")):
                    continue
                rel = os.path.relpath(os.path.join(root, fn), top)
                if owner(mods, rel) != name:
                    continue  # a file of a module in a subfolder
                files += 1
                text = open(os.path.join(top, rel), encoding="utf-8").read()
                for m in INCLUDE.finditer(text):
                    inc = m.group(1)
                    line = text.count("\n", 0, m.start()) + 1
                    if not os.path.isfile(os.path.join(top, inc)):
                        problems.append(f"{rel}:{line}: #include \"{inc}\" is not a path from "
                                        "the repository root")
                        continue
                    to = owner(mods, inc)
                    if to is None:
                        problems.append(f"{rel}:{line}: #include \"{inc}\" is in no module")
                    elif to not in allowed[name]:
                        problems.append(f"{rel}:{line}: module {name} may not use module {to} "
                                        f"(#include \"{inc}\"); allowed: "
                                        f"{', '.join(sorted(allowed[name]))} "
                                        "(edges: cmake/modules.cmake)")
    for p in problems:
        print(p)
    print(f"check_layers: {files} files, {len(problems)} forbidden includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
