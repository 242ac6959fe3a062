# SPDX-License-Identifier: Apache-2.0
"""Counts for ci/bench.d/explain.sh: reads every results.json under DIR
(DIR/CLASS-ROUND/results.json) and prints, per class, how often the top
cause of a traced breach is the injected culprit and how often the
components add up to the breach within 5 %.
Usage: explain_count.py DIR CLASS..."""
import glob
import json
import os
import statistics
import sys


def explained(d, cls):
    """The explain objects of every traced breach of class cls."""
    out, reqs = [], 0
    for path in sorted(glob.glob(os.path.join(d, cls + "-*", "results.json"))):
        doc = json.load(open(path))
        for f in doc["files"]:
            for r in f["requirements"]:
                reqs += 1
                if r.get("explain"):
                    out.append(r["explain"])
    return out, reqs


def read_first(path):
    try:
        return open(path).read().split()
    except OSError:
        return []


def injected(cls, comp, d):
    """Whether component comp is the injected culprit of class cls."""
    if cls in ("higher", "lower"):
        pid = read_first(os.path.join(d, cls + ".pid"))
        return comp["kind"] == "task" and pid and comp.get("pid") == int(pid[0])
    if cls == "irq":
        irq = read_first(os.path.join(d, "irq.irq"))
        return (comp["kind"] == "irq" and irq and comp.get("irq") == int(irq[0])) or \
            (comp["kind"] == "softirq" and comp.get("name") == "BLOCK")
    if cls == "net":
        return comp["kind"] == "softirq" and comp.get("name") == "NET_RX"
    return False


def adds_up_5(e):
    return e["adds_up"] and abs(e["sum_ns"] - e["value_ns"]) <= 0.05 * e["value_ns"]


def top_label(c):
    """A top cause's kind, and a task's comm and class (no pid)."""
    if c["kind"] == "task":
        return "task %s (%s)" % (c["comm"], c["class"])
    if c["kind"] in ("irq", "softirq"):
        return "%s %s" % (c["kind"], c.get("name", ""))
    return c["kind"]


def pct(n, d):
    return "%d (%.0f%%)" % (n, 100.0 * n / d) if d else "0"


def med(v):
    return statistics.median(v) if v else float("nan")


def report(d, cls):
    ex, reqs = explained(d, cls)
    n = len(ex)
    print("%s: %d breaches traced in %d requirements" % (cls, n, reqs))
    if cls == "irq":
        irq = read_first(os.path.join(d, "irq.irq"))
        rate = read_first(os.path.join(d, "irq.rate"))
        if irq and rate:
            print("  IRQ %s (%s) on the probe's CPU: %s a second while measured"
                  % (irq[0], irq[1], rate[0]))
    if not n:
        return
    tops = [e["components"][0] for e in ex if e["components"]]
    added = sum(adds_up_5(e) for e in ex)
    if cls == "none":
        blamed = sum(c["kind"] == "task" and c["class"] != "not-runnable" for c in tops)
        waiting = sum(c["kind"] == "task" and c["class"] == "not-runnable" for c in tops)
        invisible = sum(c["kind"] in ("unexplained", "probe", "idle", "wakeup", "idle-exit")
                        for c in tops)
        irqs = sum(c["kind"] in ("irq", "softirq", "timer") for c in tops)
        print("  top cause a task, blamed (higher, violation)  %s" % pct(blamed, n))
        print("  top cause a task while the probe was not yet  %s" % pct(waiting, n))
        print("    runnable (its timer had not fired)")
        print("  top cause unexplained/probe/idle/wake-up      %s" % pct(invisible, n))
        print("  top cause an IRQ, softirq or the timer        %s" % pct(irqs, n))
    else:
        hit = [(e, c) for e, c in zip(ex, tops) if injected(cls, c, d)]
        inj_ns = [sum(x["ns"] for x in e["components"] if injected(cls, x, d)) for e in ex]
        inj_ns = [v for v in inj_ns if v]
        print("  top cause = injected                          %s" % pct(len(hit), n))
        # the probe's own time at the window's end left out (its way back
        # to user space before the sample, and the few microseconds from
        # the sample to the marker: docs/explain.md, item 3)
        besides = [next((c for c in e["components"] if c["kind"] != "probe"), None)
                   for e in ex]
        print("  top cause besides the probe's own = injected  %s" %
              pct(sum(c is not None and bool(injected(cls, c, d)) for c in besides), n))
        foreign = sum(c["kind"] == "task" and c["class"] == "higher" and
                      not injected(cls, c, d) for c in tops)
        print("  top cause another higher-priority task        %s" % pct(foreign, n))
        if cls == "lower":
            for k in ("violation", "not-runnable"):
                print("    of which class %-12s                 %d" %
                      (k, sum(c["class"] == k for _, c in hit)))
        print("  median share of the top cause                 %.0f%%" %
              (100 * med([c["share"] for c in tops])))
        print("  median injected component time                %.1f us (in the %d breaches "
              "naming it)" % (med(inj_ns) / 1000, len(inj_ns)))
        print("  median breach                                 %.1f us"
              % (med([e["value_ns"] for e in ex]) / 1000))
    print("  adds up to the breach within 5%%               %s" % pct(added, n))
    print("  inferred switches out of idle                 %d breaches"
          % sum(e.get("switches_inferred", 0) > 0 for e in ex))
    counts = {}
    for c in tops:
        counts[top_label(c)] = counts.get(top_label(c), 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    print("  top causes: " + "; ".join("%s %d" % kv for kv in ranked[:6]))


def main():
    d = sys.argv[1]
    for cls in sys.argv[2:]:
        report(d, cls)


main()
