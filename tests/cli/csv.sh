# SPDX-License-Identifier: Apache-2.0
# --csv DIR of run and report: a histogram file per duration metric whose
# counts add up to results.json's, runs.csv, intervals.csv, index.csv; `report` makes the
# same bytes from results.json and what it can from junit.xml; an unwritable
# or colliding DIR is refused before anything is measured, one that fails
# after measuring makes the run's status 3; hostile ids stay in DIR.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { fail "python3 is missing (Debian package python3)"; finish; }
command -v gnuplot >/dev/null || { fail "gnuplot is missing (Debian package gnuplot-nox; ci/deps installs it)"; finish; }

# check_csv RESULTS.json DIR: every duration metric of every measured
# requirement has its file in DIR (through index.csv), with the header, the
# buckets' counts (overflow included) adding up to the metric's count, and
# lo <= hi; runs.csv has a line per run of every metric and of the batch
# figure when there is one, each real in the fewest digits that read back.
check_csv() {
  python3 - "$1" "$2" >"$TMP/check_csv" 2>&1 <<'PY'
import csv, json, os, sys
res, d = json.load(open(sys.argv[1])), sys.argv[2]
bad = []
index = list(csv.DictReader(open(os.path.join(d, "index.csv"), newline="")))
by_key = {(r["file"], r["requirement"], r["metric"]): r for r in index}
want_runs = 0
for f in res["files"]:
    for q in f["requirements"]:
        if not q["measured"]:
            continue
        batch = any(v is not None for v in q["batch"]["per_run_ns"])
        want_runs += q["runs"] if q["metrics"] and batch else 0
        for m in q["metrics"]:
            want_runs += len(m["runs"])
            if m["kind"] != "duration":
                continue
            row = by_key.pop((f["name"], q["id"], m["name"]), None)
            if row is None:
                bad.append("no histogram file for %s %s" % (q["id"], m["name"]))
                continue
            with open(os.path.join(d, row["csv"]), newline="") as h:
                rows = list(csv.reader(h))
            if rows[0] != ["lo_ns", "hi_ns", "count"]:
                bad.append("%s: header %r" % (row["csv"], rows[0]))
            total = sum(int(r[2]) for r in rows[1:])
            if total != m["count"] or int(row["samples"]) != m["count"]:
                bad.append("%s: counts add up to %d, index says %s, results.json %d"
                           % (row["csv"], total, row["samples"], m["count"]))
            if any(float(r[0]) > float(r[1]) for r in rows[1:] if r[1]):
                bad.append("%s: a bucket with lo > hi" % row["csv"])
            if m["count"] and len(rows) < 2:
                bad.append("%s: no buckets" % row["csv"])
if by_key:
    bad.append("index.csv lists files of no metric: %r" % list(by_key))
runs = list(csv.reader(open(os.path.join(d, "runs.csv"), newline="")))
if runs[0] != "file,requirement,metric,kind,run,samples,mean_ns,count,max_ns".split(","):
    bad.append("runs.csv header %r" % runs[0])
if len(runs) - 1 != want_runs:
    bad.append("runs.csv: %d lines, expected %d" % (len(runs) - 1, want_runs))
def shortest(v):
    for digits in (15, 16, 17):
        s = "%.*g" % (digits, v)
        if float(s) == v:
            return s
for r in runs[1:]:
    if r[6] and r[6] != shortest(float(r[6])):
        bad.append("runs.csv: mean_ns %s, shortest is %s" % (r[6], shortest(float(r[6]))))
print("\n".join(bad) if bad else "%d histogram files" % len(index))
sys.exit(1 if bad else 0)
PY
  if [ $? -eq 0 ]; then ok "check_csv $1 $2 finds the CSV files consistent"; else fail "check_csv $1 $2 finds the CSV files consistent:"; sed 's/^/    /' "$TMP/check_csv"; fi
}

