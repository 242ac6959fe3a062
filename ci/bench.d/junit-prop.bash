# SPDX-License-Identifier: Apache-2.0
# Sourced by the benchmarks (not one itself: ci/bench runs *.sh only).
# junit_prop FILE NAME : a property of rtconform's junit.xml, or nothing.
# A metric's statistics are packed in one property since junit.xml went
# lean ("ID.METRIC" = "kind=duration count=... min_ns=... mean_ns=..."):
# ID.METRIC.STAT is read from there when no property has that name.
junit_prop() {
  local v
  v="$(xmllint --xpath "string(//property[@name='$2']/@value)" "$1" 2>/dev/null || true)"
  if [ -z "$v" ]; then
    v="$(xmllint --xpath "string(//property[@name='${2%.*}']/@value)" "$1" 2>/dev/null \
         | tr ' ' '\n' | sed -n "s/^${2##*.}=//p" || true)"
  fi
  printf '%s' "$v"
}
# junit_env FILE KEY : a key of the environment fingerprint, which junit.xml
# keeps whole in each suite's <system-out> ("  KEY: value" lines; only a
# short set of it is properties), or nothing.
junit_env() {
  xmllint --xpath "string(//testsuite[1]/system-out)" "$1" 2>/dev/null \
    | sed -n "s/^  ${2//./\\.}: //p" | head -1
}
