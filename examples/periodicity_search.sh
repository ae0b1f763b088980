#!/bin/sh
# A periodicity search from raw data to folded candidates, as PRESTO's prepsubband + realfft +
# accelsearch + prepfold chain does it:
#   examples/periodicity_search.sh
# It simulates 60 s of data with a binary millisecond pulsar (3.2 ms, DM 71, line-of-sight
# acceleration 20 m/s^2) and a slow pulsar (0.714 s, DM 30), dedisperses 48 DM trials, searches
# them all in one accelgpu call (GPU when there is one), lists the strongest candidate of each
# distinct period over all trials, and folds the two strongest with a DM x P x P' search.
# Outputs go to periodicity-output/ (replaced on each run).
set -e
BIN=${BUILD:-build}/bin
OUT=periodicity-output
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== simulate: 60 s, 256 channels at 1250-1550 MHz, 128 us sampling"
"$BIN/simulate" -q --nchans 256 --fch1 1550 --bw 300 --tsamp 128e-6 --tobs 60 --seed 4 \
    --pulsar P=0.0032,DM=71,snr=40,accel=20,duty=0.08 --pulsar P=0.714,DM=30,snr=30 \
    -o "$OUT/obs.fil"

echo "== dedisp: 48 DM trials, 0 to 94 (prepsubband's _DM names)"
"$BIN/dedisp" -q --lodm 0 --dmstep 2 --numdms 48 -o "$OUT/obs" "$OUT/obs.fil"

echo "== accelgpu: every trial in one call, zmax 50, 16 harmonics (PRESTO's ACCEL files)"
"$BIN/accelgpu" -zmax 50 -numharm 16 -sigma 3 "$OUT"/obs_DM*.dat 2>&1 | tail -n 3

echo "== the strongest candidate of each distinct period over all trials (DM, cand, sigma, harmonics, P ms)"
for f in "$OUT"/obs_DM*.00_ACCEL_50; do
  dm=${f##*_DM}; dm=${dm%%_ACCEL*}
  # The fundamentals table: lines after the header up to the first blank line.
  awk -v dm="$dm" 'NR > 3 && NF == 0 { exit } NR > 3 { p = $6; sub(/\(.*/, "", p); print dm, $1, $2, $5, p }' "$f"
done | sort -g -r -k 3 | awk '{ key = sprintf("%.3g", $5); if (!(key in seen)) { seen[key] = 1; print } }' \
    | head -n 5 | tee "$OUT/best.txt"

echo "== fold: the two strongest, each from its own trial's .cand, with DM x P x P' searched in the raw data"
head -n 2 "$OUT/best.txt" | while read -r dm cand sigma nharm period; do
  "$BIN/fold" -q --accelcand "$cand" --accelfile "$OUT/obs_DM${dm}_ACCEL_50.cand" \
      --dm "$dm" -o "$OUT/fold_DM$dm" "$OUT/obs.fil"
  grep -E "Best DM|P_topo|Reduced chi" "$OUT/fold_DM$dm"*.bestprof
done