# A quick run writes the reports and, in --csv DIR (made), the CSV files.
expect_status 0 "$RTC" run --quick -o "$TMP/r" --csv "$TMP/r/csv" "$FIX/cli/pass.xml"
expect_grep "^csv: $TMP/r/csv\$" "$TMP/out"
for f in index.csv runs.csv intervals.csv PP-OTHER.per-op.csv PP-OTHER.wakeup.csv PP-FIFO.per-op.csv; do
  [ -s "$TMP/r/csv/$f" ] && ok "run --csv writes $f" || fail "run --csv did not write $f"
done
check_csv "$TMP/r/results.json" "$TMP/r/csv"
# gnuplot, a consumer the export is for, reads a histogram file and counts
# the samples results.json has.
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["files"][0]["requirements"][0]["metrics"][0]["count"])' "$TMP/r/results.json")
sum=$(cd "$TMP/r/csv" && gnuplot -e "set datafile separator ','; stats 'PP-OTHER.per-op.csv' using 3 skip 1 nooutput; print sprintf('%d', STATS_sum)" 2>&1)
[ "$sum" = "$n" ] && [ "$n" -gt 0 ] && ok "gnuplot sums PP-OTHER.per-op.csv to the samples of results.json" || fail "gnuplot sums PP-OTHER.per-op.csv to '$sum', results.json has $n samples"
# The check finds a file whose counts do not add up.
cp -r "$TMP/r/csv" "$TMP/broken"
sed -i '2s/,[0-9]*$/,999999/' "$TMP/broken/PP-OTHER.per-op.csv"
python3 - "$TMP/r/results.json" "$TMP/broken" >/dev/null 2>&1 <<'PY' && fail "a histogram with a wrong count passed" || ok "the histogram check catches a wrong count"
import csv, json, sys
res = json.load(open(sys.argv[1]))
m = res["files"][0]["requirements"][0]["metrics"][0]
rows = list(csv.reader(open(sys.argv[2] + "/PP-OTHER.per-op.csv")))[1:]
sys.exit(0 if sum(int(r[2]) for r in rows) == m["count"] else 1)
PY

# report --csv from results.json says where it wrote (that it writes the
# same bytes, file for file: cli.reports)
expect_status 0 "$RTC" report "$TMP/r/results.json" --csv "$TMP/again"
expect_grep "^csv: $TMP/again\$" "$TMP/out"

# Intervals (a run by time with --interval 1s): intervals.csv has a row per
# interval of every duration metric (cpu empty) and of every CPU's series,
# numbered from 1, its start as results.json's; their samples add up to the
# metric's; gnuplot sums them and plots each interval's max against its
# start, as a user would; report --csv makes the same bytes.
cat >"$TMP/iv.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<requirements xmlns="urn:rtconform:requirements:1" name="csv-intervals">
  <defaults timeout="60s"/>
  <requirement id="IV-PP">
    <probe name="sem-pingpong"/>
    <sched policy="other"/>
    <run iterations="2000" duration="2s" warmup="0"/>
    <limit statistic="max" max="60s"/>
  </requirement>
  <requirement id="IV-TW">
    <probe name="timer-wakeup">
      <param name="interval">1ms</param>
      <param name="dma-latency">off</param>
    </probe>
    <sched policy="other"/>
    <run iterations="100" duration="2s" warmup="0"/>
    <limit statistic="max" max="60s"/>
  </requirement>
</requirements>
EOF
expect_status 0 "$RTC" run --quiet --interval 1s -o "$TMP/iv" --csv "$TMP/iv/csv" "$TMP/iv.xml"
python3 - "$TMP/iv/results.json" "$TMP/iv/csv/intervals.csv" >"$TMP/check_iv" 2>&1 <<'PY'
import csv, json, sys
res = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2], newline="")))
head = ("file,requirement,metric,cpu,interval,start,seconds,samples,overflow,min_ns,mean_ns,"
        "p50_ns,p90_ns,p99_ns,p99.9_ns,max_ns,beyond_limits").split(",")
