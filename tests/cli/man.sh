# SPDX-License-Identifier: Apache-2.0
# The man pages (rtconform(1) as the build makes it from man/rtconform.1,
# man/rtconform-requirements.5) format without a warning, and rtconform(1)
# documents every subcommand (its options' entries are made from the option
# tables; tests/cli/options.sh checks them).
. "$(dirname "$0")/lib.sh"
command -v man >/dev/null || { fail "man missing: ci/deps installs man-db"; finish; }
PAGE1="$TMP/rtconform.1"
"$RTC" --man-page "$SRC/man/rtconform.1" >"$PAGE1" || fail "rtconform --man-page makes rtconform(1)"
PAGE5="$SRC/man/rtconform-requirements.5"

# No warning from man or groff, in the C locale and in UTF-8.
for page in "$PAGE1" "$PAGE5"; do
  for loc in C C.UTF-8; do
    if LC_ALL=$loc MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$TMP/warn" && [ ! -s "$TMP/warn" ]; then ok "man --warnings $page ($loc) warns of nothing"
    else fail "man --warnings $page ($loc) warns of nothing:"; sed 's/^/    /' "$TMP/warn" | head -20; fi
  done
done

# render PAGE : the page as plain text (ASCII hyphens, no overstriking).
render() { LC_ALL=C MANWIDTH=80 man -l "$1" 2>/dev/null | col -b; }

# section TEXT HEADING : the lines of a section ("   run" is a subsection
# of OPTIONS, "COMMANDS" a section), up to the next heading of that level.
section() {
  awk -v h="$2" '
    h ~ /^[A-Z][A-Z ]*$/ { if ($0 == h) { on = 1; next } if (on && /^[A-Z]/) exit }
    h !~ /^[A-Z][A-Z ]*$/ { if ($0 == "   " h) { on = 1; next } if (on && (/^   [^ ]/ || /^[A-Z]/)) exit }
    on' "$1"
}

# check_page TEXT : every check of the rendered page; returns the failures.
check_page() {
  local text="$1" before=$FAILS c o
  section "$text" COMMANDS >"$TMP/commands"
  for c in $cmds; do
    grep -qE "^       $c( |$)" "$TMP/commands" && ok "rtconform(1) COMMANDS has '$c'" || fail "rtconform(1) COMMANDS lacks '$c'"
    grep -qE "rtconform $c( |$)" <(section "$text" SYNOPSIS) && ok "rtconform(1) SYNOPSIS has 'rtconform $c'" || fail "rtconform(1) SYNOPSIS lacks 'rtconform $c'"
  done
  for o in --help --version; do
    grep -qE -- "$o" <(section "$text" OPTIONS) && ok "rtconform(1) OPTIONS has $o" || fail "rtconform(1) OPTIONS lacks $o"
  done
  for s in 0 1 2 3; do
    grep -qE "^       $s( |$)" <(section "$text" "EXIT STATUS") && ok "rtconform(1) EXIT STATUS has $s" || fail "rtconform(1) EXIT STATUS lacks $s"
  done
  for s in NAME SYNOPSIS DESCRIPTION FILES EXAMPLES ENVIRONMENT "SEE ALSO"; do
    grep -qx "$s" "$text" && ok "rtconform(1) has a $s section" || fail "rtconform(1) has no $s section"
  done
  return $((FAILS - before))
}

