#!/bin/sh
# accelgpu, harmsum and fold --brute-force in parts and over several devices: --part K/N
# searches only its share of the inputs (the parts together write what one run writes, an empty
# part does nothing and succeeds), and a list of GPUs (gpu:0,0: two parts on GPU 0) writes the
# same bytes as one GPU. The --part checks run on the CPU everywhere; then, without a GPU, the
# device checks are skipped (exit 77). Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
GOLDEN=$DATA/presto-golden
for program in accelgpu harmsum fold simulate dedisp; do
  [ -x "$BIN/$program" ] || { echo "$BIN/$program not built"; exit 77; }
done
[ -f "$GOLDEN/test_DM56.00.fft" ] && [ -f "$GOLDEN/pd_DM56.00.dat" ] \
  || { echo "shared data not found"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Three inputs: two spectra and a (different) time series.
cp "$GOLDEN/test_DM56.00.fft" "$W/a_DM1.00.fft"; cp "$GOLDEN/test_DM56.00.inf" "$W/a_DM1.00.inf"
cp "$GOLDEN/test_DM56.00.fft" "$W/b_DM2.00.fft"; cp "$GOLDEN/test_DM56.00.inf" "$W/b_DM2.00.inf"
cp "$GOLDEN/pd_DM56.00.dat" "$W/c_DM3.00.dat"; cp "$GOLDEN/pd_DM56.00.inf" "$W/c_DM3.00.inf"
chmod u+w "$W"/*
INPUTS="$W/a_DM1.00.fft $W/b_DM2.00.fft $W/c_DM3.00.dat"

# Moves this run's outputs into folder $1.
keep_outputs() {
  mkdir -p "$W/$1"
  for f in "$W"/*_ACCEL_* "$W"/*_HARMSUM.txt; do [ -e "$f" ] && mv "$f" "$W/$1/"; done
  return 0
}
# The files of folder $1 and folder $2 are the same set, byte for byte.
same_outputs() {
  [ "$(ls "$W/$1")" = "$(ls "$W/$2")" ] || fail "$3: files differ: $(ls "$W/$1") / $(ls "$W/$2")"
  [ -n "$(ls "$W/$1")" ] || fail "$3: no outputs"
  for f in "$W/$1"/*; do
    cmp -s "$f" "$W/$2/$(basename "$f")" || fail "$3: $(basename "$f") differs"
  done
}

# --part on the CPU: 1/2 searches the first two inputs, 2/2 the third; together they write
# what one whole run writes.
"$BIN/accelgpu" -q --device cpu -zmax 0 -ncpus 2 --part 1/2 $INPUTS 2> "$W/err" \
  || fail "accelgpu --part 1/2: $(cat "$W/err")"
[ -s "$W/a_DM1.00_ACCEL_0" ] && [ -s "$W/b_DM2.00_ACCEL_0" ] || fail "--part 1/2 skipped a or b"
[ -e "$W/c_DM3.00_ACCEL_0" ] && fail "--part 1/2 searched the third input"
"$BIN/accelgpu" -q --device cpu -zmax 0 -ncpus 2 --part 2/2 $INPUTS 2> "$W/err" \
  || fail "accelgpu --part 2/2: $(cat "$W/err")"
[ -s "$W/c_DM3.00_ACCEL_0" ] || fail "--part 2/2 did not search the third input"
keep_outputs parts
"$BIN/accelgpu" -q --device cpu -zmax 0 -ncpus 2 $INPUTS || fail "accelgpu (whole)"
keep_outputs whole
same_outputs parts whole "--part 1/2 + 2/2 against one run"

# harmsum takes --part too: 2/3 of three inputs is the second.
"$BIN/harmsum" -q --device cpu -ncpus 2 --part 2/3 $INPUTS || fail "harmsum --part 2/3"
[ -s "$W/b_DM2.00_ACCEL_0" ] || fail "harmsum --part 2/3 did not search b"
[ -e "$W/a_DM1.00_ACCEL_0" ] || [ -e "$W/c_DM3.00_ACCEL_0" ] \
  && fail "harmsum --part 2/3 searched a or c"
keep_outputs harmsum_part

# An empty part: nothing to do, said on stderr (not with -q), exit 0, nothing written.
"$BIN/accelgpu" --device cpu --part 4/4 $INPUTS > "$W/out" 2> "$W/err" \
  || fail "an empty part failed: $(cat "$W/err")"
grep -q "part 4/4.*nothing to do" "$W/err" || fail "empty part: no message: $(cat "$W/err")"
[ -s "$W/out" ] && fail "empty part wrote to stdout"
"$BIN/harmsum" -q --device cpu --part 5/8 $INPUTS 2> "$W/err" || fail "harmsum empty part failed"
[ -s "$W/err" ] && fail "empty part with -q said: $(cat "$W/err")"
ls "$W" | grep -q "_ACCEL_" && fail "an empty part wrote outputs"

# Bad usage: exit 2 and one line naming the option.
for part in 3/2 0/1 x 1/2/3; do
  "$BIN/accelgpu" -q --device cpu --part "$part" $INPUTS 2> "$W/err"; status=$?
  [ $status -eq 2 ] || fail "--part $part exited $status"
  grep -q -- "--part" "$W/err" || fail "--part $part: $(cat "$W/err")"
done
"$BIN/accelgpu" -q --device gpu:0,x $INPUTS 2> "$W/err"; status=$?
[ $status -eq 2 ] && grep -q -- "--device gpu:0,x" "$W/err" \
  || fail "--device gpu:0,x: $status $(cat "$W/err")"
# fold runs a candidate on one GPU: a list is refused before anything is read.
"$BIN/fold" -q --device gpu:0,1 -p 0.0873 "$W/c_DM3.00.dat" 2> "$W/err"; status=$?
[ $status -eq 2 ] && grep -q "runs on one GPU" "$W/err" \
  || fail "fold --device gpu:0,1: $status $(cat "$W/err")"
ls "$W" | grep -q "pfd" && fail "fold with a device list wrote a .pfd"

# Several GPUs: two parts on GPU 0 against one GPU.
"$BIN/accelgpu" -q --device gpu:0 -zmax 50 $INPUTS 2> "$W/err"; status=$?
if [ $status -eq 2 ] && grep -qi "gpu\|cuda" "$W/err"; then
  echo "no GPU to split over (the --part checks passed): $(head -n 1 "$W/err")"; exit 77
fi
[ $status -eq 0 ] || fail "accelgpu --device gpu:0: $(cat "$W/err")"
keep_outputs gpu1
for devices in gpu:0,0 gpu:0,0,0,0; do
  "$BIN/accelgpu" -q --device $devices -zmax 50 $INPUTS 2> "$W/err" \
    || fail "accelgpu --device $devices: $(cat "$W/err")"
  keep_outputs "accel_$devices"
  same_outputs gpu1 "accel_$devices" "accelgpu --device $devices against gpu:0"
done
"$BIN/harmsum" -q --dump --device gpu:0 -numharm 16 $INPUTS || fail "harmsum --device gpu:0"
keep_outputs harmsum_gpu1
"$BIN/harmsum" -q --dump --device gpu:0,0 -numharm 16 $INPUTS || fail "harmsum --device gpu:0,0"
keep_outputs harmsum_gpu2
same_outputs harmsum_gpu1 harmsum_gpu2 "harmsum --device gpu:0,0 against gpu:0"
# A list and --part together: part 1/2's inputs split over the list.
"$BIN/accelgpu" -q --device gpu:0,0 -zmax 50 --part 1/2 $INPUTS \
  || fail "--device gpu:0,0 --part 1/2"
[ -s "$W/a_DM1.00_ACCEL_50" ] && [ -s "$W/b_DM2.00_ACCEL_50" ] && [ ! -e "$W/c_DM3.00_ACCEL_50" ] \
  || fail "--device gpu:0,0 --part 1/2 searched the wrong inputs"
cmp -s "$W/a_DM1.00_ACCEL_50" "$W/gpu1/a_DM1.00_ACCEL_50" || fail "--part 1/2 on gpu:0,0 changed a"
keep_outputs accel_part

# fold --brute-force: 9 DM trials split over two parts of GPU 0.
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 200 --tsamp 256e-6 --tobs 10 --seed 2 \
    --pulsar P=0.0873,DM=56,snr=30 -o "$W/s.fil" || fail simulate
"$BIN/dedisp" -q --device cpu --lodm 40 --dmstep 4 --numdms 9 -o "$W/s" "$W/s.fil" || fail dedisp
for devices in gpu:0 gpu:0,0 gpu:0,0,0,0; do
  "$BIN/fold" -q --brute-force --device $devices --pmin 0.08 --pmax 0.095 --nperiods 301 \
      -o "$W/bf_$devices" "$W"/s_DM*.dat > "$W/top_$devices.txt" 2> "$W/err" \
    || fail "fold --brute-force --device $devices: $(cat "$W/err")"
done
for devices in gpu:0,0 gpu:0,0,0,0; do
  cmp -s "$W/bf_gpu:0_bruteforce.txt" "$W/bf_${devices}_bruteforce.txt" \
    || fail "fold --brute-force --device $devices: the S/N map differs from gpu:0's"
  cmp -s "$W/top_gpu:0.txt" "$W/top_$devices.txt" \
    || fail "fold --brute-force --device $devices: the best pairs differ from gpu:0's"
done
[ "$(grep -vc '^#' "$W/bf_gpu:0,0_bruteforce.txt")" -eq 9 ] || fail "map has not one line per DM"
echo "accel_fold_devices: ok"
