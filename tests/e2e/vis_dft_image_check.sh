#!/bin/sh
# tests/e2e/vis_dft_image.py, the independent DFT imager that checks the correlator's UVFITS
# files, on exact visibilities from `simulate --visibilities`: a source on a pixel centre comes
# back on that pixel with its flux to 1e-4 (Stokes I and XX), east is to the left (the
# mirrored position fails), a wrong flux fails, two sources in one file with
# autocorrelations (which must be left out) and descending channels are both found, and
# --help, a missing file and a non-FITS file give the documented exit status.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
SIM="$BIN/simulate"
CHECK="$(dirname "$0")/vis_dft_image.py"
PY=/usr/bin/python3
[ -x "$SIM" ] || { echo "$SIM not built"; exit 77; }
[ -x "$PY" ] && "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null ||
  { echo "$PY with numpy and astropy not found (Debian python3-numpy python3-astropy)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { "$PY" "$CHECK" --npix 128 --cell 6 "$@" > "$dir/out" 2>&1; }

# Ten antennas within a kilometre near MeerKAT, east-north-up metres: about 30" resolution at
# 1.4 GHz, so 6" pixels sample the beam finely.
ten=$(cd "$(dirname "$0")" && pwd)/ten_antennas.txt
obs="--visibilities --layout $ten --freq 1400 --ra 60 --dec -30 --tstart 60000.1"

# --- One source exactly on pixel (44, 54): l = 20 pixels east, m = 10 pixels south of the
# phase centre (RA 60, Dec -30), by the inverse SIN projection.
ON_PIXEL=60.038496486,-30.016661068
"$SIM" $obs --nchans 4 --bw 8 --nints 12 --int-time 60 --source ra=60.038496486,dec=-30.016661068,flux=2.5 \
  -o "$dir/one.uvfits" 2> "$dir/err" || fail "simulate: $(cat "$dir/err")"
check "$dir/one.uvfits" $ON_PIXEL,2.5 --pos-tol 0.02 --flux-tol 1e-4 || fail "on-pixel source: $(cat "$dir/out")"
grep -q "peak pixel (44, 54)" "$dir/out" || fail "peak not at (44, 54): $(cat "$dir/out")"
grep -q "imaged I from 2160 samples" "$dir/out" || fail "sample count: $(cat "$dir/out")"
check "$dir/one.uvfits" $ON_PIXEL,2.5 --product XX --pos-tol 0.02 --flux-tol 1e-4 || fail "XX: $(cat "$dir/out")"
# The same offset to the west would be pixel (84, 54): nothing is there.
check "$dir/one.uvfits" 59.961503514,-30.016661068,2.5
[ $? -eq 1 ] || fail "a source mirrored to the west was accepted: $(cat "$dir/out")"
grep -q "FAIL$" "$dir/out" || fail "no FAIL line for the mirrored source"
check "$dir/one.uvfits" $ON_PIXEL,2.0
[ $? -eq 1 ] || fail "a wrong flux was accepted: $(cat "$dir/out")"
grep -q "ratio 1.2500: FAIL" "$dir/out" || fail "flux ratio: $(cat "$dir/out")"
check "$dir/one.uvfits" $ON_PIXEL,2.5 --product XY
[ $? -eq 1 ] || fail "XY (zero for an unpolarised source) was accepted: $(cat "$dir/out")"

# --- Two sources, north-east and south-west, off pixel centres; autocorrelations in the file
# (imaged, they would lift the whole image by a sizeable part of 4 Jy) and channel 0 at the top.
"$SIM" $obs --nchans 4 --bw -32 --nints 12 --int-time 900 --autocorrelations \
  --source ra=60.0385,dec=-29.9833,flux=2.5 --source ra=59.9423,dec=-30.0333,flux=1.5 \
  -o "$dir/two.uvfits" 2> "$dir/err" || fail "simulate: $(cat "$dir/err")"
check "$dir/two.uvfits" 60.0385,-29.9833,2.5 59.9423,-30.0333,1.5 --fits "$dir/two.fits" ||
  fail "two sources: $(cat "$dir/out")"
[ "$(grep -c ': OK$' "$dir/out")" -eq 2 ] || fail "expected two OK lines: $(cat "$dir/out")"
grep -q "660 rows (540 cross-correlations)" "$dir/out" || fail "row counts: $(cat "$dir/out")"
"$PY" - "$dir/two.fits" <<'PY' || fail "FITS image"
import sys
from astropy.io import fits
with fits.open(sys.argv[1]) as f:
    h, d = f[0].header, f[0].data
    assert d.shape == (128, 128), d.shape
    assert h["CRPIX1"] == 65 and h["CDELT1"] < 0 and h["CTYPE1"] == "RA---SIN", repr(h)
    assert d[74, 44] > 2.4, d[74, 44]          # [y, x]: the 2.5 Jy source, east = left
PY

# --- Usage: --help, a missing file, a file that is not FITS.
"$PY" "$CHECK" --help > "$dir/out" 2>&1 || fail "--help exit status"
grep -q "exit status:" "$dir/out" && grep -q "ra_deg,dec_deg,flux" "$dir/out" || fail "--help text"
"$PY" "$CHECK" "$dir/none.uvfits" 60,-30,1 > "$dir/out" 2>&1
[ $? -eq 2 ] || fail "missing file: expected exit 2: $(cat "$dir/out")"
echo "not a FITS file" > "$dir/text.uvfits"
"$PY" "$CHECK" "$dir/text.uvfits" 60,-30,1 > "$dir/out" 2>&1
[ $? -eq 2 ] || fail "non-FITS file: expected exit 2: $(cat "$dir/out")"
[ "$(wc -l < "$dir/out")" -eq 1 ] || fail "non-FITS file: expected one line: $(cat "$dir/out")"
"$PY" "$CHECK" "$dir/one.uvfits" 60,-30 > "$dir/out" 2>&1
[ $? -eq 2 ] || fail "a source without flux: expected exit 2"

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0
