#!/bin/sh
# idg-grid as a user meets it: --help and the man page's options, a simulated source at its
# pixel with its flux from UVFITS and (with casacore) a Measurement Set, WSClean's file names
# for --pol lists, --channels-out and --no-psf, the report line, and bad inputs answered by one
# line, exit 1 or 2 and no image left: missing options, --device gpu, a missing or foreign
# file, I from a file holding only XY (the PAPER data), a grid larger than memory, a pixel
# size that puts baselines off the grid, an existing output, a Measurement Set without UVW or
# DATA. Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=${RAPT_SHARED_DATA:-$HERE/../../../shared/data}
IDG="$BIN/idg-grid"
PY=/usr/bin/python3
for program in "$BIN/simulate" "$IDG"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skipped=""

# expect STATUS TEXT ARGS...: idg-grid exits with STATUS, printing one error line on stderr
# that holds TEXT (besides warnings about the file and, for bad usage, the pointer to --help),
# and leaves no image in $dir/out*.
expect() {
  want=$1; text=$2; shift 2
  "$IDG" "$@" > "$dir/stdout" 2> "$dir/err"; got=$?
  [ "$got" = "$want" ] || { fail "idg-grid $*: exit $got, not $want: $(cat "$dir/err")"; return; }
  grep -v "^idg-grid: warning: \|^idg-grid: see 'idg-grid --help'" "$dir/err" > "$dir/errline"
  grep -q -- "$text" "$dir/errline" || fail "idg-grid $*: no '$text' in: $(cat "$dir/err")"
  [ "$(wc -l < "$dir/errline")" -eq 1 ] || fail "idg-grid $*: not one line: $(cat "$dir/err")"
  [ -z "$(ls "$dir" | grep '^out')" ] || fail "idg-grid $*: left $(ls "$dir" | grep '^out')"
  [ -z "$(ls -A "$dir" | grep '^\.out')" ] || fail "idg-grid $*: left a temporary"
}

# --- help and version
"$IDG" --help > "$dir/help" 2>&1 || fail "--help exit status"
for option in size scale name no-psf channels-out pol weight data-column subgrid kernel-size \
    max-timesteps-per-subgrid max-channels-per-subgrid wstep nwlayers device threads force \
    niter gain mgain threshold padding; do
  grep -q -- "--$option" "$dir/help" || fail "--help lacks --$option"
done
"$IDG" --version > /dev/null || fail "--version exit status"

# --- a source on pixel (44, 54) of a 128-pixel image of 6" pixels (20 pixels east, 10 south
# of the phase centre, by the inverse SIN projection), 2.5 Jy, from UVFITS
ten=$(cd "$(dirname "$0")" && pwd)/ten_antennas.txt
obs="--visibilities --layout $ten --freq 1400 --ra 60 --dec -30 --tstart 60000.1 --nchans 4 --bw 8 --nints 12 --int-time 60"
"$BIN/simulate" -q $obs --source ra=60.038496486,dec=-30.016661068,flux=2.5 \
  -o "$dir/one.uvfits" 2> "$dir/err" || { echo "simulate: $(cat "$dir/err")"; exit 1; }
