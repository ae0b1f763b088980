#!/bin/sh
# fold --brute-force on simulated DM trials: the S/N map peaks at the pulsar's period and near
# its DM; fold --plot writes a PNG next to the .pfd. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/fold" ] && [ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "fold not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 200 --tsamp 256e-6 --tobs 10 --seed 2 \
    --pulsar P=0.0873,DM=56,snr=30 -o "$W/a.fil" || fail simulate
"$BIN/dedisp" -q --device cpu --lodm 40 --dmstep 4 --numdms 9 -o "$W/a" "$W/a.fil" || fail dedisp
"$BIN/fold" -q --brute-force --pmin 0.08 --pmax 0.095 --nperiods 301 -n 32 "$W"/a_DM*.dat \
    > "$W/top.txt" || fail "brute force"
[ -s "$W/a_bruteforce.txt" ] || fail "no S/N map"
[ "$(grep -vc '^#' "$W/a_bruteforce.txt")" -eq 9 ] || fail "map has not one line per DM"
best=$(grep -v '^#' "$W/top.txt" | head -n 1)
echo "$best" | awk '{ exit !($2 > 0.08725 && $2 < 0.08735 && $1 >= 44 && $1 <= 68 && $3 > 10) }' \
    || fail "best pair is not the pulsar: $best"
"$BIN/fold" -q --brute-force --pmin 0.08 --pmax 0.095 --nperiods 301 "$W"/a_DM*.dat 2> "$W/err" \
    && fail "replaced the map without --force"
grep -q "already exists" "$W/err" || fail "no clear message: $(cat "$W/err")"

if "$BIN/fold" -q --plot -p 0.0873 -o "$W/p" "$W/a_DM56.00.dat" 2> "$W/err"; then
  head -c 8 "$W/p_87.30ms_Cand.pfd.png" | od -A n -t x1 | grep -q "89 50 4e 47" || fail "not a PNG"
else
  grep -q "without PLplot" "$W/err" || fail "--plot: $(cat "$W/err")"
fi
# prepfold's -noxwin is accepted and changes nothing.
"$BIN/fold" -q --device cpu -noxwin -p 0.0873 -o "$W/nx" "$W/a_DM56.00.dat" || fail "-noxwin"
"$BIN/fold" -q --device cpu -p 0.0873 -o "$W/px" "$W/a_DM56.00.dat" || fail "fold"
grep -v '^#' "$W/nx_87.30ms_Cand.pfd.bestprof" > "$W/nx.prof"
grep -v '^#' "$W/px_87.30ms_Cand.pfd.bestprof" | cmp -s - "$W/nx.prof" || fail "-noxwin changed the fold"
echo "fold_brute_force: ok"
