#!/bin/sh
# accelgpu and harmsum on PRESTO's golden series: the three files appear with accelsearch's
# layout and the pulsar as candidate 2; time-series input; existing outputs are kept; bad input
# gets one line and the documented status (1 bad data, 2 bad usage).
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
GOLDEN=$DATA/presto-golden
[ -x "$BIN/accelgpu" ] && [ -x "$BIN/harmsum" ] || { echo "accelgpu/harmsum not built"; exit 77; }
[ -f "$GOLDEN/test_DM56.00.fft" ] || { echo "shared data not found"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  want_status=$1; want_text=$2; shift 2
  "$@" > /dev/null 2> "$W/err"; status=$?
  [ $status -eq "$want_status" ] || fail "$* exited $status, expected $want_status: $(cat "$W/err")"
  grep -qF -- "$want_text" "$W/err" || fail "$*: expected '$want_text' in: $(cat "$W/err")"
  [ "$want_status" -ne 1 ] || [ "$(wc -l < "$W/err")" -eq 1 ] || fail "$*: more than one line: $(cat "$W/err")"
}

cp "$GOLDEN/test_DM56.00.fft" "$GOLDEN/test_DM56.00.inf" "$GOLDEN/test_DM56.00.dat" "$W/"
chmod u+w "$W"/*
"$BIN/accelgpu" -q -zmax 50 -numharm 8 -ncpus 2 "$W/test_DM56.00.fft" || fail "accelgpu"
A=$W/test_DM56.00_ACCEL_50
for f in "$A" "$A.cand" "$A.txtcand"; do [ -s "$f" ] || fail "$f missing"; done
head -3 "$GOLDEN/test_DM56.00_ACCEL_50" > "$W/golden_head"
head -3 "$A" | cmp -s - "$W/golden_head" || fail "fundamentals header differs from accelsearch's"
sed -n 5p "$A" | grep -q "87.077(7)" || fail "candidate 2 is not the 87.077 ms pulsar: $(sed -n 5p "$A")"
[ $(( $(wc -c < "$A.cand") % 88 )) -eq 0 ] || fail ".cand is not whole 88-byte records"
tail -n 30 "$A" | grep -q "Data file name without suffix" || fail ".inf not appended"

# An existing output is kept without --force, and nothing else is written.
rm "$A.cand"
expect 1 "already exists" "$BIN/accelgpu" -zmax 50 -numharm 8 "$W/test_DM56.00.fft"
[ -e "$A.cand" ] && fail "wrote a .cand next to an existing _ACCEL file"
"$BIN/accelgpu" -q --force -zmax 50 -numharm 8 "$W/test_DM56.00.fft" || fail "--force"
# A --force rerun that finds nothing leaves none of the earlier run's candidates behind.
cp "$A" "$W/first_run.txt"
"$BIN/accelgpu" -q --force -zmax 50 -numharm 8 -sigma 5000 "$W/test_DM56.00.fft" || fail "-sigma 5000"
[ -e "$A" ] || [ -e "$A.cand" ] && fail "--force run with no candidates kept the earlier _ACCEL/.cand"
[ -e "$A.txtcand" ] || fail "--force run with no candidates wrote no .txtcand"
"$BIN/accelgpu" -q --force -zmax 50 -numharm 8 "$W/test_DM56.00.fft" || fail "--force again"
cmp -s "$A" "$W/first_run.txt" || fail "the same search gave a different _ACCEL file"

# Time series: FFT'd and de-reddened in memory; no .txtcand, as accelsearch.
"$BIN/harmsum" -q --dump -numharm 4 "$W/test_DM56.00.dat" || fail "harmsum .dat"
[ -s "$W/test_DM56.00_ACCEL_0" ] || fail "harmsum wrote no _ACCEL_0"
[ -e "$W/test_DM56.00_ACCEL_0.txtcand" ] && fail "time-series input wrote a .txtcand"
head -1 "$W/test_DM56.00_HARMSUM.txt" | grep -q "P1  P2  P4" || fail "dump header"
# A clash with either kind of output is refused before anything of the input is written.
mv "$W/test_DM56.00_HARMSUM.txt" "$W/dump.txt"
expect 1 "test_DM56.00_ACCEL_0: already exists" "$BIN/harmsum" --dump -numharm 4 "$W/test_DM56.00.dat"
[ -e "$W/test_DM56.00_HARMSUM.txt" ] && fail "harmsum --dump wrote a dump beside an existing _ACCEL_0"
mv "$W/test_DM56.00_ACCEL_0" "$W/accel0.txt"; mv "$W/dump.txt" "$W/test_DM56.00_HARMSUM.txt"
expect 1 "test_DM56.00_HARMSUM.txt: already exists" "$BIN/harmsum" --dump -numharm 4 "$W/test_DM56.00.dat"
[ -e "$W/test_DM56.00_ACCEL_0" ] && fail "harmsum --dump wrote an _ACCEL_0 beside an existing dump"
mv "$W/accel0.txt" "$W/test_DM56.00_ACCEL_0"
grep -q "^ *1 " "$W/test_DM56.00_ACCEL_0" || fail "harmsum found nothing"
cp "$W/test_DM56.00_ACCEL_0" "$W/harmsum32.txt"
"$BIN/harmsum" -q --force --fp16 -numharm 4 "$W/test_DM56.00.dat" || fail "harmsum --fp16"
grep -q "^ *1 " "$W/test_DM56.00_ACCEL_0" || fail "harmsum --fp16 found nothing"
cmp -s "$W/test_DM56.00_ACCEL_0" "$W/harmsum32.txt" && fail "harmsum --fp16 changed nothing"

# Options: each changes what it says.
cands() { awk 'NR > 3 && NF == 0 { exit } NR > 3' "$1" | wc -l; }
run() { out=$1; shift; "$BIN/accelgpu" -q --force "$@" "$W/test_DM56.00.fft" || fail "accelgpu $*"; cp "$A" "$W/$out"; }
run plain.txt -zmax 50 -numharm 8 --device cpu -inmem -ncpus 2 -wmax 0
run keep.txt -zmax 50 -numharm 8 --device cpu -noharmremove
[ "$(cands "$W/keep.txt")" -gt "$(cands "$W/plain.txt")" ] || fail "-noharmremove kept no more candidates"
{ echo "# the pulsar and its first 16 harmonics"; for h in $(seq 1 16); do
  awk -v h="$h" 'BEGIN { printf "%.4f 0.05\n", 11.4841 * h }'; done; } > "$W/zap.txt"
run zapped.txt -zmax 50 -numharm 8 --device cpu -zaplist "$W/zap.txt" -baryv 0
sigma_of_pulsar() { awk '/87.077\(7\)/ { print $2; exit }' "$1"; }
awk -v z="$(sigma_of_pulsar "$W/zapped.txt")" -v p="$(sigma_of_pulsar "$W/plain.txt")" \
    'BEGIN { exit !(z == "" || z < 0.8 * p) }' || fail "-zaplist did not weaken the pulsar"
run band.txt -zmax 50 -numharm 1 --device cpu -rlo 3000 -rhi 5000
awk 'NR > 3 && NF == 0 { exit } NR > 3 { r = $8; sub(/\(.*/, "", r); if (r < 2999 || r > 5001) bad = 1 } END { exit bad }' \
    "$W/band.txt" || fail "-rlo/-rhi: a candidate outside bins 3000-5000"
