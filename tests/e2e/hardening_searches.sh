#!/bin/sh
# Searches given data too short or too flat for what was asked refuse with one line naming the
# file (exit 1, nothing written), and nothing any search prints or writes is a NaN or a
# negative period. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
for p in simulate dedisp fold accelgpu harmsum deredden snr; do
  [ -x "$BIN/$p" ] || { echo "$p not built"; exit 77; }
done
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# refuse PROGRAM 'message' args...: exit 1, one line "PROGRAM: message", no new file in $W.
refuse() {
  program=$1; want=$2; shift 2
  before=$(ls "$W" | sort)
  "$BIN/$program" "$@" > "$W/.out" 2> "$W/.err"; status=$?
  [ $status -eq 1 ] || fail "$program $*: exit $status, expected 1: $(cat "$W/.err")"
  [ "$(wc -l < "$W/.err")" -eq 1 ] || fail "$program $*: not one line: $(cat "$W/.err")"
  grep -qxF -- "$program: $want" "$W/.err" || fail "$program $*: expected '$want', got: $(cat "$W/.err")"
  [ "$(ls "$W" | sort)" = "$before" ] || fail "$program $*: wrote files"
}
no_nan() {  # no_nan FILE...: no NaN, no infinity, in text outputs
  ! grep -qiw -e nan -e inf -e -nan "$@" || fail "NaN or inf in $*: $(grep -iw -e nan -e inf "$@" | head -3)"
}

# 50 samples: a spectrum of 25 bins, far shorter than the f-fdot response of -zmax 200.
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 0.05 --seed 1 -o "$W/tiny.fil" || fail simulate
"$BIN/dedisp" -q --device cpu --numdms 1 -o "$W/tiny" "$W/tiny.fil" || fail dedisp
refuse accelgpu "$W/tiny_DM0.00.dat: spectrum has 25 Fourier bins; -zmax 200 needs at least 252 (a longer series, or a smaller -zmax)" \
  --device cpu --zmax 200 "$W/tiny_DM0.00.dat"
refuse harmsum "$W/tiny_DM0.00.dat: spectrum has 25 Fourier bins; -zmax 0 needs at least 32 (a longer series)" \
  --device cpu "$W/tiny_DM0.00.dat"
refuse fold "$W/tiny_DM0.00.dat: the data span 0.05 s, under two turns of --pmax 1 s; use --pmax 0.025 or less" \
  --brute-force --pmin 0.02 --pmax 1 --nperiods 16 -n 16 -o "$W/bf" "$W/tiny_DM0.00.dat"

# Zero-filled data (a dead recorder): nothing to fold, nothing to whiten.
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 8 --seed 1 -o "$W/src.fil" || fail simulate
"$BIN/dedisp" -q --device cpu --numdms 1 -o "$W/zero" "$W/src.fil" || fail dedisp
head -c 32000 /dev/zero > "$W/zero_DM0.00.dat"
refuse fold "$W/zero_DM0.00.dat: every sample has the same value (zero variance); nothing to fold" \
  -p 0.1 -o "$W/z" "$W/zero_DM0.00.dat"
refuse deredden "$W/zero_DM0.00.dat: 3999 of 4000 Fourier amplitudes lie in blocks of zero power (constant data?); nothing written" \
  "$W/zero_DM0.00.dat"
"$BIN/snr" -q "$W/zero_DM0.00.dat" > "$W/zero.txt" 2>&1 || true
no_nan "$W/zero.txt"

# Boxcars wider than the series: restricted to the data, with a warning.
"$BIN/snr" --force -m 100 -o "$W" "$W/zero_DM0.00.dat" > /dev/null 2> "$W/snr.err" || true
grep -q "snr: warning: $W/zero_DM0.00.dat has 8000 usable samples; boxcars up to 88000 samples were asked" "$W/snr.err" ||
  fail "no warning for boxcars wider than the data: $(cat "$W/snr.err")"

# A fold of a few periods only: written, with a warning, and every number finite and positive.
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 0.5 --seed 1 -o "$W/few.fil" || fail simulate
"$BIN/fold" -p 0.0873 --dm 56 -o "$W/few" "$W/few.fil" > /dev/null 2> "$W/few.err" || fail "fold: $(cat "$W/few.err")"
no_nan "$W/few.err" "$W/few_87.30ms_Cand.pfd.bestprof"
grep -q "P -" "$W/few.err" && fail "negative period: $(cat "$W/few.err")"
awk '/^# P_topo/ { if ($5 + 0 <= 0) exit 1 }' "$W/few_87.30ms_Cand.pfd.bestprof" || fail "non-positive P_topo"
exit 0
