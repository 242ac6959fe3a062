#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that every source file states its licence: SPDX-License-Identifier.

rtconform is licensed Apache-2.0 (LICENSE). Each file of the tree carries
"SPDX-License-Identifier: Apache-2.0" in its own comment syntax:
  .c .h .S .c.in                      /* SPDX-... */       line 1
  shell, bash, Python, CMake, YAML,
  .gitignore, postinst.in, #! scripts # SPDX-...           line 1, or 2 after #!
  Jenkinsfile                         // SPDX-...          line 1
  .md                                 <!-- SPDX-... -->    line 1
  tests/fixtures/explain/*.txt        # SPDX-...           line 1 (a comment
                                      to the trace reader, as tracefs's own)
  man pages (man/*.[1-8])             .\\" SPDX-...         line 1
  man/options.txt (the options' words) # SPDX-...          line 1
  .xml .xsd                           <!-- SPDX-... -->    at the end of the
                                      <?xml ...?> line, else line 1 (so no line
                                      number a test or diagnostic cites moves)
Exempt: LICENSE; tests/schemas/kcidb/LICENSE (the vendored KCIDB schema's
own, GPL-2.0-or-later: tests/schemas/kcidb/README.md); cmake/deb/copyright (DEP-5) and cmake/deb/changelog.in
(Debian formats without comments); tests/fixtures/invalid/empty.xml and
binary.xml (their bytes are the test); tests/fixtures/junit/* (written by
rtconform 0.1, kept byte for byte); tests/fixtures/journal/** (a run's
journal as it wrote it, its CRCs over every byte); *.json (no comments). A file of any
other kind fails: give it a rule here or exempt it. The script in the
commit "Licence: an SPDX-License-Identifier ..." adds the lines.

The files are those git knows (tracked, or new and not ignored) when
SOURCE_DIR is the top of a git work tree, else every file below it but
.git and the top-level build*/ folders.

Usage: check_spdx.py SOURCE_DIR
       check_spdx.py --selftest
