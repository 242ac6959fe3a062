#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""junit_check.py - read an rtconform junit.xml the way a CI consumer does.

Parses the file with junitparser (Debian: python3-junitparser), the library
many CI report tools build on, and checks that its totals are consistent:
every suite's tests / failures / errors / skipped attributes match its
testcases, the <testsuites> totals match the suites, no testcase has more
than one verdict, and an ID.verdict property, where there is one, agrees
with its testcase (a <failure type="inconclusive"> is the verdict
inconclusive, counted among the failures), and no suite has more than 20
properties (the screen docs/reports.md promises). Then it checks what the
caller expects:

  junit_check.py FILE [--tests N] [--failures N] [--errors N] [--skipped N]
                      [--property NAME | --property NAME=VALUE]... [--list]
                      [--get NAME] [--attachments] [--lean N]

NAME is a suite property's name; or ID.KEY for line "KEY: value" at the
head of test case ID's <system-out> (verdict, figure, limit, cause,
report: what junit.xml carries of a requirement, docs/reports.md); or,
for any other fact of a requirement, which junit.xml no longer carries,
that fact in the results.json beside FILE (facts()), where it now is:
ID.probe, ID.note, ID.load.command, ID.clauses, ID.param.P, ID.runs, ID.limits,
ID.limits, ID.metrics, and ID.M for metric M, whose value is "key=value" fields;
PROP.KEY is field KEY of such a value (TOUCH.page-faults.total is field
total of TOUCH.page-faults). --get prints that value alone, for shell
tests. --lean N: the first <testcase> comes within N lines of the top.

