# SPDX-License-Identifier: Apache-2.0
"""ci/lab's table: what each guest wrote into DIR/GUEST, judged on
behaviour only (timings inside TCG guests mean nothing).

Usage: python3 ci/lab-summary.py DIR GUEST_SPECS ACCEL_REASON
  GUEST_SPECS  one line per guest: "name|arch|cpus|nodes|steps it was to run"
Prints the table, then one line per failure ("FAIL: GUEST STEP: why") and
per note (a defect seen that the lab does not judge). Exit status 1 when
anything failed, else 0.

Failures: a guest that did not boot or finish, a step past its time, a
kernel that is not PREEMPT_RT, fewer CPUs or NUMA nodes than booted with,
`env` not exiting 0, a requirement of posix-rt-must-fail that did not
fail, a selftest case that did not match or erred, a usage error (exit 2)
from the default or posix-rt profile.
"""
import json
import os
import re
import sys

PROFILES = ("default", "posix-rt", "must-fail")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def facts_of(g):
    out = {}
    for line in (read(os.path.join(g, "facts.txt")) or "").splitlines():
        key, _, val = line.partition(" ")
        out[key] = val
    return out


def steps_of(g):
    steps, done = {}, False
    for line in (read(os.path.join(g, "steps.txt")) or "").splitlines():
        if line == "done":
            done = True
            continue
        parts = line.split()
        if len(parts) == 3:
            steps[parts[0]] = (int(parts[1]), int(parts[2]))
    return steps, done


def accel_of(word):
    """boot.txt's "kvm" or "tcg:single" as the table shows it: KVM, TCG/single."""
    accel, _, threads = word.partition(":")
    return accel.upper() + (f"/{threads}" if threads else "")


def cpus_in(cpulist):
    """How many CPUs a kernel CPU list ("0-1,4-15") names."""
    n = 0
    for part in cpulist.split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            n += int(hi if hi.isdigit() else lo) - int(lo) + 1
    return n


def verdicts_of(path):
    """{id: verdict} of a results.json, or None when there is none."""
    text = read(path)
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return {r["id"]: r["verdict"] for f in doc.get("files", []) for r in f.get("requirements", [])}


def counts(v):
    if v is None:
        return "none"
    p = sum(1 for x in v.values() if x == "pass")
    f = sum(1 for x in v.values() if x == "fail")
    e = sum(1 for x in v.values() if x == "error")
    o = len(v) - p - f - e
    return f"{p}p/{f}f/{e}e" + (f"/{o}o" if o else "")


def last_step_started(g):
    started = re.findall(r"lab-guest: step ([\w-]+):", read(os.path.join(g, "console.log")) or "")
    return started[-1] if started else "boot"


