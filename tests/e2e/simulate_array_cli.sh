#!/bin/sh
# simulate --voltages, --real-voltages and --visibilities as a user runs them: PSRDADA header
# keys and sizes, identical bytes across --threads and --gulp, seeds, stdout, 8-bit clipping
# report, GUPPI RAW for one antenna, UVFITS values for a source at the phase centre (with
# astropy), a Measurement Set when built with casacore, one-line errors with exit status 2,
# and the filterbank mode unchanged.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
SIM="$BIN/simulate"
[ -x "$SIM" ] || { echo "$SIM not built"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Three antennas near MeerKAT, east-north-up metres.
cat > "$dir/three.txt" <<'LAYOUT'
# telescope: TEST
# frame: enu -30:42:39.8 21:26:38.0 1086.6
a0    0.0    0.0  0.0  13.5
a1   40.0  -25.0  0.5  13.5
a2 -300.0  120.0  2.0  13.5
LAYOUT
dada_key() { head -c 4096 "$1" | tr -d '\000' | awk -v k="$2" '$1 == k { print $2; exit }'; }
size() { wc -c < "$1" | tr -d ' '; }

# --- PSRDADA: header and size
common="--voltages --layout $dir/three.txt --nchans 8 --bw 8 --freq 1400 --ra 04:00:00 --dec -30:00:00 --tstart 60000.5"
src="--source ra=04:00:30,dec=-29:50:00,flux=50"
"$SIM" $common $src --nsamples 1000 -o "$dir/v.dada" 2> "$dir/err" || fail "voltages: $(cat "$dir/err")"
[ "$(dada_key "$dir/v.dada" HEADER)" = DADA ] || fail "not a DADA header"
[ "$(dada_key "$dir/v.dada" NANT)" = 3 ] || fail "NANT $(dada_key "$dir/v.dada" NANT)"
[ "$(dada_key "$dir/v.dada" NCHAN)" = 8 ] || fail "NCHAN"
[ "$(dada_key "$dir/v.dada" NPOL)" = 2 ] || fail "NPOL"
[ "$(dada_key "$dir/v.dada" NBIT)" = 8 ] || fail "NBIT"
[ "$(dada_key "$dir/v.dada" NDIM)" = 2 ] || fail "NDIM"
[ "$(dada_key "$dir/v.dada" TSAMP)" = 1 ] || fail "TSAMP $(dada_key "$dir/v.dada" TSAMP) us, expected 1"
[ "$(dada_key "$dir/v.dada" ANT_NAMES)" = a0,a1,a2 ] || fail "ANT_NAMES"
hdr=$(dada_key "$dir/v.dada" HDR_SIZE)
[ "$(size "$dir/v.dada")" = $((hdr + 8 * 3 * 1000 * 2 * 2)) ] || fail "size $(size "$dir/v.dada")"
grep -q "clipped 0 of 96000 values" "$dir/err" || fail "clipping report: $(cat "$dir/err")"

# --- reproducible: threads, blocks, stdout; other seeds differ
"$SIM" $common $src --nsamples 1000 --threads 1 -o "$dir/t1.dada" 2>/dev/null || fail "t1"
"$SIM" $common $src --nsamples 1000 --threads 3 --gulp 77 -o "$dir/t3.dada" 2>/dev/null || fail "t3"
cmp -s "$dir/t1.dada" "$dir/t3.dada" || fail "--threads/--gulp changed the bytes"
cmp -s "$dir/t1.dada" "$dir/v.dada" || fail "default threads changed the bytes"
"$SIM" $common $src --nsamples 1000 -o - > "$dir/stdout.dada" 2>/dev/null || fail "-o -"
cmp -s "$dir/t1.dada" "$dir/stdout.dada" || fail "stdout differs from the file"
# inspect reads the stream from a pipe (more than the bytes it reads to tell the format) with
# the file's statistics.
if [ -x "$BIN/inspect" ]; then
  "$BIN/inspect" "$dir/v.dada" 2>/dev/null | sed -n '/^Statistics/,$p' > "$dir/file.stats"
  "$SIM" $common $src --nsamples 1000 -o - 2>/dev/null | "$BIN/inspect" - 2>/dev/null |
    sed -n '/^Statistics/,$p' > "$dir/pipe.stats"
  grep -q "of 1000 time samples" "$dir/file.stats" && cmp -s "$dir/file.stats" "$dir/pipe.stats" ||
    fail "inspect of the stream: $(cat "$dir/pipe.stats")"
fi
"$SIM" $common $src --nsamples 1000 --seed 2 -o "$dir/s2.dada" 2>/dev/null || fail "seed 2"
cmp -s "$dir/t1.dada" "$dir/s2.dada" && fail "--seed 2 gave the same bytes"

# --- 8-bit clipping is reported; floats; one polarisation; pulsar and burst
"$SIM" $common $src --nsamples 512 --noise-rms 100 -o "$dir/clip.dada" 2> "$dir/err" || fail "clip run"
grep -q "clipped [1-9][0-9]* of 49152 values" "$dir/err" || fail "clipped count: $(cat "$dir/err")"
"$SIM" $common $src --nsamples 512 --nbits 32 --npol 1 -o "$dir/f.dada" 2>/dev/null || fail "--nbits 32"
[ "$(size "$dir/f.dada")" = $((hdr + 8 * 3 * 512 * 1 * 2 * 4)) ] || fail "float size"
[ "$(dada_key "$dir/f.dada" NBIT)" = 32 ] || fail "float NBIT"
"$SIM" $common --nsamples 4096 --pulsar P=0.0005,DM=3,snr=20,ra=04:00:10,dec=-30:01:00 \
  --burst t=0.001,DM=2,width=0.0001,snr=30 -v -o "$dir/psr.dada" 2> "$dir/err" || fail "pulsar/burst: $(cat "$dir/err")"
grep -q "pulsar P=0.0005" "$dir/err" || fail "pulsar not described: $(cat "$dir/err")"

# --- real-sampled band
"$SIM" --real-voltages --layout "$dir/three.txt" --bw 16 --npol 1 --nsamples 4096 $src \
  -o "$dir/r.dada" 2>/dev/null || fail "--real-voltages"
[ "$(dada_key "$dir/r.dada" NDIM)" = 1 ] || fail "real NDIM"
[ "$(dada_key "$dir/r.dada" NCHAN)" = 1 ] || fail "real NCHAN"
[ "$(size "$dir/r.dada")" = $((hdr + 3 * 4096)) ] || fail "real size"

# --- GUPPI RAW: one antenna
"$SIM" $common --nsamples 1024 --format guppi -o "$dir/g.raw" 2> "$dir/err"; status=$?
[ $status = 2 ] || fail "guppi with three antennas: exit $status"
grep -q "guppi holds one antenna; the layout has 3 (choose one with --antenna NAME)" "$dir/err" || fail "$(cat "$dir/err")"
"$SIM" $common $src --nsamples 1024 --format guppi --antenna a1 -o "$dir/g.raw" 2>/dev/null || fail "guppi --antenna"
head -c 8 "$dir/g.raw" | grep -q '^[A-Z]' || fail "GUPPI file does not start with a card"
grep -aq "OBSNCHAN= *8" "$dir/g.raw" || fail "OBSNCHAN 8"
sim_path=$(realpath "$SIM")  # run from $dir, where a file named '-' would appear
(cd "$dir" && "$sim_path" $common $src --nsamples 1024 --format guppi --antenna a1 -o - > /dev/null 2> err); status=$?
[ $status = 2 ] && grep -q "guppi goes to a file" "$dir/err" || fail "guppi to standard output: exit $status: $(cat "$dir/err")"
[ ! -e "$dir/-" ] || fail "guppi to standard output made a file named -"
# Voltages under a visibility file's name are refused.
"$SIM" $common -o "$dir/v.uvfits" 2> "$dir/err"; status=$?
[ $status = 2 ] && grep -q "names a visibility file" "$dir/err" || fail "--voltages -o v.uvfits: exit $status: $(cat "$dir/err")"
[ ! -e "$dir/v.uvfits" ] || fail "--voltages -o v.uvfits left a file"
# A start the writers cannot store is a usage error, named, with nothing written.
"$SIM" $common --tstart -1 -o "$dir/neg.dada" 2> "$dir/err"; status=$?
[ $status = 2 ] && grep -q "^simulate: --tstart must be an MJD from 0 to 9999999" "$dir/err" ||
  fail "--tstart -1: exit $status: $(cat "$dir/err")"
[ ! -e "$dir/neg.dada" ] || fail "--tstart -1 left a file"

# --- visibilities: UVFITS (and values with astropy), Measurement Set
vis="--visibilities --layout $dir/three.txt --nchans 4 --bw 8 --freq 1400 --ra 04:00:00 --dec -30:00:00 --nints 3 --int-time 5"
"$SIM" $vis --source ra=04:00:00,dec=-30:00:00,flux=2.5 -o "$dir/sky.uvfits" 2> "$dir/err" || fail "uvfits: $(cat "$dir/err")"
[ "$(head -c 9 "$dir/sky.uvfits")" = "SIMPLE  =" ] || fail "not FITS"
if python3 -c "import astropy" 2>/dev/null; then
  python3 - "$dir/sky.uvfits" <<'PY' || fail "UVFITS values"
import sys
from astropy.io import fits
with fits.open(sys.argv[1]) as f:
    g = f[0].data
    assert len(g) == 9, len(g)                       # 3 integrations x 3 baselines
    d = g['DATA']                                    # group, dec, ra, IF, chan, stokes, complex
    xx = d[..., 0, 0]; yy = d[..., 1, 0]; xy = d[..., 2, 0]
    assert abs(xx - 2.5).max() < 1e-5 and abs(yy - 2.5).max() < 1e-5, (xx, yy)
    assert abs(d[..., 0, 1]).max() < 1e-5 and abs(xy).max() == 0
PY
else
  echo "astropy not installed: UVFITS values not checked"
fi
"$SIM" $vis --source ra=04:00:00,dec=-30:00:00,flux=2.5 -o "$dir/sky.ms" 2> "$dir/err"; status=$?
if grep -q "no Measurement Set support" "$dir/err"; then
  echo "built without casacore: Measurement Set not checked"
else
  [ $status = 0 ] || fail "ms: $(cat "$dir/err")"
  [ -f "$dir/sky.ms/table.dat" ] || fail "no table.dat in sky.ms"
fi
"$SIM" $vis --source ra=04:00:00,dec=-30:00:00,flux=2.5 --format uvfits -o "$dir/named.vis" 2>/dev/null || fail "--format uvfits"

# --- errors: exit 2, one line naming the option
expect_usage() {
  want="$1"; shift
  "$SIM" "$@" 2> "$dir/err"; status=$?
  [ $status = 2 ] || fail "$*: exit $status, expected 2"
  grep -qF -- "$want" "$dir/err" || fail "$*: message '$(cat "$dir/err")' lacks '$want'"
}
expect_usage "--layout needs --voltages or --visibilities" --layout "$dir/three.txt" -o "$dir/x.fil"
expect_usage "no array: give --layout FILE" --voltages -o "$dir/x.dada"
expect_usage "--fch1 does not apply to --voltages" $common --fch1 1400 -o "$dir/x.dada"
expect_usage "--int-time does not apply to --voltages" $common --int-time 3 -o "$dir/x.dada"
expect_usage "--pulsar does not apply to --visibilities" $vis --pulsar P=1,DM=1,snr=1 -o "$dir/x.uvfits"
expect_usage "give --voltages (or --real-voltages) or --visibilities, not both" $common --visibilities -o "$dir/x"
expect_usage '--source "ra=1,dec=2": missing flux=' $common --source ra=1,dec=2 -o "$dir/x.dada"
expect_usage "--nbits 16 is not supported for voltages" $common --nbits 16 -o "$dir/x.dada"
expect_usage "cannot tell the format of" $vis -o "$dir/x.txt"
expect_usage "--antenna zz: no such antenna" $common --antenna zz -o "$dir/x.dada"
# Floats beyond their range would be written as infinities: refused, and no file left.
expect_usage "the voltages overflow 32-bit floats" $common --nbits 32 --gain 1e38 --nsamples 256 \
    -o "$dir/inf.dada"
expect_usage "the visibilities overflow 32-bit floats" $vis --source ra=04:00:00,dec=-30:00:00,flux=1e39 \
    -o "$dir/inf.uvfits"
[ -e "$dir/inf.dada" ] || [ -e "$dir/inf.uvfits" ] && fail "an overflowing simulation left a file"
"$SIM" --voltages --layout "$dir/missing.txt" -o "$dir/x.dada" 2> "$dir/err"; status=$?
[ $status = 1 ] || fail "missing layout: exit $status, expected 1"
grep -q "missing.txt" "$dir/err" || fail "missing layout message: $(cat "$dir/err")"
[ -e "$dir/x.dada" ] && fail "a failed run left an output file"

# --- the filterbank mode is unchanged
"$SIM" --nchans 16 --nsamples 100 -o "$dir/plain.fil" || fail "filterbank mode"
[ -s "$dir/plain.fil" ] || fail "no filterbank"

[ $failures = 0 ] && echo "simulate_array_cli: all passed"
[ $failures = 0 ]
