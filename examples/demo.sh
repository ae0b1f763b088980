#!/bin/sh
# make demo: simulate a short observation with a pulsar and a dispersed burst, inspect it,
# dedisperse it, search the series for single pulses and for periodic signals, and fold the
# best periodicity candidate; then simulate an interferometer's station voltages and visibilities
# of the same kind of sky and inspect them. Everything goes into demo-output/ (replaced on each
# run).
set -e
BIN=${BUILD:-build}/bin
OUT=demo-output
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== simulate: 20 s, 256 channels at 1200-1500 MHz, a 87.3 ms pulsar at DM 56, a burst at DM 300"
"$BIN/simulate" --nchans 256 --fch1 1500 --bw 300 --tsamp 256e-6 --tobs 20 --seed 1 \
    --pulsar P=0.0873,DM=56,snr=25 --burst t=9.5,DM=300,width=0.003,snr=30 \
    -o "$OUT/demo.fil"

echo "== inspect"
"$BIN/inspect" "$OUT/demo.fil"

echo "== dedisp: 200 DM trials from 0 to 398 (on the GPU when there is one)"
"$BIN/dedisp" --lodm 0 --dmstep 2 --numdms 200 -o "$OUT/demo" "$OUT/demo.fil"
echo "   $(ls "$OUT"/*.dat | wc -l) series written, e.g. demo_DM56.00.dat + demo_DM56.00.inf"

echo "== the burst stands out at DM 300, not at DM 0 (compare max with the mean and stddev)"
"$BIN/inspect" "$OUT/demo_DM0.00.dat" | tail -n 1
"$BIN/inspect" "$OUT/demo_DM300.00.dat" | tail -n 1
echo "== the pulsar: PRESTO's realfft/accelsearch/prepfold read $OUT/demo_DM56.00.dat as they are"
"$BIN/inspect" "$OUT/demo_DM56.00.dat" | sed -n '2,12p'

echo "== snr: single-pulse search of the 200 series; the burst at DM 300, t = 9.5 s, S/N 30"
"$BIN/snr" -q -t 6 -m 0.05 --cands "$OUT/demo_cands.txt" "$OUT"/demo_DM*.dat
{ head -n 1 "$OUT/demo_cands.txt"; grep -v '^#' "$OUT/demo_cands.txt" | sort -g -r -k 5 | head -n 3; }
if "$BIN/snr" -q -t 6 --force --plot "$OUT/demo_singlepulse.png" "$OUT"/demo_DM*.dat >/dev/null 2>&1; then
  echo "   plot: $OUT/demo_singlepulse.png"
fi

echo "== accelgpu: periodicity search of the DM trials around the pulsar (zmax 20, 8 harmonics)"
"$BIN/accelgpu" -q -zmax 20 -numharm 8 "$OUT"/demo_DM5[2-9].00.dat "$OUT"/demo_DM6[0-2].00.dat
echo "   $OUT/demo_DM56.00_ACCEL_20, best candidates:"
sed -n '1,6p' "$OUT/demo_DM56.00_ACCEL_20" | cut -c1-110

echo "== fold: the best candidate of DM 56, P, P' and DM searched as prepfold does"
"$BIN/fold" -q --accelcand 1 --accelfile "$OUT/demo_DM56.00_ACCEL_20.cand" "$OUT/demo_DM56.00.dat"
grep -E "Candidate|P_topo|Reduced chi|Prob" "$OUT/demo_DM56.00_ACCEL_Cand_1.pfd.bestprof"
if "$BIN/fold" -q --force --plot --accelcand 1 --accelfile "$OUT/demo_DM56.00_ACCEL_20.cand" \
    "$OUT/demo_DM56.00.dat" >/dev/null 2>&1; then
  echo "   plot: $OUT/demo_DM56.00_ACCEL_Cand_1.pfd.png"
fi

echo
echo "== interferometry: 64 MeerKAT dishes, 32 channels of 1 MHz at 1284 MHz, a 20 Jy source and a burst"
"$BIN/simulate" -q --voltages --layout examples/layouts/meerkat.txt --freq 1284 --bw 32 \
    --nchans 32 --nsamples 4096 --ra 12:00:00 --dec -40:00:00 --tstart 60310.75 --seed 1 \
    --source ra=12:00:00,dec=-40:00:00,flux=20 \
    --burst t=0.001,DM=10,width=0.0003,snr=30,ra=12:00:20,dec=-39:58:00 -o "$OUT/array.dada"
"$BIN/inspect" "$OUT/array.dada" | grep -v -E "^ +(Antenna m|m[0-9])"
echo "   (per-antenna statistics left out; $(wc -c <"$OUT/array.dada") bytes, rapt's native PSRDADA)"

echo "== the same sky as exact visibilities: 10 integrations of 8 s, XX YY XY YX"
"$BIN/simulate" -q --visibilities --layout examples/layouts/meerkat.txt --freq 1284 --bw 32 \
    --nchans 32 --ra 12:00:00 --dec -40:00:00 --tstart 60310.75 \
    --source ra=12:00:00,dec=-40:00:00,flux=20 --source ra=12:01:00,dec=-39:50:00,flux=5 \
    --int-time 8 --nints 10 -o "$OUT/sky.uvfits"
"$BIN/inspect" "$OUT/sky.uvfits"
