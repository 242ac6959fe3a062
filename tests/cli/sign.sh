# SPDX-License-Identifier: Apache-2.0
# run --sign and which signatures `rtconform verify` accepts
# (docs/qualification.md, "Which signatures verify accepts"): only one made
# by a key the user names, minisign's with --pubkey FILE, GnuPG's with
# --gpg-key (a fingerprint, or a name whose key gpg holds valid full or
# ultimate). A key the verifier's keyring merely holds never counts: the
# issue 38 forgery (minisig deleted, results.json edited and rendered again,
# the manifest rewritten and signed by Mallory's key) fails. A signature
# that does not hold is 1; a required signature missing, a key file missing
# or malformed, a key the keyring lacks, the tool missing, a signature
# that is a FIFO or a link is 2, at once. Keys are made here, in throwaway
# keyrings, without passphrases.
. "$(dirname "$0")/lib.sh"

for t in minisign gpg sha256sum; do
  command -v "$t" >/dev/null || { fail "$t is missing (ci/deps installs minisign, gnupg, coreutils)"; finish; }
done
req_file "$TMP/p.xml" pass "" \
  "$(requirement ST "$(probe selftest)" '<run iterations="2000" runs="1"/>' \
     '<limit statistic="max" max="10s"/>')"
expect_status 0 "$RTC" run -q -o "$TMP/plain" "$TMP/p.xml"

# ---- minisign ----
mkdir "$TMP/k"
minisign -G -W -p "$TMP/k/pub" -s "$TMP/k/sec" >/dev/null 2>&1
minisign -G -W -p "$TMP/k/pub2" -s "$TMP/k/sec2" >/dev/null 2>&1
expect_status 0 "$RTC" run -q -o "$TMP/ms" --sign "$TMP/k/sec" "$TMP/p.xml"
[ -f "$TMP/ms/MANIFEST.sha256.minisig" ] && ok "run --sign wrote MANIFEST.sha256.minisig" \
  || fail "run --sign wrote MANIFEST.sha256.minisig"
expect_status 0 minisign -Vq -p "$TMP/k/pub" -m "$TMP/ms/MANIFEST.sha256"
expect_status 0 "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/ms"
expect_grep 'good signature \(minisign, public key .*k/pub\)' "$TMP/out"
expect_status 2 "$RTC" verify "$TMP/ms"
expect_grep 'signed with minisign: give its public key file with --pubkey' "$TMP/out"
# the manifest and a file changed together: the hashes hold, the signature not
rm -rf "$TMP/t"; cp -a "$TMP/ms" "$TMP/t"
echo '<!-- -->' >>"$TMP/t/report.html"
sum=$(sha256sum "$TMP/t/report.html" | cut -d' ' -f1)
sed -i "s/^[0-9a-f]\{64\}  report.html\$/$sum  report.html/" "$TMP/t/MANIFEST.sha256"
expect_status 1 "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/t"
expect_grep 'MANIFEST.sha256.minisig: BAD signature' "$TMP/out"
expect_status 1 "$RTC" verify --pubkey "$TMP/k/pub2" "$TMP/ms"
expect_grep 'BAD signature: minisign says the manifest was not signed by the key of .*pub2' "$TMP/out"
# --pubkey on an unsigned directory: the signature it requires is missing
expect_status 2 "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/plain"
expect_grep 'MANIFEST.sha256.minisig: no minisign signature: --pubkey requires one' "$TMP/out"
# the public key file missing, malformed, a link, a FIFO: 2, never "BAD"
expect_status 2 "$RTC" verify --pubkey "$TMP/k/nope.pub" "$TMP/ms"
expect_grep '--pubkey .*k/nope.pub: No such file' "$TMP/out"
echo garbage >"$TMP/k/bad.pub"
head -1 "$TMP/k/pub" >"$TMP/k/half.pub"
for b in bad half; do
  expect_status 2 "$RTC" verify --pubkey "$TMP/k/$b.pub" "$TMP/ms"
  expect_grep "k/$b.pub: not a minisign public key file" "$TMP/out"
  expect_no_grep 'BAD signature' "$TMP/out"
