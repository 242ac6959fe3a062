# SPDX-License-Identifier: Apache-2.0
# Live metrics (run --metrics FILE, docs/reports.md "Live metrics"), read by
# the real parsers: a bad FILE is refused before measuring (exit 2, the path
# named, nothing written); during a run of three requirements FILE is
# replaced (at least two versions seen while it runs, each one whole and
# accepted by `promtool check metrics`, Debian's prometheus); node_exporter's
# textfile collector (prometheus-node-exporter) reads it from the directory
# it watches, and its /metrics, scraped over HTTP, has our series with the
# run's labels and the count and max results.json has of each metric; --only
# lists only the selected requirements; a requirement's verdict so far shows
# while it runs, and an interrupted run's last version says it is finished
# and what became of each requirement. node_exporter is stopped at the end.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
for tool in promtool:prometheus prometheus-node-exporter:prometheus-node-exporter; do
  command -v "${tool%%:*}" >/dev/null || fail "${tool%%:*} is not installed (Debian package ${tool#*:}; ci/deps installs it)"
done
[ "$FAILS" -eq 0 ] || finish

NE_PID=
stop_exporter() {
  if [ -n "$NE_PID" ]; then
    kill "$NE_PID" 2>/dev/null
    wait "$NE_PID" 2>/dev/null
  fi
}
trap 'stop_exporter; lib_exit' EXIT

# promtool_ok FILE WHAT : promtool check metrics accepts FILE without a
# lint remark (it exits 0 and says nothing).
promtool_ok() {
  if promtool check metrics <"$1" >"$TMP/promtool" 2>&1 && [ ! -s "$TMP/promtool" ]; then
    ok "promtool check metrics accepts $2"
  else
    fail "promtool check metrics accepts $2:"; diag <"$TMP/promtool"
  fi
}

req_file "$TMP/three.xml" live <<XML
  <requirement id="PING"><probe name="sem-pingpong"/>
    <run iterations="20000" runs="6" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="WAKE"><probe name="timer-wakeup"><param name="interval">1ms</param>
    <param name="dma-latency">off</param></probe>
    <run iterations="300" runs="4" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="LAST"><probe name="selftest"/>
    <run iterations="1000" runs="3" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
XML

# ---- bad input: refused before anything is measured, nothing written ----
expect_status 2 "$RTC" run -q -o "$TMP/bad" --metrics "$TMP/no/such/m.prom" "$TMP/three.xml"
expect_grep "$TMP/no/such/m.prom" "$TMP/out"
[ ! -e "$TMP/bad" ] && [ ! -e "$TMP/no" ] && ok "a refused --metrics leaves nothing behind" \
  || fail "a refused --metrics left $TMP/bad or $TMP/no behind"
: >"$TMP/plain"
expect_status 2 "$RTC" run -q -o "$TMP/bad" --metrics "$TMP/plain/m.prom" "$TMP/three.xml"
expect_grep "cannot write '$TMP/plain/m.prom'" "$TMP/out"
expect_status 2 "$RTC" run -q -o "$TMP/bad" --metrics= "$TMP/three.xml"
expect_grep 'run: --metrics: empty value' "$TMP/out"
expect_status 2 "$RTC" run -q -o "$TMP/bad" --metrics "$TMP/bad/results.json" "$TMP/three.xml"
expect_grep '[-]-metrics .*results.json' "$TMP/out"
expect_status 2 "$RTC" run -q -o "$TMP/bad" --lava "$TMP/same" --metrics "$TMP/same" "$TMP/three.xml"
expect_grep '[-]-lava and --metrics are the same file' "$TMP/out"
[ ! -e "$TMP/bad" ] && [ ! -e "$TMP/same" ] && ok "refused runs wrote nothing" \
  || fail "a refused run wrote $TMP/bad or $TMP/same"

# ---- node_exporter watching the directory the run writes into ----
mkdir "$TMP/textfile"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
  --collector.textfile.directory="$TMP/textfile" --web.listen-address="127.0.0.1:$PORT" \
  >"$TMP/exporter.log" 2>&1 &
NE_PID=$!
scrape() {
  python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
    "http://127.0.0.1:$PORT/metrics" >"$TMP/scraped"
}
wait_for "node_exporter answers on 127.0.0.1:$PORT" "$START_WAIT" scrape \
  || { diag <"$TMP/exporter.log"; finish; }

