#!/bin/sh
# dedisp as a user runs it on a real (synthetic) SIGPROC file: the .dat/.inf names, stdin input,
# gulp size, and one series on stdout all give the same numbers.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
FIL=$DATA/sigpyproc3/tutorial.fil   # 64 channels, 2-bit, 187520 spectra, P 250 ms, DM 30
[ -f "$FIL" ] || { echo "shared data not found: $FIL"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/dedisp" -q --lodm 20 --dmstep 5 --numdms 3 -o "$W/a" "$FIL" || fail "dedisp on a file"
for dm in 20.00 25.00 30.00; do
  [ -f "$W/a_DM$dm.dat" ] && [ -f "$W/a_DM$dm.inf" ] || fail "missing a_DM$dm.dat/.inf"
done
# 187520 samples padded to the next even 7-smooth length, 188160 = 2^7 3 5 7^2.
grep -q '^ Number of bins in the time series      =  188160 *$' "$W/a_DM30.00.inf" \
  || fail "unexpected length in a_DM30.00.inf"
[ "$(wc -c < "$W/a_DM30.00.dat")" -eq $((188160 * 4)) ] || fail "a_DM30.00.dat has the wrong size"

# The same from stdin, with PRESTO's option spellings and a small odd gulp.
cat "$FIL" | "$BIN/dedisp" -q -nobary -lodm 20 -dmstep 5 -numdms 3 --gulp 999 -o "$W/b" - \
  || fail "dedisp from stdin"
for dm in 20.00 25.00 30.00; do
  cmp -s "$W/a_DM$dm.dat" "$W/b_DM$dm.dat" || fail "stdin/gulp 999 differ from the file run at DM $dm"
done

# One series to stdout: the computed samples, without the padding to a good length.
"$BIN/dedisp" -q --lodm 30 -o - "$FIL" > "$W/c.f32" || fail "dedisp to stdout"
[ "$(wc -c < "$W/c.f32")" -eq $((187520 * 4)) ] || fail "stdout series has the wrong size"
cmp -s -n $((187520 * 4)) "$W/c.f32" "$W/a_DM30.00.dat" || fail "stdout series differs from the .dat"

# --numout cuts to exactly that length.
"$BIN/dedisp" -q --lodm 30 --numout 1000 -o "$W/d" "$FIL" || fail "dedisp --numout"
[ "$(wc -c < "$W/d_DM30.00.dat")" -eq 4000 ] || fail "--numout 1000 did not give 1000 samples"
grep -q '^ Any breaks in the data? (1 yes, 0 no)  =  0$' "$W/d_DM30.00.inf" || fail "--numout .inf has breaks"

# The automatic plan, printed without reading the data.
"$BIN/dedisp" --plan --dm-max 100 --dry-run "$FIL" > "$W/plan.txt" || fail "dedisp --plan --dry-run"
grep -q '^  First DM     Last DM      dDM  DownSamp     #DMs  Smearing (ms)$' "$W/plan.txt" \
  || fail "no plan table: $(cat "$W/plan.txt")"
grep -q '^Total: ' "$W/plan.txt" || fail "no plan total"

# SIGPROC .tim: a header, then the 187520 computed samples as float32.
"$BIN/dedisp" -q --lodm 30 --tim -o "$W/e" "$FIL" || fail "dedisp --tim"
size=$(wc -c < "$W/e_DM30.00.tim")
[ "$size" -gt $((187520 * 4)) ] && [ "$size" -lt $((187520 * 4 + 1000)) ] || fail ".tim has $size bytes"
tail -c $((187520 * 4)) "$W/e_DM30.00.tim" | cmp -s - "$W/c.f32" || fail ".tim samples differ from stdout"
exit 0
