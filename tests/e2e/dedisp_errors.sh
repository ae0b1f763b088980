#!/bin/sh
# dedisp refuses bad input with one clear line and the documented exit status
# (2 bad usage, 1 bad data). Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
FIL=$DATA/sigpyproc3/tutorial.fil
MASK=$DATA/presto-golden/test_rfifind.mask   # made for 128 channels; tutorial.fil has 64
[ -f "$FIL" ] && [ -f "$MASK" ] || { echo "shared data not found"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'chmod 755 "$W/locked" 2>/dev/null; rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect STATUS 'message fragment' command...
expect() {
  want_status=$1; want_text=$2; shift 2
  "$@" > /dev/null 2> "$W/err"; status=$?
  [ $status -eq "$want_status" ] || fail "$* exited $status, expected $want_status: $(cat "$W/err")"
  grep -qF -- "$want_text" "$W/err" || fail "$*: expected '$want_text' in: $(cat "$W/err")"
}

: > "$W/empty.txt"
expect 2 "dedisp: $W/empty.txt: no DMs in the list" "$BIN/dedisp" --dm-list "$W/empty.txt" -o "$W/x" "$FIL"
printf '10\n-5\n' > "$W/negative.txt"
expect 2 "dedisp: DM trial -5 is negative; DMs must be >= 0" "$BIN/dedisp" --dm-list "$W/negative.txt" -o "$W/x" "$FIL"
expect 2 "dedisp: DM trial -1 is negative" "$BIN/dedisp" --lodm -1 -o "$W/x" "$FIL"
expect 1 "dedisp: $FIL: DM 1e+06 needs" "$BIN/dedisp" --lodm 1000000 -o "$W/x" "$FIL"
expect 1 "dedisp: $MASK: made for 128 channels, but $FIL has 64" "$BIN/dedisp" --mask "$MASK" -o "$W/x" "$FIL"
expect 1 "dedisp: $W/missing/x_DM0.00.dat: " "$BIN/dedisp" -o "$W/missing/x" "$FIL"
expect 2 "dedisp: --ignorechan 60:70: channel 70 is out of range" "$BIN/dedisp" --ignorechan 60:70 -o "$W/x" "$FIL"
expect 2 "dedisp: --nsub 5 does not divide the 64 channels" "$BIN/dedisp" --nsub 5 -o "$W/x" "$FIL"
expect 2 "dedisp: --device gpu:" "$BIN/dedisp" --device gpu:99 -o "$W/x" "$FIL"
expect 1 "dedisp: $W/nothing.fil: " "$BIN/dedisp" -o "$W/x" "$W/nothing.fil"
# The .inf notes say how the series were cleaned, as the options gave it.
"$BIN/dedisp" -q --clip 5 --ignorechan 0:3,60 -o "$W/notes" "$FIL" || fail "dedisp --clip --ignorechan"
grep -qF "    Broadband bursts clipped at 5 sigma." "$W/notes_DM0.00.inf" &&
  grep -qF "    Channels left out (0 = lowest frequency): 0:3,60." "$W/notes_DM0.00.inf" ||
  fail "cleaning notes: $(sed -n '/notes/,$p' "$W/notes_DM0.00.inf")"
rm -f "$W"/notes_DM*
# Settings that would be ignored, or would leave every series zero, are refused.
expect 2 "dedisp: --ignorechan 0:31,32:63: leaves out every channel" \
  "$BIN/dedisp" --ignorechan 0:31,32:63 -o "$W/x" "$FIL"
expect 2 "dedisp: --ignorechan 0:63: leaves out every channel" \
  "$BIN/dedisp" --dry-run --ignorechan 0:63 -o "$W/x" "$FIL"
expect 2 "dedisp: --dm-max needs --plan" "$BIN/dedisp" --dm-max 100 -o "$W/x" "$FIL"
expect 2 "dedisp: --plan chooses the DM steps: --dmstep and --numdms do not apply" \
  "$BIN/dedisp" --plan --dm-max 100 -numdms 50 -o "$W/x" "$FIL"
printf '10 20\n' > "$W/dms.txt"
expect 2 "dedisp: --dm-list gives the DMs: --lodm, --dmstep and --numdms do not apply" \
  "$BIN/dedisp" --dm-list "$W/dms.txt" --lodm 5 -o "$W/x" "$FIL"
expect 2 "dedisp: --threads must be >= 0" "$BIN/dedisp" --threads -1 -o "$W/x" "$FIL"
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$W/locked" && chmod 555 "$W/locked"
  expect 1 "dedisp: $W/locked/x_DM0.00.dat: " "$BIN/dedisp" -o "$W/locked/x" "$FIL"
fi
ls "$W" | grep -q 'x_DM' && fail "a failed run left output files behind"
# A file cut mid-spectrum (64 one-byte channels here) is read to its last whole spectrum, and
# the bytes left are reported, from a file and from a pipe alike.
head -c 100000 "$FIL" > "$W/cut.fil"
"$BIN/dedisp" -q --force --lodm 10 -o "$W/cut" "$W/cut.fil" 2> "$W/err" || fail "dedisp of a cut file"
grep -qF "warning: $W/cut.fil: ignored " "$W/err" || fail "no warning of the cut spectrum: $(cat "$W/err")"
"$BIN/dedisp" -q --force --lodm 10 --tim -o - - < "$W/cut.fil" 2> "$W/err" > /dev/null ||
  fail "dedisp of a cut pipe"
# (-o - writes raw floats: --tim is noted as having nothing to name.)
grep -qF "warning: --tim names .tim files; -o - writes one series of raw floats" "$W/err" ||
  fail "--tim -o -: no warning: $(cat "$W/err")"
grep -qF "warning: -: ignored " "$W/err" || fail "no warning of the piped cut spectrum: $(cat "$W/err")"
exit 0
