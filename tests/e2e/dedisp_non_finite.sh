#!/bin/sh
# A float filterbank with NaN and infinite samples: one in a burst's sweep, single ones, and a
# gap of 200 NaN spectra (dropped packets). dedisp replaces each by its channel's mean and
# says so in one warning; every series is finite and the burst is found at its DM and time, on
# the CPU and (where there is one) the GPU alike; snr finds the burst and nothing at the gap.
# A .dat with a NaN and an infinity: snr, fold and accelgpu replace them too and say so.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/simulate" ] || { echo "simulate not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

NCHANS=64
"$BIN/simulate" -q --nbits 32 --nchans $NCHANS --fch1 1500 --bw 300 --tsamp 256e-6 \
  --nsamples 12000 --seed 5 --burst t=1.0,DM=100,width=0.001,snr=40 -o "$W/bad.fil" \
  || fail "simulate"
header=$(( $(wc -c < "$W/bad.fil") - 12000 * NCHANS * 4 ))
at() { echo $(( header + ($1 * NCHANS + $2) * 4 )); }
# put SPECTRUM CHANNEL: writes the bytes read from standard input there.
put() { dd of="$W/bad.fil" bs=1 seek="$(at "$1" "$2")" conv=notrunc 2> /dev/null; }
nan() { printf '\000\000\300\177'; }
inf() { printf '\000\000\200\177'; }
nan | put 0 5
nan | put 3906 0
inf | put 7000 10
nan | put 7001 10
# Spectra 9000-9199 (2.30-2.36 s): bytes of all ones, NaNs.
dd if=/dev/zero bs=$((NCHANS * 4)) count=200 2> /dev/null | tr '\000' '\377' | put 9000 0

for device in cpu auto; do
  rm -f "$W"/b_DM*
  "$BIN/dedisp" -q --device $device --lodm 90 --dmstep 5 --numdms 5 -o "$W/b" "$W/bad.fil" \
    2> "$W/err" || fail "dedisp --device $device: $(cat "$W/err")"
  [ "$(cat "$W/err")" = "dedisp: warning: $W/bad.fil: 12804 samples are NaN or infinite (the first at spectrum 0, channel 5 (in file order)); each was replaced by its channel's mean" ] \
    || fail "--device $device: not the one warning: $(cat "$W/err")"
  for f in "$W"/b_DM*.dat; do
    od -A n -t f4 -v -w4 "$f" | grep -qi 'nan\|inf' && fail "--device $device: $f holds NaN or inf"
  done
  [ "$device" = cpu ] && cp "$W/b_DM100.00.dat" "$W/cpu.dat"
  cmp -s "$W/cpu.dat" "$W/b_DM100.00.dat" || fail "--device $device: DM 100 differs from the CPU's"
  # The burst: the DM 100 series peaks at 1 s (sample 3906).
  set -- $(od -A n -t f4 -v -w4 "$W/b_DM100.00.dat" |
           awk '$1 > best || NR == 1 { best = $1; at = NR - 1 } END { print at }')
  [ "$1" -ge 3904 ] && [ "$1" -le 3908 ] || fail "--device $device: DM 100 peaks at sample $1"
done

# A .dat with a NaN and an infinity: snr, fold and accelgpu replace them too, saying so.
cp "$W/cpu.dat" "$W/n_DM100.00.dat"
sed 's/b_DM100.00/n_DM100.00/' "$W/b_DM100.00.inf" > "$W/n_DM100.00.inf"
nan | dd of="$W/n_DM100.00.dat" bs=1 seek=40 conv=notrunc 2> /dev/null
inf | dd of="$W/n_DM100.00.dat" bs=1 seek=4000 conv=notrunc 2> /dev/null
said="n_DM100.00.dat: 2 samples are NaN or infinite (the first at sample 10); each was replaced by the series' mean"
"$BIN/snr" -q -o "$W" "$W/n_DM100.00.dat" > "$W/dat_cands" 2> "$W/err" || fail "snr of the .dat: $(cat "$W/err")"
grep -qF "$said" "$W/err" || fail "snr of the .dat: $(cat "$W/err")"
grep -v '^#' "$W/dat_cands" | awk '$2 > 0.99 && $2 < 1.01 { found = 1 } END { exit !found }' \
  || fail "snr of the .dat: no candidate for the burst: $(cat "$W/dat_cands")"
"$BIN/fold" -q -p 0.0731 -o "$W/fold" "$W/n_DM100.00.dat" 2> "$W/err" || fail "fold of the .dat: $(cat "$W/err")"
grep -qF "$said" "$W/err" || fail "fold of the .dat: $(cat "$W/err")"
"$BIN/accelgpu" -q --device cpu -zmax 0 "$W/n_DM100.00.dat" 2> "$W/err" || fail "accelgpu of the .dat: $(cat "$W/err")"
grep -qF "$said" "$W/err" || fail "accelgpu of the .dat: $(cat "$W/err")"

# snr, dedispersing the file itself: the burst, and no candidate at the gap.
"$BIN/snr" -q --device cpu --lodm 0 --dmstep 10 --numdms 20 -o "$W" "$W/bad.fil" > "$W/cands" \
  2> "$W/err" || fail "snr: $(cat "$W/err")"
grep -q "warning: $W/bad.fil: 12804 samples are NaN" "$W/err" || fail "snr: no warning: $(cat "$W/err")"
grep -v '^#' "$W/cands" | awk '$1 >= 80 && $1 <= 120 && $2 > 0.99 && $2 < 1.01 { found = 1 } END { exit !found }' \
  || fail "snr: no candidate for the burst: $(cat "$W/cands")"
grep -v '^#' "$W/cands" | awk '$2 > 2.25 && $2 < 2.42 { print; bad = 1 } END { exit bad }' > "$W/gap" \
  || fail "snr: candidates at the gap: $(cat "$W/gap")"
exit 0