Exit 0 when every file not exempt has the line, 1 with one line per file.
"""
import os
import subprocess
import sys
import tempfile

import checklib

TAG = "SPDX-License-Identifier: Apache-2.0"
EXEMPT = {"LICENSE", "tests/schemas/kcidb/LICENSE", "cmake/deb/copyright", "cmake/deb/changelog.in",
          "tests/fixtures/invalid/empty.xml", "tests/fixtures/invalid/binary.xml"}
EXEMPT_DIRS = ("tests/fixtures/junit/", "tests/fixtures/journal/")
HASH = (".sh", ".bash", ".py", ".cmake", ".yml", ".yaml", ".tsv")
LINE = {"c": f"/* {TAG} */", "hash": f"# {TAG}", "slash": f"// {TAG}",
        "md": f"<!-- {TAG} -->", "roff": f'.\\" {TAG}', "xml": f"<!-- {TAG} -->"}


def style(top, rel):
    """The comment style of rel, None when exempt, "" when there is no rule."""
    name = os.path.basename(rel)
    if rel in EXEMPT or rel.startswith(EXEMPT_DIRS) or name.endswith(".json"):
        return None
    if name.endswith((".c", ".h", ".S", ".c.in")):
        return "c"
    if (name.endswith(".txt") and rel.startswith("tests/fixtures/explain/")) or \
            rel == "man/options.txt":
        return "hash"
    if name.endswith(HASH) or name in ("CMakeLists.txt", ".gitignore", "postinst.in"):
        return "hash"
    if name == "Jenkinsfile":
        return "slash"
    if name.endswith(".md"):
        return "md"
    if rel.startswith("man/") and name[-2:-1] == "." and name[-1] in "12345678":
        return "roff"
    if name.endswith((".xml", ".xsd")):
        return "xml"
    with open(os.path.join(top, rel), "rb") as f:
        if "." not in name and f.read(2) == b"#!":
            return "hash"
    return ""


def has_line(text, how):
    lines = text.split("\n")
    want = LINE[how]
    if how == "xml" and text.startswith("<?xml"):
        return lines[0].startswith("<?xml") and lines[0].endswith(" " + want)
    if how == "hash" and text.startswith("#!"):
        return len(lines) > 1 and lines[1] == want
    return lines[0] == want


def files(top):
    r = subprocess.run(["git", "-C", top, "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True)
    if r.returncode == 0 and os.path.realpath(r.stdout.strip()) == os.path.realpath(top):
        out = subprocess.run(["git", "-C", top, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, text=True,
                             check=True).stdout
        return sorted(set(f for f in out.split("\0")
                          if f and os.path.isfile(os.path.join(top, f))))
    found = []
    for root, dirs, names in os.walk(top):
        rel_root = os.path.relpath(root, top)
        dirs[:] = [d for d in dirs if d != ".git" and
                   not (rel_root == "." and d.startswith("build"))]
        for fn in names:
            found.append(os.path.normpath(os.path.join(rel_root, fn)))
    return sorted(found)


def check(top):
    problems, checked, exempt = [], 0, 0
    for rel in files(top):
        how = style(top, rel)
        if how is None:
            exempt += 1
            continue
        if how == "":
            problems.append(f"{rel}: no SPDX rule for this kind of file "
                            "(tests/check_spdx.py: give it one, or exempt it)")
            continue
        checked += 1
        text = open(os.path.join(top, rel), encoding="utf-8", errors="replace").read()
        if not has_line(text, how):
            where = ("at the end of the <?xml ...?> line" if how == "xml" and
                     text.startswith("<?xml") else "as line 2, after #!" if how == "hash"
                     and text.startswith("#!") else "as line 1")
            problems.append(f"{rel}: no '{LINE[how]}' {where}")
    for p in problems:
        print(p)
    print(f"check_spdx: {checked} files checked, {exempt} exempt, {len(problems)} problems")
    return 1 if problems else 0


def selftest():
    st = checklib.SelfTest(__file__, "check_spdx")
    write = st.write

    def run(t, expect_ok, expect_text, what):
        st.run([t], expect_ok, expect_text, what)

    good = {
        "base/a.c": f"/* {TAG} */\nint a;\n",
        "ci/run": f"#!/bin/sh\n# {TAG}\ntrue\n",
        "tests/cli/lib.sh": f"# {TAG}\n",
        "docs/a.md": f"<!-- {TAG} -->\n# A\n",
        "man/a.1": f'.\\" {TAG}\n.TH A 1\n',
        "requirements/p.xml": f'<?xml version="1.0"?> <!-- {TAG} -->\n<r/>\n',
        "tests/fixtures/valid/m.xml": f"<!-- {TAG} -->\n<r/>\n",
        "ci/templates/Jenkinsfile": f"// {TAG}\n",
        "LICENSE": "Apache License\n",
        "tests/fixtures/invalid/empty.xml": "",
        "build/gen.c": "int generated;\n",
    }
    with tempfile.TemporaryDirectory() as t:
        for rel, text in good.items():
            write(t, rel, text)
        run(t, True, "0 problems", "a tree whose files all have the line (exempt ones and "
            "build/ aside) passes")
        cases = (("base/a.c", "int a;\n", "base/a.c: no '/* SPDX", "a C file without it"),
                 ("ci/run", f"#!/bin/sh\ntrue\n# {TAG}\n", "ci/run: no '# SPDX",
                  "a script whose line is not where it belongs"),
                 ("requirements/p.xml", f'<?xml version="1.0"?>\n<!-- {TAG} -->\n<r/>\n',
                  "at the end of the <?xml ...?> line", "XML with the line on line 2"),
                 ("man/a.1", ".TH A 1\n", "man/a.1: no", "a man page without it"),
                 ("docs/a.json.txt", "{}\n", "no SPDX rule", "a file of no known kind"))
        for rel, text, expect, what in cases:
            old = open(os.path.join(t, rel)).read() if os.path.exists(os.path.join(t, rel)) \
                else None
            write(t, rel, text)
            run(t, False, expect, f"{what} fails")
            if old is None:
                os.remove(os.path.join(t, rel))
            else:
                write(t, rel, old)
    return st.end()


def main():
    return checklib.main(__doc__, 1, check, selftest)


if __name__ == "__main__":
    sys.exit(main())