bad = [] if rows[0] == head else ["header %r" % rows[0]]
want = []
for f in res["files"]:
    for q in f["requirements"]:
        for m in q["metrics"]:
            for k, iv in enumerate(m.get("intervals", [])):
                want.append((f["name"], q["id"], m["name"], "", str(k + 1), iv["start"],
                             iv["count"], iv["statistics_ns"]["max"]))
            if m.get("intervals") and sum(iv["count"] for iv in m["intervals"]) != m["count"]:
                bad.append("%s %s: intervals do not add up" % (q["id"], m["name"]))
        for c in q.get("per_cpu", []):
            for k, iv in enumerate(c.get("intervals", [])):
                want.append((f["name"], q["id"], q["metrics"][0]["name"], str(c["cpu"]),
                             str(k + 1), iv["start"], iv["count"], iv["statistics_ns"]["max"]))
got = [(r[0], r[1], r[2], r[3], r[4], r[5], int(r[7]), float(r[15]) if r[15] else None)
       for r in rows[1:]]
if got != want:
    bad.append("rows %r\nexpected %r" % (got[:4], want[:4]))
if not any(w[3] for w in want) or len({w[1] for w in want}) != 2:
    bad.append("no per-CPU rows, or not both requirements: %r" % want[:3])
if any(r[16] != "0" for r in rows[1:]):
    bad.append("an interval beyond a limit of 60 s")
print("\n".join(bad) if bad else "%d interval rows" % len(got))
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] && ok "intervals.csv has every interval of results.json" || { fail "intervals.csv does not hold results.json's intervals:"; sed 's/^/    /' "$TMP/check_iv"; }
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["files"][0]["requirements"][0]["metrics"][0]["count"])' "$TMP/iv/results.json")
sum=$(cd "$TMP/iv/csv" && gnuplot -e "set datafile separator ','; stats 'intervals.csv' using (strcol(2) eq 'IV-PP' && strcol(3) eq 'per-op' ? \$8 : 0) skip 1 nooutput; print sprintf('%d', STATS_sum)" 2>&1)
[ "$sum" = "$n" ] && [ "$n" -gt 0 ] && ok "gnuplot sums IV-PP's intervals in intervals.csv to its samples" || fail "gnuplot sums IV-PP's intervals to '$sum', results.json has $n samples"
(cd "$TMP/iv/csv" && gnuplot -e "set datafile separator ','; set xdata time; set timefmt '%Y-%m-%dT%H:%M:%SZ'; set logscale y; set terminal dumb 80 20; plot 'intervals.csv' using 6:(strcol(2) eq 'IV-PP' && strcol(3) eq 'per-op' ? \$16 : NaN) skip 1 with linespoints title 'IV-PP per-op max'") >"$TMP/ivplot" 2>&1
expect_grep "IV-PP per-op max" "$TMP/ivplot"
expect_no_grep "warning|error|invalid" "$TMP/ivplot"
expect_status 0 "$RTC" report "$TMP/iv/results.json" --csv "$TMP/iv-again"
diff "$TMP/iv/csv/intervals.csv" "$TMP/iv-again/intervals.csv" >/dev/null && ok "report --csv writes the run's intervals.csv again" || fail "report --csv wrote another intervals.csv"

# Not from junit.xml, which is never read back: 2, nothing written.
expect_status 2 "$RTC" report "$TMP/r/junit.xml" --csv "$TMP/fromjunit"
expect_grep "render from the run's results.json" "$TMP/out"
[ ! -e "$TMP/fromjunit" ] && ok "report --csv from junit.xml writes nothing" || fail "report --csv from junit.xml wrote $TMP/fromjunit"

