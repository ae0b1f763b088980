#!/bin/sh
# corr's Measurement Set output, read by other people's software: python-casacore opens it and
# finds the UVFITS file's rows, antennas, uvw and visibilities (the same numbers, no sign
# changed) and, after --phase-centre, the phase centre and the pointing where each belongs;
# WSClean images it with each of three simulated point sources at its pixel of
# WSClean's own image (located through the image's WCS by astropy) and near its flux.
# Each check skips (exit 77 with a message) when its tool is missing: a build without casacore,
# python3-casacore, WSClean. Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
PY=/usr/bin/python3
for program in "$BIN/simulate" "$BIN/corr"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skipped=""

# The 24 stations of corr_core24.txt; 16 channels of 31.25 kHz at 1.4 GHz; 8192 samples of 8-bit
# voltages with --gain 4, so visibilities are Jy x 16.
obs="--layout $(cd "$(dirname "$0")" && pwd)/corr_core24.txt --freq 1400 --ra 60 --dec -30 --tstart 60000.1 --nchans 16 --bw 0.5"
sky="--source ra=60,dec=-30,flux=3 --source ra=60.2887,dec=-30.05,flux=2 --source ra=59.85,dec=-29.8,flux=1.5"
"$BIN/simulate" -q --voltages $obs --nsamples 8192 --no-noise --nbits 8 --gain 4 $sky \
    -o "$dir/v.dada" 2> "$dir/err" || { echo "simulate: $(cat "$dir/err")"; exit 1; }
"$BIN/corr" -q --nint 2048 -o "$dir/v.ms" "$dir/v.dada" 2> "$dir/err"; status=$?
if [ $status = 2 ] && grep -q "Measurement Set" "$dir/err"; then
  echo "this build has no Measurement Set support (casacore): $(cat "$dir/err")"; exit 77
fi
[ $status = 0 ] || { echo "corr -o v.ms: $(cat "$dir/err")"; exit 1; }
"$BIN/corr" -q --nint 2048 -o "$dir/v.uvfits" "$dir/v.dada" 2> "$dir/err" \
  || { echo "corr -o v.uvfits: $(cat "$dir/err")"; exit 1; }
# A bare name in the working directory (the temporary beside it must not lose its "./").
corr_abs=$(cd "$(dirname "$BIN/corr")" && pwd)/corr
(cd "$dir" && "$corr_abs" -q --nint 2048 -o bare.ms v.dada) 2> "$dir/err" \
  || { echo "corr -o bare.ms: $(cat "$dir/err")"; exit 1; }
[ -d "$dir/bare.ms" ] && [ -z "$(cd "$dir" && ls -A | grep '^\.bare')" ] \
  || { echo "corr -o bare.ms left no MS, or a temporary"; exit 1; }
# Re-phased to the second source: the pointing stays the header's (RA 60, DEC -30).
for f in moved.ms moved.uvfits; do
  "$BIN/corr" -q --nint 2048 --phase-centre "60.2887 -30.05" -o "$dir/$f" "$dir/v.dada" 2> "$dir/err" \
    || { echo "corr --phase-centre -o $f: $(cat "$dir/err")"; exit 1; }
done

# --- python-casacore: the MS holds what the UVFITS file holds
if "$PY" -c "import casacore.tables, numpy, astropy.io.fits" 2>/dev/null; then
  "$PY" - "$dir/v.ms" "$dir/v.uvfits" > "$dir/out" 2>&1 <<'PYTHON' || fail "python-casacore: $(cat "$dir/out")"
import sys
import numpy as np
from astropy.io import fits
from casacore.tables import table

ms = table(sys.argv[1], ack=False)
uv = fits.open(sys.argv[2])[0].data
assert ms.nrows() == len(uv) == 4 * 300, (ms.nrows(), len(uv))
assert table(sys.argv[1] + "/ANTENNA", ack=False).nrows() == 24
corr_type = table(sys.argv[1] + "/POLARIZATION", ack=False).getcell("CORR_TYPE", 0)
assert list(corr_type) == [9, 12, 10, 11], corr_type  # XX YY XY YX
a1, a2 = ms.getcol("ANTENNA1"), ms.getcol("ANTENNA2")
assert (a1 == uv["ANTENNA1"] - 1).all() and (a2 == uv["ANTENNA2"] - 1).all()
assert (a1 <= a2).all()
uvw = ms.getcol("UVW")
assert np.abs(uvw - np.stack([uv["UU"], uv["VV"], uv["WW"]], 1) * 299792458.0).max() < 1e-3
data = ms.getcol("DATA")  # [row][chan][corr]
ref = uv.data[:, 0, 0, 0, :, :, 0] + 1j * uv.data[:, 0, 0, 0, :, :, 1]
assert np.abs(data - ref).max() <= 1e-5 * np.abs(ref).max(), np.abs(data - ref).max()
weight = ms.getcol("WEIGHT_SPECTRUM")
assert np.abs(weight - uv.data[:, 0, 0, 0, :, :, 2]).max() == 0
assert not ms.getcol("FLAG").any()
print("python-casacore: %d rows as in the UVFITS file" % ms.nrows())
PYTHON
  # FIELD: PHASE_DIR and DELAY_DIR the new phase centre, REFERENCE_DIR the pointing; UVFITS:
  # CRVAL of RA/DEC the phase centre, OBSRA/OBSDEC the pointing.
  "$PY" - "$dir/moved.ms" "$dir/moved.uvfits" > "$dir/out" 2>&1 <<'PYTHON' || fail "--phase-centre directions: $(cat "$dir/out")"
