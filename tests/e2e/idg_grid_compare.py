#!/usr/bin/python3
"""Compares an idg-grid image with WSClean's of the same data and options.

usage: idg_grid_compare.py LABEL IDG.fits WSCLEAN.fits [--min-corr 0.99] [--peak-tol 0.01]
                           [--reference NAME] [--sky-only]

Both images must have the same size, reference pixel, reference value and pixel size (the
same orientation and phase centre pixel); over the inner 80 % of the image (the edges are
where gridders' anti-aliasing differs most) their correlation must reach --min-corr and their
peaks agree to --peak-tol. Prints one line with both numbers; exit 0 = pass, 1 = fail.
--reference names the other imager in messages (the independent DFT imager of
vis_dft_image.py where WSClean cannot make the image); --sky-only leaves the frequency and
Stokes axes out of the header comparison (that imager's header has none).
"""
import argparse
import sys
import warnings

import numpy as np
from astropy.io import fits

warnings.filterwarnings("ignore")  # astropy's notes on WSClean's headers

parser = argparse.ArgumentParser()
parser.add_argument("label")
parser.add_argument("idg")
parser.add_argument("wsclean")
parser.add_argument("--min-corr", type=float, default=0.99)
parser.add_argument("--peak-tol", type=float, default=0.01)
parser.add_argument("--reference", default="wsclean")
parser.add_argument("--sky-only", action="store_true")
args = parser.parse_args()

a = fits.open(args.idg)[0]
b = fits.open(args.wsclean)[0]
problems = []
for key in ("NAXIS1", "NAXIS2", "CTYPE1", "CTYPE2", "CRPIX1", "CRPIX2"):
    if a.header.get(key) != b.header.get(key):
        problems.append("%s %s vs %s" % (key, a.header.get(key), b.header.get(key)))
for key in ("CRVAL1", "CRVAL2", "CDELT1", "CDELT2") + (() if args.sky_only else ("CRVAL3",)):
    x, y = float(a.header.get(key, 0)), float(b.header.get(key, 0))
    if abs(x - y) > 1e-9 * max(1.0, abs(y)):
        problems.append("%s %r vs %r" % (key, x, y))
if not args.sky_only and a.header.get("CRVAL4") != b.header.get("CRVAL4"):
    problems.append("STOKES %s vs %s" % (a.header.get("CRVAL4"), b.header.get("CRVAL4")))

A = a.data.reshape(a.data.shape[-2:]).astype(np.float64)
B = b.data.reshape(b.data.shape[-2:]).astype(np.float64)
ny, nx = A.shape
my, mx = int(round(ny * 0.1)), int(round(nx * 0.1))
ia, ib = A[my:ny - my, mx:nx - mx], B[my:ny - my, mx:nx - mx]
corr = float(np.corrcoef(ia.ravel(), ib.ravel())[0, 1])
# The peak of the brighter sign (a dirty image of a calibrator without a source at the centre
# may peak negative).
k = np.unravel_index(np.argmax(np.abs(ib)), ib.shape)
ratio = float(ia[k] / ib[k])
pa = np.unravel_index(np.argmax(np.abs(ia)), ia.shape)
print("%s: correlation %.5f, peak ratio %.5f (idg-grid %.6g at pixel (%d, %d), %s %.6g at "
      "(%d, %d))" % (args.label, corr, ratio, ia[pa], pa[1] + mx, pa[0] + my, args.reference,
                     ib[k], k[1] + mx, k[0] + my))
if not corr >= args.min_corr:
    problems.append("correlation %.5f < %g" % (corr, args.min_corr))
if not abs(ratio - 1) <= args.peak_tol:
    problems.append("peak ratio %.5f off by more than %g" % (ratio, args.peak_tol))
if pa != k:
    problems.append("peaks at different pixels")
if problems:
    print("%s: FAIL: %s" % (args.label, "; ".join(problems)))
    sys.exit(1)
