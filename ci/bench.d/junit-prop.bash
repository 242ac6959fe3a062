# SPDX-License-Identifier: Apache-2.0
# Sourced by the benchmarks (not one itself: ci/bench runs *.sh only).
# junit_prop FILE NAME : a figure of the run whose junit.xml is FILE, by the
# name junit.xml's properties once gave it (ID.note, ID.reason,
# ID.METRIC.STAT such as TW.wakeup.mean_ns), or nothing. junit.xml keeps
# none of them since issue 41 (a screen of suite properties, docs/reports.md):
# they are read from the results.json beside it, rounded as junit.xml did.
junit_prop() {
  python3 - "$(dirname "$1")/results.json" "$2" <<'PY' 2>/dev/null || true
import json, sys
doc, name = json.load(open(sys.argv[1])), sys.argv[2]
for f in doc["files"]:
    for r in f["requirements"]:
        if not name.startswith(r["id"] + "."):
            continue
        rest = name[len(r["id"]) + 1:]
        if rest in ("note", "reason", "verdict", "runs") and r.get(rest) is not None:
            print(r[rest], end="")
        for m in r["metrics"]:
            stat = rest[len(m["name"]) + 1:] if rest.startswith(m["name"] + ".") else None
            if stat and stat.endswith("_ns") and m.get("statistics_ns"):
                v = m["statistics_ns"].get(stat[:-3])
                if v is not None:
                    print("%.3f" % v, end="")
            elif stat and m.get("statistics", {}).get(stat) is not None:
                print(m["statistics"][stat], end="")
PY
}
# junit_env FILE KEY : a key of the environment fingerprint of the run whose
# junit.xml is FILE (its results.json's `environment`), or nothing.
junit_env() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["environment"].get(sys.argv[2], ""))' \
    "$(dirname "$1")/results.json" "$2" 2>/dev/null || true
}
