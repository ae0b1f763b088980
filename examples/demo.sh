#!/bin/sh
# make demo: simulate a short observation with a pulsar and a dispersed burst, inspect it,
# and dedisperse it. Everything goes into demo-output/ (replaced on each run).
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