# Refused before anything is measured, exit 2: an unwritable DIR, one whose
# parent is missing too (one level is made, as for -o), an empty value, a
# report or requirements file that the export could overwrite; a new -o
# directory is not left behind.
expect_status 2 "$RTC" run -o "$TMP/o2" --csv /proc/rtconform-cannot-write "$FIX/cli/pass.xml"
expect_grep "cannot write '/proc/rtconform-cannot-write/runs.csv'" "$TMP/out"
[ ! -e "$TMP/o2" ] && ok "a refused --csv (unwritable) leaves no new -o directory and measures nothing" || fail "a refused --csv left the new -o directory (or measured)"
expect_status 2 "$RTC" run -o "$TMP/o3" --csv "$TMP/no/such" "$FIX/cli/pass.xml"
expect_grep "cannot create directory '$TMP/no/such'" "$TMP/out"
[ ! -e "$TMP/o3" ] && ok "a refused --csv (parent missing) leaves no new -o directory and measures nothing" || fail "a refused --csv left the new -o directory (or measured)"
expect_status 2 "$RTC" run -o "$TMP/o4" --csv '' "$FIX/cli/pass.xml"
expect_grep '--csv: empty value' "$TMP/out"
expect_status 2 "$RTC" run -o "$TMP/o5" --summary "$TMP/c5/s.csv" --csv "$TMP/c5" "$FIX/cli/pass.xml"
expect_grep "--summary \($TMP/c5/s.csv\) is a .csv file in the --csv directory" "$TMP/out"
[ ! -e "$TMP/o5/junit.xml" ] && ok "a colliding --csv measures nothing" || fail "a colliding --csv measured"
cp "$FIX/cli/pass.xml" "$TMP/req.csv"
expect_status 2 "$RTC" run -o "$TMP/o6" --csv "$TMP" "$TMP/req.csv"
expect_grep 'the requirements file .* is a .csv file in the --csv directory' "$TMP/out"
expect_status 2 "$RTC" report "$TMP/r/results.json" --csv "$TMP/r/results.json"
expect_grep 'the input .* is the --csv directory' "$TMP/out"
expect_status 2 "$RTC" report "$TMP/r/results.json" --csv /proc/rtconform-cannot-write
expect_grep "cannot write '/proc/rtconform-cannot-write/runs.csv'" "$TMP/out"
expect_status 2 "$RTC" report "$TMP/r/results.json"
expect_grep 'or --csv DIR' "$TMP/out"

# A DIR that fills up after the measurement (room for one file): the run
# says which file, and ends 3 as for any report it could not write.
mkdir "$TMP/plant"
expect_status 3 unshare -m sh -c "mount -t tmpfs -o nr_inodes=3 none '$TMP/plant' && exec '$RTC' run --quick -o '$TMP/full' --csv '$TMP/plant/csv' '$FIX/cli/pass.xml'"
expect_grep "cannot write '$TMP/plant/csv/[^']*': No space left on device" "$TMP/out"
expect_grep 'exit status 3: a report could not be written' "$TMP/out"
validate_junit "$TMP/full/junit.xml" --tests 2

# Hostile ids (a results.json may say anything): every file stays in DIR
# under a safe, distinct name, and index.csv gives the ids back whole, but
# for the ' before a piece a spreadsheet would take for a formula (here
# "=1+1", after a ','; tests/cli/links.sh has more).
python3 - "$TMP/r/results.json" "$TMP/hostile.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
reqs = res["files"][0]["requirements"]
reqs[0]["id"] = '../../escape,"=1+1"\n'
reqs[1]["id"] = '_._.._escape___1_1__'  # the first one's safe name
json.dump(res, open(sys.argv[2], "w"))
PY
mkdir "$TMP/h"
expect_status 0 "$RTC" report "$TMP/hostile.json" --csv "$TMP/h/csv"
[ -z "$(ls -A "$TMP" | grep escape)" ] && [ -z "$(ls -A "$TMP/h" | grep -vx csv)" ] && ok "a hostile id writes nothing outside the --csv directory" \
  || fail "a hostile id wrote outside the --csv directory"
ls -A "$TMP/h/csv" >"$TMP/names"
expect_no_grep '^\.|[^A-Za-z0-9._~-]' "$TMP/names"
[ "$(sort -fu "$TMP/names" | wc -l)" -eq "$(wc -l <"$TMP/names")" ] && ok "no two CSV files share a name" || fail "two CSV files share a name"
expect_grep '^_\._\.\._escape___1_1__\.per-op~2\.csv$' "$TMP/names"
python3 - "$TMP/h/csv/index.csv" <<'PY' && ok "index.csv gives the hostile ids back" || fail "index.csv does not give the hostile ids back"
import csv, sys
ids = {r["requirement"] for r in csv.DictReader(open(sys.argv[1], newline=""))}
sys.exit(ids != {'../../escape,"\'=1+1"\n', '_._.._escape___1_1__'})
PY
finish
