#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that every repository path the documentation and comments name exists.

Where paths are looked for:
  - the whole text of README.md, docs/*.md (any .md file) and the man pages
    (man/*; roff escapes such as \\fB and \\- are undone first);
  - the comments of source files: /* */ and // in C, headers, assembler
    (.c, .h, .S, .c.in); # comments (a # at the start of a line or after a
    blank) and the docstrings of shell, bash, Python, CMake, YAML and
    extensionless scripts that start with #!.
Only README.md, CMakeLists.txt and the top-level folders below are read, so
build trees inside the source tree are never looked at; nor are test
fixtures (their text is data).

What is a repository path: a token that starts with a top-level folder of
the repository and a slash (base/ host/ requirements/ harness/ reports/ across/ evidence/
selftest/ cli/ tests/ ci/ cmake/ docs/ man/ completion/), is not preceded by a letter, digit
or one of _ . / - $ ~ (so not part of a longer path, a URL or $SRC/...), and
runs on over letters, digits and _ . - / * ?; trailing . , : ; are dropped.
A token must exist as a file or folder; failing that, a token with a glob
character (* ?) or a placeholder (2+ capitals not inside a word, as NAME in
tests/cli/NAME.sh or ID in trace-ID.txt, stands for *) must match at least
one file.

A bare C file name (a word ending in .c or .h that is not part of a path,
as page.h in "see page.h") must be the name of a file somewhere in the
tree, or of a system header under /usr/include (stdio.h, jansson.h), or
build_id.c, which the build generates.

Usage: check_paths.py SOURCE_DIR
       check_paths.py --selftest
