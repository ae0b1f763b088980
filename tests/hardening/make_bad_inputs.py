#!/usr/bin/env python3
"""Writes a corpus of malformed input files, one case per folder, for every format rapt reads.

    make_bad_inputs.py OUTDIR [--shared DIR]

Each case is a folder OUTDIR/<format>/<case>/ holding the bad file and the good files it
needs beside it (a .dat for a bad .inf, a filterbank for a bad mask). OUTDIR/cases.tsv lists
one case a line: folder, format, bad file name (relative to the folder). The format names the
programs that read it (tests/e2e/hardening_bad_inputs.sh maps one to the other).

Formats built from scratch need only numpy. Formats whose good example is easier to take than
to build (PSRFITS, UVFITS, GUPPI RAW, PSRDADA, VDIF, .pfd) start from the shared data files and
are damaged byte by byte; when a file is missing, its cases are skipped with a message on
stderr. Every case is a file no reader can accept: a lenient reader may fix up a value, but
not these.

To add a format, write a function make_<format>(corpus) and list it in FORMATS.
"""
import argparse
import math
import os
import struct
import sys

import numpy as np


class Corpus:
    def __init__(self, outdir, shared):
        self.outdir = outdir
        self.shared = shared
        self.lines = []

    def case(self, fmt, name, bad_file, content, companions=None):
        """Writes one case: bad_file holds content; companions maps file name -> bytes."""
        folder = os.path.join(fmt, name)
        os.makedirs(os.path.join(self.outdir, folder), exist_ok=True)
        for file_name, data in (companions or {}).items():
            self.write(os.path.join(folder, file_name), data)
        if content is not None:
            self.write(os.path.join(folder, bad_file), content)
        self.lines.append(f"{folder}\t{fmt}\t{bad_file}")

    def write(self, relative, data):
        if isinstance(data, str):
            data = data.encode()
        with open(os.path.join(self.outdir, relative), "wb") as out:
            out.write(data)

    def shared_file(self, relative):
        path = os.path.join(self.shared, relative) if self.shared else ""
        if path and os.path.isfile(path):
            with open(path, "rb") as f:
                return f.read()
        print(f"make_bad_inputs: {relative} not in the shared data; its cases are skipped",
              file=sys.stderr)
        return None


# ---- SIGPROC ---------------------------------------------------------------------------------

def sp_string(text):
    data = text.encode()
    return struct.pack("<i", len(data)) + data


def sp_header(overrides=None, drop=(), end=True, time_series=False):
    fields = {
        "telescope_id": ("i", 4), "machine_id": ("i", 10),
        "data_type": ("i", 2 if time_series else 1), "source_name": ("s", "BAD"),
        "fch1": ("d", 1500.0), "foff": ("d", -1.0), "nchans": ("i", 1 if time_series else 16),
        "nbits": ("i", 32 if time_series else 8), "tstart": ("d", 60000.0),
        "tsamp": ("d", 1e-3), "nifs": ("i", 1),
    }
    if time_series:
        fields["refdm"] = ("d", 10.0)
    fields.update(overrides or {})
    out = sp_string("HEADER_START")
    for key, (kind, value) in fields.items():
        if key in drop:
            continue
        out += sp_string(key)
        out += sp_string(value) if kind == "s" else struct.pack("<" + kind, value)
    return out + (sp_string("HEADER_END") if end else b"")


def fil_data(nspectra=64, nchans=16):
    return np.random.default_rng(1).integers(0, 255, nspectra * nchans, dtype=np.uint8).tobytes()


