#!/usr/bin/env python3
"""Prints what python-casacore sees in a Measurement Set, one 'key value...' line each, so a
test can compare it with what rapt wrote. Usage: measurement_set_casacore_check.py MS"""
import sys

import casacore.tables as ct


def line(key, values):
    print(key, " ".join(repr(v) if isinstance(v, float) else str(v) for v in values))


def main():
    path = sys.argv[1]
    ms = ct.table(path, ack=False)
    line("nrows", [ms.nrows()])
    line("data_shape", ms.getcell("DATA", 0).shape)
    line("weight_spectrum_shape", ms.getcell("WEIGHT_SPECTRUM", 0).shape)
    for row in range(min(3, ms.nrows())):
        line("uvw%d" % row, [float(x) for x in ms.getcell("UVW", row)])
        data = ms.getcell("DATA", row)  # (nchan, ncorr)
        line("data%d" % row, [float(v) for c in data[:, 0] for v in (c.real, c.imag)])
        line("flag%d" % row, [int(f) for f in ms.getcell("FLAG", row)[:, 0]])
        weights = ms.getcell("WEIGHT_SPECTRUM", row)[:, 0]
        line("weight_spectrum%d" % row, [float(w) for w in weights])
        line("ants%d" % row, [ms.getcell("ANTENNA1", row), ms.getcell("ANTENNA2", row)])
        line("time%d" % row, [float(ms.getcell("TIME", row))])
    for name in ("ANTENNA", "SPECTRAL_WINDOW", "POLARIZATION", "FIELD", "DATA_DESCRIPTION",
                 "OBSERVATION", "FEED"):
        if name in ms.getkeywords():
            line("subtable", [name])
    ant = ct.table(path + "/ANTENNA", ack=False)
    line("antenna_names", ant.getcol("NAME"))
    line("antenna0_position", [float(x) for x in ant.getcell("POSITION", 0)])
    line("antenna0_dish", [float(ant.getcell("DISH_DIAMETER", 0))])
    spw = ct.table(path + "/SPECTRAL_WINDOW", ack=False)
    line("chan_freq", [float(f) for f in spw.getcell("CHAN_FREQ", 0)])
    line("chan_width", [float(spw.getcell("CHAN_WIDTH", 0)[0])])
    line("meas_freq_ref", [spw.getcell("MEAS_FREQ_REF", 0)])
    pol = ct.table(path + "/POLARIZATION", ack=False)
    line("corr_type", pol.getcell("CORR_TYPE", 0))
    line("corr_product", pol.getcell("CORR_PRODUCT", 0).flatten())
    field = ct.table(path + "/FIELD", ack=False)
    for column in ("PHASE_DIR", "DELAY_DIR", "REFERENCE_DIR"):
        line(column.lower(), [float(x) for x in field.getcell(column, 0).flatten()])
    line("field_name", [field.getcell("NAME", 0)])
    obs = ct.table(path + "/OBSERVATION", ack=False)
    line("telescope", [obs.getcell("TELESCOPE_NAME", 0)])
    line("time_units", ms.getcolkeyword("TIME", "QuantumUnits"))


if __name__ == "__main__":
    main()
