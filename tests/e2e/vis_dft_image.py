#!/usr/bin/env python3
"""Direct-DFT dirty image of a UVFITS file, checked against expected point sources.

An independent checker for the end-to-end tests of the correlator: it shares no code with
rapt, reads the file with astropy.io.fits and images it with numpy by the definitions of
rapt(7), INTERFEROMETRY CONVENTIONS, so a sign or scale error in either side shows up as a
source in the wrong place or of the wrong flux.

Conventions. A visibility is V = S exp(+2 pi i (u l + v m + w (n - 1)) nu/c) for a point
source of flux S at direction cosines (l, m, n) from the phase centre, with (u, v, w) = the
UU, VV, WW random parameters (seconds) times c. So the dirty image is

    I(l, m) = sum_k w_k Re[V_k exp(-2 pi i (u_k l + v_k m + w_k (n - 1)) nu_k / c)] / sum_k w_k

over the unflagged cross-correlation samples (natural weights: the file's weights), on an
N x N grid in the SIN projection: 0-based pixel (x, y) has l = -(x - N/2) cell and
m = (y - N/2) cell, so the phase centre is pixel (N/2, N/2) and right ascension increases to
the left, as in WSClean's images. A source at (ra, dec) is expected at l = cos(dec)
sin(ra - ra0), m = sin(dec) cos(dec0) - cos(dec) sin(dec0) cos(ra - ra0).
"""

import argparse
import math
import sys

C_M_PER_S = 299792458.0
STOKES_NAMES = {1: "I", 2: "Q", 3: "U", 4: "V", -1: "RR", -2: "LL", -3: "RL", -4: "LR",
                -5: "XX", -6: "YY", -7: "XY", -8: "YX"}

EPILOG = """\
sources:
  each SOURCE is "ra_deg,dec_deg,flux_jy" (J2000, decimal degrees). For each, the checker
  finds the local maximum of the image nearest to where the source should be, refines its
  position and value with a parabola through the pixel and its neighbours, and prints one
  line: the expected pixel, the peak pixel, the refined position, its offset in pixels,
  the peak value and its ratio to the expected flux.

products:
  I is (XX + YY)/2 (or (RR + LL)/2, or the file's own I), as CASA, AIPS and WSClean form
  it; a sample counts only when both hands are unflagged, with weight
  4 / (1/w1 + 1/w2) (the inverse variance of the mean). Any product in the file (XX, YY,
  XY, YX, RR, LL, RL, LR, Q, U, V) can be imaged on its own instead.

exit status:
  0 every source found within --pos-tol pixels and --flux-tol of its flux; 1 at least one
  not; 2 bad usage or a file that cannot be read as UVFITS.

example:
  vis_dft_image.py --npix 128 --cell 10 obs.uvfits 60.05,-30.0,2.5 59.9,-29.95,1.0
"""


class InputError(Exception):
    """A file or option the checker cannot work with (exit 2)."""


def parse_cell_rad(text):
    """Cell size: a number of arcseconds, or a number with asec, amin or deg after it."""
    units = {"asec": 1.0 / 3600.0, "arcsec": 1.0 / 3600.0, "amin": 1.0 / 60.0,
             "arcmin": 1.0 / 60.0, "deg": 1.0}
    for suffix, deg in units.items():
        if text.endswith(suffix):
            value, scale = text[: -len(suffix)], deg
            break
    else:
        value, scale = text, 1.0 / 3600.0
    try:
        cell = float(value) * scale
    except ValueError:
        raise argparse.ArgumentTypeError("cell size %r is not a number (arcsec, or with "
                                         "asec, amin or deg)" % text)
    if not cell > 0:
        raise argparse.ArgumentTypeError("cell size must be positive")
    return math.radians(cell)