def judge(name, spec, g, fails, notes):
    """One guest's table row; its failures and notes appended."""
    _, arch, cpus, nodes, wanted = spec[0], spec[1], spec[2], spec[3], spec[4].split()
    facts, (steps, done) = facts_of(g), steps_of(g)
    boot = (read(os.path.join(g, "boot.txt")) or "? ? ?").split()
    row = {"guest": name, "kernel": facts.get("release", "?"),
           "cpus": f"{cpus_in(facts.get('online', ''))}/{cpus}", "nodes": f"{facts.get('nodes', '?')}/{nodes}",
           "accel": accel_of(boot[2]) if len(boot) > 2 else "?", "seconds": boot[1] if len(boot) > 1 else "?"}
    if not facts:
        fails.append(f"{name} boot: no facts came back (QEMU exit {boot[0]} after {row['seconds']} s;"
                     " console.log)")
        row.update({c: "-" for c in ("ran", "default", "posix-rt", "must-fail", "selftest",
                                      "share-run")})
        return row
    if not done:
        fails.append(f"{name} {last_step_started(g)}: the guest did not finish (QEMU exit {boot[0]})")
    if facts:
        if facts.get("realtime") != "1" or "PREEMPT_RT" not in facts.get("version", ""):
            fails.append(f"{name} kernel: not PREEMPT_RT ({facts.get('version')}; "
                         f"/sys/kernel/realtime {facts.get('realtime')})")
        online = cpus_in(facts.get("online", ""))
        if str(online) != cpus:
            fails.append(f"{name} cpus: {online} online ({facts.get('online')}), booted with {cpus}")
        if facts.get("nodes") != nodes:
            fails.append(f"{name} numa: {facts.get('nodes')} nodes, booted with {nodes}")
    for step, (rc, _) in steps.items():
        if rc == 137:
            fails.append(f"{name} {step}: killed past the step's time")
    row["ran"] = f"{len(steps)}/{len(wanted)}"
    for step in wanted:
        if step not in steps and facts:
            fails.append(f"{name} {step}: did not run")
    if "env" in steps and steps["env"][0] != 0:
        fails.append(f"{name} env: exit {steps['env'][0]}")
    for p in PROFILES:
        if p not in wanted:
            row[p] = "-"
            continue
        v = verdicts_of(os.path.join(g, p, "results.json"))
        rc = steps.get(p, (None,))[0]
        row[p] = counts(v) + (f" x{rc}" if rc is not None else "")
        if p == "must-fail":
            if not v:
                fails.append(f"{name} must-fail: no results (exit {rc})")
            else:
                bad = sorted(k for k, x in v.items() if x != "fail")
                if bad:
                    fails.append(f"{name} must-fail: did not fail: "
                                 + ", ".join(f"{k}={v[k]}" for k in bad))
        elif rc == 2:
            fails.append(f"{name} {p}: usage error (exit 2; {p}.txt)")
        elif v and any(x == "error" for x in v.values()):
            notes.append(f"{name} {p}: error: "
                         + ", ".join(k for k, x in sorted(v.items()) if x == "error"))
    row["selftest"] = row["share-run"] = "-"
    if "selftest" in wanted:
        judge_selftest(name, g, steps, row, fails)
    if "share-run" in wanted:
        rc = steps.get("share-run", (None,))[0]
        row["share-run"] = f"x{rc}"
        if rc not in (0, 1):
            notes.append(f"{name} share-run: exit {rc}: {last_line(g, 'share-run')}")
    for step, (rc, _) in steps.items():
        if step not in PROFILES + ("env", "selftest", "share-run") and rc not in (0, 1):
            notes.append(f"{name} {step}: exit {rc}: {last_line(g, step)}")
    return row


def last_line(g, step):
    lines = (read(os.path.join(g, step + ".txt")) or "").strip().splitlines()
    return lines[-1] if lines else ""


def judge_selftest(name, g, steps, row, fails):
    st = read(os.path.join(g, "selftest.txt")) or ""
    m = re.search(r"^selftest: (?:\d+ cases: )?(\d+) matched, (\d+) did not match, (\d+) not run, "
                  r"(\d+) errors?", st, re.M)
    rc = steps.get("selftest", (None,))[0]
    if m:
        row["selftest"] = f"{m[1]}/{int(m[1]) + int(m[2]) + int(m[3]) + int(m[4])}"
        if m[2] != "0" or m[4] != "0" or rc != 0:
            bad = re.findall(r"^([a-z0-9-]+) +(?:fail|error) ", st, re.M)
            fails.append(f"{name} selftest: {m[0][len('selftest: '):]} (exit {rc}): {', '.join(bad)}")
    else:
        row["selftest"] = f"none x{rc}"
        fails.append(f"{name} selftest: no summary line (exit {rc})")


def main():
    top, specs, accel_reason = sys.argv[1], sys.argv[2], sys.argv[3]
    fails, notes, rows = [], [], []
    for line in specs.splitlines():
        spec = line.split("|")
        rows.append(judge(spec[0], spec, os.path.join(top, spec[0]), fails, notes))
    cols = ("guest", "kernel", "cpus", "nodes", "accel", "ran", "default", "posix-rt",
            "must-fail", "selftest", "share-run", "seconds")
    width = {c: max(len(c), *(len(r.get(c, "")) for r in rows)) for c in cols}
    print("  ".join(c.ljust(width[c]) for c in cols).rstrip())
    for r in rows:
        print("  ".join(r.get(c, "").ljust(width[c]) for c in cols).rstrip())
    print("(cpus, nodes: online/booted with; accel: KVM, or TCG and its host threads;"
          " NpNfNe: requirements passed, failed, erred; xN: exit status;"
          " selftest: matched/cases)")
    print(f"x86-64 accelerator: {accel_reason or 'none needed'}")
    for n in notes:
        print(f"note: {n}")
    for f in fails:
        print(f"FAIL: {f}")
    print(f"ci/lab: {len(rows)} guests, {len(fails)} failures, {len(notes)} notes")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