import sys
import numpy as np
from astropy.io import fits
from casacore.tables import table

field = table(sys.argv[1] + "/FIELD", ack=False)
centre, pointing = np.radians([60.2887, -30.05]), np.radians([60.0, -30.0])
for column, want in (("PHASE_DIR", centre), ("DELAY_DIR", centre), ("REFERENCE_DIR", pointing)):
    got = field.getcell(column, 0).flatten()
    assert np.abs(got - want).max() < 1e-12, (column, got, want)
header = fits.open(sys.argv[2])[0].header
axes = {header["CTYPE%d" % k]: k for k in range(2, header["NAXIS"] + 1)}
got = [header["CRVAL%d" % axes["RA"]], header["CRVAL%d" % axes["DEC"]], header["OBSRA"], header["OBSDEC"]]
assert np.abs(np.array(got) - [60.2887, -30.05, 60.0, -30.0]).max() < 1e-9, got
print("--phase-centre: the phase centre in PHASE_DIR, DELAY_DIR and CRVAL, the pointing in REFERENCE_DIR and OBSRA/OBSDEC")
PYTHON
else
  skipped="$skipped python-casacore"
fi

# --- WSClean: a dirty image with every source at its pixel (WCS of WSClean's own header) and
# its peak within 20% of its flux: a snapshot's dirty peaks carry the other sources' sidelobes
# (up to 14% here, with WSClean's uniform weighting), so they are also held to 3% of those in WSClean's image of the exact visibilities
# (`simulate --visibilities`, the same array, times and channels). WSClean centres its image of
# the re-phased MS on PHASE_DIR, with the second source at its pixel there too.
if command -v wsclean > /dev/null 2>&1 && "$PY" -c "import numpy, astropy.wcs" 2>/dev/null; then
  "$BIN/simulate" -q --visibilities $obs --int-time 0.065536 --nints 4 $sky -o "$dir/exact.ms" \
    2> "$dir/err" || fail "simulate --visibilities: $(cat "$dir/err")"
  for name in v exact moved; do
    (cd "$dir" && wsclean -quiet -size 256 256 -scale 1amin -name $name $name.ms) \
      > "$dir/wsclean.log" 2>&1 || fail "wsclean $name.ms: $(tail -n 5 "$dir/wsclean.log")"
  done
  "$PY" - "$dir/v-image.fits" "$dir/exact-image.fits" "$dir/moved-image.fits" > "$dir/out" 2>&1 <<'PYTHON' || fail "WSClean image: $(cat "$dir/out")"
import sys
import warnings
import numpy as np
from astropy.io import fits
from astropy.wcs import WCS

warnings.filterwarnings("ignore")  # astropy's notes on WSClean's header (MJD-OBS from DATE-OBS)

def peak_near(path, ra, dec):
    hdu = fits.open(path)[0]
    image = hdu.data[0, 0]
    x, y = WCS(hdu.header).celestial.world_to_pixel_values(ra, dec)
    xi, yi = int(round(float(x))), int(round(float(y)))
    box = image[yi - 2:yi + 3, xi - 2:xi + 3]
    j, i = np.unravel_index(np.argmax(box), box.shape)
    return float(x), float(y), xi - 2 + i, yi - 2 + j, box[j, i]

problems = []
for ra, dec, flux in ((60.0, -30.0, 3.0), (60.2887, -30.05, 2.0), (59.85, -29.8, 1.5)):
    x, y, px, py, peak = peak_near(sys.argv[1], ra, dec)
    peak /= 16.0  # gain squared
    exact = peak_near(sys.argv[2], ra, dec)[4]
    print("(%g, %g): expected pixel (%.2f, %.2f), peak pixel (%d, %d) = %.3f Jy of %g (exact "
          "visibilities: %.3f)" % (ra, dec, x, y, px, py, peak, flux, exact))
    if abs(px - x) > 1 or abs(py - y) > 1 or abs(peak / flux - 1) > 0.2 or abs(peak / exact - 1) > 0.03:
        problems.append("source at (%g, %g)" % (ra, dec))
moved = fits.open(sys.argv[3])[0].header
if abs(moved["CRVAL1"] - 60.2887) > 1e-6 or abs(moved["CRVAL2"] + 30.05) > 1e-6:
    problems.append("re-phased image centred on (%g, %g)" % (moved["CRVAL1"], moved["CRVAL2"]))
x, y, px, py, peak = peak_near(sys.argv[3], 60.2887, -30.05)
print("re-phased: source (60.2887, -30.05) expected at pixel (%.2f, %.2f), peak pixel (%d, %d)"
      % (x, y, px, py))
if abs(px - x) > 1 or abs(py - y) > 1 or abs(peak / 16.0 / 2.0 - 1) > 0.2:
    problems.append("re-phased source at (60.2887, -30.05)")
if problems:
    sys.exit("misplaced or wrong flux: " + ", ".join(problems))
PYTHON
else
  skipped="$skipped wsclean"
fi

if [ $failures -ne 0 ]; then echo "corr_measurement_set: $failures failed"; exit 1; fi
if [ -n "$skipped" ]; then echo "not installed:$skipped"; exit 77; fi
echo "corr_measurement_set: all passed"
exit 0
