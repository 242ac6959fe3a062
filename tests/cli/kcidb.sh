# SPDX-License-Identifier: Apache-2.0
# KCIDB: run --kcidb and report --kcidb write a submission that KernelCI's
# published schema (tests/schemas/kcidb, v5.3) accepts, checked with
# python3-jsonschema as kcidb-io checks it (draft 7, formats on: date-time;
# uri needs a checker Debian's python3-jsonschema lacks, so the run's
# file:// URLs are checked by hand below); a broken
# one is refused, so the check can fail; every verdict maps to the status
# docs/reports.md says; ids are unique and stable; --kcidb-origin names the
# origin and a bad one is refused before anything is written.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
python3 -c 'import jsonschema' 2>/dev/null || { fail "python3 cannot import jsonschema (Debian package python3-jsonschema; ci/deps installs it)"; finish; }

SCHEMA="$SRC/tests/schemas/kcidb/kcidb-io.schema.v5.3.json"
# kcidb_valid FILE: FILE passes the schema (and the schema is one).
kcidb_check() {
  python3 - "$SCHEMA" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errors = sorted(v.iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(e.path))
for e in errors[:5]:
    print("/".join(map(str, e.path)) + ": " + e.message[:300])
sys.exit(1 if errors else 0)
PY
}
kcidb_valid() {
  if kcidb_check "$1" >"$TMP/why" 2>&1; then ok "${1##*/} is a valid KCIDB v5.3 submission"; else
    fail "${1##*/} is not a valid KCIDB v5.3 submission:"; diag <"$TMP/why"; fi
}

