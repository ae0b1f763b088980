#!/usr/bin/env python3
"""Prints the sky position astropy.wcs gives for pixels of a FITS image, for
fits_image_test.cpp to compare with the SIN projection we intend.

Usage: fits_image_astropy_check.py FILE X Y [X Y ...]   (0-based pixel indices)
Prints "pix X Y RA_deg DEC_deg" per pixel, then "shape ..." and "first PIXEL".
"""
import sys
import warnings

from astropy.io import fits
from astropy.wcs import WCS


def main():
    path = sys.argv[1]
    pixels = [float(v) for v in sys.argv[2:]]
    warnings.simplefilter("ignore")
    with fits.open(path) as hdus:
        wcs = WCS(hdus[0].header).celestial
        for x, y in zip(pixels[0::2], pixels[1::2]):
            ra, dec = wcs.wcs_pix2world([[x, y]], 0)[0]
            print("pix", x, y, repr(float(ra)), repr(float(dec)))
        data = hdus[0].data
        print("shape", " ".join(str(n) for n in data.shape))
        print("first", repr(float(data.ravel()[1])))
        print("ctype", hdus[0].header["CTYPE1"], hdus[0].header["CTYPE2"])


if __name__ == "__main__":
    main()
