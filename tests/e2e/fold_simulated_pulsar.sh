#!/bin/sh
# fold finds a simulated pulsar: a filterbank with P = 73.1 ms, P' = 5e-7, DM 60 (simulate's
# PRESTO constant), the pulse at phase 0.5, folded from DM 57 and P' 0 with the search on.
# The best DM must be within two grid steps of 60, P and P' within one grid step of the truth,
# and the pulse in the middle of the profile. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/fold" ] && [ -x "$BIN/simulate" ] || { echo "fold not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 200 --tsamp 5e-4 --tobs 60 --seed 4 \
  --pulsar P=0.0731,DM=60,snr=40,pdot=5e-7,phase=0.5 -o "$W/psr.fil" || fail simulate
"$BIN/fold" -q -p 0.0731 -dm 57 -nsub 16 -npfact 1 -ndmfact 1 -o "$W/psr" "$W/psr.fil" \
  || fail "fold"
B="$W/psr_73.10ms_Cand.pfd.bestprof"
[ -f "$B" ] && [ -f "$W/psr_73.10ms_Cand.pfd" ] || fail "no outputs"
awk '
  /^# Best DM/        { dm = $5 }
  /^# P_topo/         { p = $5 }
  /^# P._topo/        { pd = $5 }
  /^# Data Folded/    { n = $5 }
  /^# Prob\(Noise\)/  { sigma = substr($5, 3) }
  /^ *[0-9]+  /       { if (!seen || $2 > max) { max = $2; peak = $1 }; seen = 1; bins++ }
  END {
    T = n * 5e-4; P = 0.0731
    dp_ms = 1000 * P * P * 2 / bins / T          # one period step (pstep 2 at -npfact 1)
    dpd = P * P * 2 * 4 / bins / (T * T)          # one P-dot step (pdstep 4)
    ddm = (P / bins) * 2 * 2.41e-4 * 1303.125^2   # one DM step at the lowest channel
    printf "DM %s, P %s ms, P\x27 %s, peak bin %s of %s, %s sigma\n", dm, p, pd, peak, bins, sigma
    if (n != 120000) { print "FAIL: folded " n " samples, not 120000"; exit 1 }
    if (dm < 60 - 2 * ddm || dm > 60 + 2 * ddm) { print "FAIL: DM " dm; exit 1 }
    if (p < 73.1 - dp_ms || p > 73.1 + dp_ms) { print "FAIL: P " p " ms"; exit 1 }
    if (pd < 5e-7 - dpd || pd > 5e-7 + dpd) { print "FAIL: P\x27 " pd; exit 1 }
    if (peak < bins / 2 - 2 || peak > bins / 2 + 1) { print "FAIL: peak at bin " peak; exit 1 }
    if (sigma < 10) { print "FAIL: only " sigma " sigma"; exit 1 }
  }' "$B" || exit 1
exit 0