It prints one line of totals ("junit.xml: 2 tests, 0 failures, 1 error,
1 skipped; 1 suite, 14 properties"), then one line per problem. --list
also prints every property as NAME=VALUE. --attachments prints, one a
line and nothing else, the files Jenkins' JUnit Attachments plugin would
archive for the file (attachments()). Exit status: 0 all good, 1 a check
failed, 2 usage error or unreadable file.

The CLI tests run it through tests/cli/lib.sh's validate_junit.
"""

import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

try:
    import junitparser
    from junitparser import Error, Failure, Skipped
except ImportError as e:  # never a silent skip: say what is missing
    sys.stderr.write(
        "junit_check.py: cannot import junitparser (%s) into %s: install Debian's "
        "python3-junitparser (ci/deps does)\n" % (e, sys.executable))
    sys.exit(2)

VERDICTS = {Failure: "fail", Error: "error", Skipped: "skipped"}
MAX_SUITE_PROPERTIES = 20
CASE_KEYS = ("verdict", "figure", "limit", "cause", "report")


def lookup(props, name):
    """A property's value, or field KEY of property PROP for NAME PROP.KEY
    (fields "key=value" separated by blanks); None when neither exists."""
    if name in props:
        return props[name]
    prop, dot, key = name.rpartition(".")
    if not dot or prop not in props:
        return None
    for field in props[prop].split(" "):
        k, eq, v = field.partition("=")
        if eq and k == key:
            return v
    return None


def case_facts(case):
    """Test case ID's lines "KEY: value" (CASE_KEYS) at the head of its
    <system-out>, as {"ID.KEY": value}."""
    rid = (case.name or "").split(":")[0]
    out = {}
    for el in case._elem.iter("system-out"):
        for line in (el.text or "").split("\n"):
            key, colon, value = line.partition(": ")
            if not colon or key not in CASE_KEYS:
                break
            out["%s.%s" % (rid, key)] = value
    return out


def fmt3(v):
    return "%.3f" % v


def metric_value(m):
    """Metric m of results.json as the fields it had in junit.xml."""
    f = ["kind=" + m["kind"]]
    if m["kind"] == "count":
        st = m.get("statistics") or {}
        f.append("count=%d" % len(m.get("runs") or []))
        for k in ("total", "min", "mean", "max"):
            v = st.get(k)
            if v is not None:
                f.append("%s=%s" % (k, fmt3(v) if k == "mean" else "%d" % v))
        return " ".join(f)
    st = m.get("statistics_ns") or {}
    f.append("count=%d" % m["count"])
    for k in ("min", "mean", "p50", "p99", "max"):
        if st.get(k) is not None:
            f.append("%s_ns=%s" % (k, fmt3(st[k])))
        ci = (m.get("confidence") or {}).get("p99") if k == "p99" else None
        for side in ("lo", "hi"):
            if ci and ci.get(side + "_ns") is not None:
                f.append("p99_%s_ns=%s" % (side, fmt3(ci[side + "_ns"])))
    f.append("overflow=%d" % m["overflow"])
    return " ".join(f)


def limits_value(limits):
    """A requirement's limits of results.json as junit.xml's ID.limits once
    gave them: "metric=M statistic=S [max_U=V] [min_U=V] [measured_U=V]
    verdict=V [text=...]" entries, "; " between them."""
    entries = []
    for lim in limits:
        unit = lim.get("unit")
        f = ["metric=" + lim["metric"], "statistic=" + lim["statistic"]]
        for k in ("max", "min", "measured"):
            v = lim.get(k)
            if v is None:
                continue
            if unit in ("ns", "cycles"):
                f.append("%s_%s=%s" % (k, unit, fmt3(v)))
            else:
                f.append("%s=%s" % (k, "%d" % v if v == int(v) else fmt3(v)))
        f.append("verdict=" + lim["verdict"])
        if lim.get("text"):
            f.append("text=" + lim["text"].replace(";", ","))
        entries.append(" ".join(f))
    return "; ".join(entries)


def facts(path):
    """The facts of every requirement in the results.json beside junit.xml
    FILE, by the names junit.xml once gave them; {} without one."""
    rpath = os.path.join(os.path.dirname(path) or ".", "results.json")
    if not os.path.exists(rpath):
        return {}
    with open(rpath, encoding="utf-8") as f:
        doc = json.load(f)
    out = {}
    for rf in doc.get("files") or []:
        for r in rf.get("requirements") or []:
            i = r["id"]
            for k in ("probe", "policy", "cpu", "source", "reason", "note", "runs"):
                if r.get(k) is not None:
                    out["%s.%s" % (i, k)] = str(r[k])
            if r.get("load"):
                out[i + ".load.command"] = r["load"]
            if r.get("clauses"):
                out[i + ".clauses"] = "; ".join(c["ref"] for c in r["clauses"])
            for k, v in (r.get("params") or {}).items():
                out["%s.param.%s" % (i, k)] = str(v)
            if r.get("limits"):
                out[i + ".limits"] = limits_value(r["limits"])
            ms = r.get("metrics") or []
            if ms:
                out[i + ".metrics"] = ",".join(m["name"] for m in ms)
            for m in ms:
                out["%s.%s" % (i, m["name"])] = metric_value(m)
    return out


# The plugin's pattern (hudson.plugins.junitattachments.GetTestDataMethodObject):
# "[[ATTACHMENT|" and "]]" with at least one character between, searched
# anywhere in the text; Java's '.' stops at these line ends.
ATTACHMENT = re.compile("\\[\\[ATTACHMENT\\|[^\n\r\u0085\u2028\u2029]+\\]\\]")


def attachments(path):
    """The files Jenkins' JUnit Attachments plugin would archive: in the text
    of every <system-out> and <system-err> (of a testcase or a suite), each
    match of its pattern, without the marker and the "]]", up to the first
    '|', as the plugin takes it."""
    found = []
    for el in ET.parse(path).getroot().iter():
        if el.tag in ("system-out", "system-err"):
            for m in ATTACHMENT.finditer(el.text or ""):
                found.append(m.group().strip()[len("[[ATTACHMENT|"):-2].split("|", 1)[0])
    return found


def plural(n, word, many=None):
    return "%d %s" % (n, word if n == 1 else (many or word + "s"))


def read(path):
    """The <testsuites> root and its suites, parsed by junitparser."""
    xml = junitparser.JUnitXml.fromfile(path)
    if not isinstance(xml, junitparser.JUnitXml):
        raise ValueError("the root element is <testsuite>, not <testsuites>")
    return xml, list(xml)


def check(path, args):
    """Problems found in the file, as sentences; prints the totals."""
    problems = []
    xml, suites = read(path)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    props = {}
    for s in suites:
        count = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        suite_props = {p.name: p.value for p in s.properties()}
        if len(suite_props) > MAX_SUITE_PROPERTIES:
            problems.append("suite %s: %d properties, at most %d"
                            % (s.name, len(suite_props), MAX_SUITE_PROPERTIES))
        props.update(suite_props)
        for case in s:
            count["tests"] += 1
            results = case.result
            if len(results) > 1:
                problems.append("suite %s, testcase '%s': %d verdicts (%s)"
                                % (s.name, case.name, len(results),
                                   ", ".join(type(r).__name__ for r in results)))
            verdict = VERDICTS.get(type(results[0]), "?") if results else "pass"
            # an inconclusive requirement is a <failure type="inconclusive">
            if verdict == "fail" and results[0].type == "inconclusive":
                verdict = "inconclusive"
            key = {"fail": "failures", "inconclusive": "failures", "error": "errors",
                   "skipped": "skipped"}.get(verdict)
            if key:
                count[key] += 1
            # rtconform names a testcase "ID: title" and says "verdict: V"
            rid = (case.name or "").split(":")[0]
            mine = case_facts(case)
            props.update(mine)
            said = mine.get(rid + ".verdict")
            if said is not None and said != verdict:
                problems.append("testcase '%s' is %s, but property %s.verdict says %s"
                                % (case.name, verdict, rid, said))
        for k, v in count.items():
            if getattr(s, k) != v:
                problems.append("suite %s: %s=\"%s\" but its testcases make %d"
                                % (s.name, k, getattr(s, k), v))
            totals[k] += v
    for k in ("tests", "failures", "errors"):
        if getattr(xml, k) != totals[k]:
            problems.append("<testsuites> %s=\"%s\" but its suites make %d"
                            % (k, getattr(xml, k), totals[k]))

    print("%s: %s, %s, %s, %d skipped; %s, %s"
          % (path, plural(totals["tests"], "test"), plural(totals["failures"], "failure"),
             plural(totals["errors"], "error"), totals["skipped"],
             plural(len(suites), "suite"), plural(len(props), "property", "properties")))
    if args.list:
        for name in sorted(props):
            print("  %s=%s" % (name, props[name]))
    if args.lean is not None:
        with open(path, encoding="utf-8") as f:
            head = f.read().split("\n")
        first = next((n for n, line in enumerate(head, 1) if "<testcase" in line), None)
        if first is None or first > args.lean:
            problems.append("the first <testcase> is on line %s, past line %d"
                            % (first, args.lean))
    known = dict(facts(path), **props)

    for k in ("tests", "failures", "errors", "skipped"):
        want = getattr(args, k)
        if want is not None and want != totals[k]:
            problems.append("expected %d %s, found %d" % (want, k, totals[k]))
    for spec in args.property:
        name, eq, value = spec.partition("=")
        got = lookup(known, name)
        if got is None:
            problems.append("no property %s" % name)
        elif eq and got != value:
            problems.append("property %s is '%s', expected '%s'" % (name, got, value))
    return problems


def main():
    p = argparse.ArgumentParser(
        description="Check an rtconform junit.xml's totals and properties with junitparser.")
    p.add_argument("file", help="the junit.xml to read")
    for k in ("tests", "failures", "errors", "skipped"):
        p.add_argument("--" + k, type=int, metavar="N", help="expect N %s in all" % k)
    p.add_argument("--property", action="append", default=[], metavar="NAME[=VALUE]",
                   help="expect this property (with exactly this value); repeatable")
    p.add_argument("--list", action="store_true", help="print every property")
    p.add_argument("--lean", type=int, metavar="N",
                   help="expect the first <testcase> within the first N lines")
    p.add_argument("--get", metavar="NAME",
                   help="print the value of NAME (a property or PROP.KEY) and nothing else; "
                        "exit 1 when there is none")
    p.add_argument("--attachments", action="store_true",
                   help="print the files the JUnit Attachments plugin would archive, one a line, "
                        "and nothing else")
    args = p.parse_args()
    if args.attachments:
        try:
            for a in attachments(args.file):
                print(a)
        except Exception as e:  # unreadable, not XML
            print("%s: cannot be read as XML: %s" % (args.file, e), file=sys.stderr)
            return 2
        return 0
    if args.get:
        try:
            _, suites = read(args.file)
        except Exception as e:  # unreadable, not XML, not JUnit
            print("%s: cannot be read as JUnit XML: %s" % (args.file, e), file=sys.stderr)
            return 2
        props = facts(args.file)
        for s in suites:
            props.update({q.name: q.value for q in s.properties()})
            for case in s:
                props.update(case_facts(case))
        got = lookup(props, args.get)
        if got is None:
            return 1
        print(got)
        return 0
    try:
        problems = check(args.file, args)
    except Exception as e:  # unreadable, not XML, not JUnit
        print("%s: cannot be read as JUnit XML: %s" % (args.file, e))
        return 2
    for line in problems:
        print("%s: %s" % (args.file, line))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
