# SPDX-License-Identifier: Apache-2.0
"""Write the hostile results.json corpus that tests/fixtures/hostile/cases.tsv
describes into a directory, and list it: NAME<TAB>EXIT<TAB>MESSAGE per row
on stdout.

A row is one case, its columns tab-separated:
  NAME     the file written (refused-*.json: must be refused);
  BASE     the file it is made from, relative to tests/fixtures, or =NAME,
           the file an earlier row wrote;
  EDITS    "-": BASE as it is, byte for byte (a file no JSON edit can make);
           else edits separated by " ; ", each
             PATH=JSON  the field at PATH set to JSON (made when missing),
             -PATH      the field (or list entry) at PATH deleted,
             PATH*=N    the list at PATH repeated N times,
             bom        the text written after a UTF-8 byte order mark;
           a PATH's parts are separated by "." (an index is a number; a
           key that holds a dot, as host.name, is written as it is);
  EXIT     the exit status every reader gives (2: refused, 0: read);
  MESSAGE  text the refusal must hold ("-" for a file that reads).
Lines that are empty or start with # are comments.

usage: derive_hostile.py TABLE FIXTURES OUTDIR"""
import json
import shutil
import sys


def walk(doc, path):
    """The container of PATH's field in doc, and its key. A key that holds
    a dot (environment.host.name) is found whole: in an object, the parts
    are joined until they make a key it has (or the rest makes the last)."""
    parts = path.split(".")
    at = doc
    while True:
        if isinstance(at, list):
            k, parts = int(parts[0]), parts[1:]
        else:
            n = next((i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in at),
                     len(parts))
            k, parts = ".".join(parts[:n]), parts[n:]
        if not parts:
            return at, k
        at = at[k]


def edit(doc, e):
    """Apply edit e to doc; True when the text starts with a BOM."""
    if e == "bom":
        return True
    if e.startswith("-"):
        at, k = walk(doc, e[1:])
        del at[k]
        return False
    path, op, value = e.partition("=")
    if not op:
        raise ValueError("expected PATH=JSON, -PATH, PATH*=N or bom")
    if path.endswith("*"):
        at, k = walk(doc, path[:-1])
        at[k] = at[k] * int(value)
        return False
    at, k = walk(doc, path)
    if isinstance(at, list) and k >= len(at):
        raise IndexError(f"{path}: no such entry")
    at[k] = json.loads(value)
    return False


def main(table, fixtures, outdir):
    for n, line in enumerate(open(table, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 5:
            raise SystemExit(f"{table}:{n}: expected 5 tab-separated columns, not {len(cols)}")
        name, base, edits, status, message = cols
        if status not in ("0", "2") or (status == "2") != name.startswith("refused-"):
            raise SystemExit(f"{table}:{n}: {name}: exit {status}, but refused-*.json exit 2 and "
                             "no other file does")
        src = f"{outdir}/{base[1:]}" if base.startswith("=") else f"{fixtures}/{base}"
        if edits == "-":
            shutil.copyfile(src, f"{outdir}/{name}")
        else:
            doc = json.load(open(src, encoding="utf-8-sig"))
            bom = False
            for e in edits.split(" ; "):
                try:
                    bom |= edit(doc, e)
                except (KeyError, IndexError, TypeError, ValueError) as err:
                    raise SystemExit(f"{table}:{n}: {e}: {err}")
            with open(f"{outdir}/{name}", "w", encoding="utf-8") as out:
                out.write("\ufeff" if bom else "")
                json.dump(doc, out, indent=1)
        print(f"{name}\t{status}\t{message}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
