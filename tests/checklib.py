# SPDX-License-Identifier: Apache-2.0
"""What the tree checks (check_paths.py, check_spdx.py, check_sources.py)
share: running a check on a made-up tree in its selftest, and the command
line of a check (CHECK ARGS... or CHECK --selftest)."""
import os
import subprocess
import sys


class SelfTest:
    """A check's selftest: each case runs the check script on a made-up tree
    and compares its exit status and output with what the case expects."""

    def __init__(self, script, name):
        self.script = os.path.abspath(script)
        self.name = name
        self.failed = 0

    def run(self, args, expect_ok, expect_text, what):
        r = subprocess.run([sys.executable, self.script] + list(args),
                           capture_output=True, text=True)
        ok = (r.returncode == 0) == expect_ok and expect_text in r.stdout
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            print("    " + r.stdout.replace("\n", "\n    "))
            self.failed += 1

    @staticmethod
    def write(top, rel, text):
        path = os.path.join(top, rel)
        os.makedirs(os.path.dirname(path) or top, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def end(self):
        print(f"{self.name} selftest: "
              f"{'all passed' if not self.failed else f'{self.failed} failed'}")
        return 1 if self.failed else 0


def main(doc, nargs, check, selftest):
    """The command line of a check: --selftest, or exactly nargs arguments
    for check; else the usage lines of doc (its last two lines before the
    exit statement) and status 2."""
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    if len(sys.argv) != nargs + 1:
        print("\n".join(doc.strip().splitlines()[-3:-1]), file=sys.stderr)
        return 2
    return check(*sys.argv[1:])
