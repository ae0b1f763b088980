#!/usr/bin/env python3
"""Geometric delays computed with astropy, to check rapt's geometry module independently.

usage: astropy_geometry_reference.py RA_DEG DEC_DEG MJD_DAY SECONDS POSITIONS_FILE

POSITIONS_FILE holds lines "x y z" (ITRF metres); the first line is the reference position,
the rest are antennas. Prints one delay per antenna, seconds, in rapt's convention
tau = -(r_a - r_ref) . s / c, where r is rotated from ITRS into GCRS by astropy's frame
machinery and s is the ICRS unit vector of (RA, DEC), with no aberration.

rapt takes UT1 - UTC = 0 and no polar motion; astropy is told the same here, so the
comparison tests the rotation and the time scales, not the IERS tables (and nothing is
downloaded).
"""
import sys

import numpy as np
from astropy.utils import iers

iers.conf.auto_download = False
iers.conf.auto_max_age = None

import astropy.units as u  # noqa: E402
from astropy.coordinates import GCRS, ITRS, CartesianRepresentation  # noqa: E402
from astropy.coordinates.builtin_frames import intermediate_rotation_transforms  # noqa: E402
from astropy.time import Time  # noqa: E402

SPEED_OF_LIGHT_M_S = 299792458.0


def zero_polar_motion(time):
    return 0.0, 0.0


def main(argv):
    ra_deg, dec_deg, mjd_day, seconds = (float(v) for v in argv[1:5])
    xyz = np.loadtxt(argv[5], ndmin=2)
    intermediate_rotation_transforms.get_polar_motion = zero_polar_motion
    time = Time(mjd_day, seconds / 86400.0, format="mjd", scale="utc")
    time.delta_ut1_utc = 0.0
    itrs = ITRS(CartesianRepresentation(xyz.T * u.m), obstime=time)
    gcrs = itrs.transform_to(GCRS(obstime=time)).cartesian.xyz.to_value(u.m).T
    ra, dec = np.radians(ra_deg), np.radians(dec_deg)
    s = np.array([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)])
    offsets = gcrs[1:] - gcrs[0]
    for delay in -(offsets @ s) / SPEED_OF_LIGHT_M_S:
        print(f"{delay:.17e}")


if __name__ == "__main__":
    main(sys.argv)