def make_sigproc_fil(c):
    good = sp_header() + fil_data()
    c.case("sigproc_fil", "empty", "x.fil", b"")
    c.case("sigproc_fil", "truncated_header", "x.fil", good[:30])
    c.case("sigproc_fil", "header_end_missing", "x.fil", sp_header(end=False) + fil_data())
    c.case("sigproc_fil", "header_start_missing", "x.fil", good[16:])
    c.case("sigproc_fil", "header_only", "x.fil", sp_header())
    c.case("sigproc_fil", "data_shorter_than_a_spectrum", "x.fil", sp_header() + b"\1" * 10)
    bad_values = {
        "nchans_zero": {"nchans": ("i", 0)},
        "nchans_negative": {"nchans": ("i", -16)},
        "nchans_huge": {"nchans": ("i", 1 << 30)},
        "nbits_3": {"nbits": ("i", 3)},
        "nbits_zero": {"nbits": ("i", 0)},
        "nbits_64": {"nbits": ("i", 64)},
        "tsamp_zero": {"tsamp": ("d", 0.0)},
        "tsamp_negative": {"tsamp": ("d", -1e-3)},
        "tsamp_nan": {"tsamp": ("d", math.nan)},
        "foff_zero": {"foff": ("d", 0.0)},
        "fch1_negative": {"fch1": ("d", -1500.0)},
        "fch1_infinite": {"fch1": ("d", math.inf)},
        "tstart_nan": {"tstart": ("d", math.nan)},
        "nifs_zero": {"nifs": ("i", 0)},
        # nifs * nchans * nbits past 2^63: a size check must not overflow.
        "nifs_times_nchans_huge": {"nifs": ("i", 973078529), "nchans": ("i", 1023410208),
                                   "nbits": ("i", 32), "foff": ("d", -1e-6)},
    }
    for name, change in bad_values.items():
        c.case("sigproc_fil", name, "x.fil", sp_header(change) + fil_data())
    keyword_too_long = sp_string("HEADER_START") + struct.pack("<i", 0x7FFFFFFF) + b"nchans"
    c.case("sigproc_fil", "keyword_length_huge", "x.fil", keyword_too_long + fil_data())
    keyword_negative = sp_string("HEADER_START") + struct.pack("<i", -5) + b"nchans"
    c.case("sigproc_fil", "keyword_length_negative", "x.fil", keyword_negative + fil_data())
    # An unknown keyword whose value size cannot be told (3 bytes before the next keyword).
    unknown = sp_header(end=False) + sp_string("no_such_key") + b"\1\2\3"
    c.case("sigproc_fil", "unknown_keyword_unsized", "x.fil",
           unknown + sp_string("HEADER_END") + fil_data())
    c.case("sigproc_fil", "text_file", "x.fil", "this is not a filterbank\n" * 8)


def make_sigproc_tim(c):
    data = np.random.default_rng(2).standard_normal(4096).astype("<f4").tobytes()
    good = sp_header(time_series=True) + data
    c.case("sigproc_tim", "empty", "x.tim", b"")
    c.case("sigproc_tim", "truncated_header", "x.tim", good[:40])
    c.case("sigproc_tim", "header_end_missing", "x.tim", sp_header(end=False, time_series=True) + data)
    c.case("sigproc_tim", "header_only", "x.tim", sp_header(time_series=True))
    c.case("sigproc_tim", "tsamp_zero", "x.tim", sp_header({"tsamp": ("d", 0.0)}, time_series=True) + data)
    c.case("sigproc_tim", "tsamp_nan", "x.tim", sp_header({"tsamp": ("d", math.nan)}, time_series=True) + data)
    c.case("sigproc_tim", "nbits_3", "x.tim", sp_header({"nbits": ("i", 3)}, time_series=True) + data)
    c.case("sigproc_tim", "tstart_nan", "x.tim", sp_header({"tstart": ("d", math.nan)}, time_series=True) + data)


# ---- PRESTO ----------------------------------------------------------------------------------

INF_LINES = [
    ("Data file name without suffix          ", "x"),
    ("Telescope used                         ", "GBT"),
    ("Instrument used                        ", "Unknown"),
    ("Object being observed                  ", "FAKE_PSR"),
    ("J2000 Right Ascension (hh:mm:ss.ssss)  ", "12:34:56.7890"),
    ("J2000 Declination     (dd:mm:ss.ssss)  ", "-12:34:56.7800"),
    ("Data observed by                       ", "unset"),
    ("Epoch of observation (MJD)             ", "60000.123456788998737"),
    ("Barycentered?           (1 yes, 0 no)  ", "0"),
    ("Number of bins in the time series      ", "{n}"),
    ("Width of each time series bin (sec)    ", "{dt}"),
    ("Any breaks in the data? (1 yes, 0 no)  ", "0"),
    ("Type of observation (EM band)          ", "Radio"),
    ("Beam diameter (arcsec)                 ", "540"),
    ("Dispersion measure (cm-3 pc)           ", "56"),
    ("Central freq of low channel (MHz)      ", "1246"),
    ("Total bandwidth (MHz)                  ", "256"),
    ("Number of channels                     ", "128"),
    ("Channel bandwidth (MHz)                ", "2"),
    ("Data analyzed by                       ", "rapt"),
]

