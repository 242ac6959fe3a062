#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# journal_many.py JOURNAL N OUT: a journal of N finished requirements in OUT/journal,
# each record as the run wrote JOURNAL's (its head's last requirement, its
# now.1 record as each one finished), numbered and with its CRC as the run
# writes them: a long run of a timer probe, for the reader's memory bound.
import sys, json, copy, os, zlib
src, N, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MAGIC = b"rtconform journal 3\n"
def records(b):
    at, recs = 0, []
    while at < len(b):
        nl = b.index(b"\n", at); h = b[at:nl].decode().split(); ln = int(h[6])
        recs.append((h, b[nl + 1:nl + 1 + ln])); at = nl + 1 + ln + 1
    return recs
head = json.loads(records(open(src + "/log", "rb").read()[len(MAGIC):])[0][1])
now = json.loads(records(open(src + "/now.1", "rb").read())[0][1])
stub = head["files"][0]["requirements"][3]
head["files"][0]["requirements"] = [dict(copy.deepcopy(stub), id="T%d" % i) for i in range(N)]
def rec(kind, seq, index, obj):
    p = json.dumps(obj, separators=(",", ":")).encode()
    h = ("rtcj %s %d %d 0 %d %d %d " % (kind, seq, seq, index, len(p), 1796400000000 + seq)).encode()
    return h + b"%08x\n" % zlib.crc32(h + p) + p + b"\n"
os.makedirs(out + "/journal", exist_ok=True)
with open(out + "/journal/log", "wb") as f:
    f.write(MAGIC + rec("head", 1, 0, head))
    for i in range(N):
        f.write(rec("req", i + 2, i, dict(now, id="T%d" % i)))
