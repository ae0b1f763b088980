#!/bin/sh
# idg-grid against WSClean: the same Measurement Sets imaged by both with the same size, pixel
# scale, weighting and polarisation must give images with the same orientation and phase
# centre pixel, a correlation of at least 0.99 over the inner 80 % and peaks within 1 %
# (tests/e2e/idg_grid_compare.py prints both numbers). Data: a simulated MS of three point
# sources (natural, uniform and Briggs weighting, a Gaussian taper; XX; two channel groups), and
# the real EVLA and PAPER Measurement Sets of ../shared/data/pyuvdata (RAPT_SHARED_DATA overrides the
# folder); PAPER's XY, which WSClean cannot image alone, against the direct DFT of
# vis_dft_image.py; and a model predicted into MODEL_DATA by both. WSClean runs without its
# weighting rank filter; both pad the grid by their default 1.2 (to the same size), so that
# uniform and Briggs weighting count the same uv cells. Each check skips (exit 77 with a message) when its tool or data is missing:
# a build without casacore, WSClean, numpy/astropy. Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=${RAPT_SHARED_DATA:-$HERE/../../../shared/data}
PY=/usr/bin/python3
COMPARE="$HERE/idg_grid_compare.py"
for program in "$BIN/simulate" "$BIN/idg-grid"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
command -v wsclean > /dev/null 2>&1 || { echo "wsclean not installed"; exit 77; }
"$PY" -c "import numpy, astropy.io.fits" 2>/dev/null ||
  { echo "$PY with numpy and astropy not found (Debian python3-numpy python3-astropy)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skipped=""

# The simulated array: ten antennas within a kilometre, 16 channels at 1.4 GHz, 12 minutes.
ten=$(cd "$(dirname "$0")" && pwd)/ten_antennas.txt
"$BIN/simulate" -q --visibilities --layout "$ten" --freq 1400 --ra 60 --dec -30 \
    --tstart 60000.1 --nchans 16 --bw 16 --nints 12 --int-time 60 \
    --source ra=60.02,dec=-30.01,flux=2.5 --source ra=59.95,dec=-29.97,flux=1 \
    --source ra=60.05,dec=-29.95,flux=0.7 -o "$dir/sim.ms" 2> "$dir/err"
status=$?
if [ $status = 2 ] && grep -q "Measurement Set" "$dir/err"; then
  echo "this build has no Measurement Set support (casacore): $(cat "$dir/err")"; exit 77
fi
[ $status = 0 ] || { echo "simulate: $(cat "$dir/err")"; exit 1; }

# compare LABEL MS "IDG-OPTIONS" "WSCLEAN-OPTIONS" [IMAGE SUFFIX]: both image MS, then compare
# NAME-SUFFIX (default dirty.fits; WSClean names its images the same way).
compare() {
  label=$1; ms=$2; idg_options=$3; ws_options=$4; image=${5:-dirty.fits}
  rm -f "$dir"/idg-* "$dir"/ws-*
  # shellcheck disable=SC2086
  "$BIN/idg-grid" -q $idg_options -o "$dir/idg" "$ms" 2> "$dir/err" ||
    { fail "$label: idg-grid $idg_options: $(cat "$dir/err")"; return; }
  # shellcheck disable=SC2086
  (cd "$dir" && wsclean -quiet -make-psf -weighting-rank-filter 0 $ws_options -name ws "$ms") \
    > "$dir/wsclean.log" 2>&1 || { fail "$label: wsclean: $(tail -n 3 "$dir/wsclean.log")"; return; }
  "$PY" "$COMPARE" "$label" "$dir/idg-$image" "$dir/ws-$image" || failures=$((failures + 1))
}

compare "simulated, natural" "$dir/sim.ms" "--size 256 --scale 4asec --weight natural" \
  "-size 256 256 -scale 4asec -weight natural -pol I"
compare "simulated, natural, PSF" "$dir/sim.ms" "--size 256 --scale 4asec --weight natural" \
  "-size 256 256 -scale 4asec -weight natural -pol I" psf.fits
compare "simulated, uniform" "$dir/sim.ms" "--size 256 --scale 4asec --weight uniform" \
  "-size 256 256 -scale 4asec -weight uniform -pol I"
compare "simulated, briggs 0" "$dir/sim.ms" "--size 256 --scale 4asec --weight briggs:0" \
  "-size 256 256 -scale 4asec -weight briggs 0 -pol I"
compare "simulated, natural, taper 30asec" "$dir/sim.ms" \
  "--size 256 --scale 4asec --weight natural --taper 30asec" \
  "-size 256 256 -scale 4asec -weight natural -taper-gaussian 30asec -pol I"
compare "simulated, uniform, taper 30asec, PSF" "$dir/sim.ms" \
  "--size 256 --scale 4asec --weight uniform --taper 30asec" \
  "-size 256 256 -scale 4asec -weight uniform -taper-gaussian 30asec -pol I" psf.fits
compare "simulated, XX" "$dir/sim.ms" "--size 256 --scale 4asec --pol XX" \
  "-size 256 256 -scale 4asec -weight natural -pol xx"
compare "simulated, channel group 1 of 2" "$dir/sim.ms" \
  "--size 256 --scale 4asec --channels-out 2" \
  "-size 256 256 -scale 4asec -weight natural -pol I -channels-out 2" 0001-dirty.fits
compare "simulated, MFS of 2 channel groups" "$dir/sim.ms" \
  "--size 256 --scale 4asec --channels-out 2" \
  "-size 256 256 -scale 4asec -weight natural -pol I -channels-out 2" MFS-dirty.fits

# Prediction: a model of the brightest simulated source alone, in the pixel nearest to it of
# WSClean's own dirty image header, predicted into MODEL_DATA by both programs; both must agree
# with each other (and idg-grid with the visibilities of a source at that pixel's centre, which
# simulate writes exactly) in orientation and sign. WSClean's own prediction is less exact
# (its default gridding), so the two are held to 1 % of the flux, idg-grid to 1e-3.
if "$PY" -c "import casacore.tables" 2>/dev/null; then
  rm -f "$dir"/ws-*
  (cd "$dir" && wsclean -quiet -size 256 256 -scale 4asec -name ws sim.ms) > "$dir/wsclean.log" 2>&1 ||
    fail "wsclean for the model header: $(tail -n 3 "$dir/wsclean.log")"
  "$PY" - "$dir/ws-dirty.fits" "$dir/ws-model.fits" "$dir/source.txt" <<'PYTHON' || fail "model image"
import sys
import warnings
import numpy as np
from astropy.io import fits
from astropy.wcs import WCS
warnings.filterwarnings("ignore")  # astropy's notes on WSClean's header
hdu = fits.open(sys.argv[1])[0]
x, y = WCS(hdu.header).celestial.world_to_pixel_values(60.02, -30.01)
x, y = int(round(float(x))), int(round(float(y)))
model = np.zeros_like(hdu.data)
model[0, 0, y, x] = 2.5
fits.PrimaryHDU(model, hdu.header).writeto(sys.argv[2])
ra, dec = WCS(hdu.header).celestial.pixel_to_world_values(x, y)
open(sys.argv[3], "w").write("ra=%.10f,dec=%.10f,flux=2.5\n" % (ra, dec))
PYTHON
  "$BIN/simulate" -q --visibilities --layout "$ten" --freq 1400 --ra 60 --dec -30 \
      --tstart 60000.1 --nchans 16 --bw 16 --nints 12 --int-time 60 \
      --source "$(cat "$dir/source.txt")" -o "$dir/exact.ms" 2> "$dir/err" || fail "simulate: $(cat "$dir/err")"
  cp -r "$dir/exact.ms" "$dir/idgpred.ms" && cp -r "$dir/exact.ms" "$dir/wspred.ms"
  "$BIN/idg-grid" -q --predict "$dir/ws-model.fits" "$dir/idgpred.ms" 2> "$dir/err" ||
    fail "idg-grid --predict: $(cat "$dir/err")"
  (cd "$dir" && wsclean -quiet -predict -name ws wspred.ms) > "$dir/wsclean.log" 2>&1 ||
    fail "wsclean -predict: $(tail -n 3 "$dir/wsclean.log")"
  "$PY" - "$dir" <<'PYTHON' || failures=$((failures + 1))
import sys
import numpy as np
from casacore.tables import table
d = sys.argv[1]
exact = table(d + "/exact.ms", ack=False).getcol("DATA")[..., :2]
idg = table(d + "/idgpred.ms", ack=False).getcol("MODEL_DATA")[..., :2]
ws = table(d + "/wspred.ms", ack=False).getcol("MODEL_DATA")[..., :2]
e_idg = np.abs(idg - exact).max() / 2.5
e_ws = np.abs(ws - exact).max() / 2.5
e_both = np.abs(idg - ws).max() / 2.5
print("prediction: idg-grid to %.2g of the flux from the exact visibilities, wsclean to %.2g, "
      "the two %.2g apart" % (e_idg, e_ws, e_both))
if not (e_idg < 1e-3 and e_both < 0.01):
    sys.exit("prediction: FAIL")
PYTHON
else
  skipped="$skipped python3-casacore"
fi

evla="$DATA/pyuvdata/day2_TDEM0003_10s_norx_1src_1spw.ms"
if [ -d "$evla" ]; then
  compare "EVLA, natural" "$evla" "--size 256 --scale 0.5asec --weight natural" \
    "-size 256 256 -scale 0.5asec -weight natural -pol I"
  compare "EVLA, briggs 0.5" "$evla" "--size 256 --scale 0.5asec --weight briggs:0.5" \
    "-size 256 256 -scale 0.5asec -weight briggs 0.5 -pol I"
else
  skipped="$skipped $evla"
fi
# The PAPER data hold XY alone, which WSClean refuses to image ("you have to specify both XY
# and YX"): its MS is checked against the independent direct-DFT imager of vis_dft_image.py
# on the same data's UVFITS file instead.
paper="$DATA/pyuvdata/zen.2456865.60537.xy.uvcRREAAM"
if [ -d "$paper.ms" ] && [ -f "$paper.uvfits" ]; then
  rm -f "$dir"/idg-*
  if "$BIN/idg-grid" -q --size 128 --scale 0.25deg --pol XY -o "$dir/idg" "$paper.ms" 2> "$dir/err" &&
     "$PY" "$HERE/vis_dft_image.py" --npix 128 --cell 0.25deg --product XY \
       --fits "$dir/dft.fits" "$paper.uvfits" > "$dir/dft.log" 2>&1; then
    "$PY" "$COMPARE" --reference "direct DFT" --sky-only "PAPER, XY" "$dir/idg-dirty.fits" \
      "$dir/dft.fits" || failures=$((failures + 1))
  else
    fail "PAPER, XY: $(cat "$dir/err" "$dir/dft.log" | grep -v warning)"
  fi
else
  skipped="$skipped $paper.ms"
fi

if [ $failures -ne 0 ]; then echo "idg_grid_wsclean: $failures failed"; exit 1; fi
if [ -n "$skipped" ]; then echo "not found:$skipped"; exit 77; fi
echo "idg_grid_wsclean: all passed"
exit 0
