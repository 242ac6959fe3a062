# SPDX-License-Identifier: Apache-2.0
"""Write the hostile results.json that tests/fixtures/hostile/derived.tsv
describes (each a base file with a few fields edited) into a directory, and
list them: NAME<TAB>EXPECTED per line on stdout.

usage: derive_hostile.py TABLE FIXTURES OUTDIR"""
import json
import sys


def edit(doc, path, value):
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    at = doc
    for k in keys[:-1]:
        at = at[k]
    if keys[-1] not in at if isinstance(at, dict) else keys[-1] >= len(at):
        raise SystemExit(f"{path}: no such field")
    at[keys[-1]] = value


def main(table, fixtures, outdir):
    for n, line in enumerate(open(table, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 4:
            raise SystemExit(f"{table}:{n}: expected 4 tab-separated columns, not {len(cols)}")
        name, base, edits, expected = cols
        doc = json.load(open(f"{fixtures}/{base}", encoding="utf-8"))
        for e in edits.split(" ; "):
            path, _, value = e.partition("=")
            try:
                edit(doc, path, json.loads(value))
            except (KeyError, IndexError, TypeError, ValueError) as err:
                raise SystemExit(f"{table}:{n}: {e}: {err}")
        with open(f"{outdir}/{name}", "w", encoding="utf-8") as out:
            json.dump(doc, out, indent=1)
        print(f"{name}\t{expected}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
