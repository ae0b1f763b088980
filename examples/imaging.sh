#!/bin/sh
# Dirty images by image-domain gridding, beside WSClean's:
#   examples/imaging.sh [--force]
# (a) It simulates a second of voltages of the VLA in its D configuration (27 antennas) looking
#     at three point sources at 1.4 GHz (16 channels of 15.6 kHz), correlates them with corr
#     into a Measurement Set (UVFITS in a build without casacore) and makes a naturally
#     weighted dirty image and PSF of 256 x 256 pixels of 15" with idg-grid and, where it is
#     installed, with wsclean (same size, scale and weighting): both peaks should be the 2 Jy
#     source at the phase centre. idg-grid then CLEANs it (--niter): the restored image's peak
#     is that source, and the model holds the three sources' 3.7 Jy.
# (b) It images the real EVLA Measurement Set of the shared data (../shared/data/pyuvdata/, or
#     $RAPT_SHARED_DATA/pyuvdata/; a calibrator at the phase centre, 36 GHz, 28 antennas) with
#     idg-grid and wsclean, 256 x 256 pixels of 0.5" (raw, uncalibrated data: the two images
#     should agree, peak and position). Skipped with a message when the data are missing.
# For each image it prints the peak, its pixel (FITS, from 1) and its position. Outputs go to
# imaging-output/; an existing imaging-output/ is left alone unless --force is given.
set -e
BIN=${BUILD:-build}/bin
OUT=imaging-output
DATA=${RAPT_SHARED_DATA:-../shared/data}
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
  "") ;;
  -f|--force) rm -rf "$OUT" ;;
  *) echo "usage: examples/imaging.sh [--force]" >&2; exit 2 ;;
esac
if [ -e "$OUT" ]; then
  echo "imaging.sh: $OUT exists: remove it or run with --force to replace it" >&2
  exit 1
fi
for program in simulate corr idg-grid inspect; do
  [ -x "$BIN/$program" ] || { echo "imaging.sh: $BIN/$program not built (make all)" >&2; exit 1; }
done
mkdir -p "$OUT"
if command -v wsclean > /dev/null 2>&1; then wsclean=wsclean; else wsclean=""; fi

# peak LABEL IMAGE: the image's peak, its FITS pixel and its right ascension and declination
# (the inverse SIN projection from the centre, at pixel N/2 + 1, and the cell).
peak() {
  "$BIN/inspect" "$2" | awk -v label="$1" '
    $1 == "Size" { n = $3 }
    $1 == "Cell" { cell = $3 / 3600 }
    $1 == "Centre" { s = $0; sub(/.*\(/, "", s); sub(/ deg\).*/, "", s); split(s, c, ", "); ra0 = c[1]; dec0 = c[2] }
    $1 == "Peak" { value = $2; s = $0; sub(/.*FITS \(/, "", s); sub(/\).*/, "", s); split(s, p, ", "); x = p[1]; y = p[2] }
    END {
      d = atan2(0, -1) / 180
      l = -(x - n / 2 - 1) * cell * d; m = (y - n / 2 - 1) * cell * d; z = sqrt(1 - l * l - m * m)
      s = m * cos(dec0 * d) + z * sin(dec0 * d)
      dec = atan2(s, sqrt(1 - s * s)) / d
      ra = ra0 + atan2(l, z * cos(dec0 * d) - m * sin(dec0 * d)) / d
      if (ra < 0) ra += 360
      printf "   %-15s peak %.4g Jy/beam at pixel (%d, %d): RA %.5f, Dec %+.5f deg\n", label, value, x, y, ra, dec
    }'
}

echo "== (a) simulate | corr: 1.05 s of VLA-D voltages of three point sources"
# Sources (J2000, Jy): the pointing centre, 8.7' east and 6' north, 4.3' west and 9' south.
# Float voltages in sqrt(Jy) (--gain 1, no noise), so the visibilities come out in Jy.
"$BIN/simulate" -q --voltages --layout "$here/layouts/vla_d.txt" --freq 1400 --bw 0.25 \
    --nchans 16 --nsamples 16384 --ra 12:00:00 --dec +30:00:00 --tstart 60310.5 \
    --no-noise --nbits 32 --gain 1 --source ra=180.0,dec=30.0,flux=2.0 \
    --source ra=180.1666667,dec=30.1,flux=1.0 --source ra=179.9166667,dec=29.85,flux=0.7 \
    -o "$OUT/vla.dada"
