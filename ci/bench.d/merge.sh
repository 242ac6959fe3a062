#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtconform merge of a large fleet: 1,000 results.json of the built-in
# default profile (copies of one --quick run, each under its own
# host.label), merged into one fleet report. Prints the wall time and peak
# memory for 10 and for 1,000 inputs. A merge holds one input's view at a
# time and keeps of each host only its summary (verdicts and limited
# figures, a few KB), so the peak grows per host by far less than one
# input's size (target: under a tenth of the input's results.json per
# host; a merge that kept the histograms would grow by more than the whole
# file), and 1,000 inputs must take under 30 s on this machine. Fails when a target is missed or a tool is
# missing; the figure for docs/fleet.md comes from here.
# Env: RTC, BENCH_TMP (set by ci/bench); MERGE_BENCH_HOSTS (default 1000).
set -euo pipefail
: "${RTC:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
hosts="${MERGE_BENCH_HOSTS:-1000}"
dir="$BENCH_TMP/merge"
mkdir -p "$dir"
command -v python3 >/dev/null || { echo "merge bench: python3 is missing"; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "merge bench: /usr/bin/time missing (ci/deps installs time)"; exit 1; }

st=0
"$RTC" run --quick -q -o "$dir/one" >/dev/null 2>&1 || st=$?
[ "$st" -le 1 ] || { echo "merge bench: the default profile's run exited $st"; exit 1; }
python3 - "$dir/one/results.json" "$dir/in" "$hosts" <<'PY'
import json, os, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(src))
os.makedirs(out, exist_ok=True)
# Each copy under its own label; each file's "host" says the same (the
# title of a labelled host: "LABEL (host NAME, id ID)").
env = d["environment"]
rest = "host " + env["host.name"]
if env.get("host.id") and not env["host.id"].startswith("unknown"):
    rest += ", id " + env["host.id"]
for i in range(n):
    env["host.label"] = "board-%04d" % i
    for f in d["files"]:
        f["host"] = "%s (%s)" % (env["host.label"], rest)
    with open(os.path.join(out, "h%04d.json" % i), "w") as f:
        json.dump(d, f, indent=1)
PY
size_kb=$(( $(stat -c %s "$dir/one/results.json") / 1024 ))
echo "one input: results.json of the default profile, $size_kb KB"

declare -A secs kb
for n in 10 "$hosts"; do
  files=()
  for i in $(seq 0 $((n - 1))); do files+=("$dir/in/h$(printf %04d "$i").json"); done
  rm -rf "$dir/out-$n"
  st=0
  /usr/bin/time -f '%e %M' -o "$dir/time-$n" "$RTC" merge "${files[@]}" -o "$dir/out-$n" \
    >"$dir/merge-$n.log" 2>&1 || st=$?
  [ "$st" -le 1 ] || { echo "merge bench: merge of $n exited $st:"; tail -5 "$dir/merge-$n.log"; exit 1; }
  # time writes "Command exited with non-zero status 1" first for a failing fleet
  read -r secs[$n] kb[$n] < <(tail -n 1 "$dir/time-$n")
  printf '%5d inputs: %7.2f s, peak RSS %6d KB, fleet results.json %d MB\n' "$n" "${secs[$n]}" \
    "${kb[$n]}" $(( $(stat -c %s "$dir/out-$n/results.json") / 1048576 ))
done
awk -v s="${secs[$hosts]}" -v a="${kb[10]}" -v b="${kb[$hosts]}" -v n="$hosts" -v in_kb="$size_kb" 'BEGIN {
  per = (b - a) / (n - 10)
  printf "peak memory per host beyond the first 10: %.1f KB (target < %.1f KB, a tenth of one input)\n", per, in_kb / 10
  printf "time for %d inputs: %.2f s (target < 30 s)\n", n, s
  exit !(per < in_kb / 10 && (n < 1000 || s < 30))
}' || { echo "merge bench: a target was missed"; exit 1; }