done
ln -s "$TMP/k/pub" "$TMP/k/link.pub"
expect_status 2 "$RTC" verify --pubkey "$TMP/k/link.pub" "$TMP/ms"
expect_grep 'k/link.pub: not a regular file \(a symbolic link\)' "$TMP/out"
mkfifo "$TMP/k/fifo.pub"
expect_status 2 timeout 10 "$RTC" verify --pubkey "$TMP/k/fifo.pub" "$TMP/ms"
expect_grep 'k/fifo.pub: not a regular file \(a FIFO\)' "$TMP/out"
# the signature a FIFO or a link: 2 at once, named
for kind in fifo link; do
  rm -rf "$TMP/t"; cp -a "$TMP/ms" "$TMP/t"
  mv "$TMP/t/MANIFEST.sha256.minisig" "$TMP/minisig-elsewhere"
  if [ $kind = fifo ]; then mkfifo "$TMP/t/MANIFEST.sha256.minisig"; what='a FIFO'
  else ln -s "$TMP/minisig-elsewhere" "$TMP/t/MANIFEST.sha256.minisig"; what='a symbolic link'; fi
  expect_status 2 timeout 10 "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/t"
  expect_grep "MANIFEST.sha256.minisig: cannot be checked: not a regular file \\($what\\)" "$TMP/out"
done
# minisign not installed: 2 (verify itself needs no other program)
expect_status 2 env PATH=/nonexistent "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/ms"
expect_grep 'minisign is not installed \(Debian package minisign\)' "$TMP/out"
# a run into a signed directory without --sign leaves no stale signature
cp -a "$TMP/ms" "$TMP/ms-kept"
expect_status 0 "$RTC" run -q -o "$TMP/ms" "$TMP/p.xml"
[ ! -e "$TMP/ms/MANIFEST.sha256.minisig" ] && ok "an unsigned run removes an earlier signature" \
  || fail "an unsigned run removes an earlier signature"
# a signing tool that is not installed: refused before measuring
expect_status 2 env PATH=/nonexistent "$RTC" run -q -o "$TMP/nosig" --sign "$TMP/k/sec" "$TMP/p.xml"
expect_grep 'minisign is not installed \(Debian package minisign\): nothing measured' "$TMP/out"
[ ! -e "$TMP/nosig/results.json" ] && ok "nothing measured without the signing tool" \
  || fail "nothing measured without the signing tool"

