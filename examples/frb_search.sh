#!/bin/sh
# A single-pulse (FRB) search, as PRESTO's prepsubband + single_pulse_search.py would do it:
#   examples/frb_search.sh [FILE.fil|FILE.fits] [DM_LO DM_STEP NUM_DMS]
# Without arguments it simulates 8 s of 256-channel data with a scattered burst at DM 420,
# t = 5 s and S/N 20, and searches DMs 300 to 598. Outputs go to frb-search-output/ (replaced
# on each run).
set -e
BIN=${BUILD:-build}/bin
OUT=frb-search-output
rm -rf "$OUT" && mkdir -p "$OUT"

if [ -n "$1" ]; then
  INPUT=$1
else
  INPUT=$OUT/frb.fil
  echo "== simulate: 8 s, 256 channels at 1200-1500 MHz, a burst at DM 420, t = 5 s, S/N 20"
  "$BIN/simulate" -q --nchans 256 --fch1 1500 --bw 300 --tsamp 256e-6 --tobs 8 --seed 7 \
      --burst t=5.0,DM=420,width=0.002,scatter=0.001,snr=20 -o "$INPUT"
fi
DM_LO=${2:-300}; DM_STEP=${3:-2}; NUM_DMS=${4:-150}

echo "== dedisp: $NUM_DMS DM trials from $DM_LO in steps of $DM_STEP"
"$BIN/dedisp" -q --lodm "$DM_LO" --dmstep "$DM_STEP" --numdms "$NUM_DMS" -o "$OUT/frb" "$INPUT"

echo "== snr: boxcars up to 100 ms, events above 6 sigma, one .singlepulse per series"
"$BIN/snr" -t 6 -m 0.1 -g "$OUT/frb_DM*.dat" --cands "$OUT/frb_cands.txt"
echo "   the strongest clustered candidates (DM, time, sample, width, S/N, members):"
{ head -n 1 "$OUT/frb_cands.txt"; grep -v '^#' "$OUT/frb_cands.txt" | sort -g -r -k 5 | head -n 5; }

echo "== PRESTO's numbers (linear detrend, clipped rms), as single_pulse_search.py -t 6 gives them"
mkdir -p "$OUT/presto"
"$BIN/snr" -q --presto -t 6 -o "$OUT/presto" -g "$OUT/frb_DM*.dat" | grep -v '^#' | sort -g -r -k 5 \
    | head -n 1

echo "== the chunk-peak S/N, (max - mean) / std per DM and 4096-sample chunk (one sample: a"
echo "   2 ms burst spread over 8 samples peaks lower than its boxcar S/N)"
mkdir -p "$OUT/peak"
"$BIN/snr" -q --mode peak --chunk-len 4096 -t 4.5 -o "$OUT/peak" -g "$OUT/frb_DM*.dat" \
    | grep -v '^#' | sort -g -r -k 5 | head -n 2

echo "== a DDplan-style plan (dedisp --plan: coarser DM steps and downsampling at high DM), all"
echo "   its ranges searched in one snr call, as single_pulse_search.py searches them"
mkdir -p "$OUT/plan"
"$BIN/dedisp" -q --plan --lodm "$DM_LO" --dm-max $(awk "BEGIN { print $DM_LO + $DM_STEP * $NUM_DMS }") \
    -o "$OUT/plan/frb" "$INPUT"
"$BIN/snr" -q -t 6 -m 0.1 -g "$OUT/plan/frb_DM*.dat" --cands "$OUT/plan/frb_cands.txt"
grep -v '^#' "$OUT/plan/frb_cands.txt" | sort -g -r -k 5 | head -n 1
if "$BIN/sift" -q --plot "$OUT/plan/frb_singlepulse.png" "$OUT"/plan/*.singlepulse \
    > /dev/null 2> "$OUT/plan/sift.err"; then
  echo "   replotted from the .singlepulse files: $OUT/plan/frb_singlepulse.png"
else
  grep -q "built without PLplot" "$OUT/plan/sift.err" || { cat "$OUT/plan/sift.err"; exit 1; }
fi
echo "   the same plan searched straight from the filterbank (snr --plan: no series written)"
mkdir -p "$OUT/plan_fused"
"$BIN/snr" -q -t 6 -m 0.1 --plan --lodm "$DM_LO" \
    --dm-max $(awk "BEGIN { print $DM_LO + $DM_STEP * $NUM_DMS }") -o "$OUT/plan_fused" "$INPUT" \
    > "$OUT/plan_fused/frb_cands.txt"
if cmp -s "$OUT/plan/frb_cands.txt" "$OUT/plan_fused/frb_cands.txt"; then
  echo "   the same candidates as dedisp --plan and snr on its series"
else
  echo "   the candidate lists differ: $OUT/plan/frb_cands.txt, $OUT/plan_fused/frb_cands.txt" >&2
  exit 1
fi
echo "   $OUT/frb_DM*.singlepulse replot with PRESTO: single_pulse_search.py $OUT/*.singlepulse"