# peak FILE X Y FLUX: the image's brightest pixel is (X, Y) (FITS axes from 0) holding FLUX to
# 1e-3, and the header is WSClean's.
peak() {
  "$PY" - "$@" > "$dir/py" 2>&1 <<'PYTHON' || fail "$1: $(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
hdu = fits.open(sys.argv[1])[0]
h, image = hdu.header, hdu.data[0, 0]
y, x = np.unravel_index(np.argmax(image), image.shape)
want = (int(sys.argv[2]), int(sys.argv[3]))
assert (x, y) == want, "peak at (%d, %d), not %s" % (x, y, want)
assert abs(image[y, x] / float(sys.argv[4]) - 1) < 1e-3, "peak %g" % image[y, x]
n = image.shape[0]
assert h["CTYPE1"] == "RA---SIN" and h["CTYPE2"] == "DEC--SIN", (h["CTYPE1"], h["CTYPE2"])
assert h["CTYPE3"] == "FREQ" and h["CTYPE4"] == "STOKES"
assert h["CRPIX1"] == n / 2 + 1 and h["CRPIX2"] == n / 2 + 1
assert h["CDELT1"] < 0 and abs(h["CDELT1"] + h["CDELT2"]) < 1e-15
assert h["BUNIT"].strip() == "JY/BEAM"
assert abs(h["CRVAL1"] - 60) < 1e-9 and abs(h["CRVAL2"] + 30) < 1e-9
PYTHON
}
# agree A B WHAT: images A and B equal to 1e-4 of B's peak.
agree() {
  "$PY" - "$1" "$2" "$3" > "$dir/py" 2>&1 <<'PYTHON' || fail "$(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
a, b = (fits.getdata(f)[0, 0].astype(np.float64) for f in sys.argv[1:3])
d = np.abs(a - b).max() / np.abs(b).max()
assert d <= 1e-4, "%s differ by %.2e of the peak" % (sys.argv[3], d)
PYTHON
}
if "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null; then
  "$IDG" --size 128 --scale 6asec -o "$dir/uv" "$dir/one.uvfits" 2> "$dir/err" ||
    fail "UVFITS: $(cat "$dir/err")"
  peak "$dir/uv-dirty.fits" 44 54 2.5
  peak "$dir/uv-psf.fits" 64 64 1
  grep -q "visibilities/s; energy: " "$dir/err" || fail "no report line: $(cat "$dir/err")"
  # A bare number is degrees: the same image.
  "$IDG" -q --size 128 --scale 0.0016666666666667 --no-psf -o "$dir/deg" "$dir/one.uvfits" ||
    fail "--scale in degrees"
  peak "$dir/deg-dirty.fits" 44 54 2.5
  # A source on the image's outermost column but one (pixel (1, 64), 63 pixels east): on the
  # padded grid (the default --padding 1.2) it keeps its flux to 1e-3; without padding the
  # taper's correction is inexact there.
  "$BIN/simulate" -q $obs --source ra=60.121243579,dec=-29.999944452,flux=2.5 \
    -o "$dir/edge.uvfits" 2> "$dir/err" || fail "simulate: $(cat "$dir/err")"
  "$IDG" -q --size 128 --scale 6asec --no-psf -o "$dir/edge" "$dir/edge.uvfits" ||
    fail "a source at the edge"
  peak "$dir/edge-dirty.fits" 1 64 2.5
  [ ! -e "$dir/deg-psf.fits" ] || fail "--no-psf wrote a PSF"
  # The CPU engine gives the image of the default engine (the GPU where there is one) to 1e-4
  # of the peak over the inner 80% (the taper correction amplifies rounding towards the edge).
  "$IDG" -q --size 128 --scale 6asec --no-psf --device cpu -o "$dir/cpu" "$dir/one.uvfits" ||
    fail "--device cpu"
  "$PY" - "$dir/uv-dirty.fits" "$dir/cpu-dirty.fits" > "$dir/py" 2>&1 <<'PYTHON' || fail "$(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
a, b = (fits.getdata(f)[0, 0].astype(np.float64) for f in sys.argv[1:3])
n = a.shape[0]; e = n // 10
d = np.abs(a - b)[e:n - e, e:n - e].max() / np.abs(b).max()
assert d <= 1e-4, "default engine and --device cpu differ by %.2e of the peak" % d
PYTHON
  # A wide field on a wide band (6 stations up to 2 km apart, 16 channels over 10 % of the
  # band): a subgrid's channels spread u, v and w, so by default subgrids take fewer of them and
  # the w-layers leave room for the spread that remains. The image equals one made a channel a
  # subgrid on thin layers, to 1e-4 of the peak.
  printf '# frame: enu 52.9088 6.8689 50\nCS001 0 0 0 30\nCS002 250 -120 0 30\nRS106 -900 450 2 30\nRS205 750 1100 -1 30\nRS305 1450 -200 3 30\nRS406 -350 -1300 0 30\n' > "$dir/six.txt"
  "$BIN/simulate" -q --visibilities --layout "$dir/six.txt" --freq 150 --bw 16 --nchans 16 \
    --ra 01:37:41.3 --dec +33:09:35 --tstart 60310.0 --int-time 30 --nints 40 \
    --source ra=01:37:41.3,dec=+33:09:35,flux=10 --source ra=24.6,dec=35.0,flux=5 \
    -o "$dir/wide.uvfits" 2> "$dir/err" || fail "simulate wide: $(cat "$dir/err")"
  "$IDG" -v --size 512 --scale 80asec --no-psf -o "$dir/wide" "$dir/wide.uvfits" 2> "$dir/err" ||
    fail "a wide field on a wide band: $(cat "$dir/err")"
  grep -q "subgrids of at most [1-8] channels" "$dir/err" || fail "wide band: subgrids not narrowed: $(cat "$dir/err")"
  "$IDG" -q --size 512 --scale 80asec --no-psf --max-channels-per-subgrid 1 --nwlayers 200 \
    -o "$dir/thin" "$dir/wide.uvfits" || fail "a channel a subgrid, 200 layers"
  agree "$dir/wide-dirty.fits" "$dir/thin-dirty.fits" "default subgrids and layers and thin ones"
  # --maxuv-l across a baseline's band leaves its upper channels out: the subgrid then spans only
  # the channels kept, and the longest kept fit the grid.
  "$IDG" -q --size 128 --scale 120asec --maxuv-l 740 --no-psf -o "$dir/cut" "$dir/wide.uvfits" 2> "$dir/err" ||
    fail "--maxuv-l across the band: $(cat "$dir/err")"
  "$IDG" -q --size 128 --scale 120asec --maxuv-l 740 --no-psf --max-channels-per-subgrid 1 \
    -o "$dir/cut1" "$dir/wide.uvfits" || fail "--maxuv-l, a channel a subgrid"
  agree "$dir/cut-dirty.fits" "$dir/cut1-dirty.fits" "--maxuv-l: subgrids of several channels and of one"