Exit 0 when every named path exists, 1 with one line per missing path.
"""
import glob
import os
import re
import sys
import tempfile

import checklib

TOP = ("base", "host", "requirements", "harness", "reports", "across", "evidence", "selftest",
       "cli", "tests", "ci", "cmake", "docs", "man", "completion")
TOKEN = re.compile(r"(?<![\w./$~-])(?:%s)/[\w.*?/-]*" % "|".join(TOP))
PLACEHOLDER = re.compile(r"(?<![A-Za-z])[A-Z][A-Z_]+(?![a-z])")
BARE = re.compile(r"(?<![\w./$~*?-])[A-Za-z_][\w-]*\.[ch](?![\w/*?.-])")
SKIP_DIRS = (os.path.join("tests", "fixtures"),)

C_COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
HASH_COMMENT = re.compile(r"(?:^|(?<=\s))#[^\n]*", re.M)
DOCSTRING = re.compile(r'"""(.*?)"""', re.S)
ROFF = re.compile(r"\\f[BIRP]|\\f\([A-Z]{2}|\\&|\\e")


def kind(path, rel):
    name = os.path.basename(rel)
    if name.endswith(".md"):
        return "text"
    if rel.startswith("man" + os.sep):
        return "roff"
    if name.endswith((".c", ".h", ".S", ".c.in")):
        return "c"
    if name == "CMakeLists.txt" or name.endswith((".sh", ".bash", ".py", ".cmake", ".yml",
                                                   ".yaml", ".sh.in")) \
            or name == "postinst.in":
        return "hash"
    if "." not in name:
        try:
            with open(path, "rb") as f:
                if f.read(2) == b"#!":
                    return "hash"
        except OSError:
            pass
    return None


def named_text(path, how):
    text = open(path, encoding="utf-8", errors="replace").read()
    if how == "text":
        return text
    if how == "roff":
        return ROFF.sub("", text).replace("\\-", "-")
    if how == "c":  # the comments only; string literals are skipped over
        return "\n".join(m.group(0) for m in C_COMMENT.finditer(text)
                         if m.group(0).startswith("/"))
    return "\n".join([m.group(0) for m in HASH_COMMENT.finditer(text)] +
                     ([m.group(1) for m in DOCSTRING.finditer(text)]
                      if path.endswith(".py") or text.startswith("#!/usr/bin/env python")
                      else []))


def files(top):
    for name in ("README.md", "CMakeLists.txt"):
        if os.path.isfile(os.path.join(top, name)):
            yield name
    for folder in TOP:
        for root, dirs, names in os.walk(os.path.join(top, folder)):
            rel_root = os.path.relpath(root, top)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                             os.path.join(rel_root, d) not in SKIP_DIRS)
            for fn in sorted(names):
                yield os.path.join(rel_root, fn)


def exists(top, token):
    if os.path.exists(os.path.join(top, token)):
        return True
    pattern = PLACEHOLDER.sub("*", token)
    return any(c in pattern for c in "*?") and bool(glob.glob(os.path.join(top, pattern)))


def basenames(top):
    names = set()
    for rel in files(top):
        names.add(os.path.basename(rel))
    return names


GENERATED = ("build_id.c",)


def bare_exists(names, name):
    return name in names or name in GENERATED or os.path.exists(os.path.join("/usr/include", name)) or \
        bool(glob.glob(os.path.join("/usr/include", "*", name)))


def check(top):
    problems, scanned, paths = [], 0, 0
    names = basenames(top)
    for rel in files(top):
        path = os.path.join(top, rel)
        how = kind(path, rel)
        if how is None:
            continue
        scanned += 1
        text = named_text(path, how)
        for m in TOKEN.finditer(text):
            token = m.group(0).rstrip(".,:;")
            paths += 1
            if not exists(top, token):
                problems.append(f"{rel}: names {token}, which is not in the tree")
        for m in BARE.finditer(text):
            paths += 1
            if not bare_exists(names, m.group(0)):
                problems.append(f"{rel}: names {m.group(0)}, which is not in the tree")
    for p in sorted(set(problems)):
        print(p)
    print(f"check_paths: {scanned} files, {paths} paths named, {len(set(problems))} missing")
    return 1 if problems else 0


def selftest():
    st = checklib.SelfTest(__file__, "check_paths")
    write = st.write

    def run(t, expect_ok, expect_text, what):
        st.run([t], expect_ok, expect_text, what)

    with tempfile.TemporaryDirectory() as t:
        write(t, "base/units.c", '/* units.c - see docs/units.md */\n'
              'static const char *s = "docs/not-a-comment.md";\n')
        write(t, "base/runner_a.c", "// base/units.c\n")
        write(t, "docs/units.md", "`base/runner_*.c`, `base/`, `tests/test_NAME.c`, "
              "https://example.org/docs/elsewhere.md, $SRC/docs/x.md\n")
        write(t, "tests/test_units.c", "/* */\n")
        write(t, "tests/fixtures/data.md", "docs/in-a-fixture.md\n")
        write(t, "man/tool.1", ".TH TOOL 1\n\\fBdocs/units.md\\fR\n")
        write(t, "ci/script", "#!/bin/sh\necho docs/not-a-comment.md # base/units.c\n")
        run(t, True, "0 missing", "named paths that exist, globs that match, text that is "
            "no comment, URLs, $SRC/ and fixtures pass")
        cases = (("docs/units.md", "see `harness/gone.c`\n", "harness/gone.c",
                  "a missing file in a doc"),
                 ("docs/units.md", "`base/timebase_*.c`\n", "base/timebase_*.c",
                  "a glob that matches nothing"),
                 ("base/units.c", "/* the rest is in base/gone.h */\n", "base/gone.h",
                  "a missing file in a C comment"),
                 ("ci/script", "#!/bin/sh\n# see cmake/gone.cmake.\n", "cmake/gone.cmake",
                  "a missing file in a shell comment"),
                 ("man/tool.1", ".TH TOOL 1\n\\fBdocs/gone.md\\fR\n", "docs/gone.md",
                  "a missing file in a man page"),
                 ("base/units.c", "/* as gone.h says; see stdio.h */\n", "gone.h",
                  "a bare file name that is no file of the tree"))
        for rel, text, token, what in cases:
            old = open(os.path.join(t, rel)).read()
            write(t, rel, text)
            run(t, False, f"{rel}: names {token}, which is not in the tree", f"{what} fails")
            write(t, rel, old)
    return st.end()


def main():
    return checklib.main(__doc__, 1, check, selftest)


if __name__ == "__main__":
    sys.exit(main())
