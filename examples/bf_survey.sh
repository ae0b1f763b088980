#!/bin/sh
# A tied-array beam survey, from station voltages to folded beams:
#   examples/bf_survey.sh
# It simulates half a second of voltages of the MeerKAT dishes within 300 m of the array
# centre (15 dishes, 64 channels of 62.5 kHz at 1284 MHz, narrow enough for phase-only weights
# on raw voltages) with a 33 ms pulsar at DM 50, 2.4 arcmin north of the pointing centre, pipes
# them into bf to form 19 beams on a hexagonal grid of 0.04 degrees around the pointing centre
# (GPU when there is one), dedisperses each beam at DM 50, folds it at the pulsar's period, and
# ranks the beams by the folded profile's reduced chi^2: the pulsar sits on beam 1, due north,
# and its neighbours see it through the sidelobes of a 15-dish array.
# Outputs go to bf-survey-output/ (replaced on each run).
set -e
BIN=${BUILD:-build}/bin
OUT=bf-survey-output
rm -rf "$OUT" && mkdir -p "$OUT"
here=$(cd "$(dirname "$0")" && pwd)

echo "== layout: the MeerKAT dishes within 300 m of the array centre"
awk '/^#/ || sqrt($2 * $2 + $3 * $3) < 300' "$here/layouts/meerkat.txt" > "$OUT/core.txt"
grep -vc '^#' "$OUT/core.txt"

echo "== simulate | bf: 0.52 s of voltages into 19 beams, Stokes I"
"$BIN/simulate" -q --voltages --layout "$OUT/core.txt" --freq 1284 --bw 4 --nchans 64 \
    --nsamples 32768 --ra 04:00:00 --dec -30:00:00 --tstart 60310.5 --seed 3 \
    --pulsar P=0.0331,DM=50,snr=8,ra=04:00:00,dec=-29:57:36 -o - |
  "$BIN/bf" --tiling hex --spacing 0.04 --nbeams 19 -o "$OUT/survey" -
head -n 5 "$OUT/survey_beams.txt"

echo "== dedisp and fold each beam at DM 50 and P 33.1 ms"
for fil in "$OUT"/survey_B0*.fil; do
  beam=${fil%.fil}
  "$BIN/dedisp" -q --lodm 50 --numdms 1 -o "$beam" "$fil"
  "$BIN/fold" -q -p 0.0331 --nosearch -o "$beam" "${beam}_DM50.00.dat"
done

echo "== beams by folded S/N (beam, sigma, reduced chi^2)"
for prof in "$OUT"/survey_B0*.bestprof; do
  beam=${prof##*/survey_}; beam=${beam%%_*}
  sigma=$(sed -n 's/.*Prob(Noise).*(~\([0-9.]*\) sigma).*/\1/p' "$prof")
  chi=$(sed -n 's/.*Reduced chi-sqr *= *\([0-9.]*\).*/\1/p' "$prof")
  echo "$beam $sigma $chi"
done | sort -g -r -k 3 | tee "$OUT/ranking.txt" | head -n 5
echo "brightest: $(head -n 1 "$OUT/ranking.txt" | cut -d' ' -f1) (the pulsar is at B001)"