else
  skipped="$skipped numpy/astropy"
fi

# --- --niter: CLEAN puts the 2.5 Jy in pixel (44, 54) of the model to 1 % and nothing
# elsewhere to speak of, leaves a residual below the threshold and a restored image of 2.5
# Jy/beam there, with the beam in its header; CLEAN's options refused where they do not apply.
if "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null; then
  "$IDG" -q --size 128 --scale 6asec --niter 500 --threshold 0.01 -o "$dir/cl" "$dir/one.uvfits" \
    2> "$dir/err" || fail "--niter: $(cat "$dir/err")"
  "$PY" - "$dir/cl" > "$dir/py" 2>&1 <<'PYTHON' || fail "--niter images: $(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
model, residual, image = (fits.open(sys.argv[1] + "-%s.fits" % k)[0] for k in ("model", "residual", "image"))
m = model.data[0, 0]
assert abs(m[54, 44] / 2.5 - 1) < 0.01, "model %g Jy at the source" % m[54, 44]
assert abs(m.sum() - m[54, 44]) < 0.025, "model %g Jy elsewhere" % (m.sum() - m[54, 44])
assert model.header["BUNIT"].strip() == "JY/PIXEL"
r = residual.data[0, 0][32:96, 32:96]
assert np.abs(r).max() < 0.01, "residual peak %g" % np.abs(r).max()
i = image.data[0, 0]
assert abs(i[54, 44] / 2.5 - 1) < 0.01, "restored %g Jy/beam at the source" % i[54, 44]
h = image.header
assert 0 < h["BMIN"] <= h["BMAJ"] < 0.1 and -90 < h["BPA"] <= 90, (h["BMAJ"], h["BMIN"], h["BPA"])
# As WSClean's, the dirty image and PSF carry the beam fitted to the PSF: the restoring beam.
for kind in ("dirty", "psf"):
    other = fits.open(sys.argv[1] + "-%s.fits" % kind)[0].header
    for key in ("BMAJ", "BMIN", "BPA"):
        assert abs(other[key] - h[key]) <= 1e-6 * abs(h[key]), (kind, key, other[key], h[key])
PYTHON
  [ -f "$dir/cl-dirty.fits" ] && [ -f "$dir/cl-psf.fits" ] || fail "--niter without the dirty image or PSF"
  # Without a PSF there is no beam to give.
  "$PY" -c "
from astropy.io import fits
assert 'BMAJ' not in fits.getheader('$dir/deg-dirty.fits')" || fail "--no-psf: a beam in the dirty image"
  # Several polarisations and channel groups: WSClean's names for each CLEAN image.
  "$IDG" -q --size 128 --scale 6asec --niter 20 --pol XX,YY --channels-out 2 -o "$dir/cl2" \
    "$dir/one.uvfits" 2> "$dir/err" || fail "--niter with --pol and --channels-out: $(cat "$dir/err")"
  for group in 0000 0001; do
    for pol in XX YY; do
      for kind in dirty model residual image; do
        [ -f "$dir/cl2-$group-$pol-$kind.fits" ] || fail "no cl2-$group-$pol-$kind.fits"
      done
    done
    [ -f "$dir/cl2-$group-psf.fits" ] || fail "no cl2-$group-psf.fits"
  done
