#!/bin/sh
# From station voltages to an image:
#   examples/corr_image.sh
# It simulates a second of voltages of the VLA in its D configuration (27 antennas, baselines
# up to a kilometre) looking at three point sources at 1.4 GHz, in 16 channels of 15.6 kHz
# (narrow enough for raw voltages of kilometre baselines: rapt(7), CORRELATION), streams them
# into corr (quarter-second integrations, fringe-stopped towards the pointing) and writes the
# visibilities as UVFITS and, when rapt has casacore, as a Measurement Set. WSClean then makes
# a dirty image of the Measurement Set where it is installed; otherwise, or as well, the
# independent direct-DFT imager of the tests (tests/e2e/vis_dft_image.py, numpy and astropy)
# images the UVFITS file. Either way each source should appear at its position with about its
# flux (a dirty snapshot image: the sources' sidelobes move the peaks by up to ten per cent).
# Outputs go to corr-image-output/ (replaced on each run).
set -e
BIN=${BUILD:-build}/bin
OUT=corr-image-output
rm -rf "$OUT" && mkdir -p "$OUT"
here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3

# Sources (J2000, Jy): the pointing centre, 8.7' east and 6' north, 4.3' west and 9' south.
sources="180.0,30.0,2.0 180.1666667,30.1,1.0 179.9166667,29.85,0.7"
sky=""
for s in $sources; do
  IFS=, read -r ra dec flux <<EOF
$s
EOF
  sky="$sky --source ra=$ra,dec=$dec,flux=$flux"
done

echo "== simulate | corr: 1.05 s of VLA-D voltages into visibilities"
# Float voltages in sqrt(Jy) (--gain 1), so the visibilities come out in Jy.
# shellcheck disable=SC2086
"$BIN/simulate" -q --voltages --layout "$here/layouts/vla_d.txt" --freq 1400 --bw 0.25 \
    --nchans 16 --nsamples 16384 --ra 12:00:00 --dec +30:00:00 --tstart 60310.5 \
    --no-noise --nbits 32 --gain 1 $sky -o "$OUT/vla.dada"
"$BIN/corr" --tint 0.25 -o "$OUT/vla.uvfits" "$OUT/vla.dada"
"$BIN/inspect" "$OUT/vla.uvfits" | head -n 18
ms=""
if "$BIN/corr" -q --tint 0.25 -o "$OUT/vla.ms" "$OUT/vla.dada" 2> "$OUT/ms.err"; then
  ms="$OUT/vla.ms"
else
  echo "(no Measurement Set: $(cat "$OUT/ms.err"))"
fi

imaged=""
if [ -n "$ms" ] && command -v wsclean > /dev/null 2>&1; then
  echo "== wsclean: a 256 x 256 dirty image of 20\" pixels"
  wsclean -quiet -size 256 256 -scale 20asec -name "$OUT/vla" "$ms"
  imaged="$OUT/vla-image.fits"
  if "$PY" -c "import astropy.wcs, numpy" 2> /dev/null; then
    "$PY" - "$imaged" $sources <<'PYTHON'
import sys
import warnings
import numpy as np
from astropy.io import fits
from astropy.wcs import WCS

warnings.filterwarnings("ignore")
hdu = fits.open(sys.argv[1])[0]
image, wcs = hdu.data[0, 0], WCS(hdu.header).celestial
for source in sys.argv[2:]:
    ra, dec, flux = (float(x) for x in source.split(","))
    x, y = (int(round(float(v))) for v in wcs.world_to_pixel_values(ra, dec))
    box = image[y - 2:y + 3, x - 2:x + 3]
    j, i = np.unravel_index(np.argmax(box), box.shape)
    print("source (%.4f, %.4f) of %.2f Jy: expected at pixel (%d, %d), peak %.3f Jy at (%d, %d)"
          % (ra, dec, flux, x, y, box[j, i], x - 2 + i, y - 2 + j))
PYTHON
  fi
fi
if "$PY" -c "import numpy, astropy.io.fits" 2> /dev/null; then
  echo "== the direct-DFT imager on the UVFITS file"
  # shellcheck disable=SC2086
  "$PY" "$here/../tests/e2e/vis_dft_image.py" --npix 256 --cell 20 --flux-tol 0.15 \
      --fits "$OUT/vla-dft.fits" "$OUT/vla.uvfits" $sources
  imaged="$imaged $OUT/vla-dft.fits"
fi
[ -n "$imaged" ] || echo "neither WSClean nor python3 with numpy and astropy: no image made"
echo "images:${imaged:- none}"
