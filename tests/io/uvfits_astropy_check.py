#!/usr/bin/env python3
"""Prints what astropy.io.fits sees in a UVFITS file, for uvfits_astropy_test.cpp to compare.

Usage: uvfits_astropy_check.py FILE NROWS
Group parameters are read by name with GroupData.par(), which applies PSCAL/PZERO and sums a
parameter that appears twice (DATE). One "key values..." line per item.
"""
import sys
import warnings

from astropy.io import fits


def main():
    path, nrows = sys.argv[1], int(sys.argv[2])
    warnings.simplefilter("ignore")  # zero-width AN columns draw a warning
    with fits.open(path) as hdus:
        groups = hdus[0].data
        header = hdus[0].header
        print("gcount", header["GCOUNT"])
        print("ptypes", " ".join(header["PTYPE%d" % (i + 1)] for i in range(header["PCOUNT"])))
        print("naxes", " ".join(str(header["NAXIS%d" % (i + 1)]) for i in range(header["NAXIS"])))
        for key in ("OBSRA", "OBSDEC", "CRVAL4", "CDELT4", "CRVAL3", "CDELT3", "CRVAL6",
                    "CRVAL7"):
            print(key.lower(), repr(float(header[key])))
        for key in ("OBJECT", "TELESCOP", "INSTRUME", "DATE-OBS", "BUNIT", "CTYPE6", "CTYPE7"):
            print(key.lower(), header[key])
        for r in range(nrows):
            values = [groups.par(name)[r] for name in
                      ("UU", "VV", "WW", "DATE", "BASELINE", "ANTENNA1", "ANTENNA2", "INTTIM")]
            print("row", r, " ".join(repr(float(v)) for v in values))
            print("data", r, " ".join(repr(float(v)) for v in groups.data[r].ravel()))
        an = hdus["AIPS AN"]
        print("frame", an.header["FRAME"])
        print("array", " ".join(repr(float(an.header[k])) for k in ("ARRAYX", "ARRAYY", "ARRAYZ")))
        print("obsgeo", " ".join(repr(float(an.header[k])) for k in ("OBSGEO-X", "OBSGEO-Y", "OBSGEO-Z")))
        print("anname", " ".join(str(n).strip() for n in an.data["ANNAME"]))
        print("nosta", " ".join(str(int(n)) for n in an.data["NOSTA"]))
        print("stabxyz0", " ".join(repr(float(v)) for v in an.data["STABXYZ"][0]))
        fq = hdus["AIPS FQ"]
        print("fq", repr(float(fq.data["IF FREQ"][0])), repr(float(fq.data["CH WIDTH"][0])))


if __name__ == "__main__":
    main()