else
  skipped="$skipped numpy/astropy"
fi
expect 1 "nodir/out-dirty.fits: cannot create" --size 128 --scale 6asec -o "$dir/nodir/out" "$dir/one.uvfits"
expect 2 "needs --niter" --size 128 --scale 6asec --gain 0.2 -o "$dir/out" "$dir/one.uvfits"
expect 2 "--gain must lie" --size 128 --scale 6asec --niter 10 --gain 0 -o "$dir/out" "$dir/one.uvfits"
expect 2 "--mgain must lie" --size 128 --scale 6asec --niter 10 --mgain 1.5 -o "$dir/out" "$dir/one.uvfits"
expect 2 "--niter must not be negative" --size 128 --scale 6asec --niter -1 -o "$dir/out" "$dir/one.uvfits"
expect 2 "--padding must be from 1 to 2" --size 128 --scale 6asec --padding 2.5 -o "$dir/out" "$dir/one.uvfits"
expect 2 "select within a Measurement Set" --size 128 --scale 6asec --field 3 -o "$dir/out" "$dir/one.uvfits"
expect 2 "select within a Measurement Set" --size 128 --scale 6asec --data-column CORRECTED_DATA -o "$dir/out" "$dir/one.uvfits"
expect 2 "does not take --aterms" --size 128 --scale 6asec --niter 10 --aterms "$dir/none.fits" -o "$dir/out" "$dir/one.uvfits"

# --- --predict: a model of 2.5 Jy in pixel (44, 54) of the image's own header predicts the
# simulated visibilities of that source to 1e-3 of its flux (the input's rows, flags, weights)
if "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null && [ -f "$dir/uv-dirty.fits" ]; then
  "$PY" - "$dir/uv-dirty.fits" "$dir/model.fits" <<'PYTHON' || fail "writing the model"
import sys
import numpy as np
from astropy.io import fits
hdu = fits.open(sys.argv[1])[0]
model = np.zeros_like(hdu.data)
model[0, 0, 54, 44] = 2.5
hdu.header["BUNIT"] = "JY/PIXEL"
fits.PrimaryHDU(model, hdu.header).writeto(sys.argv[2])
PYTHON
  "$IDG" --predict "$dir/model.fits" -o "$dir/pred.uvfits" "$dir/one.uvfits" 2> "$dir/err" ||
    fail "--predict: $(cat "$dir/err")"
  grep -q "visibilities predicted into .* visibilities/s; energy: " "$dir/err" ||
    fail "--predict report: $(cat "$dir/err")"
  "$PY" - "$dir/one.uvfits" "$dir/pred.uvfits" > "$dir/py" 2>&1 <<'PYTHON' || fail "--predict values: $(cat "$dir/py")"
import sys
import numpy as np
from astropy.io import fits
a, b = fits.open(sys.argv[1])[0].data, fits.open(sys.argv[2])[0].data
assert len(a) == len(b) and (a["ANTENNA1"] == b["ANTENNA1"]).all()
va = a.data[..., 0] + 1j * a.data[..., 1]
vb = b.data[..., 0] + 1j * b.data[..., 1]
parallel = [0, 1]  # XX, YY get the Stokes I model; XY, YX stay 0
err = np.abs(va[..., parallel] - vb[..., parallel]).max() / 2.5
assert err < 1e-3, "largest error %.3g of the flux" % err
assert np.abs(vb[..., 2:]).max() == 0
assert (a.data[..., 2] == b.data[..., 2]).all(), "weights changed"
print("predicted to %.2g of the flux" % err)
PYTHON
  expect 2 "does not apply to --predict" --predict "$dir/model.fits" --pol XX -o "$dir/out.uvfits" "$dir/one.uvfits"
  expect 2 "differs from the model's" --predict "$dir/model.fits" --size 256 -o "$dir/out.uvfits" "$dir/one.uvfits"
  expect 1 "already exists" --predict "$dir/model.fits" -o "$dir/pred.uvfits" "$dir/one.uvfits"
  cp "$dir/one.uvfits" "$dir/self.uvfits"
  expect 2 "is the input itself" --force --predict "$dir/model.fits" -o "$dir/self.uvfits" "$dir/self.uvfits"
  cmp -s "$dir/one.uvfits" "$dir/self.uvfits" || fail "--predict -o INPUT --force changed the input"
  # A model of another field.
  "$PY" -c "
