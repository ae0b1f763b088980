#!/bin/sh
# simulate | dedisp | snr: a burst at DM 150, t = 2 s, S/N 25 comes out as one clustered
# candidate within two DM trials and 2 ms of where it was put, with S/N within 10 % of the
# injected value, on the CPU and (where there is one) the GPU; the .singlepulse files replot
# in PRESTO (format checked in the unit tests). Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/snr" ] && [ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "snr not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 256e-6 --tobs 5 --seed 3 \
  --burst t=2.0,DM=150,width=0.002,snr=25 -o "$W/burst.fil" || fail "simulate"
"$BIN/dedisp" -q --device cpu --lodm 100 --dmstep 2 --numdms 51 -o "$W/s" "$W/burst.fil" \
  || fail "dedisp"

for device in cpu auto; do
  "$BIN/snr" -q --force --device $device -t 6 "$W"/s_DM*.dat > "$W/cands.txt" \
    || fail "snr --device $device"
  # The strongest candidate: DM, time, sample, width, S/N, members.
  set -- $(grep -v '^#' "$W/cands.txt" | sort -g -k 5 | tail -n 1)
  [ $# -eq 6 ] || fail "--device $device: no candidate in $(cat "$W/cands.txt")"
  awk -v dm="$1" -v t="$2" -v snr="$5" -v n="$6" 'BEGIN {
        exit !(dm >= 146 && dm <= 154 && t >= 1.998 && t <= 2.004 && snr >= 22.5 && snr <= 27.5 && n >= 5) }' \
    || fail "--device $device: strongest candidate DM $1, t $2 s, S/N $5, $6 members (expected DM 150, t 2.0 s, S/N 25)"
  count=$(grep -v '^#' "$W/cands.txt" | awk '$5 >= 10' | wc -l)
  [ "$count" -eq 1 ] || fail "--device $device: $count candidates above S/N 10, expected 1"
  head -n 1 "$W/s_DM150.00.singlepulse" | grep -qx '# DM      Sigma      Time (s)     Sample    Downfact' \
    || fail "s_DM150.00.singlepulse has no PRESTO header"
done
exit 0