run dc.txt -zmax 0 -numharm 1 --device cpu -flo 0
awk 'NR > 3 && NF == 0 { exit } NR > 3 && tolower($0) ~ /nan|inf/ { bad = 1 } END { exit !bad }' \
    "$W/dc.txt" && fail "-flo 0: a candidate of no period: $(sed -n 4p "$W/dc.txt")"
run locpow.txt -zmax 50 -numharm 8 --device cpu -locpow
sed -n 5p "$W/locpow.txt" | grep -q "87.077" || sed -n 4p "$W/locpow.txt" | grep -q "87.077" \
    || fail "-locpow lost the pulsar"
run nopolish.txt -zmax 50 -numharm 8 --device cpu -noharmpolish
cmp -s "$W/nopolish.txt" "$W/plain.txt" && fail "-noharmpolish changed nothing"
run fp16.txt -zmax 50 -numharm 8 --device cpu --fp16
cmp -s "$W/fp16.txt" "$W/plain.txt" && fail "--fp16 changed nothing"
sed -n 4p "$W/fp16.txt" | grep -q "87.077" || sed -n 5p "$W/fp16.txt" | grep -q "87.077" \
    || fail "--fp16 lost the pulsar"
run photon.txt -zmax 50 -numharm 8 --device cpu -photon
grep -q "NumPhot" "$W/photon.txt" || fail "-photon: no NumPhot column title"
# -lobin: the same spectrum without its first 500 bins finds the pulsar at the same r.
mkdir "$W/cut" && cp "$W/test_DM56.00.inf" "$W/cut/"
dd if="$W/test_DM56.00.fft" of="$W/cut/test_DM56.00.fft" bs=8 skip=500 2>/dev/null
"$BIN/accelgpu" -q --device cpu -zmax 50 -numharm 8 -lobin 500 "$W/cut/test_DM56.00.fft" \
    || fail "accelgpu -lobin 500"
grep -q "770.688(63)" "$W/cut/test_DM56.00_ACCEL_50" || fail "-lobin: the pulsar moved"
# ... and -zaplist zaps the same frequencies in it as in the whole spectrum.
"$BIN/accelgpu" -q --force --device cpu -zmax 50 -numharm 8 -lobin 500 -zaplist "$W/zap.txt" \
    "$W/cut/test_DM56.00.fft" || fail "accelgpu -lobin 500 -zaplist"
awk -v z="$(sigma_of_pulsar "$W/cut/test_DM56.00_ACCEL_50")" -v p="$(sigma_of_pulsar "$W/plain.txt")" \
    'BEGIN { exit !(z == "" || z < 0.8 * p) }' || fail "-lobin with -zaplist did not weaken the pulsar"

# Bad input.
expect 2 "numharm" "$BIN/accelgpu" -numharm 3 "$W/test_DM56.00.fft"
expect 2 "zmax" "$BIN/accelgpu" -zmax 2000 "$W/test_DM56.00.fft"
expect 2 "-wmax 20: the jerk search is not available" "$BIN/accelgpu" -zmax 50 -wmax 20 "$W/test_DM56.00.fft"
expect 2 "-median and -locpow" "$BIN/accelgpu" -median -locpow "$W/test_DM56.00.fft"
expect 2 "is a time series, whose spectrum starts at 0" "$BIN/accelgpu" -lobin 500 "$W/test_DM56.00.dat"
printf '11.48 oops\n' > "$W/badzap.txt"
expect 1 "badzap.txt" "$BIN/accelgpu" --force -zaplist "$W/badzap.txt" "$W/test_DM56.00.fft"
expect 1 "test_DM56.00.inf" sh -c "rm '$W/test_DM56.00.inf'; '$BIN/accelgpu' '$W/test_DM56.00.fft'"
expect 1 "nothere.fft" "$BIN/accelgpu" "$W/nothere.fft"
echo "accelgpu_cli: ok"
