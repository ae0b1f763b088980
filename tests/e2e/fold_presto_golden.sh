#!/bin/sh
# fold against prepfold itself, on PRESTO's golden data:
#   1. candidate 2 of test_DM56.00_ACCEL_50.cand folded from test_DM56.00.dat (the 87.3 ms
#      pulsar): P, P', reduced chi^2 and profile shape as prepfold's test_DM56.00_ACCEL_Cand_2
#      (chi^2 563.03 against 562.23: prepfold never folds its last partial turn, 233 samples);
#   2. the raw filterbank (regenerated with PRESTO's mkfil.py) folded with -nosearch at
#      P 0.0873, P' -6.769e-6, DM 56 in 32 subbands, as prepfold's rawfold_ns_87.30ms_Cand
#      (prepfold folded 153600 of the 262144 samples, we fold all: chi^2 differs, shape not);
#   3. the same with the full DM x P x P' search (25 million trials), timed.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
GOLDEN=$DATA/presto-golden
[ -x "$BIN/fold" ] || { echo "fold not built"; exit 77; }
[ -f "$GOLDEN/mkfil.py" ] && [ -f "$GOLDEN/test_DM56.00_ACCEL_50.cand" ] || { echo "shared data not found"; exit 77; }
PY=
for candidate in python3 /usr/bin/python3; do
  "$candidate" -c 'import numpy' 2>/dev/null && { PY=$candidate; break; }
