#!/bin/sh
# Several GPUs in one process: dedisp and snr's fused search with the DM trials shared among
# two parts on GPU 0 (--device gpu:0,0, the split several GPUs get) write the same files, byte
# for byte, as with one GPU; a list is refused where a program runs on one GPU. Skipped where
# the build has no CUDA or there is no GPU. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
for program in simulate dedisp snr; do
  [ -x "$BIN/$program" ] || { echo "$BIN/$program not built"; exit 77; }
done
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1  # relative roots: an .inf names its own file
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 128e-6 --tobs 4 --seed 9 \
  --burst t=2.1,DM=150,width=0.002,snr=25 -o "$W/obs.fil" || fail simulate
plan="--lodm 0 --dmstep 2 --numdms 201"
mkdir -p "$W/one" "$W/two"
"$BIN/dedisp" -q --device gpu:0 $plan -o "$W/one/obs" "$W/obs.fil" 2> "$W/err"; status=$?
if [ $status = 2 ] && grep -qi "gpu\|cuda" "$W/err"; then
  echo "no GPU: $(head -n 1 "$W/err")"; exit 77
fi
[ $status = 0 ] || fail "dedisp --device gpu:0: $(cat "$W/err")"
for args in "--zerodm" "--nsub 16"; do
  rm -f "$W"/one/* "$W"/two/*
  (cd one && "$BIN/dedisp" -q --device gpu:0 $plan $args -o obs ../obs.fil) || fail "dedisp gpu:0 $args"
  (cd two && "$BIN/dedisp" -q --device gpu:0,0 $plan $args -o obs ../obs.fil) || fail "dedisp gpu:0,0 $args"
  for f in "$W"/one/*; do
    cmp -s "$f" "$W/two/$(basename "$f")" \
      || fail "dedisp $args: $(basename "$f") differs: $(diff "$f" "$W/two/$(basename "$f")" | head -4)"
  done
  [ "$(ls "$W/two" | wc -l)" -eq 402 ] || fail "dedisp gpu:0,0 $args: $(ls "$W/two" | wc -l) files"
done
"$BIN/dedisp" -q --device gpu:all $plan -o "$W/two/obs" "$W/obs.fil" || fail "dedisp --device gpu:all"

rm -f "$W"/one/* "$W"/two/*
"$BIN/snr" -q --device gpu:0 $plan -o "$W/one" "$W/obs.fil" > "$W/one.cands" || fail "snr gpu:0"
"$BIN/snr" -q --device gpu:0,0,0 $plan -o "$W/two" "$W/obs.fil" > "$W/two.cands" || fail "snr gpu:0,0,0"
cmp -s "$W/one.cands" "$W/two.cands" || fail "snr: the candidate lists differ"
for f in "$W"/one/*.singlepulse; do
  cmp -s "$f" "$W/two/$(basename "$f")" || fail "snr: $(basename "$f") differs"
done
awk '!/^#/ && $1 >= 146 && $1 <= 154' "$W/one.cands" | grep -q . || fail "the burst is missing: $(cat "$W/one.cands")"

# Where one GPU serves, a list is refused with a clear message.
"$BIN/dedisp" -q --device gpu:0 --lodm 150 -o "$W/dm150" "$W/obs.fil" || fail "dedisp one DM"
"$BIN/snr" -q --device gpu:0,0 "$W/dm150_DM150.00.dat" > /dev/null 2> "$W/err"
[ $? -eq 2 ] && grep -q "several GPUs serve the fused" "$W/err" || fail "snr on files with a list said: $(cat "$W/err")"
exit 0
