#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a large results.json for the size tests and benches.

  big_results.py PASS_JSON OUT legit BYTES   pass.json's requirements repeated
                                              (ids made unique) until OUT is
                                              about BYTES: a file rtconform
                                              could have written, which must read
  big_results.py PASS_JSON OUT reqs N         N requirements, each histogram cut
                                              to its first 2 buckets, one metric
                                              and limit, no per-CPU series (small
                                              requirement, for matching by id)
  big_results.py PASS_JSON OUT collide N      as reqs (but whole histograms), the ids distinct but alike
                                              once made names: "a b", "a:b",
                                              "a/b"... (LAVA and CSV suffixes)
  big_results.py PASS_JSON OUT skipped N      N skipped requirements (nothing
                                              measured: a few hundred bytes each)
  big_results.py PASS_JSON OUT empty BYTES    pass.json with "files":[{},{},...]:
                                              tiny elements, a large parse tree
  big_results.py PASS_JSON OUT triples BYTES  pass.json with one histogram of
                                              compact [lo,hi,count] buckets
The hostile ones must be refused quickly and within the memory bound.
"""
import copy
import json
import sys


def cut_buckets(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "buckets" and isinstance(v, list):
                del v[2:]
            else:
                cut_buckets(v)
    elif isinstance(x, list):
        for v in x:
            cut_buckets(v)


def complete(m):
    h = m["histogram"]
    if h["buckets"]:
        rest = sum(b[2] for b in h["buckets"][1:])
        h["buckets"][0][2] = m["count"] - m["overflow"] - rest
    h.pop("negative", None)


def skip(r):
    r.update(verdict="skipped", reason="--only", measured=False, runs=0, limits=[],
             metrics=[], per_cpu=[], seconds=0.0,
             batch={"mean_ns": None, "stddev_ns": None, "per_run_ns": []})


# Characters a LAVA or CSV name makes '_': ids of eight of them, one
# combination each, all give the name "a________".
SEPS = " :/;,+=@"


def collide_id(i):
    digits = ""
    for _ in range(8):
        digits += SEPS[i % len(SEPS)]
        i //= len(SEPS)
    return "a" + digits


def legit(base, out, nreqs=None, size=None, skipped=False, collide=False):
    d = json.load(open(base))
    f0 = d["files"][0]
    proto = [r for f in d["files"] for r in f["requirements"]]
    if skipped:
        for r in proto:
            skip(r)
    if nreqs is not None:
        # names alike keep whole histograms: the reader holds each
        # statistic to its buckets, which two buckets could not give
        if not collide:
            cut_buckets(proto)
        for r in proto:
            r["per_cpu"] = []
            r["metrics"] = r["metrics"][:1]
            r["limits"] = [l for l in r["limits"]
                           if l["metric"] == r["metrics"][0]["name"]][:1]
            if collide:  # the buckets account for every sample: a CSV file each
                complete(r["metrics"][0])
    per = len(json.dumps(proto, indent=1)) / len(proto)
    n = nreqs if nreqs is not None else max(1, int(size / per))
    reqs = []
    for i in range(n):
        r = copy.copy(proto[i % len(proto)])
        r["id"] = collide_id(i) if collide else "%s-%d" % (r["id"], i)
        reqs.append(r)
    f0["requirements"] = reqs
    d["files"] = [f0]
    t = d["totals"]
    verdicts = [r["verdict"] for r in reqs]
    t["tests"] = n
    t["passed"] = verdicts.count("pass")
    t["failures"] = verdicts.count("fail")
    t["errors"] = verdicts.count("error")
    t["skipped"] = verdicts.count("skipped")
    s = 0.0
    for r in reqs:  # in order, as the reader adds them
        s += r["seconds"]
    t["seconds"] = s
    with open(out, "w") as o:
        json.dump(d, o, indent=1)


def hostile(base, kind, out, size):
    """pass.json with one value made of tiny elements (compact), so that
    everything before it reads and the reader reaches the large part."""
    with open(base) as f:
        d = json.load(f)
    marker = "@@HOSTILE@@"
    if kind == "empty":
        d["files"] = marker
        elem = "{}"
    else:
        d["files"][0]["requirements"][0]["metrics"][0]["histogram"]["buckets"] = marker
        elem = "[1,2,3]"
    head, tail = json.dumps(d, separators=(",", ":")).split('"' + marker + '"')
    n = max(1, (size - len(head) - len(tail)) // (len(elem) + 1))
    with open(out, "w") as o:
        o.write(head + "[" + ",".join([elem] * n) + "]" + tail)


def main(argv):
    base, out, kind, num = argv[1], argv[2], argv[3], int(argv[4])
    if kind == "legit":
        legit(base, out, size=num)
    elif kind == "reqs":
        legit(base, out, nreqs=num)
    elif kind == "collide":
        legit(base, out, nreqs=num, collide=True)
    elif kind == "skipped":
        legit(base, out, nreqs=num, skipped=True)
    else:
        hostile(base, kind, out, num)


if __name__ == "__main__":
    main(sys.argv)