from astropy.io import fits
h = fits.open('$dir/model.fits')
h[0].header['CRVAL1'] = 61.0
h.writeto('$dir/elsewhere.fits')"
  expect 1 "from the phase centre of" --predict "$dir/elsewhere.fits" -o "$dir/out.uvfits" "$dir/one.uvfits"
  # A model pixel near the edge, where the taper is inexact, is warned of: without padding;
  # the default padding's border (14 pixels) is wider than the kernel.
  "$PY" -c "
from astropy.io import fits
h = fits.open('$dir/model.fits')
h[0].data[0, 0, 2, 60] = 1.0
h.writeto('$dir/edge.fits')"
  "$IDG" --padding 1 --predict "$dir/edge.fits" -o "$dir/edge1.uvfits" "$dir/one.uvfits" \
    2> "$dir/err" || fail "--predict of an edge pixel: $(cat "$dir/err")"
  grep -q "1 model pixels lie within 9 pixels of the image's edge" "$dir/err" ||
    fail "--predict of an edge pixel: no warning in $(cat "$dir/err")"
  "$IDG" --predict "$dir/edge.fits" -o "$dir/edge2.uvfits" "$dir/one.uvfits" 2> "$dir/err" ||
    fail "--predict of an edge pixel, padded: $(cat "$dir/err")"
  ! grep -q "model pixels lie within" "$dir/err" ||
    fail "--predict of an edge pixel, padded: warned: $(cat "$dir/err")"
fi

# --- WSClean's names for several polarisations and channel groups
"$IDG" -q --size 64 --scale 6asec --pol IQUV --channels-out 2 -o "$dir/names" "$dir/one.uvfits" ||
  fail "--pol IQUV --channels-out 2"
for f in 0000-I-dirty 0000-Q-dirty 0000-U-dirty 0000-V-dirty 0001-I-dirty 0001-V-dirty 0000-psf 0001-psf \
    MFS-I-dirty MFS-V-dirty MFS-psf; do
  [ -f "$dir/names-$f.fits" ] || fail "no names-$f.fits (have: $(ls "$dir" | grep names | tr '\n' ' '))"
done
# The MFS image of natural weighting (the groups' images weighted by their weights; three
# groups of the four channels hold 1, 1 and 2) is the image of every channel at once, to 1e-4
# of the peak, and is described as the whole band.
if "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null; then
  "$IDG" -q --size 64 --scale 6asec --no-psf -o "$dir/whole" "$dir/one.uvfits" || fail "whole band"
  "$IDG" -q --size 64 --scale 6asec --no-psf --channels-out 3 -o "$dir/three" "$dir/one.uvfits" ||
    fail "--channels-out 3"
  "$PY" - "$dir/three-MFS-dirty.fits" "$dir/whole-dirty.fits" > "$dir/py" 2>&1 <<'PYTHON' ||
import sys
import numpy as np
from astropy.io import fits
mfs, whole = (fits.open(f)[0] for f in sys.argv[1:3])
d = np.abs(mfs.data - whole.data).max() / np.abs(whole.data).max()
assert d < 1e-4, "MFS and whole-band images differ by %.2e of the peak" % d
for key in ("CRVAL3", "CDELT3"):
    assert abs(mfs.header[key] / whole.header[key] - 1) < 1e-12, (key, mfs.header[key], whole.header[key])
PYTHON
    fail "MFS image: $(cat "$dir/py")"
fi
"$IDG" -q --size 64 --scale 6asec --pol xx,yy -o "$dir/lin" "$dir/one.uvfits" || fail "--pol xx,yy"
[ -f "$dir/lin-XX-dirty.fits" ] && [ -f "$dir/lin-YY-dirty.fits" ] && [ -f "$dir/lin-psf.fits" ] ||
  fail "--pol xx,yy names: $(ls "$dir" | grep lin)"
