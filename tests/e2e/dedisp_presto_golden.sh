#!/bin/sh
# dedisp against PRESTO itself: PRESTO's golden input is regenerated with its own script
# (presto-golden/mkfil.py, needs numpy), dedispersed at DM 56, and compared with what
# `prepdata -nobary -dm 56` wrote. Every sample PRESTO computed from real data in all channels
# (0 .. 261418; after that PRESTO mixes in its block padding) must be bit-identical.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
GOLDEN=$DATA/presto-golden
[ -f "$GOLDEN/mkfil.py" ] && [ -f "$GOLDEN/pd_DM56.00.dat" ] || { echo "shared data not found"; exit 77; }
PY=
for candidate in python3 /usr/bin/python3; do
  "$candidate" -c 'import numpy' 2>/dev/null && { PY=$candidate; break; }
done
[ -n "$PY" ] || { echo "no python3 with numpy (apt-get install python3-numpy)"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$PY" "$GOLDEN/mkfil.py" -o "$W/test.fil" > /dev/null || fail "mkfil.py"
"$BIN/dedisp" -q --lodm 56 -o "$W/pd" "$W/test.fil" || fail "dedisp"
cmp -n $((261419 * 4)) "$W/pd_DM56.00.dat" "$GOLDEN/pd_DM56.00.dat" || fail "differs from prepdata"
# The DM 0 series is the plain channel sum, which the sweep at DM 56 is not.
"$BIN/dedisp" -q --lodm 0 -o "$W/pd" "$W/test.fil" || fail "dedisp DM 0"
cmp -s -n 4000 "$W/pd_DM0.00.dat" "$GOLDEN/pd_DM56.00.dat" && fail "DM 0 equals DM 56?"
exit 0