cmds=$("$RTC" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(echo "$cmds" | wc -w)" -ge 6 ] && ok "rtconform --help lists at least 6 commands" || fail "rtconform --help lists too few commands: $cmds"
render "$PAGE1" >"$TMP/page1"
[ -s "$TMP/page1" ] && ok "$PAGE1 renders to something" || fail "$PAGE1 renders to nothing"
check_page "$TMP/page1"

# rtconform-requirements(5) names every element of the schema.
render "$PAGE5" >"$TMP/page5"
for el in $(grep -oE '<xs:element name="[a-z]+"' "$SRC/requirements/schema/rtconform-requirements.xsd" \
            | sed 's/.*name="//; s/"//' | sort -u); do
  grep -q "<$el" "$TMP/page5" && ok "rtconform-requirements(5) describes <$el>" || fail "rtconform-requirements(5) does not describe <$el>"
done

# rtconform-requirements(5) shows every attribute the schema allows, in a
# tag of its element (<limit ... confidence=, as the synopsis and the
# element's heading write it): an attribute the schema gains and the page
# never mentions fails here (confidence= was missing for a long time).
# schema_attributes XSD : "ELEMENT ATTRIBUTE" per attribute the schema
# allows, attribute groups expanded.
schema_attributes() {
  python3 - "$1" <<'PY' | sort -u
import sys
import xml.etree.ElementTree as ET
XS = "{http://www.w3.org/2001/XMLSchema}"
root = ET.parse(sys.argv[1]).getroot()
local = lambda ref: ref.split(":")[-1]
groups = {g.get("name"): [a.get("name") for a in g.iter(XS + "attribute")]
          for g in root.findall(XS + "attributeGroup")}
types = {t.get("name"): t for t in root.findall(XS + "complexType")}
for el in root.iter(XS + "element"):
    t = types.get(local(el.get("type"))) if el.get("type") else el.find(XS + "complexType")
    if t is None:
        continue
    for a in t.iter(XS + "attribute"):
        print(el.get("name"), a.get("name"))
    for g in t.iter(XS + "attributeGroup"):
        for a in groups[local(g.get("ref"))]:
            print(el.get("name"), a)
PY
}
# attribute_gaps FLAT_TEXT PAIRS : the "<ELEMENT ATTRIBUTE=>" of PAIRS that
# the page (rendered flat, one line) never writes inside a tag of ELEMENT.
attribute_gaps() {
  local el a
  while read -r el a; do
    grep -qE "<$el( [^<>]*)? $a=" "$1" || echo "<$el $a=>"
  done <"$2"
}
command -v python3 >/dev/null || { fail "python3 missing: ci/deps installs python3"; finish; }
schema_attributes "$SRC/requirements/schema/rtconform-requirements.xsd" >"$TMP/attrs"
[ "$(wc -l <"$TMP/attrs")" -ge 25 ] && ok "the schema's attributes are read ($(wc -l <"$TMP/attrs") element/attribute pairs)" \
  || { fail "the schema's attributes are read (only $(wc -l <"$TMP/attrs") element/attribute pairs)"; diag <"$TMP/attrs"; }
grep -qx 'limit confidence' "$TMP/attrs" && grep -qx 'defaults confidence' "$TMP/attrs" && grep -qx 'run interval' "$TMP/attrs" \
  && ok "the schema's attributes include <limit confidence=>, <defaults confidence=> and <run interval=> (a group)" \
  || fail "the schema's attributes include <limit confidence=>, <defaults confidence=> and <run interval=> (a group)"
flat5() { LC_ALL=C MANWIDTH=250 man --no-hyphenation --no-justification -l "$1" 2>/dev/null | col -b | tr -s ' \t\n' '   '; }
flat5 "$PAGE5" >"$TMP/flat5"
attribute_gaps "$TMP/flat5" "$TMP/attrs" >"$TMP/gaps"
[ -s "$TMP/gaps" ] && { fail "rtconform-requirements(5) shows every attribute of the schema (it never shows these):"; diag <"$TMP/gaps"; } \
  || ok "rtconform-requirements(5) shows every attribute of the schema in a tag of its element"
# The check can fail: the page without confidence= on <limit> is caught,
# and nothing else is.
sed -E '/<limit/s/ confidence=("P%")?//' "$PAGE5" >"$TMP/broken.5"
flat5 "$TMP/broken.5" >"$TMP/flat5-broken"
[ "$(attribute_gaps "$TMP/flat5-broken" "$TMP/attrs" | tr '\n' ' ')" = "<limit confidence=> " ] \
  && ok "the attribute check catches a page without <limit confidence=>, and nothing else" \
  || { fail "the attribute check catches a page without <limit confidence=> (it found: $(attribute_gaps "$TMP/flat5-broken" "$TMP/attrs" | tr '\n' ' '))"; }

# Quoted text renders as the reader must type or expect it. A macro
# argument that opens a '"' in its middle (.RI \(dq"# rtconform " ...) is
# split at its spaces and prints the quote itself: the first line of a
# --lava file came out as ""#rtconform version (commit commit )". Checked on
# the text joined into one line, neither hyphenated nor justified.
flat() { LC_ALL=C MANWIDTH=250 man --no-hyphenation --no-justification -l "$1" 2>/dev/null | col -b | tr -s ' \t\n' '   '; }
flat "$PAGE1" >"$TMP/flat1"
grep -qF 'after a first line "# rtconform version (commit commit)"; ' "$TMP/flat1" \
  && ok "rtconform(1) gives the --lava file's first line as \"# rtconform version (commit commit)\"" \
  || { fail "rtconform(1) gives the --lava file's first line as \"# rtconform version (commit commit)\"; it says:"
       grep -oE 'after a first line .{0,60}' "$TMP/flat1" | diag; }
grep -qF 'its reason a line beginning "# ". ' "$TMP/flat1" \
  && ok "rtconform(1) gives a --lava reason line's start as \"# \"" \
  || { fail "rtconform(1) gives a --lava reason line's start as \"# \"; it says:"; grep -oE 'a line beginning .{0,20}' "$TMP/flat1" | diag; }
for page in "$PAGE1" "$PAGE5"; do
  if LC_ALL=C MANWIDTH=80 man -l "$page" 2>/dev/null | col -b | grep -n '""' >"$TMP/dq"; then
    fail "${page##*/} renders no doubled quote (\"\"):"; diag <"$TMP/dq"
  else ok "${page##*/} renders no doubled quote (\"\")"; fi
done

# The check can fail: a page without the probe command is caught (the
# count of failures is what the check returns).
sed 's/^\.BI probe " NAME"/.BI nothing " NAME"/' "$PAGE1" >"$TMP/broken.1"
render "$TMP/broken.1" >"$TMP/broken"
saved=$FAILS; saved_checks=$CHECKS
check_page "$TMP/broken" >"$TMP/broken.out"; n=$?
FAILS=$saved; CHECKS=$saved_checks
grep -q "COMMANDS lacks 'probe'" "$TMP/broken.out" && [ "$n" -ge 1 ] \
  && ok "the page check catches a page missing probe" || { fail "a page missing probe passed the check:"; sed 's/^/    /' "$TMP/broken.out" | head; }
finish