done
[ -n "$PY" ] || { echo "no python3 with numpy (apt-get install python3-numpy)"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# compare OURS GOLDEN 'python checks on a (ours) and b (golden)': reads both .bestprof files.
compare() {
  "$PY" - "$1" "$2" "$3" <<'PYEOF' || exit 1
import sys, numpy as np
def read(path):
    head, prof = {}, []
    for line in open(path):
        if line.startswith('#'):
            if '=' in line or '<' in line:
                key, _, value = line[2:].partition('=' if '=' in line else '<')
                head[key.strip()] = value.strip()
        else:
            prof.append(float(line.split()[1]))
    head['profile'] = np.array(prof)
    return head
def num(h, key): return float(h[key].split()[0])
def corr(x, y): return np.corrcoef(x, y)[0, 1]
a, b = read(sys.argv[1]), read(sys.argv[2])
for check in sys.argv[3].split(';'):
    if not eval(check.strip()):
        print("FAIL: %s (ours %s, prepfold's %s)" % (check.strip(), sys.argv[1], sys.argv[2]))
        for key in ('P_topo (ms)', "P'_topo (s/s)", 'Reduced chi-sqr', 'Best DM', 'Data Folded'):
            print('  %-16s ours %-40s prepfold %s' % (key, a.get(key), b.get(key)))
        print('  profile correlation %.4f' % corr(a['profile'], b['profile']))
        sys.exit(1)
PYEOF
}

# 1. The accelsearch candidate from the .dat.
"$BIN/fold" -q -accelcand 2 -accelfile "$GOLDEN/test_DM56.00_ACCEL_50.cand" -o "$W/test_DM56.00" \
  "$GOLDEN/test_DM56.00.dat" || fail "fold of candidate 2"
[ -f "$W/test_DM56.00_ACCEL_Cand_2.pfd" ] || fail "no $W/test_DM56.00_ACCEL_Cand_2.pfd"
compare "$W/test_DM56.00_ACCEL_Cand_2.pfd.bestprof" "$GOLDEN/test_DM56.00_ACCEL_Cand_2.pfd.bestprof" \
  "abs(num(a,'P_topo (ms)') - num(b,'P_topo (ms)')) < 1e-6;
   abs(num(a,\"P'_topo (s/s)\") - num(b,\"P'_topo (s/s)\")) < 1e-12;
   abs(num(a,'Reduced chi-sqr') / num(b,'Reduced chi-sqr') - 1) < 0.002;
   num(a,'Data Folded') == num(b,'Data Folded');
   corr(a['profile'], b['profile']) > 0.99"

# 1b. Several candidates in one pass give the same folds as one at a time. On the CPU, whose
# sums are in a fixed order (the GPU engine's atomic adds may round differently run to run).
"$BIN/fold" -q --device cpu --accelcand 2,3-4 --accelfile "$GOLDEN/test_DM56.00_ACCEL_50.cand" \
  -o "$W/multi" "$GOLDEN/test_DM56.00.dat" || fail "fold of candidates 2,3-4"
"$BIN/fold" -q --device cpu --accelcand 2 --accelfile "$GOLDEN/test_DM56.00_ACCEL_50.cand" \
  -o "$W/single" "$GOLDEN/test_DM56.00.dat" || fail "fold of candidate 2 on the CPU"
for n in 2 3 4; do
  [ -f "$W/multi_ACCEL_Cand_$n.pfd" ] && [ -f "$W/multi_ACCEL_Cand_$n.pfd.bestprof" ] || fail "no outputs for candidate $n"
done
sed 1d "$W/single_ACCEL_Cand_2.pfd.bestprof" > "$W/single.body"
sed 1d "$W/multi_ACCEL_Cand_2.pfd.bestprof" | cmp -s - "$W/single.body" \
  || fail "candidate 2 folded with others differs from candidate 2 alone"

# 2. The raw filterbank, no search.
"$PY" "$GOLDEN/mkfil.py" -o "$W/test.fil" > /dev/null || fail "mkfil.py"
"$BIN/fold" -q -topo -nosearch -p 0.0873 -pd -6.769e-6 -dm 56 -nsub 32 -o "$W/rawfold_ns" "$W/test.fil" \
  || fail "raw fold"
compare "$W/rawfold_ns_87.30ms_Cand.pfd.bestprof" "$GOLDEN/rawfold_ns_87.30ms_Cand.pfd.bestprof" \
  "num(a,'P_topo (ms)') == 87.3;
   num(a,\"P'_topo (s/s)\") == -6.769e-06;
   num(a,'Best DM') == num(b,'Best DM');
   num(a,'Data Folded') == 262144;
   corr(a['profile'], b['profile']) > 0.95;
   num(a,'Reduced chi-sqr') > num(b,'Reduced chi-sqr')"

# ... and its .pfd header, DM grid and fit values are prepfold's (the folds differ: PRESTO folded
# 2400 of every 4096 samples per part; so do the P and P' grids, whose steps scale with the
# folded time).
"$PY" - "$W/rawfold_ns_87.30ms_Cand.pfd" "$GOLDEN/rawfold_ns_87.30ms_Cand.pfd" <<'PYEOF' || fail "raw .pfd header"
import struct, sys
def head(path):
    b = open(path, 'rb').read()
    ints = struct.unpack_from('12i', b, 0); off = 48; strs = []
    for _ in range(4):
        n = struct.unpack_from('i', b, off)[0]; strs.append(b[off + 4:off + 4 + n]); off += 4 + n
    off += 32
    doubles = struct.unpack_from('9d', b, off); off += 72
    positions = [struct.unpack_from('f4xddd', b, off + 32 * i) for i in range(3)]; off += 96 + 56
    grids = struct.unpack_from('%dd' % ints[0], b, off)  # the DMs
    return ints, strs[:3], doubles, positions, grids
a, b = head(sys.argv[1]), head(sys.argv[2])
close = lambda x, y: all(abs(u - v) <= 1e-12 * max(1.0, abs(v)) for u, v in zip(x, y))
ok = a[0] == b[0] and a[1] == b[1] and close(a[2], b[2]) and close(a[4], b[4]) and \
     all(close(x, y) for x, y in zip(a[3], b[3]))
if not ok:
    print('ours', a[:4]); print('prepfold', b[:4]); sys.exit(1)
PYEOF

# 3. The full search, timed (prepfold: 86 s on one core for the same 25 million trials).
start=$(date +%s.%N)
"$BIN/fold" -p 0.0873 -pd -6.769e-6 -dm 56 -nsub 32 -o "$W/rawfold" "$W/test.fil" 2> "$W/log" \
  || fail "raw fold with search: $(cat "$W/log")"
end=$(date +%s.%N)
cat "$W/log"
echo "full DM x P x P' search of test.fil: $(awk "BEGIN { print $end - $start }") s"
compare "$W/rawfold_87.30ms_Cand.pfd.bestprof" "$GOLDEN/rawfold_ns_87.30ms_Cand.pfd.bestprof" \
  "abs(num(a,'Best DM') - 56) < 2.5;
   abs(num(a,'P_topo (ms)') - 87.30) < 0.01;
   corr(a['profile'], b['profile']) > 0.9"
grep -q "25428865 trials" "$W/log" || fail "not the 385 x 257 x 257 trials of prepfold"
exit 0