# every results.json fixture exports a valid submission
for f in "$FIX"/results/*.json; do
  n="$(basename "$f" .json)"
  expect_status 0 "$RTC" report "$f" --kcidb "$TMP/$n.kcidb.json"
  expect_grep "^kcidb: $TMP/$n.kcidb.json\$" "$TMP/out"
  kcidb_valid "$TMP/$n.kcidb.json"
done

# the check can fail: a test without its build, a status KCIDB does not
# know, an id without its origin, a path with a space are each refused
S="$TMP/statuses.kcidb.json"
for breakage in 'del d["tests"][0]["build_id"]' 'd["tests"][0]["status"] = "OK"' \
    'd["tests"][0]["id"] = "no-origin"' 'd["tests"][0]["path"] = "a b"' 'd["version"]["major"] = 4'; do
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$S" "$TMP/broken.json" "$breakage"
  if kcidb_check "$TMP/broken.json" >"$TMP/why" 2>&1; then fail "the schema accepts a broken submission ($breakage)"
  else ok "the schema refuses a broken submission ($breakage)"; fi
done

# the statuses: pass, fail, error, skipped (left out by --only) as KCIDB
# has them, measured with no limit DONE; the rest of each test object
python3 - "$FIX/results/statuses.json" "$S" <<'PY' >"$TMP/why" 2>&1 && ok "statuses.json's submission maps every verdict and figure as docs/reports.md says" || { fail "statuses.json's submission is not as docs/reports.md says:"; diag <"$TMP/why"; }
import json, sys
res, sub = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {"EASY": "PASS", "IMPOSSIBLE": "FAIL", "TOO-SLOW": "ERROR", "LEFT-OUT": "SKIP", "NO-LIMITS": "DONE"}
env = res["environment"]
run = env["host.id"] + "-" + env["rtconform.started"].replace("-", "").replace(":", "")
kid = "rtconform:%s:%s" % (env["host.id"], env["host.kernel.release"])
assert sub["version"] == {"major": 5, "minor": 3}, sub["version"]
assert [c["id"] for c in sub["checkouts"]] == [kid], sub["checkouts"]
b, = sub["builds"]
assert b["id"] == kid and b["checkout_id"] == kid and b["architecture"] == env["host.machine"], b
reqs = {r["id"]: r for r in res["files"][0]["requirements"]}
tests = sub["tests"]
assert [t["id"] for t in tests] == ["rtconform:%s:%s" % (run, i) for i in reqs], [t["id"] for t in tests]
for t in tests:
    i = t["id"].rsplit(":", 1)[1]
    r = reqs[i]
    assert t["status"] == want[i], (i, t["status"])
    assert t["origin"] == "rtconform" and t["build_id"] == kid, t
    assert t["path"] == "rtconform.kcidb-statuses." + i, t["path"]
    assert t["misc"]["verdict"] == r["verdict"], t["misc"]
    assert abs(t["duration"] - r["seconds"]) < 1e-9, (t["duration"], r["seconds"])
    assert env["host.kernel.release"] in t["environment"]["comment"], t["environment"]
    assert [f["name"] for f in t["output_files"]] == ["report.html", "results.json"], t["output_files"]
    assert all(f["url"].startswith("file:///") for f in t["output_files"]), t["output_files"]
    if r.get("reason"):
        assert t["log_excerpt"] == r["reason"], t
# the deciding figure: the failed limit's measured value, in ns
imp = next(t for t in tests if t["id"].endswith(":IMPOSSIBLE"))
lim = next(l for l in reqs["IMPOSSIBLE"]["limits"] if l["verdict"] == "fail")
assert imp["number"] == {"value": lim["measured"], "unit": "ns"}, (imp["number"], lim)
assert imp["misc"]["deciding"]["limit"] == "per-op max <= 1 ns", imp["misc"]
assert "number" not in next(t for t in tests if t["id"].endswith(":TOO-SLOW"))
PY

# a path keeps only what the schema allows: a hostile id and file name
python3 - "$FIX/results/statuses.json" "$TMP/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["files"][0]["name"] = "my file.v2"
d["files"][0]["requirements"][0]["id"] = "A B/c\u00e9;d\n"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 0 "$RTC" report "$TMP/hostile.json" --kcidb "$TMP/hostile.kcidb.json"
kcidb_valid "$TMP/hostile.kcidb.json"
expect_grep '"path": "rtconform\.my_file_v2\.A_B_c__d_"' "$TMP/hostile.kcidb.json"

# the same results.json gives the same bytes: ids are stable
expect_status 0 "$RTC" report "$FIX/results/statuses.json" --kcidb "$TMP/again.json"
cmp -s "$S" "$TMP/again.json" && ok "report --kcidb twice gives the same bytes" || fail "report --kcidb twice differs"

# --kcidb-origin: the lab's own origin in every id; a bad one is refused
expect_status 0 "$RTC" report "$FIX/results/statuses.json" --kcidb "$TMP/lab.json" --kcidb-origin my_lab
kcidb_valid "$TMP/lab.json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
objs = d["tests"] + d["builds"] + d["checkouts"]
assert all(o["origin"] == "my_lab" and o["id"].startswith("my_lab:") for o in objs)
assert all(t["build_id"].startswith("my_lab:") for t in d["tests"])' "$TMP/lab.json" \
  && ok "--kcidb-origin my_lab is every object's origin and id prefix" || fail "--kcidb-origin my_lab is not in every object"
for bad in My-Lab '' 'a:b'; do
  expect_status 2 "$RTC" report "$FIX/results/statuses.json" --kcidb "$TMP/bad.json" --kcidb-origin "$bad"
  expect_grep "rtconform report: --kcidb-origin: '$bad' is not a KCIDB origin" "$TMP/out"
  [ ! -e "$TMP/bad.json" ] && ok "a refused --kcidb-origin '$bad' writes nothing" || fail "--kcidb-origin '$bad' wrote $TMP/bad.json"
done

# checked before anything is measured or read: no overwriting, no empty value
expect_status 2 "$RTC" report "$FIX/results/statuses.json" --kcidb ''
expect_status 2 "$RTC" report "$FIX/results/statuses.json" --kcidb "$FIX/results/statuses.json"
expect_grep '[-]-kcidb \(.*\) would overwrite the input' "$TMP/out"
expect_status 2 "$RTC" run "$FIX/cli/kcidb-statuses.xml" -q -o "$TMP/c" --kcidb "$TMP/c/results.json"
expect_grep 'rtconform run: results.json and --kcidb are the same file' "$TMP/out"
[ ! -e "$TMP/c" ] && ok "a refused run leaves no -o directory" || fail "a refused run left $TMP/c"
expect_status 2 "$RTC" run "$FIX/cli/kcidb-statuses.xml" -q -o "$TMP/c" --kcidb-origin Bad
[ ! -e "$TMP/c" ] && ok "a run refused for its --kcidb-origin leaves no -o directory" || fail "a refused run left $TMP/c"

# a real run: run --kcidb writes it, valid, its files there, and report
# --kcidb of the run's results.json gives the same bytes
expect_status 3 "$RTC" run "$FIX/cli/kcidb-statuses.xml" -q -o "$TMP/r" --kcidb "$TMP/r/kcidb.json" \
  --only EASY,IMPOSSIBLE,TOO-SLOW,NO-LIMITS --kcidb-origin lab_7
expect_grep "^kcidb: $TMP/r/kcidb.json\$" "$TMP/out"
kcidb_valid "$TMP/r/kcidb.json"
python3 -c 'import json, sys, urllib.parse, os
d = json.load(open(sys.argv[1]))
st = [t["status"] for t in d["tests"]]
assert st == ["PASS", "FAIL", "ERROR", "SKIP", "DONE"], st
for t in d["tests"]:
    for f in t["output_files"]:
        assert os.path.isfile(urllib.parse.unquote(f["url"][len("file://"):])), f' "$TMP/r/kcidb.json" >"$TMP/why" 2>&1 \
  && ok "run --kcidb: PASS FAIL ERROR SKIP DONE, each output file there" || { fail "run --kcidb's statuses or files are wrong:"; diag <"$TMP/why"; }
expect_status 0 "$RTC" report "$TMP/r/results.json" --kcidb "$TMP/r.again.json" --kcidb-origin lab_7
cmp -s "$TMP/r/kcidb.json" "$TMP/r.again.json" && ok "report --kcidb of the run's results.json is the run's submission, byte for byte" \
  || fail "report --kcidb of the run's results.json differs from run --kcidb's"
finish
