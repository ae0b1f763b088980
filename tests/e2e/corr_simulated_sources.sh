#!/bin/sh
# corr end to end on simulated voltages of three point sources (24 stations within 110 m near
# MeerKAT, 16 channels of 31.25 kHz at 1.4 GHz, 8-bit voltages, no receiver noise): the UVFITS
# file opens in astropy, the independent DFT imager (vis_dft_image.py) finds every source at
# its pixel with its flux, and the visibilities equal the exact ones of `simulate
# --visibilities` for the same sky, array and times (same uvw, the products in the same order
# and sense, amplitudes to within the sampling noise). The same holds for int8 (fringes stopped
# per integration), for --phase-centre on a source (it moves to the image centre), for
# --chan-avg, and for real-sampled voltages channelised by corr (--nchan).
# Units: simulate's voltages carry sqrt(Jy) times --gain 4, so corr's visibilities are
# Jy x 16. Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="$HERE/vis_dft_image.py"
LAYOUT="$HERE/corr_core24.txt"
PY=/usr/bin/python3
for program in "$BIN/simulate" "$BIN/corr"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
[ -x "$PY" ] && "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null ||
  { echo "$PY with numpy and astropy not found (Debian python3-numpy python3-astropy)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Three sources: at the phase centre, 15' east and 3' south, 9' west and 12' north.
S1=60,-30 S2=60.2887,-30.05 S3=59.85,-29.8
sky="--source ra=60,dec=-30,flux=3 --source ra=60.2887,dec=-30.05,flux=2 --source ra=59.85,dec=-29.8,flux=1.5"
expected="$S1,48 $S2,32 $S3,24"  # Jy x gain^2
obs="--layout $LAYOUT --freq 1400 --ra 60 --dec -30 --tstart 60000.1"
# 8192 samples of 32 us: four integrations of 2048 samples (0.065536 s).
"$BIN/simulate" -q --voltages $obs --nchans 16 --bw 0.5 --nsamples 8192 --no-noise --nbits 8 \
    --gain 4 $sky -o "$dir/v.dada" 2> "$dir/err" || { echo "simulate: $(cat "$dir/err")"; exit 1; }
"$BIN/simulate" -q --visibilities $obs --nchans 16 --bw 0.5 --int-time 0.065536 --nints 4 \
    --autocorrelations $sky -o "$dir/exact.uvfits" 2> "$dir/err" || { echo "simulate --visibilities: $(cat "$dir/err")"; exit 1; }

# The DFT check, 30" pixels: every source within a pixel of where it should be, and its peak
# within 12% of its flux. A dirty image's peak is the flux plus the other sources' sidelobes,
# which reach 10% in a snapshot of 276 baselines; so the peaks are also held to those of the
# exact visibilities' own dirty image (same uv coverage), to 2% (or TOL).
"$PY" "$CHECK" --npix 128 --cell 30 "$dir/exact.uvfits" $S1,3 $S2,2 $S3,1.5 --flux-tol 0.12 \
  > "$dir/exact_image.txt" 2>&1 || fail "DFT image of the exact visibilities: $(cat "$dir/exact_image.txt")"
peaks() { sed -n 's/^source .* peak \([-0-9.e+]*\), ratio.*/\1/p' "$1"; }
peaks "$dir/exact_image.txt" > "$dir/exact_peaks.txt"
image() {  # FILE [TOL]
  "$PY" "$CHECK" --npix 128 --cell 30 "$1" $expected --flux-tol 0.12 > "$dir/image.txt" 2>&1 || return 1
  peaks "$dir/image.txt" | paste - "$dir/exact_peaks.txt" |
    awk -v tol="${2:-0.02}" '{ r = $1 / 16 / $2; printf "corr/exact peak %.4f\n", r; if (r - 1 > tol || 1 - r > tol) bad = 1 }
                             END { exit bad || NR != 3 }' >> "$dir/image.txt"
}
# corr's visibilities against the exact ones, row by row (matched by antennas and time): the
# least-squares gain of corr on exact over the cross-correlations of each parallel hand must be
# 16 (the gain squared) within 1.5%, with a phase below 0.01 rad (a conjugation or uvw sign error
# turns it far); the residuals, and the cross hands (0 for unpolarised sources), no larger than
# sampling noise allows: a product of two signals of power P = 6.5 Jy (the three sources) averaged
# over N = 2048 samples has an rms error of P / sqrt(N) = 0.14 Jy. Autocorrelations alike; uvw
# equal.
compare() {  # CORR_FILE EXACT_FILE
  "$PY" - "$1" "$2" > "$dir/compare.txt" 2>&1 <<'PYTHON'
import sys
import numpy as np
from astropy.io import fits

def load(path):
    d = fits.open(path)[0].data
    a1 = d["ANTENNA1"].astype(int)
    a2 = d["ANTENNA2"].astype(int)
    t = np.round(np.asarray(d["DATE"], dtype=float) * 86400.0, 2)  # both DATE parameters
    v = d.data[:, 0, 0, 0, :, :, 0] + 1j * d.data[:, 0, 0, 0, :, :, 1]
    uvw = np.stack([d["UU"], d["VV"], d["WW"]], axis=1) * 299792458.0
    return {(x, y, z): k for k, (x, y, z) in enumerate(zip(a1, a2, t))}, v, uvw

NOISE = 6.5 / np.sqrt(2048)
corr_rows, corr_v, corr_uvw = load(sys.argv[1])
exact_rows, exact_v, exact_uvw = load(sys.argv[2])
if set(corr_rows) != set(exact_rows):
    sys.exit("rows differ: %d in corr, %d exact, %d shared" % (
        len(corr_rows), len(exact_rows), len(set(corr_rows) & set(exact_rows))))
keys = sorted(corr_rows)
ci = np.array([corr_rows[k] for k in keys])
ei = np.array([exact_rows[k] for k in keys])
cross = np.array([k[0] != k[1] for k in keys])
c, e = corr_v[ci] / 16.0, exact_v[ei]
uvw_error = np.abs(corr_uvw[ci] - exact_uvw[ei]).max()
problems = []
if uvw_error > 1e-3:
    problems.append("uvw differ by up to %.3g m" % uvw_error)
for rows, what in ((cross, "cross"), (~cross, "auto")):
    for p, name in ((0, "XX"), (1, "YY")):
        x, y = c[rows, :, p].ravel(), e[rows, :, p].ravel()
        gain = np.vdot(y, x) / np.vdot(y, y)
        rms = np.sqrt(np.mean(np.abs(x - y) ** 2))
        print("%s %s: gain %.4f, phase %.4f rad, residual rms %.4f Jy" % (what, name, abs(gain), np.angle(gain), rms))
        if abs(abs(gain) - 1) > 0.015 or abs(np.angle(gain)) > 0.01 or rms > 1.5 * NOISE:
            problems.append("%s %s do not match" % (what, name))
    for p, name in ((2, "XY"), (3, "YX")):
        level = np.sqrt(np.mean(np.abs(c[rows, :, p]) ** 2))
        print("%s %s: rms %.4f Jy" % (what, name, level))
        if level > 1.5 * NOISE:
            problems.append("%s %s are not near zero" % (what, name))
if problems:
    sys.exit("; ".join(problems))
PYTHON
}

# --- fp32 (the default for raw integer voltages: they need fringe rotation)
"$BIN/corr" -v --nint 2048 --delay-interval 0.01 -o "$dir/v.uvfits" "$dir/v.dada" 2> "$dir/err" \
  || fail "corr: $(cat "$dir/err")"
grep -q "fp32 (auto" "$dir/err" || fail "auto precision for raw 8-bit voltages is not fp32: $(cat "$dir/err")"
"$PY" -c "
from astropy.io import fits
h = fits.open('$dir/v.uvfits')
assert h[0].header['GCOUNT'] == 4 * 300, h[0].header['GCOUNT']
assert [h[0].header['CRVAL%d' % n] for n in range(2, 8) if h[0].header['CTYPE%d' % n] == 'STOKES'] == [-5.0]
assert 'AIPS AN' in [x.name for x in h]
" 2> "$dir/err" || fail "astropy: $(cat "$dir/err")"
image "$dir/v.uvfits" || fail "DFT image of corr's visibilities: $(cat "$dir/image.txt")"
compare "$dir/v.uvfits" "$dir/exact.uvfits" || fail "corr vs exact visibilities: $(cat "$dir/compare.txt")"

# --- int8: the voltages as they are, the fringes stopped on each integration's visibilities
"$BIN/corr" -q --precision int8 --nint 2048 -o "$dir/i8.uvfits" "$dir/v.dada" 2> "$dir/err" \
  || fail "corr --precision int8: $(cat "$dir/err")"
[ -s "$dir/err" ] && fail "int8 warned: $(cat "$dir/err")"
image "$dir/i8.uvfits" || fail "DFT image, int8: $(cat "$dir/image.txt")"
compare "$dir/i8.uvfits" "$dir/exact.uvfits" || fail "int8 vs exact visibilities: $(cat "$dir/compare.txt")"

# --- the phase centre on the second source: it moves to the centre pixel (64, 64)
"$BIN/corr" -q --phase-centre "04:01:09.288 -30:03:00" --nint 2048 -o "$dir/pc.uvfits" \
    "$dir/v.dada" 2> "$dir/err" || fail "corr --phase-centre: $(cat "$dir/err")"
"$PY" "$CHECK" --npix 128 --cell 30 "$dir/pc.uvfits" $expected --flux-tol 0.12 > "$dir/image.txt" 2>&1 || fail "DFT image, --phase-centre: $(cat "$dir/image.txt")"
grep -q "source 2 .*peak pixel (64, 64)" "$dir/image.txt" \
  || fail "--phase-centre on source 2 does not put it at (64, 64): $(cat "$dir/image.txt")"

# --- four channels of four
"$BIN/corr" -q --chan-avg 4 --nint 2048 -o "$dir/avg.uvfits" "$dir/v.dada" 2> "$dir/err" \
  || fail "corr --chan-avg 4: $(cat "$dir/err")"
"$PY" -c "
from astropy.io import fits
h = fits.open('$dir/avg.uvfits')[0].header
n = [k for k in range(2, 8) if h['CTYPE%d' % k] == 'FREQ'][0]
assert h['NAXIS%d' % n] == 4 and abs(h['CDELT%d' % n] - 125e3) < 1e-3, (h['NAXIS%d' % n], h['CDELT%d' % n])
assert abs(h['CRVAL%d' % n] + (1 - h['CRPIX%d' % n]) * 125e3 - 1399.8125e6) < 1, h['CRVAL%d' % n]
" 2> "$dir/err" || fail "--chan-avg 4 channels: $(cat "$dir/err")"
image "$dir/avg.uvfits" || fail "DFT image, --chan-avg 4: $(cat "$dir/image.txt")"

# --- real-sampled voltages of the same sky, channelised into 16 channels of 31.25 kHz by corr
# (bin 0 straddles the band's lower edge and holds about half the power: 3% less flux; and the
# channels lie half a channel lower than the complex ones)
"$BIN/simulate" -q --real-voltages $obs --bw 0.5 --nsamples 262144 --no-noise --nbits 8 \
    --gain 4 $sky -o "$dir/real.dada" 2> "$dir/err" || fail "simulate --real-voltages: $(cat "$dir/err")"
"$BIN/corr" -q --nchan 16 --nint 2048 -o "$dir/real.uvfits" "$dir/real.dada" 2> "$dir/err" \
  || fail "corr --nchan 16: $(cat "$dir/err")"
image "$dir/real.uvfits" 0.05 || fail "DFT image, channelised: $(cat "$dir/image.txt")"

if [ "$failures" -ne 0 ]; then echo "corr_simulated_sources: $failures failed"; exit 1; fi
echo "corr_simulated_sources: all passed"
exit 0