vis="$OUT/vla.ms"
if ! "$BIN/corr" -q --tint 0.25 -o "$vis" "$OUT/vla.dada" 2> "$OUT/corr.err"; then
  echo "(no Measurement Set: $(cat "$OUT/corr.err"); UVFITS instead)"
  vis="$OUT/vla.uvfits"
  "$BIN/corr" -q --tint 0.25 -o "$vis" "$OUT/vla.dada"
fi
rm -f "$OUT/vla.dada" "$OUT/corr.err"
"$BIN/inspect" "$vis" | grep -E "^  (Rows|Baselines|Integrations|Channels|Polarisation)" || true

echo "== (a) dirty images and PSFs, 256 x 256 pixels of 15\", natural weighting"
echo "   the 2 Jy source is at RA 180.00000, Dec +30.00000 (pixel 129, 129)"
"$BIN/idg-grid" --size 256 --scale 15asec --weight natural -o "$OUT/vla-idg" "$vis"
peak "idg-grid dirty" "$OUT/vla-idg-dirty.fits"
peak "idg-grid PSF" "$OUT/vla-idg-psf.fits"
if [ -n "$wsclean" ] && [ "$vis" = "$OUT/vla.ms" ]; then
  wsclean -quiet -make-psf -size 256 256 -scale 15asec -weight natural -pol I \
      -name "$OUT/vla-ws" "$vis" > "$OUT/vla-ws.log" 2>&1 ||
    { echo "imaging.sh: wsclean failed: $(tail -n 1 "$OUT/vla-ws.log")" >&2; exit 1; }
  peak "wsclean dirty" "$OUT/vla-ws-dirty.fits"
  peak "wsclean PSF" "$OUT/vla-ws-psf.fits"
elif [ -z "$wsclean" ]; then
  echo "   (wsclean not installed: no WSClean image)"
else
  echo "   (no Measurement Set for wsclean)"
fi
echo "   CLEANed by idg-grid down to 10 mJy/beam (restored image, and the model's flux):"
"$BIN/idg-grid" -q --size 256 --scale 15asec --weight natural --niter 2000 --threshold 0.01 \
    --no-psf -o "$OUT/vla-clean" "$vis"
peak "idg-grid image" "$OUT/vla-clean-image.fits"
"$BIN/inspect" "$OUT/vla-clean-model.fits" | awk '
    $1 == "Size" { n = $3 }
    $1 == "Pixels" && $2 == "mean" { mean = $3 }
    END { printf "   %-15s %.4g Jy in the model\n", "idg-grid model", mean * n * n }'

echo "== (b) the EVLA Measurement Set of the shared data"
evla="$DATA/pyuvdata/day2_TDEM0003_10s_norx_1src_1spw.ms"
if [ ! -d "$evla" ]; then
  echo "   $evla not found: part (b) skipped (RAPT_SHARED_DATA names the shared data folder)"
elif ! "$BIN/idg-grid" --size 256 --scale 0.5asec --weight natural -o "$OUT/evla-idg" \
    "$evla" 2> "$OUT/evla-idg.err"; then
  if grep -q "Measurement Set" "$OUT/evla-idg.err"; then
    echo "   this build reads no Measurement Sets (casacore): part (b) skipped"
  else
    echo "imaging.sh: idg-grid: $(cat "$OUT/evla-idg.err")" >&2; exit 1
  fi
else
  grep -v '^$' "$OUT/evla-idg.err" >&2 || true
  echo "   raw, uncalibrated amplitudes (about 5 mJy): both programs should show the same image"
  peak "idg-grid dirty" "$OUT/evla-idg-dirty.fits"
  if [ -n "$wsclean" ]; then
    wsclean -quiet -make-psf -size 256 256 -scale 0.5asec -weight natural -pol I \
        -name "$OUT/evla-ws" "$evla" > "$OUT/evla-ws.log" 2>&1 ||
      { echo "imaging.sh: wsclean failed: $(tail -n 1 "$OUT/evla-ws.log")" >&2; exit 1; }
    peak "wsclean dirty" "$OUT/evla-ws-dirty.fits"
  fi
fi
rm -f "$OUT"/*.err
images=""
for image in "$OUT"/*-dirty.fits "$OUT"/*-psf.fits "$OUT"/*-model.fits "$OUT"/*-residual.fits \
    "$OUT"/*-image.fits; do images="$images ${image##*/}"; done
echo "images in $OUT/:$images"
