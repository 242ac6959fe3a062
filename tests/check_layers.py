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

A header may narrow who includes it further with a line
"layers: private to MODULE MODULE ..." (in a comment): a file of any other
module that includes it is refused, even where the edges allow it. The
result memory's headers are private to measure and harness this way, so
the reports read a result's numbers in its summary (harness/summary.h).

The module table of docs/architecture.md (the rows of the table under
"## The modules and their edges": module | `folder/` | may use | why) must
list exactly the build's modules, each with the same folder and the same
edges ("nothing" for none), so the document cannot drift from the build.

Usage: check_layers.py MODULES_TXT SOURCE_DIR
Exit 0 when every include is allowed and the table agrees, 1 with one line
per violation.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PRIVATE = re.compile(r'layers: private to ((?:[a-z_]+ ?)+)')


def private_to(top, inc, cache={}):
    """The modules a header is private to (its "layers: private to" line), or None."""
    if inc not in cache:
        m = PRIVATE.search(open(os.path.join(top, inc), encoding="utf-8").read())
        cache[inc] = set(m.group(1).split()) if m else None
    return cache[inc]


def read_modules(path):
    mods = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, folder, *deps = line.split()
        mods[name] = (folder.rstrip("/") + "/", deps)
    return mods


DOC = "docs/architecture.md"
DOC_SECTION = "## The modules and their edges"


def read_doc_table(path):
    """The module table of the architecture document: {name: (folder, deps)}."""
    rows, inside = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            inside = line.strip() == DOC_SECTION
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not inside or not line.startswith("|") or len(cells) < 3:
            continue
        if cells[0] == "module" or set(cells[0]) <= set("-: "):
            continue  # the header and its rule
        deps = [] if cells[2] == "nothing" else [d.strip() for d in cells[2].split(",")]
        rows[cells[0]] = (cells[1].strip("`").rstrip("/") + "/", deps)
    return rows


def check_doc(mods, top):
    """Where docs/architecture.md's module table differs from the build's."""
    path = os.path.join(top, DOC)
    if not os.path.isfile(path):
        return [f"{DOC}: missing (its module table must list the build's modules)"]
    doc, out = read_doc_table(path), []
    for name in sorted(set(mods) | set(doc)):
        if name not in doc:
            out.append(f"{DOC}: module {name} of the build is not in the module table")
        elif name not in mods:
            out.append(f"{DOC}: module {name} of the module table is not in the build")
        elif doc[name][0] != mods[name][0]:
            out.append(f"{DOC}: module {name}: folder {doc[name][0]}, the build's is "
                       f"{mods[name][0]}")
        elif sorted(doc[name][1]) != sorted(mods[name][1]):
            out.append(f"{DOC}: module {name}: may use {', '.join(doc[name][1]) or 'nothing'}, "
                       f"the build's edges are {', '.join(mods[name][1]) or 'nothing'}")
    return out


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
                    elif private_to(top, inc) is not None and name not in private_to(top, inc):
                        problems.append(f"{rel}:{line}: module {name} may not include "
                                        f"\"{inc}\": it is private to "
                                        f"{', '.join(sorted(private_to(top, inc)))}")
    doc = check_doc(mods, top)
    for p in problems + doc:
        print(p)
    print(f"check_layers: {files} files, {len(problems)} forbidden includes, "
          f"{len(doc)} differences in {DOC}'s module table")
    return 1 if problems or doc else 0


if __name__ == "__main__":
    sys.exit(main())
