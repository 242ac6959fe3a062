#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Does `rtconform explain` name an injected culprit? (docs/explain.md,
# "Proven with injected culprits".) For each class a culprit is put on one
# CPU (the last one) beside traced timer-wakeup requirements (SCHED_FIFO 80
# pinned to that CPU, a trace threshold below the delay the culprit makes),
# each requirement one breach at most; results.json's explanations are then
# counted: how often the top cause is the injected one, how often the
# components add up to the breach within 5 %, the median share of the top
# cause and the median time of the injected component.
#   higher  tests/culprit/culprit.c burst: SCHED_FIFO 90 on the CPU, 200 us
#           busy every 1.1 ms; injected = the culprit's task, class higher;
#   lower   culprit read: SCHED_FIFO 70 on the CPU reading a large file
#           (the irq class's), read once before so that it is in the page
#           cache, 8 MiB a read(2): the copy is kernel code that runs on
#           after the probe woke on a kernel without full preemption; 3 ms
#           asleep after each read (a reader that never sleeps gets the
#           CPU's real-time tasks throttled); injected = the culprit's task
#           (violation or not-runnable: the class is counted too);
#   irq     culprit dread x 4: O_DIRECT 4 KiB reads (never a write) of a
#           large file on the root device from another CPU, the device's IRQ (found by
#           its name in /proc/interrupts) given to the CPU, its affinity put
#           back on exit; injected = that IRQ or the BLOCK softirq;
#   net     culprit net udp 64: a SCHED_OTHER sender on the CPU sending
#           64-byte UDP datagrams over 127.0.0.1 to a receiver on another
#           CPU: the NET_RX softirq that receives them runs on the sender's
#           CPU; injected = the NET_RX softirq;
#   none    nothing injected: which kind of cause is on top, and how often
#           a task is blamed.
# Never fails on a target; prints figures. Fails only when a tool is
# missing or nothing could be measured. Needs root (tracefs, SCHED_FIFO).
# Env: RTC, BENCH_TMP, RTC_TOP (set by ci/bench); EXPLAIN_BENCH_N (breaches
#   wanted per class, default 20), EXPLAIN_BENCH_CLASSES (default "higher
#   lower irq net none"), EXPLAIN_BENCH_CPU (default the last CPU),
#   EXPLAIN_BENCH_FILE (the file the lower and irq classes read; default the largest
#   shared library of at least 64 MiB under /usr/lib).
set -euo pipefail
: "${RTC:?set by ci/bench}" "${BENCH_TMP:?set by ci/bench}"
top="${RTC_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}"
want="${EXPLAIN_BENCH_N:-20}"
classes="${EXPLAIN_BENCH_CLASSES:-higher lower irq net none}"
cpu="${EXPLAIN_BENCH_CPU:-$(($(nproc) - 1))}"
dir="$BENCH_TMP/explain"
mkdir -p "$dir"
command -v python3 >/dev/null || { echo "explain bench: python3 is missing"; exit 1; }
command -v cc >/dev/null || { echo "explain bench: cc is missing"; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
  echo "explain bench: needs root (tracefs, SCHED_FIFO, IRQ affinity)"; exit 1
fi
[ "$cpu" -ge 1 ] || { echo "explain bench: needs 2 CPUs (the culprit's I/O runs on another)"; exit 1; }
cc -O2 -std=gnu11 -Wall -o "$dir/culprit" "$top/tests/culprit/culprit.c"

pids=()
irq="" irq_saved=""
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  if [ -n "$irq" ] && [ -n "$irq_saved" ]; then
    (echo "$irq_saved" >"/proc/irq/$irq/smp_affinity_list") 2>/dev/null ||
      echo "explain bench: could not put IRQ $irq's affinity back to $irq_saved" >&2
    irq_saved=""
  fi
}
trap cleanup EXIT

# start_culprit ARGS... : runs the culprit, waits for its "ready" line
start_culprit() {
  "$dir/culprit" "$@" >"$dir/culprit.out" 2>&1 &
  pids+=($!)
  local i
  for i in $(seq 1 50); do
    grep -q ' ready$' "$dir/culprit.out" && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "explain bench: the culprit did not start: $(cat "$dir/culprit.out")"; exit 1
}

# reqs CLASS ROUND N THRESHOLD ITERATIONS : N traced requirements
reqs() {
  echo '<requirements xmlns="urn:rtconform:requirements:1" name="bench-explain" version="1">'
  local i
  for i in $(seq 1 "$3"); do
    cat <<XML
  <requirement id="$1-$2-$i"><probe name="timer-wakeup"/>
    <sched policy="fifo" priority="80" cpu="$cpu"/><run iterations="$5" runs="1" warmup="10"/>
    <limit metric="wakeup" statistic="max" max="10s"/><trace threshold="$4"/></requirement>
XML
  done
  echo '</requirements>'
}