expect 1 "already exists" --size 64 --scale 6asec --pol xx,yy -o "$dir/lin" "$dir/one.uvfits"
"$IDG" -q --force --size 64 --scale 6asec --pol xx,yy -o "$dir/lin" "$dir/one.uvfits" ||
  fail "--force did not replace"

# --- bad usage: exit 2, one line, no image
u="$dir/one.uvfits"
expect 2 "size is required" --scale 6asec -o "$dir/out" "$u"
expect 2 "scale is required" --size 64 -o "$dir/out" "$u"
expect 2 "name (-o) is required" --size 64 --scale 6asec "$u"
expect 2 "scale must be a positive angle" --size 64 --scale 6parsec -o "$dir/out" "$u"
if "$IDG" -q --size 64 --scale 6asec --device gpu --no-psf -o "$dir/gpu" "$u" 2> "$dir/err"; then
  rm -f "$dir"/gpu-*.fits  # a GPU is here: it images (checked against the CPU above)
else
  expect 2 "gpu" --size 64 --scale 6asec --device gpu -o "$dir/out" "$u"
fi
expect 2 "weight must be" --size 64 --scale 6asec --weight robust -o "$dir/out" "$u"
expect 2 "--pol" --size 64 --scale 6asec --pol IZ -o "$dir/out" "$u"
expect 2 "channels-out 5 asks for more images than the 4 channels" --size 64 --scale 6asec \
  --channels-out 5 -o "$dir/out" "$u"
expect 2 "must be an even number of pixels larger than --kernel-size (40)" --size 64 --scale 6asec --kernel-size 40 -o "$dir/out" "$u"
expect 2 "unrecognised\|unrecognized\|Option" --size 64 --scale 6asec --bogus -o "$dir/out" "$u"
# A grid the machine cannot hold: refused before anything is read, with both sizes.
expect 2 "gridding needs .* of memory .* available" --size 400000 --scale 0.001asec -o "$dir/out" "$u"

# --- bad data: exit 1, one line, no image
expect 1 "No such file" --size 64 --scale 6asec -o "$dir/out" "$dir/missing.uvfits"
echo "not visibilities" > "$dir/text.txt"
expect 1 "neither a Measurement Set" --size 64 --scale 6asec -o "$dir/out" "$dir/text.txt"
expect 1 "one.uvfits: holds random groups (UVFITS visibilities), not an image" \
  --predict "$dir/one.uvfits" -o "$dir/out.uvfits" "$dir/one.uvfits"
# Baselines of up to 8000 wavelengths on a grid of 1' pixels that holds about 860.
expect 1 "visibilities fall off the grid: the largest |u| or |v| is 81[0-9][0-9] wavelengths" \
  --size 64 --scale 1amin -o "$dir/out" "$u"
# ... imaged with those beyond 800 wavelengths left out: the source, 2' east and 1' south, on
# its pixel with its flux, and the PSF's peak 1 (the weights' sum leaves them out too).
if "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null; then
  "$IDG" -v --size 64 --scale 1amin --maxuv-l 800 -o "$dir/short" "$u" 2> "$dir/err" ||
    fail "--maxuv-l 800: $(cat "$dir/err")"
  grep -q "natural weighting, uv up to 800 wavelengths" "$dir/err" || fail "--maxuv-l: $(cat "$dir/err")"
  peak "$dir/short-dirty.fits" 30 31 2.5
  peak "$dir/short-psf.fits" 32 32 1
fi
expect 1 "every visibility is flagged or outside --minuv-l .. --maxuv-l" \
  --size 64 --scale 6asec --minuv-l 1e6 -o "$dir/out" "$u"
expect 2 "--maxuv-l must be larger than --minuv-l" --size 64 --scale 6asec --minuv-l 100 \
  --maxuv-l 50 -o "$dir/out" "$u"
expect 2 "--maxuv-l must be a number of wavelengths, 0 or more" --size 64 --scale 6asec \
  --maxuv-l -5 -o "$dir/out" "$u"
expect 2 "--minuv-l does not apply to --predict" --predict "$dir/one.uvfits" --minuv-l 5 \
  -o "$dir/out.uvfits" "$u"
paper_uv="$DATA/pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits"
if [ -f "$paper_uv" ]; then
  expect 1 "cannot make I: the file holds XY (try --pol XY)" --size 128 --scale 0.25deg \
    -o "$dir/out" "$paper_uv"
  "$IDG" -q --size 128 --scale 0.25deg --pol XY -o "$dir/paper" "$paper_uv" 2> "$dir/err" ||
    fail "PAPER --pol XY: $(cat "$dir/err")"