# ---- a run: FILE replaced while it runs ----
M="$TMP/textfile/rtconform.prom"
"$RTC" run -q -o "$TMP/r" --host-label 'bench 7' --metrics="$M" "$TMP/three.xml" \
  >"$TMP/run.out" 2>"$TMP/run.err" &
RUN=$!
mkdir "$TMP/v"
nv=0 last=
while kill -0 "$RUN" 2>/dev/null; do
  if [ -e "$M" ] && ! cmp -s "$M" "$TMP/v/$last" 2>/dev/null; then
    nv=$((nv + 1)); last="$nv.prom"
    cp "$M" "$TMP/v/$last" 2>/dev/null
  fi
  sleep 0.02
done
wait "$RUN"; rc=$?
[ "$rc" = 0 ] && ok "the run with --metrics exits 0" || { fail "the run with --metrics exits 0 (it exited $rc)"; diag <"$TMP/run.err"; }
[ -s "$TMP/run.err" ] && { fail "the run said nothing on stderr:"; diag <"$TMP/run.err"; } || ok "the run said nothing on stderr"
# the last copy may be the final version; the ones before were seen mid-run
mid=0
for f in "$TMP"/v/*.prom; do
  grep -q '^rtconform_run_finished{host="bench 7"} 0$' "$f" && mid=$((mid + 1))
done
[ "$mid" -ge 2 ] && ok "at least two versions of the file seen while the run ran ($mid of $nv)" \
  || fail "at least two versions of the file seen while the run ran ($mid of $nv)"
bad=0
for f in "$TMP"/v/*.prom; do
  if ! promtool check metrics <"$f" >"$TMP/promtool" 2>&1 || [ -s "$TMP/promtool" ] ||
     [ "$(tail -1 "$f")" != "# EOF" ]; then
    bad=$((bad + 1)); echo "# ${f##*/}:"; diag <"$TMP/promtool"
  fi
done
[ "$bad" = 0 ] && ok "every version seen is whole (ends with # EOF) and promtool accepts it" \
  || fail "$bad of the versions seen are cut short or refused by promtool"
