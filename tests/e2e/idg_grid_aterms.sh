#!/bin/sh
# idg-grid --aterms from a user's side: A-term cubes written with astropy in the layout of
# idg-grid(1) (RA, DEC, MATRIX, ANTENNA[, FREQ, TIME]). Unit matrices change no image; a gain
# of 2 on every station scales the dirty image of the same data 4 times (conj(g1) V g2) and
# the predicted visibilities 4 times (g1 M conj(g2)); two time slots of gains 1 and 2 average
# to 2.5 times, and so do two FREQ planes of gains 1 and 2; a diagonal cube with a gain of 3 on
# Y leaves XX alone and scales YY 9 times; a Q image's PSF peaks at 1; a cube of too few
# antennas, or centred elsewhere, is one line, exit 1 and no image; inspect describes a cube.
# Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
IDG="$BIN/idg-grid"
PY=/usr/bin/python3
for program in "$BIN/simulate" "$IDG"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
"$PY" -c "import numpy, astropy.io.fits" 2>/dev/null ||
  { echo "numpy and astropy are needed to write the A-term cubes (apt-get install python3-astropy)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

ten=$(cd "$(dirname "$0")" && pwd)/ten_antennas.txt
# 2.5 Jy on pixel (44, 54) of a 128-pixel image of 6" pixels; 12 integrations of 60 s from
# MJD 60000.1.
"$BIN/simulate" -q --visibilities --layout "$ten" --freq 1400 --ra 60 --dec -30 \
  --tstart 60000.1 --nchans 4 --bw 8 --nints 12 --int-time 60 \
  --source ra=60.038496486,dec=-30.016661068,flux=2.5 -o "$dir/one.uvfits" 2> "$dir/err" ||
  { echo "simulate: $(cat "$dir/err")"; exit 1; }

# cube NAME MATRIX VALUES [TIMES]: a 1 x 1 screen at the phase centre (RA 60, Dec -30) of
# ANTENNAS stations; VALUES is a Python expression for the MATRIX axis (one list), or with
# TIMES a list of them, one per slot of 6 minutes from the observation's start.
cube() {
  "$PY" - "$dir/$1" "$2" "$3" "${4:-10}" "${5:-60}" <<'PYTHON' || fail "writing $1"
import sys
import numpy as np
from astropy.io import fits
path, matrix, values, antennas, ra = sys.argv[1], int(sys.argv[2]), eval(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
slots = values if isinstance(values[0], list) else [values]
data = np.zeros((len(slots), 1, antennas, matrix, 1, 1), dtype=np.float32)
for t, v in enumerate(slots):
    data[t, 0, :, :, 0, 0] = v
h = fits.Header()
for k, (name, crval, cdelt) in enumerate([("RA---SIN", ra, -1e-3), ("DEC--SIN", -30.0, 1e-3),
                                           ("MATRIX", 0, 1), ("ANTENNA", 0, 1),
                                           ("FREQ", 1.4e9, 8e6),
                                           ("TIME", 60000.1 * 86400 + 180, 360)], start=1):
    h["CTYPE%d" % k], h["CRPIX%d" % k], h["CRVAL%d" % k], h["CDELT%d" % k] = name, 1.0, crval, cdelt
fits.PrimaryHDU(data, h).writeto(path)
PYTHON
}
cube unit.fits 2 "[1, 0]"
cube gain2.fits 2 "[2, 0]"
cube slots.fits 2 "[[1, 0], [2, 0]]"
cube yy3.fits 4 "[1, 0, 3, 0]"
cube few.fits 2 "[1, 0]" 5
cube elsewhere.fits 2 "[1, 0]" 10 61

# inspect reports a cube's shape, slots and values.
if [ -x "$BIN/inspect" ]; then
  "$BIN/inspect" "$dir/slots.fits" > "$dir/report" 2>&1 || fail "inspect slots.fits: $(cat "$dir/report")"
  for text in "(A-term cube)" "Matrix .*2 (one complex gain per station)" "Antennas .*10" \
      "Time slots .*2 of 360 s" "|XX|, |YY| .*1 to 2"; do
    grep -q -- "$text" "$dir/report" || fail "inspect slots.fits lacks '$text': $(cat "$dir/report")"
  done
fi

image() {
  name=$1; shift
  "$IDG" -q --size 128 --scale 6asec --no-psf -o "$dir/$name" "$@" "$dir/one.uvfits" 2> "$dir/err" ||
    fail "idg-grid $name $*: $(cat "$dir/err")"
}
image plain
image unit --aterms "$dir/unit.fits"
image gain2 --aterms "$dir/gain2.fits"
image slots --aterms "$dir/slots.fits"
image plain-xx --pol XX
image yy3-xx --pol XX --aterms "$dir/yy3.fits"
image plain-yy --pol YY
image yy3-yy --pol YY --aterms "$dir/yy3.fits"

# ratio A B FACTOR: image A is FACTOR times image B to 1e-4 of the peak over the inner 80 %.
ratio() {
  "$PY" - "$dir/$1-dirty.fits" "$dir/$2-dirty.fits" "$3" > "$dir/py" 2>&1 <<'PYTHON' || fail "$1 against $2: $(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
a, b = (fits.getdata(f)[0, 0].astype(np.float64) for f in sys.argv[1:3])
n = a.shape[0]; e = n // 10
factor = float(sys.argv[3])
d = np.abs(a - factor * b)[e:n - e, e:n - e].max() / (factor * np.abs(b).max())
assert np.abs(b).max() > 2, "no source in %s" % sys.argv[2]
assert d <= 1e-4, "%s is not %s x %s: %.2e of the peak apart" % (sys.argv[1], sys.argv[3], sys.argv[2], d)
PYTHON
}
ratio unit plain 1
ratio gain2 plain 4
# Two slots: the halves of the track have PSFs of their own, so only the source's pixel
# scales by the mean gain product, (1 + 4) / 2.
"$PY" - "$dir/slots-dirty.fits" "$dir/plain-dirty.fits" > "$dir/py" 2>&1 <<'PYTHON' || fail "slots: $(cat "$dir/py")"
import sys
from astropy.io import fits
a, b = (fits.getdata(f)[0, 0, 54, 44] for f in sys.argv[1:3])
assert b > 2 and abs(a / b - 2.5) < 1e-4, "at the source %g, %g without A-terms" % (a, b)
PYTHON
ratio yy3-xx plain-xx 1
ratio yy3-yy plain-yy 9

# The PSF of a Q image through the A-terms: the mean of the XX and YY PSFs, peak 1 at the centre.
"$IDG" -q --size 128 --scale 6asec --pol Q --aterms "$dir/unit.fits" -o "$dir/q" "$dir/one.uvfits" ||
  fail "--pol Q --aterms"
"$PY" - "$dir/q-psf.fits" > "$dir/py" 2>&1 <<'PYTHON' || fail "Q PSF: $(cat "$dir/py")"
import sys
from astropy.io import fits
psf = fits.getdata(sys.argv[1])[0, 0]
assert abs(psf[64, 64] - 1) < 1e-3 and psf.max() <= psf[64, 64] + 1e-6, "PSF peak %g" % psf[64, 64]
PYTHON

# --predict through the A-terms: 4 times the visibilities predicted without them, on every
# product (a scalar gain leaks nothing into XY and YX, which stay 0).
"$PY" - "$dir/plain-dirty.fits" "$dir/model.fits" <<'PYTHON' || fail "writing the model"
import sys
import numpy as np
from astropy.io import fits
hdu = fits.open(sys.argv[1])[0]
model = np.zeros_like(hdu.data)
model[0, 0, 54, 44] = 2.5
hdu.header["BUNIT"] = "JY/PIXEL"
fits.PrimaryHDU(model, hdu.header).writeto(sys.argv[2])
PYTHON
"$IDG" -q --predict "$dir/model.fits" -o "$dir/plain.uvfits" "$dir/one.uvfits" ||
  fail "--predict without A-terms"
"$IDG" -q --predict "$dir/model.fits" --aterms "$dir/gain2.fits" -o "$dir/gain2.uvfits" "$dir/one.uvfits" ||
  fail "--predict --aterms"
"$PY" - "$dir/plain.uvfits" "$dir/gain2.uvfits" > "$dir/py" 2>&1 <<'PYTHON' || fail "--predict --aterms values: $(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
a, b = fits.open(sys.argv[1])[0].data, fits.open(sys.argv[2])[0].data
va = a.data[..., 0] + 1j * a.data[..., 1]
vb = b.data[..., 0] + 1j * b.data[..., 1]
assert np.abs(va).max() > 2
err = np.abs(vb - 4 * va).max() / (4 * 2.5)
assert err < 1e-5, "through a gain of 2: %.2g of the flux from 4 x the plain prediction" % err
PYTHON

# Two FREQ planes, gains 1 at 1396 MHz and 2 at 1404 MHz, across the data's 4 channels of
# 1397-1403 MHz: each plane serves the two channels nearest it, so the source's pixel is
# (1 + 1 + 4 + 4) / 4 = 2.5 times the plain image's, and --predict gives 1 and 4 times the plain
# visibilities on the low and high channels.
"$PY" - "$dir/unit.fits" "$dir/twofreq.fits" <<'PYTHON' || fail "writing twofreq.fits"
import sys
import numpy as np
from astropy.io import fits
hdu = fits.open(sys.argv[1])[0]
data = np.concatenate([hdu.data, 2 * hdu.data], axis=1)
hdu.header["CRVAL5"], hdu.header["CDELT5"] = 1.396e9, 8e6
fits.PrimaryHDU(data, hdu.header).writeto(sys.argv[2])
PYTHON
image twofreq --aterms "$dir/twofreq.fits"
"$PY" - "$dir/twofreq-dirty.fits" "$dir/plain-dirty.fits" > "$dir/py" 2>&1 <<'PYTHON' || fail "two FREQ planes: $(cat "$dir/py")"
import sys
from astropy.io import fits
a, b = (fits.getdata(f)[0, 0, 54, 44] for f in sys.argv[1:3])
assert b > 2 and abs(a / b - 2.5) < 1e-4, "at the source %g, %g without A-terms" % (a, b)
PYTHON
"$IDG" -q --predict "$dir/model.fits" --aterms "$dir/twofreq.fits" -o "$dir/twofreq.uvfits" "$dir/one.uvfits" ||
  fail "--predict through two FREQ planes"
"$PY" - "$dir/plain.uvfits" "$dir/twofreq.uvfits" > "$dir/py" 2>&1 <<'PYTHON' || fail "--predict two FREQ planes: $(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
a, b = fits.open(sys.argv[1])[0].data, fits.open(sys.argv[2])[0].data
va = a.data[..., 0] + 1j * a.data[..., 1]  # [row, 1, 1, 1, channel, product]
vb = b.data[..., 0] + 1j * b.data[..., 1]
factor = np.array([1, 1, 4, 4]).reshape(1, 1, 1, 1, 4, 1)
err = np.abs(vb - factor * va).max() / (4 * 2.5)
assert err < 1e-5, "through two planes: %.2g of the flux from the expected" % err
PYTHON
# Four FREQ planes, one at each channel (gains 1, 1, 2, 2), and two channel groups: each group
# is gridded in one pass per plane, and the MFS image of the two is again 2.5 times the plain
# image at the source.
"$PY" - "$dir/unit.fits" "$dir/fourfreq.fits" <<'PYTHON' || fail "writing fourfreq.fits"
import sys
import numpy as np
from astropy.io import fits
hdu = fits.open(sys.argv[1])[0]
data = np.concatenate([hdu.data, hdu.data, 2 * hdu.data, 2 * hdu.data], axis=1)
hdu.header["CRVAL5"], hdu.header["CDELT5"] = 1.397e9, 2e6
fits.PrimaryHDU(data, hdu.header).writeto(sys.argv[2])
PYTHON
image fourfreq --aterms "$dir/fourfreq.fits" --channels-out 2
"$PY" - "$dir/fourfreq-MFS-dirty.fits" "$dir/plain-dirty.fits" > "$dir/py" 2>&1 <<'PYTHON' || fail "MFS through four FREQ planes: $(cat "$dir/py")"
import sys
from astropy.io import fits
a, b = (fits.getdata(f)[0, 0, 54, 44] for f in sys.argv[1:3])
assert b > 2 and abs(a / b - 2.5) < 1e-4, "MFS at the source %g, %g without A-terms" % (a, b)
PYTHON

# --- bad A-terms: one line, exit 1, no image
expect_error() {
  text=$1; shift
  "$IDG" --size 128 --scale 6asec -o "$dir/out" "$@" "$dir/one.uvfits" > /dev/null 2> "$dir/err"; got=$?
  [ "$got" = 1 ] || fail "$*: exit $got, not 1: $(cat "$dir/err")"
  grep -q -- "$text" "$dir/err" || fail "$*: no '$text' in: $(cat "$dir/err")"
  [ "$(grep -vc '^idg-grid: warning: ' "$dir/err")" -eq 1 ] || fail "$*: not one line: $(cat "$dir/err")"
  [ -z "$(ls "$dir" | grep '^out')" ] || fail "$*: left $(ls "$dir" | grep '^out')"
}
expect_error "few.fits" --aterms "$dir/few.fits"
expect_error "elsewhere.fits" --aterms "$dir/elsewhere.fits"
expect_error "missing.fits" --aterms "$dir/missing.fits"

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "idg-grid --aterms: unit, gain, time-slot and diagonal cubes, --predict through A-terms, bad cubes"