else
  skipped="$skipped $paper_uv"
fi

# Every weight of this MWA file is 0 (all flagged).
mwa="$DATA/pyuvdata/1061316296.uvfits"
if [ -f "$mwa" ]; then
  expect 1 "every visibility is flagged: nothing to image" --size 64 --scale 0.5deg -o "$dir/out" "$mwa"
else
  skipped="$skipped $mwa"
fi

# --- Measurement Sets (casacore): the source again, and MSs lacking UVW or DATA
"$BIN/simulate" -q $obs --source ra=60.038496486,dec=-30.016661068,flux=2.5 \
  -o "$dir/one.ms" 2> "$dir/err"
status=$?
if [ $status = 2 ] && grep -q "Measurement Set" "$dir/err"; then
  skipped="$skipped casacore"
else
  [ $status = 0 ] || fail "simulate one.ms: $(cat "$dir/err")"
  if "$PY" -c "import numpy, astropy.io.fits" 2>/dev/null; then
    "$IDG" -q --size 128 --scale 6asec --data-column DATA -o "$dir/ms" "$dir/one.ms" ||
      fail "MS input"
    peak "$dir/ms-dirty.fits" 44 54 2.5
    if [ -f "$dir/model.fits" ]; then
      "$IDG" -q --predict "$dir/model.fits" -o "$dir/pred.ms" "$dir/one.ms" 2> "$dir/err" ||
        fail "--predict into an MS: $(cat "$dir/err")"
      # Imaged again, the predicted MS shows the model's source.
      "$IDG" -q --size 128 --scale 6asec -o "$dir/predicted" "$dir/pred.ms" ||
        fail "imaging the predicted MS"
      peak "$dir/predicted-dirty.fits" 44 54 2.5
    fi
  fi
  expect 1 "no column CORRECTED in the main table" --size 64 --scale 6asec --data-column corrected -o "$dir/out" "$dir/one.ms"
  if "$PY" -c "import casacore.tables" 2>/dev/null; then
    # --predict without -o: MODEL_DATA of the MS itself, next to DATA, to 1e-3 of the flux.
    if [ -f "$dir/model.fits" ]; then
      cp -r "$dir/one.ms" "$dir/model.ms"
      "$IDG" -q --predict "$dir/model.fits" "$dir/model.ms" 2> "$dir/err" ||
        fail "--predict into MODEL_DATA: $(cat "$dir/err")"
      "$PY" - "$dir/model.ms" > "$dir/py" 2>&1 <<'PYTHON' || fail "MODEL_DATA: $(cat "$dir/py")"
import sys
import numpy as np
from casacore.tables import table
ms = table(sys.argv[1], ack=False)
data, model = ms.getcol("DATA"), ms.getcol("MODEL_DATA")
cross = ms.getcol("ANTENNA1") != ms.getcol("ANTENNA2")
err = np.abs(data[cross][..., [0, 1]] - model[cross][..., [0, 1]]).max() / 2.5
assert err < 1e-3, "largest error %.3g of the flux" % err
print("MODEL_DATA to %.2g of the flux" % err)
PYTHON
      "$IDG" -q --size 128 --scale 6asec --data-column MODEL_DATA -o "$dir/modelcol" \
        "$dir/model.ms" || fail "imaging MODEL_DATA"
      [ -f "$dir/modelcol-dirty.fits" ] && peak "$dir/modelcol-dirty.fits" 44 54 2.5
      expect 2 "only a Measurement Set has" --predict "$dir/model.fits" "$dir/one.uvfits"
    fi
    for column in UVW DATA; do
      cp -r "$dir/one.ms" "$dir/no$column.ms"
      "$PY" -c "from casacore.tables import table; table('$dir/no$column.ms', readonly=False, ack=False).removecols('$column')"
      expect 1 "$column" --size 64 --scale 6asec -o "$dir/out" "$dir/no$column.ms"
    done
  else
    skipped="$skipped python3-casacore"
  fi
fi

if [ $failures -ne 0 ]; then echo "idg_grid_cli: $failures failed"; exit 1; fi
if [ -n "$skipped" ]; then echo "not available:$skipped"; exit 77; fi
echo "idg_grid_cli: all passed"
exit 0
