#!/bin/sh
# deredden on PRESTO's golden spectrum: writes _red.fft and a _red.inf identical to rednoise's,
# whitens the noise (median power ln 2), and refuses bad input with the documented exit
# status (2 bad usage, 1 bad data). Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
GOLDEN=$DATA/presto-golden
[ -x "$BIN/deredden" ] || { echo "deredden not built"; exit 77; }
[ -f "$GOLDEN/test_DM56.00.fft" ] && [ -f "$GOLDEN/test_DM56.00_red.inf" ] || { echo "shared data not found"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
BIN_DIR=$(cd "$BIN" && pwd) || exit 1
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  want_status=$1; want_text=$2; shift 2
  "$@" > /dev/null 2> "$W/err"; status=$?
  [ $status -eq "$want_status" ] || fail "$* exited $status, expected $want_status: $(cat "$W/err")"
  grep -qF -- "$want_text" "$W/err" || fail "$*: expected '$want_text' in: $(cat "$W/err")"
}

cp "$GOLDEN/test_DM56.00.fft" "$GOLDEN/test_DM56.00.inf" "$GOLDEN/test_DM56.00.dat" "$W/"
chmod u+w "$W"/*
# Run from the data's own directory: the .inf's data name is then what rednoise writes.
(cd "$W" && "$BIN_DIR/deredden" test_DM56.00.fft) || fail "deredden"
[ -s "$W/test_DM56.00_red.fft" ] || fail "no _red.fft"
cmp -s "$W/test_DM56.00_red.fft" "$W/test_DM56.00.fft" && fail "_red.fft equals its input"
[ "$(wc -c < "$W/test_DM56.00_red.fft")" -eq 1048576 ] || fail "_red.fft has the wrong size"
cmp "$W/test_DM56.00_red.inf" "$GOLDEN/test_DM56.00_red.inf" || fail "_red.inf differs from rednoise's"
python3 - "$W/test_DM56.00_red.fft" <<'PY' || fail "dereddened noise is not white"
import struct, sys, math
data = open(sys.argv[1], "rb").read()
vals = struct.unpack("<%df" % (len(data) // 4), data)
assert vals[0] == 1.0 and vals[1] == 0.0, "bin 0 is not 1+0i"
powers = sorted(vals[2*k]**2 + vals[2*k+1]**2 for k in range(1000, len(vals) // 2))
median = powers[len(powers) // 2]
assert abs(median - math.log(2)) < 0.02, median
PY

"$BIN/deredden" -startwidth 8 -endwidth 50 -endfreq 2 -o "$W/white" "$W/test_DM56.00.dat" || fail "deredden .dat with PRESTO spellings"
[ -s "$W/white.fft" ] && grep -q "=  $W/white\$" "$W/white.inf" || fail "-o output names"

expect 1 "deredden: $W/test_DM56.00_red.fft: " "$BIN/deredden" "$W/test_DM56.00.fft"   # exists
cp "$W/test_DM56.00.fft" "$W/lonely.fft"
expect 1 "deredden: $W/lonely.fft: no .inf beside it ($W/lonely.inf)" "$BIN/deredden" "$W/lonely.fft"
expect 1 "deredden: $W/x.txt: input must be a .fft, .dat or .sdat file" "$BIN/deredden" "$W/x.txt"
expect 2 "deredden: --endwidth must be >= --startwidth" "$BIN/deredden" --startwidth 10 --endwidth 5 "$W/lonely.fft"
expect 2 "deredden: -o/--output names one output; give one input file" "$BIN/deredden" -o "$W/y" "$W/a.fft" "$W/b.fft"
expect 2 "deredden: no input files" "$BIN/deredden"
exit 0