NSAMP = 4096


def inf_text(n=NSAMP, dt="0.000256", drop=()):
    lines = []
    for label, value in INF_LINES:
        if any(label.startswith(d) for d in drop):
            continue
        lines.append(f" {label}=  {value.format(n=n, dt=dt)}")
    return "\n".join(lines) + "\n Any additional notes:\n    none\n\n"


def dat_bytes(n=NSAMP):
    return np.random.default_rng(3).standard_normal(n).astype("<f4").tobytes()


def fft_bytes(n=NSAMP):
    spectrum = np.fft.rfft(np.random.default_rng(4).standard_normal(n))[: n // 2]
    return spectrum.astype("<c8").tobytes()


def make_presto_dat(c):
    good_dat = dat_bytes()
    inf_cases = {
        "inf_promises_more_samples": inf_text(n=NSAMP * 4),
        "dt_zero": inf_text(dt="0"),
        "dt_negative": inf_text(dt="-0.000256"),
        "dt_nan": inf_text(dt="nan"),
        "n_negative": inf_text(n=-5),
        "n_zero": inf_text(n=0),
        "n_not_a_number": inf_text(n="lots"),
        "n_missing": inf_text(drop=("Number of bins",)),
        "dt_missing": inf_text(drop=("Width of each",)),
        "inf_empty": "",
        "inf_binary": bytes(range(256)) * 4,
    }
    for name, text in inf_cases.items():
        c.case("presto_dat", name, "x.dat", None, {"x.inf": text, "x.dat": good_dat})
    c.case("presto_dat", "inf_missing", "x.dat", good_dat)
    c.case("presto_dat", "dat_empty", "x.dat", b"", {"x.inf": inf_text()})
    c.case("presto_dat", "dat_shorter_than_inf", "x.dat", good_dat[: 4 * NSAMP // 2 + 3],
           {"x.inf": inf_text()})


def make_presto_fft(c):
    good = fft_bytes()
    c.case("presto_fft", "odd_byte_count", "x.fft", good[:-1], {"x.inf": inf_text()})
    c.case("presto_fft", "shorter_than_inf", "x.fft", good[: len(good) // 4], {"x.inf": inf_text()})
    c.case("presto_fft", "empty", "x.fft", b"", {"x.inf": inf_text()})
    c.case("presto_fft", "inf_missing", "x.fft", good)
    c.case("presto_fft", "dt_zero", "x.fft", good, {"x.inf": inf_text(dt="0")})
    c.case("presto_fft", "n_negative", "x.fft", good, {"x.inf": inf_text(n=-NSAMP)})


def make_presto_inf(c):
    # A lone .inf, as inspect reads it.
    c.case("presto_inf", "dt_zero", "x.inf", inf_text(dt="0"))
    c.case("presto_inf", "n_negative", "x.inf", inf_text(n=-1))
    c.case("presto_inf", "n_missing", "x.inf", inf_text(drop=("Number of bins",)))
    c.case("presto_inf", "first_line_only", "x.inf", inf_text().splitlines()[0] + "\n")


def cand_record(r, z=0.0, w=0.0):
    # r, rerr, z, zerr, w, werr as doubles? No: the .cand record is PRESTO's fourierprops:
    # double r; float rerr; double z; float zerr; double w; float werr; then 11 floats.
    record = struct.pack("<d f 4x d f 4x d f", r, 0.5, z, 2.0, w, 20.0)
    record += struct.pack("<11f", *([1.0] * 11))
    return record.ljust(88, b"\0")[:88]


def make_accel_cand(c):
    pieces = {"x.inf": inf_text(), "x.dat": dat_bytes()}
    good = cand_record(400.0)
    cases = {
        "not_whole_records": good[:87],
        "record_and_a_bit": good * 2 + b"\0" * 5,
        "empty": b"",
        "frequency_negative": cand_record(-400.0),
        "frequency_nan": cand_record(math.nan),
        "frequency_zero": cand_record(0.0),
    }
    for name, data in cases.items():
        c.case("accel_cand", name, "x_ACCEL_50.cand", data, pieces)
    # The search's .inf beside the .cand is missing.
    c.case("accel_cand", "search_inf_missing", "y_ACCEL_50.cand", good, pieces)


def make_accel_text(c):
    c.case("accel_text", "garbage", "x_ACCEL_50", "Summed  Coherent  Num\n1  2  x  y\n" * 3)
    c.case("accel_text", "empty", "x_ACCEL_50", b"")


def make_bestprof(c):
    header = ("# Input file       =  x.dat\n# Candidate        =  PSR_X\n"
              "# T_sample         =  0.000256\n# Data Folded      =  4096\n"
              "# Profile Bins     =  {bins}\n"
              "######################################################\n")
    rows = "".join(f"{i:4d}  {v:.6f}\n" for i, v in enumerate(np.linspace(1, 2, 64)))
    cases = {
        "empty": "",
        "no_header": rows,
        "fewer_rows_than_bins": header.format(bins=64) + rows[: len(rows) // 2],
        "bins_negative": header.format(bins=-64) + rows,
        "bins_huge": header.format(bins=10 ** 12) + rows,
        "rows_not_numbers": header.format(bins=4) + "a b\nc d\ne f\ng h\n",
        "binary": bytes(range(256)) * 4,
    }
    for name, text in cases.items():
        c.case("bestprof", name, "x.pfd.bestprof", text)


def make_par(c):
    pieces = {"x.inf": inf_text(), "x.dat": dat_bytes()}
    cases = {
        "empty": "",
        "no_f0": "PSRJ J0000+0000\nDM 10\nPEPOCH 60000\n",
        "f0_zero": "PSRJ J0000+0000\nF0 0\n",
        "f0_negative": "PSRJ J0000+0000\nF0 -3.5\n",
        "f0_not_a_number": "PSRJ J0000+0000\nF0 fast\n",
        "f0_nan": "PSRJ J0000+0000\nF0 nan\n",
        "p0_zero": "PSRJ J0000+0000\nP0 0\n",
        "f1_not_a_number": "PSRJ J0000+0000\nF0 100\nF1 slow\n",
        "pepoch_not_a_number": "PSRJ J0000+0000\nF0 100\nPEPOCH yesterday\n",
        "binary": bytes(range(256)) * 4,
    }
    for name, text in cases.items():
        c.case("par", name, "x.par", text, pieces)


def mask_bytes(numchan=16, numint=2, zap=(), counts=None, tail=b""):
    head = struct.pack("<6d", 6.0, 4.0, 60000.0, 0.5, 1485.0, 1.0)
    head += struct.pack("<3i", numchan, numint, 32)
    head += struct.pack("<i", len(zap)) + struct.pack(f"<{len(zap)}i", *zap)
    head += struct.pack("<i", 0)
    counts = [0] * numint if counts is None else counts
    return head + struct.pack(f"<{len(counts)}i", *counts) + tail


def make_rfifind_mask(c):
    fil = {"obs.fil": sp_header() + fil_data()}
    cases = {
        "empty": b"",
        "truncated": mask_bytes()[:30],
        "other_channel_count": mask_bytes(numchan=32),
        "numchan_negative": mask_bytes(numchan=-16),
        "numint_huge": mask_bytes(numint=1 << 30, counts=[0, 0]),
        "zap_channel_out_of_range": mask_bytes(zap=(99,)),
        "interval_count_past_end": mask_bytes(counts=[5, 0]),
        "bytes_left_over": mask_bytes(tail=b"\0" * 7),
    }
    for name, data in cases.items():
        c.case("rfifind_mask", name, "x.mask", data, fil)


def make_singlepulse(c):
    c.case("singlepulse", "garbage", "x.singlepulse", "# DM Sigma\n1.0 two 3 4 5\n")


def make_pfd(c):
    good = c.shared_file("presto-golden/test_DM56.00_ACCEL_Cand_2.pfd")
    c.case("pfd", "empty", "x.pfd", b"")
    c.case("pfd", "counts_absurd", "x.pfd", struct.pack("<12i", *([-7] * 12)) + b"\0" * 200)
    if good is not None:
        c.case("pfd", "truncated", "x.pfd", good[: len(good) // 2])


# ---- FITS (PSRFITS, UVFITS): damaged header cards ---------------------------------------------

def set_card(data, key, value, occurrence=0):
    """Replaces the value of header card `key` (its n-th occurrence), keeping 80 columns."""
    pad = key.ljust(8).encode() + b"= "
    at = -1
    for _ in range(occurrence + 1):
        at = data.find(pad, at + 1)
        while at >= 0 and at % 80:
            at = data.find(pad, at + 1)
        if at < 0:
            raise KeyError(key)
    card = (key.ljust(8) + "= " + value.rjust(20)).ljust(80).encode()
    return data[:at] + card + data[at + 80:]


def garble_card(data, key):
    """Fills the value and comment of header card `key` with bytes that are not ASCII."""
    at = data.find(key.ljust(8).encode() + b"=")
    while at >= 0 and at % 80:
        at = data.find(key.ljust(8).encode() + b"=", at + 1)
    if at < 0:
        raise KeyError(key)
    return data[:at + 10] + b"\xff" * 70 + data[at + 80:]


def rename_card(data, key, new_key):
    at = data.find(key.ljust(8).encode() + b"=")
    while at >= 0 and at % 80:
        at = data.find(key.ljust(8).encode() + b"=", at + 1)
    if at < 0:
        raise KeyError(key)
    return data[:at] + new_key.ljust(8).encode() + data[at + 8:]


def make_psrfits(c):
    good = c.shared_file("sigpyproc3/parkes_4bit.sf")
    if good is None:
        return
    cases = {
        "truncated_in_header": good[:4000],
        "truncated_in_data": good[: len(good) // 2],
        "obs_mode_fold": set_card(good, "OBS_MODE", "'PSR     '"),
        "fitstype_missing": rename_card(good, "FITSTYPE", "FITSTYPX"),
        "nchan_zero": set_card(good, "NCHAN", "0"),
        "nbits_3": set_card(good, "NBITS", "3"),
        "tbin_zero": set_card(good, "TBIN", "0.0"),
        "tbin_nan": set_card(good, "TBIN", "'NaN'"),
        "nsblk_zero": set_card(good, "NSBLK", "0"),
        "no_subint_table": good.replace(b"'SUBINT  '", b"'NOTSUB  '", 1),
        "column_name_not_ascii": garble_card(good, "TTYPE2"),
    }
    for name, data in cases.items():
        c.case("psrfits", name, "x.sf", data)


def make_uvfits(c):
    good = c.shared_file("pyuvdata/zen.2456865.60537.xy.uvcRREAAM.uvfits")
    if good is None:
        return
    an = good.find(b"'AIPS AN")
    cases = {
        "truncated_groups": good[: len(good) // 3],
        "truncated_header": good[:1000],
        "gcount_too_large": set_card(good, "GCOUNT", "100000"),
        "groups_false": set_card(good, "GROUPS", "F"),
        "no_an_table": good[:an] + b"'AIPS XX" + good[an + 8:] if an > 0 else None,
        "naxis2_zero": set_card(good, "NAXIS2", "0"),
        "table_column_name_not_ascii": garble_card(good, "TTYPE2"),
    }
    for name, data in cases.items():
        if data is not None:
            c.case("uvfits", name, "x.uvfits", data)


# ---- Voltages ----------------------------------------------------------------------------------

def guppi_cards(data):
    """Offset just after the END card of the first header (multiple of 80)."""
    for at in range(0, len(data), 80):
        if data[at:at + 80].rstrip() == b"END":
            return at
    raise ValueError("no END card")


def make_guppi_raw(c):
    good = c.shared_file("baseband/sample_puppi.raw")
    if good is None:
        return
    end = guppi_cards(good)
    no_end = good[:end] + b"COMMENT".ljust(80) + good[end + 80:]
    cases = {
        "end_missing": no_end[: end + 80],
        "end_missing_with_data": no_end,
        "blocsize_larger_than_file": set_card(good, "BLOCSIZE", str(len(good) * 4)),
        "blocsize_zero": set_card(good, "BLOCSIZE", "0"),
        "blocsize_negative": set_card(good, "BLOCSIZE", "-8192"),
        "obsnchan_zero": set_card(good, "OBSNCHAN", "0"),
        "nbits_3": set_card(good, "NBITS", "3"),
        "npol_zero": set_card(good, "NPOL", "0"),
        "truncated_header": good[:800],
        "header_only": good[: end + 80],
    }
    for name, data in cases.items():
        c.case("guppi_raw", name, "x.raw", data)


def dada_set(data, key, value):
    head = data[:4096].decode("latin-1")
    lines = head.split("\n")
    for i, line in enumerate(lines):
        if line.split(" ")[0] == key:
            lines[i] = "" if value is None else f"{key} {value}"
    if value is not None and not any(l.split(" ")[0] == key for l in lines):
        lines.insert(0, f"{key} {value}")
    text = "\n".join(lines).encode("latin-1")[:4096]
    return text.ljust(4096, b"\0") + data[4096:]


def make_psrdada(c):
    good = c.shared_file("baseband/sample_meerkat.dada")
    if good is None:
        return
    multi = dada_set(dada_set(good, "ORDER", "TAFTP"), "INNER_T", "1")
    cases = {
        "hdr_size_larger_than_file": dada_set(good, "HDR_SIZE", str(len(good) * 2)),
        "hdr_size_missing": dada_set(good, "HDR_SIZE", None),
        "hdr_size_zero": dada_set(good, "HDR_SIZE", "0"),
        "nchan_zero": dada_set(good, "NCHAN", "0"),
        "nbit_3": dada_set(good, "NBIT", "3"),
        "nant_missing_multi_antenna": dada_set(multi, "NANT", None),
        "order_unknown": dada_set(good, "ORDER", "XYZ"),
        "truncated_header": good[:100],
    }
    for name, data in cases.items():
        c.case("psrdada", name, "x.dada", data)


def make_vdif(c):
    good = c.shared_file("baseband/sample.vdif")
    if good is None:
        return
    word2 = struct.unpack_from("<I", good, 8)[0]

    def with_length(units):
        return good[:8] + struct.pack("<I", (word2 & ~0xFFFFFF) | units) + good[12:]

    cases = {
        "frame_length_zero": with_length(0),
        "frame_length_larger_than_file": with_length(len(good) // 8 + 100),
        "header_only": good[:32],
        "shorter_than_header": good[:20],
        "empty": b"",
    }
    for name, data in cases.items():
        c.case("vdif", name, "x.vdif", data)


# ---- A-term cubes (idg-grid --aterms) -------------------------------------------------------

def fits_card(key, value):
    text = f"{key:<8}= {value}" if value is not None else key
    return text.ljust(80)[:80]


def aterm_cube(axes=((2, "RA---SIN", 60.0, -1e-3), (2, "DEC--SIN", -30.0, 1e-3),
                     (2, "MATRIX", 0.0, 1.0), (3, "ANTENNA", 0.0, 1.0)),
               fill=1.0, values=None, extra=()):
    """A primary HDU of float32 A-terms: axes are (size, CTYPE, CRVAL, CDELT), FITS order."""
    cards = [fits_card("SIMPLE", "T"), fits_card("BITPIX", "-32"), fits_card("NAXIS", str(len(axes)))]
    for k, (n, _, _, _) in enumerate(axes, start=1):
        cards.append(fits_card(f"NAXIS{k}", str(n)))
    for k, (_, ctype, crval, cdelt) in enumerate(axes, start=1):
        cards += [fits_card(f"CTYPE{k}", f"'{ctype:<8}'"), fits_card(f"CRPIX{k}", "1.0"),
                  fits_card(f"CRVAL{k}", repr(float(crval))), fits_card(f"CDELT{k}", repr(float(cdelt)))]
    cards += [fits_card(k, v) for k, v in extra] + [fits_card("END", None)]
    header = "".join(cards).encode()
    header += b" " * (-len(header) % 2880)
    count = 1
    for n, _, _, _ in axes:
        count *= n
    data = np.full(count, fill, dtype=">f4") if values is None else np.asarray(values, dtype=">f4")
    body = data.tobytes()
    return header + body + b"\0" * (-len(body) % 2880)


def make_aterm_cube(c):
    ra, dec, matrix, antenna = ((2, "RA---SIN", 60.0, -1e-3), (2, "DEC--SIN", -30.0, 1e-3),
                                (2, "MATRIX", 0.0, 1.0), (3, "ANTENNA", 0.0, 1.0))
    good = aterm_cube()
    nan = np.ones(24)
    nan[5] = np.nan
    cases = {
        "matrix_size_3": aterm_cube((ra, dec, (3, "MATRIX", 0.0, 1.0), antenna)),
        "value_nan": aterm_cube(values=nan),
        "data_truncated": good[:2880 + 40],
        "cdelt1_zero": aterm_cube(((2, "RA---SIN", 60.0, 0.0), dec, matrix, antenna)),
        "three_axes": aterm_cube((ra, dec, matrix)),
        "antennas_beyond_file": aterm_cube((ra, dec, matrix, (100000000, "ANTENNA", 0.0, 1.0)),
                                           values=np.ones(24)),
        "time_cdelt_zero": aterm_cube((ra, dec, matrix, antenna, (1, "FREQ", 1.4e9, 1e6),
                                       (2, "TIME", 5.2e9, 0.0))),
        "crval1_infinite": aterm_cube(((2, "RA---SIN", "inf", -1e-3), dec, matrix, antenna)),
    }
    for name, data in cases.items():
        c.case("aterm_cube", name, "x.fits", data)


# ---- Array layouts ---------------------------------------------------------------------------

def make_layout(c):
    head = "# telescope: TEST\n# frame: enu -30.7 21.4 1050\n"
    good_line = "A01  10.0  20.0  0.5  13.5\n"
    cases = {
        "bad_number": head + good_line + "A02  ten  20.0  0.5  13.5\n",
        "missing_column": head + good_line + "A02  10.0  20.0\n",
        "no_antennas": head,
        "frame_unknown": "# frame: galactic\n" + good_line + "A02 1 2 3 13.5\n",
        "frame_enu_without_position": "# frame: enu\n" + good_line + "A02 1 2 3 13.5\n",
        "diameter_negative": head + good_line + "A02  1.0  2.0  0.5  -13.5\n",
        "coordinate_nan": head + good_line + "A02  nan  2.0  0.5  13.5\n",
        # offsets around a site without their "# frame: enu" line: at the Earth's centre
        "itrf_off_earth": "# telescope: TEST\n" + good_line + "A02 1.0 2.0 0.5 13.5\n",
    }
    for name, text in cases.items():
        c.case("layout", name, "x.txt", text)


# ---- power traces (powersensor-read --replay) ------------------------------------------------
def make_power_trace(c):
    pmt = "timestamp gpu_instant\n"
    csv = "time_s,gpu0_W,gpu0_J,marker\n"
    cases = {
        "pmt_back_in_time": pmt + "10.0 50\n12.0 50\n11.0 50\n",
        "pmt_megawatts": pmt + "10.0 50\n11.0 2e6\n",
        "pmt_short_row": "timestamp gpu cpu\n10.0 50 20\n11.0 50\n",
        "pmt_no_sensor": "timestamp\n10.0\n",
        "csv_infinite_watts": csv + "0,50,0,\n1,inf,50,\n",
        "csv_back_in_time": csv + "0,50,0,\n2,50,100,\n1,50,150,\n",
        "csv_bad_column": "time_s,gpu0_V,marker\n0,1,\n",
        "header_only": csv,
        "empty": "",
    }
    for name, text in cases.items():
        c.case("power_trace", name, "trace.log", text)


FORMATS = [make_sigproc_fil, make_sigproc_tim, make_presto_dat, make_presto_fft,
           make_presto_inf, make_accel_cand, make_accel_text, make_bestprof, make_par,
           make_rfifind_mask, make_singlepulse, make_pfd, make_psrfits, make_uvfits,
           make_guppi_raw, make_psrdada, make_vdif, make_aterm_cube, make_layout, make_power_trace]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--shared", default=os.environ.get("RAPT_SHARED_DATA", ""))
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    corpus = Corpus(args.outdir, args.shared)
    for make in FORMATS:
        make(corpus)
    with open(os.path.join(args.outdir, "cases.tsv"), "w") as out:
        out.write("\n".join(corpus.lines) + "\n")
    print(f"make_bad_inputs: {len(corpus.lines)} cases in {args.outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
