#!/bin/sh
# snr --plot writes a PNG (DM vs time, S/N histogram, S/N vs DM); in a build without PLplot it
# refuses with "built without PLplot" and this test is skipped. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/snr" ] && [ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "snr not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 300 --tsamp 512e-6 --tobs 4 --seed 5 \
  --burst t=2.0,DM=100,width=0.003,snr=30 -o "$W/b.fil" || fail simulate
"$BIN/dedisp" -q --device cpu --lodm 80 --dmstep 2 --numdms 21 -o "$W/b" "$W/b.fil" || fail dedisp
"$BIN/snr" -q --plot "$W/b.png" "$W"/b_DM*.dat > /dev/null 2> "$W/err"; status=$?
if grep -q "built without PLplot" "$W/err"; then
  [ $status -eq 2 ] || fail "--plot without PLplot exited $status, expected 2"
  echo "built without PLplot"; exit 77
fi
[ $status -eq 0 ] || fail "snr --plot exited $status: $(cat "$W/err")"
[ "$(od -A n -t x1 -N 8 "$W/b.png" | tr -d ' ')" = 89504e470d0a1a0a ] || fail "b.png is not a PNG"
[ "$(wc -c < "$W/b.png")" -gt 10000 ] || fail "b.png is suspiciously small"
ls "$W" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
"$BIN/snr" -q --plot "$W/b.png" "$W"/b_DM*.dat > /dev/null 2>&1 && fail "overwrote .singlepulse and b.png without --force"
exit 0
