#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a results.json made from tests/fixtures/results/pass.json as another
board, or another run, could have written it: for the fleet and compare
tests, whose inputs are then known figures, not measurements.

  variant_results.py IN OUT [--label L] [--scale K] [--mean-max US]
                     [--max-max US] [--error ID REASON] [--unjudged ID]
                     [--skip ID] [--drop ID]

  --label L       host.label L (and each file's host title with it)
  --scale K       PP-OTHER's durations K times as long: its scale
                  (ns_per_unit), statistics, median, runs and batch, so the
                  file stays one a run could write
  --mean-max US   PP-OTHER's limit on per-op mean: max US microseconds
  --max-max US    PP-OTHER's limit on per-op max: max US microseconds
  --error ID R    requirement ID could not be measured: error, reason R
  --unjudged ID   requirement ID was measured, but its first limit's
                  statistic could not be computed (as too few samples
                  leave a percentile): error, every figure and the other
                  limits' own verdicts kept
  --skip ID       requirement ID was left out by --only: skipped, not
                  selected, nothing measured
  --drop ID       requirement ID is not in the file at all

Every limit is then judged again by its bounds (measured above a max or
below a min fails), each requirement's verdict, reason, the totals and the
exit status follow, as the reader of a results.json checks they do.
"""
import argparse
import json


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return "%.4g %s" % (ns / scale, unit)
    return "%.4g ns" % ns


def scale_durations(r, k):
    for m in r["metrics"]:
        if m["kind"] != "duration":
            continue
        m["ns_per_unit"] *= k
        m["statistics_ns"] = {s: (v * k if v is not None else None)
                              for s, v in m["statistics_ns"].items()}
        m["median_ns"] *= k
        for ci in (m.get("confidence") or {}).values():
            if isinstance(ci, dict):  # a percentile's interval scales with it
                for side in ("lo_ns", "hi_ns"):
                    if ci[side] is not None:
                        ci[side] *= k
        for run in m["runs"]:
            run["mean_ns"] *= k
            run["max_ns"] *= k
    b = r["batch"]
    b["mean_ns"] *= k
    if b["stddev_ns"] is not None:  # null for a single run
        b["stddev_ns"] *= k
    b["per_run_ns"] = [v * k for v in b["per_run_ns"]]


def make_error(r, reason):
    r.update(verdict="error", measured=False, metrics=[], reason=reason, runs=0,
             batch={"mean_ns": None, "stddev_ns": None, "per_run_ns": []})
    for lim in r["limits"]:
        lim.update(verdict="error", measured=None, text=None)


def make_unjudged(r):
    lim = r["limits"][0]
    m = next(m for m in r["metrics"] if m["name"] == lim["metric"])
    for stats in ("statistics_ns", "statistics_cycles"):
        m[stats][lim["statistic"]] = None
    r["verdict"] = "error"
    r["reason"] = "%s %s cannot be computed from %d samples" % (lim["statistic"], lim["metric"],
                                                                m["count"])
    # each other limit keeps its own verdict, as a run gives it
    lim.update(measured=None, text=r["reason"], verdict="error")


def make_skipped(r):
    r.update(verdict="skipped", selected=False, measured=False, metrics=[], per_cpu=[],
             reason="not selected (--only)", runs=0, seconds=0.0,
             batch={"mean_ns": None, "stddev_ns": None, "per_run_ns": []})
    for lim in r["limits"]:
        lim.update(verdict="skipped", measured=None, text=None)


def judge(r):
    """Each limit by its bounds, then the requirement by its limits."""
    if r["verdict"] in ("error", "skipped"):
        return
    failed = []
    for lim in r["limits"]:
        metric = next(m for m in r["metrics"] if m["name"] == lim["metric"])
        v = metric["statistics_ns"][lim["statistic"]]
        lim["measured"] = v
        over = lim["max"] is not None and v > lim["max"]
        under = lim["min"] is not None and v < lim["min"]
        lim["verdict"] = "fail" if over or under else "pass"
        bound = lim["max"] if lim["max"] is not None and (over or not under) else lim["min"]
        rel = (">" if over else "<") if over or under else ("<=" if bound == lim["max"] else ">=")
        lim["text"] = "%s %s %s %s (n=%d)" % (lim["statistic"], fmt(v), rel, fmt(bound),
                                              metric["count"])
        if over or under:
            failed.append(lim["text"])
    r["verdict"] = "fail" if failed else "pass"
    r["reason"] = "; ".join(failed) if failed else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--label")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--mean-max", type=float)
    ap.add_argument("--max-max", type=float)
    ap.add_argument("--error", nargs=2, metavar=("ID", "REASON"))
    ap.add_argument("--unjudged", metavar="ID")
    ap.add_argument("--skip", metavar="ID")
    ap.add_argument("--drop", metavar="ID")
    a = ap.parse_args()
    d = json.load(open(a.inp))
    env = d["environment"]
    if a.label:
        env["host.label"] = a.label
        for f in d["files"]:
            f["host"] = "%s (host %s, id %s)" % (a.label, env["host.name"], env["host.id"])
    for f in d["files"]:
        f["requirements"] = [r for r in f["requirements"] if r["id"] != a.drop]
    reqs = [r for f in d["files"] for r in f["requirements"]]
    for r in reqs:
        if r["id"] == "PP-OTHER":
            scale_durations(r, a.scale)
            for lim, us in zip(r["limits"], (a.mean_max, a.max_max)):
                if us is not None:
                    lim["max"] = us * 1e3
        if a.error and r["id"] == a.error[0]:
            make_error(r, a.error[1])
        if r["id"] == a.unjudged:
            make_unjudged(r)
        if r["id"] == a.skip:
            make_skipped(r)
        judge(r)
    t = d["totals"]
    t["tests"] = len(reqs)
    for key, verdict in (("passed", "pass"), ("failures", "fail"), ("errors", "error"),
                         ("skipped", "skipped")):
        t[key] = sum(r["verdict"] == verdict for r in reqs)
    t["seconds"] = sum(r["seconds"] for r in reqs)
    d["exit_status"] = 3 if t["errors"] else 1 if t["failures"] else 0
    json.dump(d, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
