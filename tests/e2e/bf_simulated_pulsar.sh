#!/bin/sh
# The survey chain on simulated voltages: simulate --voltages (eight stations within 150 m, a
# pulsar at the pointing centre) | bf (seven beams on a hex grid, Stokes I, 128 us samples; on
# the GPU where there is one, while the array-factor reference below is formed on the CPU) ->
# dedisp -> fold. The pulsar must be found in the beam that points at it, at its period (fold's
# P search on the dedispersed series) and at its DM (fold's DM search on that beam's
# filterbank), and be weaker in every neighbouring beam by the array factor: each beam's profile
# S/N over beam 0's follows its power gain towards the pulsar. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
for p in simulate bf dedisp fold snr; do [ -x "$BIN/$p" ] || { echo "$p not built"; exit 77; }; done
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$W/compact.txt" <<'LAYOUT'
# telescope: MeerKAT
# frame: enu -30:42:39.8 21:26:38.0 1086.6
k0    0    0  0
k1   70   20  0
k2  -50   60  0
k3  -70  -40  0
k4   30  -75  0
k5   10   80  0
k6   75  -50  0
k7  -75   15  0
LAYOUT
# 350 MHz, 32 channels of 125 kHz (8 us samples), 2 s; P = 50 ms, DM 30.
"$BIN/simulate" -q --voltages --layout "$W/compact.txt" --freq 350 --bw 4 --nchans 32 \
    --nsamples 250000 --ra 04:37:00 --dec -47:15:00 --tstart 60310.2 --seed 3 \
    --pulsar P=0.05,DM=30,snr=4,phase=0.5 -o - |
  "$BIN/bf" -q --tiling hex --spacing 0.25 --nbeams 7 --tint 16 -o "$W/obs" - \
  || fail "simulate | bf"
for b in 0 1 2 3 4 5 6; do
  [ -f "$W/obs_B00$b.fil" ] || fail "no beam $b"
  "$BIN/dedisp" -q --lodm 30 --dmstep 1 --numdms 1 -o "$W/b$b" "$W/obs_B00$b.fil" || fail "dedisp beam $b"
  "$BIN/fold" -q -p 0.0501 -n 64 -npfact 1 -nopdsearch -o "$W/fold$b" "$W/b${b}_DM30.00.dat" \
    || fail "fold beam $b"
done
ls "$W"/fold0*.bestprof > /dev/null 2>&1 || fail "no bestprof for beam 0"
sigma() { awk '/^# Prob\(Noise\)/ { print substr($5, 3) }' "$1"; }
period_ms() { awk '/^# P_topo/ { print $5 }' "$1"; }
s0=$(sigma "$W"/fold0*.bestprof)
p0=$(period_ms "$W"/fold0*.bestprof)
echo "beam 0: $s0 sigma at P = $p0 ms"
awk -v p="$p0" 'BEGIN { exit !(p > 49.95 && p < 50.05) }' || fail "beam 0 period $p0 ms, not 50"
awk -v s="$s0" 'BEGIN { exit !(s > 15) }' || fail "beam 0 only $s0 sigma"
# The array factor of each beam towards the pulsar, as bf forms it: a noise-free point source at
# the pulsar's position, one integration over the whole run; the power in beam b over that of
# beam 0 is the channel mean of |AF_b|^2 (checked against an independent sum in
# tests/bf/bf_simulated_test.cpp).
"$BIN/simulate" -q --voltages --layout "$W/compact.txt" --freq 350 --bw 4 --nchans 32 \
    --nsamples 8192 --ra 04:37:00 --dec -47:15:00 --tstart 60310.2 --no-noise --nbits 32 \
    --source ra=04:37:00,dec=-47:15:00,flux=10 -o - |
  "$BIN/bf" -q --device cpu --tiling hex --spacing 0.25 --nbeams 7 --tint 8192 -o "$W/af" - \
  || fail "simulate | bf for the array factor"
power() {  # the sum over channels of the one spectrum at the end of a 32-channel float file
  tail -c 128 "$1" | od -A n -t f4 -v | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s }'
}
af0=$(power "$W/af_B000.fil")
# Profile S/N (snr on the .bestprof), linear in the pulsed power, which the beams scale by |AF|^2
# while the receiver noise stays the same in every beam.
profile_snr() { "$BIN/snr" "$1" | awk '!/^#/ { print $2 }'; }
n0=$(profile_snr "$W"/fold0*.bestprof)
for b in 1 2 3 4 5 6; do
  s=$(sigma "$W"/fold$b*.bestprof)
  n=$(profile_snr "$W"/fold$b*.bestprof)
  af=$(power "$W/af_B00$b.fil")
  echo "beam $b: $s sigma; profile S/N $n of beam 0's $n0; array factor power ratio $(awk -v a="$af" -v z="$af0" 'BEGIN { printf "%.3f", a / z }')"
  awk -v s="$s" -v s0="$s0" 'BEGIN { exit !(s < 0.85 * s0) }' || fail "beam $b ($s sigma) not weaker than beam 0 ($s0)"
  awk -v n="$n" -v n0="$n0" -v a="$af" -v z="$af0" 'BEGIN { d = n / n0 - a / z; exit !(d < 0.15 && d > -0.15) }' \
    || fail "beam $b: S/N ratio $n/$n0 does not follow the array factor ($af/$af0)"
done
# The DM: fold's DM search on beam 0's filterbank, started 4 units off.
"$BIN/fold" -q -p 0.05 -dm 26 -nsub 32 -npfact 1 -ndmfact 2 -o "$W/dm" "$W/obs_B000.fil" || fail "fold DM search"
dm=$(awk '/^# Best DM/ { print $5 }' "$W"/dm*.bestprof)
echo "beam 0 best DM: $dm"
awk -v d="$dm" 'BEGIN { exit !(d > 28 && d < 32) }' || fail "best DM $dm, not 30"
exit 0