grep -l 'state="running"} 1$' "$TMP"/v/*.prom >/dev/null && ok "a version mid-run has a requirement running" \
  || fail "no version mid-run has a requirement running"
promtool_ok "$M" "the final file"
expect_grep '^rtconform_run_finished\{host="bench 7"\} 1$' "$M"
expect_grep '^rtconform_run_requirements_done\{host="bench 7"\} 3$' "$M"
expect_no_grep 'le="-' "$M"
[ -z "$(find "$TMP/textfile" -name '.*')" ] && ok "no temporary file is left beside the metrics" \
  || fail "a temporary file is left beside the metrics: $(ls -a "$TMP/textfile")"

# ---- node_exporter serves it: our series, labels and results.json's figures ----
scrape && ok "node_exporter's /metrics scraped" || fail "node_exporter's /metrics scraped"
python3 - "$TMP/scraped" "$TMP/r/results.json" >"$TMP/compare" 2>&1 <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
series = {}
for line in text.splitlines():
    if line.startswith("#") or not line.strip():
        continue
    m = re.fullmatch(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)', line)
    assert m, "unparsed line: " + line
    labels = dict(re.findall(r'([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
    series[(m.group(1), tuple(sorted(labels.items())))] = float(m.group(3))
def get(name, **labels):
    key = (name, tuple(sorted(labels.items())))
    assert key in series, "missing: %s %s" % (name, labels)
    return series[key]
bad = []
assert get("node_textfile_scrape_error") == 0, "node_exporter could not read the file"
host = "bench 7"
for f in doc["files"]:
    for r in f["requirements"]:
        base = dict(host=host, suite=f["name"], requirement=r["id"])
        if get("rtconform_requirement_verdict", verdict=r["verdict"], **base) != 1:
            bad.append("%s: verdict %s is not 1" % (r["id"], r["verdict"]))
        if get("rtconform_requirement_state", probe=r["probe"], state="done", **base) != 1:
            bad.append("%s: not done" % r["id"])
        for mt in r["metrics"]:
            lab = dict(metric=mt["name"], **base)
            if mt["kind"] == "count":
                total = mt["statistics"]["total"]
                if get("rtconform_events_total", **lab) != total:
                    bad.append("%s %s: events %s != %s" % (r["id"], mt["name"], get("rtconform_events_total", **lab), total))
                continue
            below = mt["histogram"].get("negative") or {}
            neg = sum(b[2] for b in below.get("buckets", [])) + below.get("overflow", 0)
            cnt = get("rtconform_latency_seconds_count", **lab)
            inf = get("rtconform_latency_seconds_bucket", le="+Inf", **lab)
            mx = get("rtconform_latency_max_seconds", **lab)
            want_max = mt["statistics_ns"]["max"] / 1e9
            print("%s %s: count %d (+%d early) max %r s; results.json %d, %r ns"
                  % (r["id"], mt["name"], cnt, neg, mx, mt["count"], mt["statistics_ns"]["max"]))
            if cnt + neg != mt["count"] or inf != cnt:
                bad.append("%s %s: count %d + %d early, +Inf %d != %d" % (r["id"], mt["name"], cnt, neg, inf, mt["count"]))
            if mx != want_max:
                bad.append("%s %s: max %r != %r" % (r["id"], mt["name"], mx, want_max))
            les = sorted((float(dict(k[1])["le"]), v) for k, v in series.items()
                         if k[0] == "rtconform_latency_seconds_bucket" and all(
                             dict(k[1]).get(a) == b for a, b in lab.items()))
            if any(b[1] < a[1] for a, b in zip(les, les[1:])):
                bad.append("%s %s: buckets not cumulative" % (r["id"], mt["name"]))
assert get("rtconform_run_info", host=host, hostname=doc["environment"]["host.name"],
           version=doc["environment"]["rtconform.version"],
           commit=doc["environment"]["rtconform.commit"]) == 1
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
[ $? = 0 ] && ok "node_exporter serves every requirement's verdict, count and max as results.json has them" \
  || { fail "node_exporter serves every requirement's verdict, count and max as results.json has them:"; diag <"$TMP/compare"; }
diag <"$TMP/compare"

# ---- --only: the metrics list the selected requirements only ----
expect_status 0 "$RTC" run -q --quick -o "$TMP/o" --only LAST --metrics "$TMP/only.prom" "$TMP/three.xml"
promtool_ok "$TMP/only.prom" "the file of an --only run"
expect_grep '^rtconform_run_requirements\{host="[^"]+"\} 1$' "$TMP/only.prom"
expect_grep 'requirement="LAST",verdict="pass"\} 1$' "$TMP/only.prom"
expect_no_grep 'requirement="PING"' "$TMP/only.prom"

# ---- interrupted: the last version still says how it ended ----
req_file "$TMP/long.xml" long <<XML
  <requirement id="LONG"><probe name="sem-pingpong"/>
    <run iterations="2000" duration="300s" warmup="0" timeout="300s"/>
    <limit statistic="max" max="60s"/></requirement>
  <requirement id="NEXT"><probe name="selftest"/>
    <run iterations="100" runs="1" warmup="0"/></requirement>
XML
I="$TMP/int.prom"
"$RTC" run -q -o "$TMP/int" --metrics "$I" "$TMP/long.xml" >/dev/null 2>"$TMP/int.err" &
RUN=$!
# a copy of a version in which LONG has finished a run: its verdict so far
ran_once() {
  grep -Eq '^rtconform_requirement_runs\{[^}]*requirement="LONG"\} [1-9]' "$I" && cp "$I" "$TMP/int-mid.prom"
}
wait_for "LONG has finished a run, says the metrics" "$START_WAIT" ran_once
expect_grep '^rtconform_requirement_verdict\{[^}]*requirement="LONG",verdict="pass"\} 1$' "$TMP/int-mid.prom"
expect_grep '^rtconform_requirement_state\{[^}]*requirement="NEXT",[^}]*state="pending"\} 1$' "$TMP/int-mid.prom"
kill -INT "$RUN"
wait "$RUN"; rc=$?
[ "$rc" = 3 ] && ok "the interrupted run exits 3" || { fail "the interrupted run exits 3 (it exited $rc)"; diag <"$TMP/int.err"; }
promtool_ok "$I" "the interrupted run's file"
expect_grep '^rtconform_run_finished\{[^}]*\} 1$' "$I"
expect_grep '^rtconform_requirement_verdict\{[^}]*requirement="LONG",verdict="error"\} 1$' "$I"
expect_grep '^rtconform_requirement_state\{[^}]*requirement="NEXT",[^}]*state="done"\} 1$' "$I"
expect_grep '^rtconform_requirement_verdict\{[^}]*requirement="NEXT",verdict="error"\} 1$' "$I"

stop_exporter
kill -0 "$NE_PID" 2>/dev/null && fail "node_exporter stopped" || ok "node_exporter stopped"
NE_PID=
finish