# ---- GnuPG: the lab's keyring signs, the verifier's holds keys ----
# gpg_home NAME: a fresh keyring; newkey NAME UID: a key made in it
gpg_home() { mkdir -m 700 "$TMP/$1"; }
newkey() {
  GNUPGHOME="$TMP/$1" gpg --batch --quiet --passphrase '' --quick-gen-key "$2" ed25519 sign never \
    >/dev/null 2>&1
}
fpr_of() { GNUPGHOME="$TMP/$1" gpg --batch --with-colons --list-keys "$2" | awk -F: '/^fpr/ {print $10; exit}'; }
gpg_as() { local h="$1"; shift; env GNUPGHOME="$TMP/$h" "$@"; }
cleanup() {
  for h in lab mal ver empty; do [ -d "$TMP/$h" ] && GNUPGHOME="$TMP/$h" gpgconf --kill all 2>/dev/null; done
  lib_exit
}
trap cleanup EXIT
gpg_home lab; gpg_home mal; gpg_home ver; gpg_home empty
newkey lab 'Lab <lab@example.org>'
newkey mal 'Mallory <mallory@example.org>'
newkey mal 'Lab <lab@example.org> (impostor)'
LAB=$(fpr_of lab lab@example.org)
MAL=$(fpr_of mal mallory@example.org)
IMP=$(fpr_of mal impostor)
[ ${#LAB} = 40 ] && [ ${#MAL} = 40 ] && [ ${#IMP} = 40 ] && ok "three keys made" || fail "three keys made: '$LAB' '$MAL' '$IMP'"
# the verifier's keyring merely holds all three (gpg: TRUST_UNDEFINED)
for h in lab mal; do GNUPGHOME="$TMP/$h" gpg --batch --armor --export >"$TMP/$h.asc"; done
gpg_as ver gpg --batch --quiet --import "$TMP/lab.asc" "$TMP/mal.asc" >/dev/null 2>&1

expect_status 0 gpg_as lab "$RTC" run -q -o "$TMP/gs" --sign lab@example.org "$TMP/p.xml"
[ -f "$TMP/gs/MANIFEST.sha256.sig" ] && ok "run --sign KEYID wrote MANIFEST.sha256.sig" \
  || fail "run --sign KEYID wrote MANIFEST.sha256.sig"
expect_status 2 gpg_as ver "$RTC" verify "$TMP/gs"
expect_grep "MANIFEST.sha256.sig: signed with GnuPG: give the signer's key with --gpg-key" "$TMP/out"
expect_no_grep 'good signature|: OK' "$TMP/out"
expect_status 0 gpg_as ver "$RTC" verify --gpg-key "$LAB" "$TMP/gs"
expect_grep "MANIFEST.sha256.sig: good signature \\(gpg, key $LAB, Lab <lab@example.org>; the fingerprint --gpg-key names\\)" "$TMP/out"
expect_grep ': OK: ' "$TMP/out"
spaced=$(echo "$LAB" | sed 's/..../& /g; s/ $//')
expect_status 0 gpg_as ver "$RTC" verify --gpg-key "$spaced" "$TMP/gs"
# named by its user id: the key must be valid full or ultimate, and is not yet
expect_status 1 gpg_as ver "$RTC" verify --gpg-key lab@example.org "$TMP/gs"
expect_grep "BAD signature: made by key $LAB .*whose validity gpg gives as undefined" "$TMP/out"

# The forgery of issue 38: the minisign signature deleted, results.json
# edited, the reports rendered again, the manifest rewritten and signed by
# Mallory, whose key the verifier's keyring holds.
forge() { # forge DIR SIGNER-UID
  rm -rf "$1"; cp -a "$TMP/ms-kept" "$1"
  rm "$1/MANIFEST.sha256.minisig"
  sed -i 's/"host.kernel.release": "/&9.9-edited-/' "$1/results.json"
  "$RTC" report "$1/results.json" --junit "$1/junit.xml" --html "$1/report.html" \
    --summary "$1/summary.txt" >/dev/null 2>&1
  (cd "$1" && awk '{print $2}' MANIFEST.sha256 | xargs sha256sum >M.new && mv M.new MANIFEST.sha256)
  gpg_as mal gpg --batch --yes --quiet --local-user "$2" --detach-sign --output "$1/MANIFEST.sha256.sig" \
    "$1/MANIFEST.sha256"
}
forge "$TMP/forged" mallory@example.org
expect_status 0 gpg_as ver "$RTC" verify "$TMP/forged" --gpg-key "$MAL"
expect_grep ': OK: ' "$TMP/out" # the forgery is consistent: only the signer tells
expect_status 2 gpg_as ver "$RTC" verify --pubkey "$TMP/k/pub" "$TMP/forged"
expect_grep 'no minisign signature: --pubkey requires one made by the key of' "$TMP/out"
expect_no_grep 'good signature|: OK' "$TMP/out"
expect_status 1 gpg_as ver "$RTC" verify --gpg-key "$LAB" "$TMP/forged"
expect_grep "BAD signature: made by key $MAL \\(Mallory <mallory@example.org>\\), not by the key --gpg-key names \\($LAB\\)" "$TMP/out"
expect_status 1 gpg_as ver "$RTC" verify --gpg-key mallory@example.org "$TMP/forged"
expect_grep 'whose validity gpg gives as undefined' "$TMP/out"
# an impostor key with the lab's user id, held by the keyring
forge "$TMP/impostor" "$IMP"
expect_status 1 gpg_as ver "$RTC" verify --gpg-key lab@example.org "$TMP/impostor"
expect_grep "BAD signature: made by key $IMP .*validity gpg gives as undefined" "$TMP/out"
# the verifier certifies the lab's key: named by its user id it counts,
# the impostor still does not
newkey ver 'Verifier <ver@example.org>'
gpg_as ver gpg --batch --yes --quick-lsign-key "$LAB" >/dev/null 2>&1
expect_status 0 gpg_as ver "$RTC" verify --gpg-key lab@example.org "$TMP/gs"
expect_grep "good signature \\(gpg, key $LAB, Lab <lab@example.org>; valid full or ultimate\\)" "$TMP/out"
expect_status 1 gpg_as ver "$RTC" verify --gpg-key lab@example.org "$TMP/impostor"
expect_grep "made by key $IMP .*whose validity gpg gives as undefined" "$TMP/out"
# a name the keyring has no key for
expect_status 1 gpg_as ver "$RTC" verify --gpg-key nobody@example.org "$TMP/gs"
expect_grep 'not a key of nobody@example.org in the keyring' "$TMP/out"
# the signature changed, or two in one file
rm -rf "$TMP/t"; cp -a "$TMP/gs" "$TMP/t"
printf x >>"$TMP/t/MANIFEST.sha256.sig"
expect_status 1 gpg_as ver "$RTC" verify --gpg-key "$LAB" "$TMP/t"
expect_grep 'MANIFEST.sha256.sig: BAD signature' "$TMP/out"
rm -rf "$TMP/t"; cp -a "$TMP/gs" "$TMP/t"
gpg_as mal gpg --batch --yes --quiet --local-user "$MAL" --detach-sign --output "$TMP/mal.sig" \
  "$TMP/t/MANIFEST.sha256"
cat "$TMP/mal.sig" >>"$TMP/t/MANIFEST.sha256.sig"
expect_status 1 gpg_as ver "$RTC" verify --gpg-key "$LAB" "$TMP/t"
expect_grep 'BAD signature: 2 signatures in one file' "$TMP/out"
# what cannot be checked: 2
expect_status 2 gpg_as empty "$RTC" verify --gpg-key "$LAB" "$TMP/gs"
expect_grep "cannot be checked: gpg's keyring lacks the key that made it" "$TMP/out"
expect_status 2 gpg_as ver "$RTC" verify --gpg-key "$LAB" "$TMP/ms-kept"
expect_grep 'MANIFEST.sha256.sig: no GnuPG signature: --gpg-key requires one' "$TMP/out"
expect_grep 'note: .*MANIFEST.sha256.minisig: signed with minisign: not checked' "$TMP/out"
expect_status 2 gpg_as ver env PATH=/nonexistent "$RTC" verify --gpg-key "$LAB" "$TMP/gs"
expect_grep 'gpg is not installed \(Debian package gnupg\)' "$TMP/out"
rm -rf "$TMP/t"; cp -a "$TMP/gs" "$TMP/t"
rm "$TMP/t/MANIFEST.sha256.sig"; mkfifo "$TMP/t/MANIFEST.sha256.sig"
expect_status 2 gpg_as ver timeout 10 "$RTC" verify --gpg-key "$LAB" "$TMP/t"
expect_grep 'MANIFEST.sha256.sig: cannot be checked: not a regular file \(a FIFO\)' "$TMP/out"
expect_status 2 "$RTC" verify --gpg-key '' "$TMP/gs"
expect_grep '--gpg-key: empty value' "$TMP/out"
# both kinds required when both are named
expect_status 2 gpg_as ver "$RTC" verify --pubkey "$TMP/k/pub" --gpg-key "$LAB" "$TMP/gs"
expect_grep 'no minisign signature' "$TMP/out"
# a key that cannot sign: refused before measuring
expect_status 2 gpg_as lab "$RTC" run -q -o "$TMP/gs2" --sign nobody-such@example.org "$TMP/p.xml"
expect_grep 'gpg cannot sign with it .*nothing measured' "$TMP/out"
[ ! -e "$TMP/gs2/results.json" ] && ok "nothing measured with a key that cannot sign" \
  || fail "nothing measured with a key that cannot sign"
finish
