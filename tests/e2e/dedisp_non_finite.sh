#!/bin/sh
# A float filterbank with NaN and infinite samples (one inside a burst's sweep): dedisp replaces
# each by its channel's last finite value, says so in one warning, and gives the series of the
# same file with those values written in by hand; the burst is found at its DM.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/simulate" ] || { echo "simulate not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

NCHANS=64
"$BIN/simulate" -q --nbits 32 --nchans $NCHANS --fch1 1500 --bw 300 --tsamp 256e-6 \
  --nsamples 12000 --seed 5 --burst t=1.0,DM=100,width=0.001,snr=40 -o "$W/clean.fil" \
  || fail "simulate"
header=$(( $(wc -c < "$W/clean.fil") - 12000 * NCHANS * 4 ))
at() { echo $(( header + ($1 * NCHANS + $2) * 4 )); }
# put FILE SPECTRUM CHANNEL: writes the 4 bytes read from standard input there.
put() { dd of="$1" bs=1 seek="$(at "$2" "$3")" conv=notrunc 2> /dev/null; }
value() { dd if="$W/clean.fil" bs=1 skip="$(at "$1" "$2")" count=4 2> /dev/null; }
nan() { printf '\000\000\300\177'; }
inf() { printf '\000\000\200\177'; }

# bad: NaN at spectrum 0 (no value before it), in the burst at 1 s (spectrum 3906, channel 0),
# and +inf then NaN in channel 10; fixed: the values the reader should put there.
cp "$W/clean.fil" "$W/bad.fil"
cp "$W/clean.fil" "$W/fixed.fil"
nan | put "$W/bad.fil" 0 5;     printf '\000\000\000\000' | put "$W/fixed.fil" 0 5
nan | put "$W/bad.fil" 3906 0;  value 3905 0 | put "$W/fixed.fil" 3906 0
inf | put "$W/bad.fil" 7000 10; value 6999 10 | put "$W/fixed.fil" 7000 10
nan | put "$W/bad.fil" 7001 10; value 6999 10 | put "$W/fixed.fil" 7001 10
cmp -s "$W/bad.fil" "$W/clean.fil" && fail "the samples were not changed"

for device in cpu auto; do
  rm -f "$W"/b_DM* "$W"/f_DM*
  "$BIN/dedisp" -q --device $device --lodm 90 --dmstep 5 --numdms 5 -o "$W/b" "$W/bad.fil" \
    2> "$W/err" || fail "dedisp --device $device of the file with NaNs: $(cat "$W/err")"
  grep -qF "warning: $W/bad.fil: 4 samples are NaN or infinite (the first at spectrum 0, channel 5); each was replaced by its channel's last finite value" "$W/err" \
    || fail "--device $device: no warning for the NaNs: $(cat "$W/err")"
  "$BIN/dedisp" -q --device $device --lodm 90 --dmstep 5 --numdms 5 -o "$W/f" "$W/fixed.fil" \
    2> "$W/err" || fail "dedisp --device $device of the fixed file: $(cat "$W/err")"
  [ -s "$W/err" ] && fail "--device $device: the fixed file gave messages: $(cat "$W/err")"
  for dm in 90.00 95.00 100.00 105.00 110.00; do
    cmp -s "$W/b_DM$dm.dat" "$W/f_DM$dm.dat" \
      || fail "--device $device: DM $dm differs from the file with the values written in"
  done
  # The burst: the DM 100 series peaks at 1 s (sample 3906), far above the others' samples.
  set -- $(od -A n -t f4 -v -w4 "$W/b_DM100.00.dat" |
           awk '$1 > best || NR == 1 { best = $1; at = NR - 1 } END { print at }')
  [ "$1" -ge 3904 ] && [ "$1" -le 3908 ] || fail "--device $device: DM 100 peaks at sample $1"
done
exit 0
