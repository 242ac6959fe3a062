#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the build lists every source file, so none is left out.

Sources are listed by name (cmake/modules.cmake, tests/CMakeLists.txt), and
CMake writes every listed file to <build>/sources.txt, one path a line from
the top of the tree. A file must be listed when it is
  - a .c or .S file in a module's folder or below it (the folders of
    <build>/modules.txt: base/, host/, ..., harness/measure/probes/),
  - a .c file anywhere in tests/ (the suites test_*.c, fakes, fuzzing),
  - a .sh file in tests/cli/ (the CLI tests and what they source).
A listed file that does not exist fails as well (a stale list entry, e.g.
another architecture's source that was moved). Hidden folders are skipped.
A CLI test (tests/cli/*.sh but lib.sh) must call `finish` on a line of its
own: without it the test exits 0 whatever its checks said.

Usage: check_sources.py SOURCES_TXT MODULES_TXT SOURCE_DIR
       check_sources.py --selftest
Exit 0 when every file is listed, 1 with one line per problem.
"""
import os
import sys
import tempfile

import checklib


def read_list(path, field=0):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line.split()[field])
    return out


def walk(top, folder):
    for root, dirs, names in os.walk(os.path.join(top, folder)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for fn in sorted(names):
            yield os.path.relpath(os.path.join(root, fn), top), fn


def must_list(top, folders):
    want = set()
    for folder in folders:
        for rel, fn in walk(top, folder):
            if fn.endswith((".c", ".S")):
                want.add(rel)
    for rel, fn in walk(top, "tests"):
        if fn.endswith(".c"):
            want.add(rel)
        elif fn.endswith(".sh") and os.path.dirname(rel) == os.path.join("tests", "cli"):
            want.add(rel)
    return want


def unfinished(top, files):
    """CLI tests that never call finish, the one place their status is set."""
    out = []
    for rel in sorted(files):
        if (os.path.dirname(rel) == os.path.join("tests", "cli") and rel.endswith(".sh")
                and os.path.basename(rel) != "lib.sh"):
            lines = open(os.path.join(top, rel), encoding="utf-8").read().splitlines()
            if not any(l.strip() == "finish" for l in lines):
                out.append(f"{rel}: never calls finish, so it exits 0 whatever its checks said")
    return out


def check(sources_txt, modules_txt, top):
    listed = set(os.path.normpath(p) for p in read_list(sources_txt))
    folders = read_list(modules_txt, 1)
    want = must_list(top, folders)
    problems = []
    for rel in sorted(want - listed):
        where = ("tests/CMakeLists.txt" if rel.startswith("tests" + os.sep)
                 else "its module in cmake/modules.cmake")
        problems.append(f"{rel}: not listed in the build (add it to {where})")
    for rel in sorted(listed):
        if not os.path.isfile(os.path.join(top, rel)):
            problems.append(f"{rel}: listed in the build but not in the tree")
    problems += unfinished(top, want)
    for p in problems:
        print(p)
    print(f"check_sources: {len(want)} files to list, {len(listed)} listed, "
          f"{len(problems)} problems")
    return 1 if problems else 0


def selftest():
    st = checklib.SelfTest(__file__, "check_sources")
    write = st.write

    def run(t, expect_ok, expect_text, what):
        st.run([f"{t}/sources.txt", f"{t}/modules.txt", t], expect_ok, expect_text, what)

    with tempfile.TemporaryDirectory() as t:
        for d in ("low/sub", "tests/cli", "tests/fake", "docs"):
            os.makedirs(f"{t}/{d}")
        files = ["low/a.c", "low/sub/b.S", "tests/test_a.c", "tests/fake/f.c",
                 "tests/cli/a.sh", "tests/cli/lib.sh"]
        for f in files + ["low/a.h", "docs/x.c", "tests/cli/data.txt"]:
            open(f"{t}/{f}", "w").close()
        with open(f"{t}/tests/cli/a.sh", "w") as a:
            a.write(". lib.sh\nexpect_status 0 true\nfinish\n")
        with open(f"{t}/modules.txt", "w") as m:
            m.write("# name folder deps\nlow low\n")
        with open(f"{t}/sources.txt", "w") as s:
            s.write("# listed\n" + "\n".join(files) + "\n")
        run(t, True, "0 problems", "a tree whose sources are all listed passes")
        for new, what in (("low/sub/c.c", "a module's source in a subfolder"),
                          ("tests/test_b.c", "a Check suite"),
                          ("tests/cli/b.sh", "a CLI test")):
            with open(f"{t}/{new}", "w") as n:
                n.write("finish\n")
            run(t, False, f"{new}: not listed in the build", f"{what} not listed fails")
            os.remove(f"{t}/{new}")
        with open(f"{t}/tests/cli/a.sh", "w") as a:
            a.write(". lib.sh\nexpect_status 0 true\nlib_exit\n")
        run(t, False, "tests/cli/a.sh: never calls finish",
            "a CLI test that never calls finish fails")
        with open(f"{t}/tests/cli/a.sh", "w") as a:
            a.write(". lib.sh\nexpect_status 0 true\nfinish\n")
        os.remove(f"{t}/low/sub/b.S")
        run(t, False, "low/sub/b.S: listed in the build but not in the tree",
            "a listed file that is gone fails")
    return st.end()


def main():
    return checklib.main(__doc__, 3, check, selftest)


if __name__ == "__main__":
    sys.exit(main())
