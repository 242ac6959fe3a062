#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a saved trace (trace-<ID>.txt, tracefs's text form) whose breach
window holds N distinct tasks on the probe's CPU, one after another, for
explain's linearity test and timings:

  many_tasks_trace.py OUT N

The probe (pid 1000, priority 19) is switched out at the window's start;
tasks 2000 .. 2000+N-1 (priority 120) each run 1 us on CPU 0; the probe is
woken and switched in again, and its marker names a breach as long as the
window.
"""
import sys

HEAD = """# tracer: nop
#
# entries-in-buffer/entries-written: {n}/{n}   #P:2
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
"""


def stamp(us):
    return "%d.%06d" % (1000 + us // 1000000, us % 1000000)


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    lines = []
    t = 10
    prev = ("rtconform-worke", 1000, 19)
    lines.append(" rtconform-worke-1000    [000] d..2. %s: sched_switch: prev_comm=%s "
                 "prev_pid=%d prev_prio=%d prev_state=S ==> next_comm=task%d next_pid=%d "
                 "next_prio=120" % (stamp(t), prev[0], prev[1], prev[2], 0, 2000))
    for i in range(1, n):
        t += 1
        lines.append(" task%d-%d    [000] d..2. %s: sched_switch: prev_comm=task%d prev_pid=%d "
                     "prev_prio=120 prev_state=S ==> next_comm=task%d next_pid=%d "
                     "next_prio=120" % (i - 1, 2000 + i - 1, stamp(t), i - 1, 2000 + i - 1,
                                        i, 2000 + i))
    t += 1
    last = 2000 + n - 1
    lines.append(" task%d-%d    [000] d..2. %s: sched_waking: comm=rtconform-worke pid=1000 "
                 "prio=19 target_cpu=000" % (n - 1, last, stamp(t)))
    lines.append(" task%d-%d    [000] d..3. %s: sched_wakeup: comm=rtconform-worke pid=1000 "
                 "prio=19 target_cpu=000" % (n - 1, last, stamp(t)))
    t += 1
    lines.append(" task%d-%d    [000] d..2. %s: sched_switch: prev_comm=task%d prev_pid=%d "
                 "prev_prio=120 prev_state=S ==> next_comm=rtconform-worke next_pid=1000 "
                 "next_prio=19" % (n - 1, last, stamp(t), n - 1, last))
    t += 1
    window_ns = (t - 9) * 1000
    lines.append(" rtconform-worke-1000    [000] ...1. %s: tracing_mark_write: rtconform "
                 "breach: requirement MANY metric per-op value %d ns > 1000 ns run 1"
                 % (stamp(t), window_ns))
    with open(out, "w") as f:
        f.write(HEAD.format(n=len(lines)))
        f.write("\n".join(lines) + "\n")


main()