def parse_source(text):
    parts = text.split(",")
    try:
        ra, dec, flux = (float(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError("source %r is not ra_deg,dec_deg,flux" % text)
    if not -90.0 <= dec <= 90.0:
        raise argparse.ArgumentTypeError("source %r: declination outside -90..90" % text)
    return ra, dec, flux


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="vis_dft_image.py",
        description="Make a direct-DFT dirty image (natural weights, cross-correlations\n"
                    "only, SIN projection, RA increasing to the left) of a UVFITS file and\n"
                    "check that expected point sources are where they should be, with the\n"
                    "flux they should have. Conventions: rapt(7), INTERFEROMETRY CONVENTIONS;\n"
                    "the phase centre is 0-based pixel (N/2, N/2), l = -(x - N/2) cell.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("uvfits", help="UVFITS file (AIPS random groups)")
    p.add_argument("sources", nargs="*", type=parse_source, metavar="SOURCE",
                   help='expected source "ra_deg,dec_deg,flux_jy" (repeatable)')
    p.add_argument("--npix", type=int, default=128,
                   help="image size N (N x N pixels; default 128)")
    p.add_argument("--cell", type=parse_cell_rad, default=parse_cell_rad("10"),
                   help="pixel size: arcsec, or with asec, amin or deg (default 10 arcsec)")
    p.add_argument("--product", default="I",
                   help="I (default) or one product of the file: XX, YY, XY, YX, RR, ...")
    p.add_argument("--pos-tol", type=float, default=1.0,
                   help="largest offset of a source from its expected pixel, pixels "
                        "(default 1)")
    p.add_argument("--flux-tol", type=float, default=0.05,
                   help="largest relative error of a source's peak, |peak/flux - 1| "
                        "(default 0.05)")
    p.add_argument("--fits", metavar="FILE",
                   help="also write the dirty image as a FITS image (WSClean-like header)")
    args = p.parse_args(argv)
    if args.npix < 3:
        p.error("--npix must be at least 3")
    if args.pos_tol < 0 or args.flux_tol < 0:
        p.error("tolerances must not be negative")
    return args


def axis_values(header, n):
    """Values of FITS axis n (1-based) from CRVAL, CDELT and CRPIX."""
    length = header["NAXIS%d" % n]
    crval = header.get("CRVAL%d" % n, 0.0)
    cdelt = header.get("CDELT%d" % n, 1.0)
    crpix = header.get("CRPIX%d" % n, 1.0)
    return [crval + (k + 1 - crpix) * cdelt for k in range(length)]


def find_axes(header):
    """{CTYPE: FITS axis number} of the primary array's axes 2..NAXIS."""
    axes = {}
    for n in range(2, header["NAXIS"] + 1):
        ctype = str(header.get("CTYPE%d" % n, "")).strip().upper()
        axes[ctype] = n
    for needed in ("COMPLEX", "STOKES", "FREQ"):
        if needed not in axes:
            raise InputError("no %s axis in the primary array" % needed)
    return axes


def param_name(groups, prefix):
    """The random parameter whose name is `prefix` or starts with it (UU, UU---SIN, UU--)."""
    names = [n.upper() for n in groups.parnames]
    for n, name in enumerate(names):
        if name == prefix:
            return groups.parnames[n]
    for n, name in enumerate(names):
        if name.startswith(prefix + "-"):
            return groups.parnames[n]
    return None


def antenna_numbers(np, groups):
    """1-based antenna numbers per group, from ANTENNA1/2 or the BASELINE code."""
    a1, a2 = param_name(groups, "ANTENNA1"), param_name(groups, "ANTENNA2")
    if a1 and a2:
        return (np.rint(groups.par(a1)).astype(np.int64),
                np.rint(groups.par(a2)).astype(np.int64))
    bl = param_name(groups, "BASELINE")
    if not bl:
        raise InputError("no ANTENNA1/ANTENNA2 or BASELINE random parameter")
    code = np.floor(np.asarray(groups.par(bl), dtype=np.float64) + 1e-6).astype(np.int64)
    big = code >= 65536  # 2048 a1 + a2 + 65536, for antenna numbers past 255
    ant1 = np.where(big, (code - 65536) // 2048, code // 256)
    ant2 = np.where(big, (code - 65536) % 2048, code % 256)
    return ant1, ant2


def if_offsets_hz(hdus, nif):
    """Frequency offset of each IF from the FREQ axis (AIPS FQ 'IF FREQ'); zeros for one IF."""
    if nif == 1:
        return [0.0]
    for hdu in hdus[1:]:
        if str(hdu.header.get("EXTNAME", "")).strip() == "AIPS FQ":
            offsets = list(hdu.data["IF FREQ"][0].ravel())
            if len(offsets) == nif:
                return offsets
    raise InputError("%d IFs but no AIPS FQ table with their frequencies" % nif)


def read_visibilities(np, fits, path, product):
    """Cross-correlation samples of one product: u, v, w (wavelengths), V, weight."""
    try:
        hdus = fits.open(path, memmap=False)
    except OSError as e:
        raise InputError("cannot open: %s" % (e.strerror or e))
    except ValueError as e:
        raise InputError("not a FITS file: %s" % e)
    with hdus:
        header = hdus[0].header
        if not header.get("GROUPS", False):
            raise InputError("the primary HDU holds no random groups")
        groups = hdus[0].data
        axes = find_axes(header)
        naxis = header["NAXIS"]
        # numpy holds FITS axis n at position 1 + NAXIS - n (the group index comes first).
        # Put the axes in the order [group, IF, FREQ, STOKES, COMPLEX] whatever order the
        # file has them in, and drop the others (RA, DEC), which must have length 1.
        wanted = ["IF", "FREQ", "STOKES", "COMPLEX"]
        present = [c for c in wanted if c in axes]
        others = [c for c in axes if c not in wanted]
        for ctype in others:
            if header["NAXIS%d" % axes[ctype]] != 1:
                raise InputError("axis %s has length %d; only 1 is supported"
                                 % (ctype, header["NAXIS%d" % axes[ctype]]))
        data = np.asarray(groups.data, dtype=np.float64)
        data = np.transpose(data, [0] + [1 + naxis - axes[c] for c in present + others])
        data = data.reshape(data.shape[:1 + len(present)])
        if "IF" not in axes:
            data = data[:, np.newaxis]
        nif = data.shape[1]
        if data.shape[4] < 3:
            raise InputError("the COMPLEX axis has %d values; need re, im, weight"
                             % data.shape[4])

        freq_hz = np.asarray(axis_values(header, axes["FREQ"]))
        freq_hz = np.asarray(if_offsets_hz(hdus, nif))[:, None] + freq_hz[None, :]
        codes = [int(round(s)) for s in axis_values(header, axes["STOKES"])]

        uvw_s = []
        for name in ("UU", "VV", "WW"):
            par = param_name(groups, name)
            if not par:
                raise InputError("no %s random parameter" % name)
            uvw_s.append(np.asarray(groups.par(par), dtype=np.float64))
        ant1, ant2 = antenna_numbers(np, groups)
        ra0 = header.get("CRVAL%d" % axes["RA"]) if "RA" in axes else header.get("OBSRA")
        dec0 = header.get("CRVAL%d" % axes["DEC"]) if "DEC" in axes else header.get("OBSDEC")
        if ra0 is None or dec0 is None:
            raise InputError("no phase centre (RA/DEC axes or OBSRA/OBSDEC)")

    vis, weight = select_product(np, data, codes, product)
    cross = ant1 != ant2
    # Per sample: u, v, w in wavelengths = seconds x frequency.
    scale = freq_hz[None, :, :]  # [1, IF, chan]
    u = (uvw_s[0][:, None, None] * scale)[cross].ravel()
    v = (uvw_s[1][:, None, None] * scale)[cross].ravel()
    w = (uvw_s[2][:, None, None] * scale)[cross].ravel()
    vis = vis[cross].ravel()
    weight = weight[cross].ravel()
    good = (weight > 0) & np.isfinite(vis.real) & np.isfinite(vis.imag)
    if not good.any():
        raise InputError("no unflagged cross-correlation samples of product %s" % product)
    return {"u": u[good], "v": v[good], "w": w[good], "vis": vis[good],
            "weight": weight[good], "ra0_deg": float(ra0), "dec0_deg": float(dec0),
            "nrows": len(ant1), "ncross": int(cross.sum()),
            "products": " ".join(STOKES_NAMES.get(c, str(c)) for c in codes)}


def select_product(np, data, codes, product):
    """[group, IF, chan] complex values and weights of `product` (weight 0 = flagged)."""
    def column(name):
        for k, code in enumerate(codes):
            if STOKES_NAMES.get(code) == name:
                d = data[..., k, :]
                return d[..., 0] + 1j * d[..., 1], d[..., 2]
        return None

    product = product.upper()
    direct = column(product)
    if direct is not None:
        return direct[0], np.where(direct[1] > 0, direct[1], 0.0)
    if product == "I":
        for a, b in (("XX", "YY"), ("RR", "LL")):
            first, second = column(a), column(b)
            if first is not None and second is not None:
                w1, w2 = first[1], second[1]
                both = (w1 > 0) & (w2 > 0)
                with np.errstate(divide="ignore", invalid="ignore"):
                    weight = np.where(both, 4.0 / (1.0 / w1 + 1.0 / w2), 0.0)
                return 0.5 * (first[0] + second[0]), weight
    raise InputError("product %s cannot be formed from the file's products %s"
                     % (product, " ".join(STOKES_NAMES.get(c, str(c)) for c in codes)))


def pixel_lm(np, npix, cell_rad):
    """l and m of every pixel, [y, x] arrays (l = -(x - N/2) cell, m = (y - N/2) cell)."""
    offsets = (np.arange(npix) - npix // 2) * cell_rad
    m, l_right = np.meshgrid(offsets, offsets, indexing="ij")
    return -l_right, m


def dft_image(np, vis, npix, cell_rad):
    """The dirty image [y, x]: the weighted mean of Re[V exp(-2 pi i (ul + vm + w(n-1)))]."""
    l, m = pixel_lm(np, npix, cell_rad)
    inside = l * l + m * m < 1.0
    n_minus_1 = np.where(inside, np.sqrt(np.clip(1.0 - l * l - m * m, 0.0, None)) - 1.0, 0.0)
    lmn = np.stack([l.ravel(), m.ravel(), n_minus_1.ravel()])  # [3, pixels]
    uvw = np.stack([vis["u"], vis["v"], vis["w"]], axis=1)      # [samples, 3]
    wre = vis["weight"] * vis["vis"].real
    wim = vis["weight"] * vis["vis"].imag
    image = np.zeros(npix * npix)
    # Re[V e^{-i phi}] = Re V cos phi + Im V sin phi; in blocks of samples to bound memory.
    block = max(1, 4000000 // (npix * npix))
    for start in range(0, len(wre), block):
        phase = (2.0 * np.pi) * (uvw[start:start + block] @ lmn)
        image += wre[start:start + block] @ np.cos(phase)
        image += wim[start:start + block] @ np.sin(phase)
    image /= vis["weight"].sum()
    image = image.reshape(npix, npix)
    image[~inside] = np.nan
    return image


def expected_pixel(np, ra_deg, dec_deg, ra0_deg, dec0_deg, npix, cell_rad):
    """(x, y), fractional, of a source in the SIN projection about the phase centre."""
    ra, dec = math.radians(ra_deg), math.radians(dec_deg)
    ra0, dec0 = math.radians(ra0_deg), math.radians(dec0_deg)
    cos_dist = (math.sin(dec) * math.sin(dec0)
                + math.cos(dec) * math.cos(dec0) * math.cos(ra - ra0))
    if cos_dist <= 0:
        return None  # the far hemisphere has no place in a SIN image
    l = math.cos(dec) * math.sin(ra - ra0)
    m = math.sin(dec) * math.cos(dec0) - math.cos(dec) * math.sin(dec0) * math.cos(ra - ra0)
    return npix // 2 - l / cell_rad, npix // 2 + m / cell_rad


def local_maxima(np, image):
    """(y, x) of pixels not below any of their 8 neighbours (edges left out)."""
    core = image[1:-1, 1:-1]
    is_max = np.isfinite(core)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                neighbour = image[1 + dy:image.shape[0] - 1 + dy, 1 + dx:image.shape[1] - 1 + dx]
                is_max &= ~(neighbour > core)
    ys, xs = np.nonzero(is_max)
    return ys + 1, xs + 1


def refine_peak(image, y, x):
    """Sub-pixel (x, y) and value from a parabola through the peak and its neighbours."""
    def vertex(a, b, c):
        curvature = a - 2.0 * b + c
        if not curvature < 0:
            return 0.0, 0.0
        shift = 0.5 * (a - c) / curvature
        return shift, -0.25 * (a - c) * shift

    sx, gain_x = vertex(image[y, x - 1], image[y, x], image[y, x + 1])
    sy, gain_y = vertex(image[y - 1, x], image[y, x], image[y + 1, x])
    return x + sx, y + sy, image[y, x] + gain_x + gain_y


def check_sources(np, image, vis, args):
    ys, xs = local_maxima(np, image)
    failures = 0
    for k, (ra, dec, flux) in enumerate(args.sources, 1):
        where = expected_pixel(np, ra, dec, vis["ra0_deg"], vis["dec0_deg"], args.npix,
                               args.cell)
        label = "source %d (ra %.6f dec %.6f flux %g)" % (k, ra, dec, flux)
        if where is None or len(xs) == 0:
            print("%s: no peak to compare with: FAIL" % label)
            failures += 1
            continue
        ex, ey = where
        nearest = int(np.argmin((xs - ex) ** 2 + (ys - ey) ** 2))
        px, py = int(xs[nearest]), int(ys[nearest])
        fx, fy, peak = refine_peak(image, py, px)
        offset = math.hypot(fx - ex, fy - ey)
        ratio = peak / flux if flux != 0 else float("inf")
        ok = offset <= args.pos_tol and abs(ratio - 1.0) <= args.flux_tol
        failures += not ok
        print("%s: expected pixel (%.2f, %.2f), peak pixel (%d, %d), fitted (%.2f, %.2f), "
              "offset %.3f px, peak %.6g, ratio %.4f: %s"
              % (label, ex, ey, px, py, fx, fy, offset, peak, ratio, "OK" if ok else "FAIL"))
    return failures


def write_fits_image(np, fits, path, image, vis, args):
    header = fits.Header()
    npix = args.npix
    cell_deg = math.degrees(args.cell)
    for key, value in (("CTYPE1", "RA---SIN"), ("CRPIX1", npix // 2 + 1),
                       ("CRVAL1", vis["ra0_deg"]), ("CDELT1", -cell_deg), ("CUNIT1", "deg"),
                       ("CTYPE2", "DEC--SIN"), ("CRPIX2", npix // 2 + 1),
                       ("CRVAL2", vis["dec0_deg"]), ("CDELT2", cell_deg), ("CUNIT2", "deg"),
                       ("BUNIT", "JY/BEAM"), ("BTYPE", "Intensity"), ("EQUINOX", 2000.0)):
        header[key] = value
    fits.PrimaryHDU(np.asarray(image, dtype=np.float32), header).writeto(path, overwrite=True)


def main(argv):
    args = parse_args(argv)
    try:
        import numpy as np
        from astropy.io import fits
    except ImportError as e:
        print("vis_dft_image.py: needs numpy and astropy: %s" % e, file=sys.stderr)
        return 2
    try:
        vis = read_visibilities(np, fits, args.uvfits, args.product)
    except InputError as e:
        print("vis_dft_image.py: %s: %s" % (args.uvfits, e), file=sys.stderr)
        return 2
    image = dft_image(np, vis, args.npix, args.cell)
    peak_y, peak_x = np.unravel_index(np.nanargmax(image), image.shape)
    print("%s: %d rows (%d cross-correlations), products %s; imaged %s from %d samples on "
          "%d x %d pixels of %.4g arcsec; brightest pixel (%d, %d) = %.6g"
          % (args.uvfits, vis["nrows"], vis["ncross"], vis["products"], args.product.upper(),
             len(vis["weight"]), args.npix, args.npix, math.degrees(args.cell) * 3600.0,
             peak_x, peak_y, image[peak_y, peak_x]))
    if args.fits:
        write_fits_image(np, fits, args.fits, image, vis, args)
    failures = check_sources(np, image, vis, args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