# measure CLASS THRESHOLD ITERATIONS : rounds of $want requirements until
# $want breaches were traced (at most 3 rounds); results in $dir/CLASS-R
measure() {
  local round got=0
  for round in 1 2 3; do
    reqs "$1" "$round" "$want" "$2" "$3" >"$dir/$1-$round.xml"
    set +e
    "$RTC" run -q "$dir/$1-$round.xml" -o "$dir/$1-$round" >"$dir/$1-$round.log" 2>&1
    local rc=$?
    set -e
    if [ "$rc" -gt 1 ]; then
      echo "explain bench: rtconform run exited $rc"; tail -5 "$dir/$1-$round.log"; exit 1
    fi
    got=$((got + $(ls "$dir/$1-$round" | grep -c '^trace-' || true)))
    [ "$got" -ge "$want" ] && break
  done
}

# irq_count IRQ CPU : how many times IRQ was taken on CPU
irq_count() { awk -v i="$1:" -v c="$2" '$1 == i { print $(c + 2); exit }' /proc/interrupts; }
irq_by_name() { awk -v n="$1" '$NF == n { sub(":", "", $1); print $1; exit }' /proc/interrupts; }

# the file the lower and irq classes read
file="${EXPLAIN_BENCH_FILE:-$(find /usr/lib -xdev -type f -name '*.so*' -size +64M -printf '%s %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)}"
for class in $classes; do
  case "$class" in
    higher)
      start_culprit burst "$cpu" fifo 90 200 1100 3600
      echo "${pids[-1]}" >"$dir/higher.pid"
      measure higher 100us 500 ;;
    lower)
      if [ -z "$file" ]; then echo "  lower: no file of 64 MiB to read: skipped"; continue; fi
      cat "$file" >/dev/null
      start_culprit read "$cpu" fifo 70 "$file" 3600 3000
      echo "${pids[-1]}" >"$dir/lower.pid"
      echo "$file" >"$dir/lower.file"
      measure lower 150us 500 ;;
    irq)
      # the root device's request IRQ: /dev/vda is virtio device N
      # (/sys/block/vda/device), whose queue's IRQ is virtioN-req.0; any
      # other layout names it in EXPLAIN_BENCH_IRQ_NAME
      dev="$(findmnt -no SOURCE / 2>/dev/null || true)"
      vdev="$(basename "$(readlink -f "/sys/block/${dev#/dev/}/device" 2>/dev/null)" 2>/dev/null || true)"
      name="${EXPLAIN_BENCH_IRQ_NAME:-$vdev-req.0}"
      irq="$(irq_by_name "$name")"
      if [ -z "$irq" ]; then echo "  irq: no IRQ named '$name' in /proc/interrupts: skipped"; continue; fi
      if [ -z "$file" ]; then echo "  irq: no file of 64 MiB to read: skipped"; continue; fi
      # the IRQ to the CPU, and back on exit; where the affinity cannot be
      # set (a container, a VM that forbids it) the IRQ must already land there
      orig="$(cat "/proc/irq/$irq/smp_affinity_list")"
      if (echo "$cpu" >"/proc/irq/$irq/smp_affinity_list") 2>/dev/null; then
        irq_saved="$orig"
      elif [ "$(cat "/proc/irq/$irq/effective_affinity_list" 2>/dev/null)" != "$cpu" ]; then
        echo "  irq: IRQ $irq ($name) cannot be moved to CPU $cpu: skipped"; irq=""; continue
      else
        echo "  irq: IRQ $irq ($name) cannot be moved, but already lands on CPU $cpu alone"
      fi
      echo "$irq $name" >"$dir/irq.irq"
      other=$((cpu - 1))
      for k in 1 2 3 4; do start_culprit dread "$other" "$file" 3600; done
      n0="$(irq_count "$irq" "$cpu")" t0="$(date +%s%N)"
      measure irq 40us 500
      n1="$(irq_count "$irq" "$cpu")" t1="$(date +%s%N)"
      echo "$(( (n1 - n0) * 1000000000 / (t1 - t0) ))" >"$dir/irq.rate"
      echo "$file" >"$dir/irq.file" ;;
    net)
      start_culprit net "$cpu" $((cpu - 1)) udp 64 3600
      measure net 40us 500 ;;
    none)
      measure none 30us 500 ;;
    *) echo "explain bench: unknown class '$class'"; exit 1 ;;
  esac
  cleanup
done

python3 "$top/ci/bench.d/explain_count.py" "$dir" $classes
