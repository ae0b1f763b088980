#!/bin/sh
# --part K/N: the parts of a dedispersion and of a single-pulse search, run one after another,
# write exactly the files one whole run writes (byte for byte), each file once; with subbands
# too. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
for program in simulate dedisp snr; do
  [ -x "$BIN/$program" ] || { echo "$BIN/$program not built"; exit 77; }
done
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1  # relative roots: an .inf names its own file
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 200 --tsamp 256e-6 --tobs 3 --seed 5 \
  --burst t=1.2,DM=60,width=0.002,snr=25 -o "$W/obs.fil" || fail simulate
plan="--lodm 10 --dmstep 3 --numdms 31"

# dedisp: whole, and in 4 parts; direct and with 8 subbands.
for nsub in 0 8; do
  mkdir -p "$W/whole$nsub" "$W/parts$nsub"
  (cd "whole$nsub" && "$BIN/dedisp" -q --device cpu --nsub $nsub $plan -o obs ../obs.fil) \
    || fail "dedisp whole, nsub $nsub"
  for k in 1 2 3 4; do
    (cd "parts$nsub" && "$BIN/dedisp" -q --device cpu --nsub $nsub $plan --part $k/4 -o obs ../obs.fil) \
      || fail "dedisp --part $k/4, nsub $nsub"
  done
  n=$(ls "$W/whole$nsub" | wc -l)
  [ "$n" -eq 62 ] || fail "whole run, nsub $nsub: $n files, expected 62"
  [ "$(ls "$W/parts$nsub" | wc -l)" -eq "$n" ] || fail "nsub $nsub: the parts wrote $(ls "$W/parts$nsub" | wc -l) files, the whole run $n"
  for f in "$W/whole$nsub"/*; do
    cmp -s "$f" "$W/parts$nsub/$(basename "$f")" \
      || fail "nsub $nsub: $(basename "$f") differs: $(diff "$f" "$W/parts$nsub/$(basename "$f")" | head -4)"
  done
done
# The first part of 4 holds trials 1-8 of 31 (larger parts first).
"$BIN/dedisp" -q --device cpu $plan --part 1/4 --dry-run "$W/obs.fil" > "$W/dry" || fail "dry run"
[ "$(wc -l < "$W/dry")" -eq 8 ] || fail "--part 1/4 --dry-run lists $(wc -l < "$W/dry") trials, expected 8"
[ "$(head -1 "$W/dry")" = "10 1" ] && [ "$(tail -1 "$W/dry")" = "31 1" ] \
  || fail "--part 1/4 --dry-run: $(cat "$W/dry")"
# A part with no trials does nothing and says so.
"$BIN/dedisp" --device cpu --lodm 0 --numdms 2 --part 3/3 -o "$W/none/obs" "$W/obs.fil" 2> "$W/err" \
  || fail "empty part: $(cat "$W/err")"
grep -q "part 3/3 has no DM trials" "$W/err" || fail "empty part said: $(cat "$W/err")"
[ ! -e "$W/none" ] || fail "empty part wrote files"
for bad in 0/4 5/4 1/0 x; do
  "$BIN/dedisp" -q --device cpu $plan --part $bad -o "$W/bad/obs" "$W/obs.fil" 2> "$W/err"
  [ $? -eq 2 ] || fail "--part $bad: exit status not 2"
  grep -q "^dedisp: --part $bad: " "$W/err" || fail "--part $bad said: $(cat "$W/err")"
done

# snr on the files: the parts write the whole run's .singlepulse files.
mkdir -p "$W/sp_whole" "$W/sp_parts"
"$BIN/snr" -q --device cpu -o "$W/sp_whole" "$W"/whole0/obs_DM*.dat > /dev/null || fail "snr whole"
for k in 1 2 3; do
  "$BIN/snr" -q --device cpu --part $k/3 -o "$W/sp_parts" "$W"/whole0/obs_DM*.dat > "$W/cands$k" \
    || fail "snr --part $k/3"
done
for f in "$W"/sp_whole/*.singlepulse; do
  cmp -s "$f" "$W/sp_parts/$(basename "$f")" || fail "snr parts: $(basename "$f") differs"
done
[ "$(ls "$W/sp_parts" | wc -l)" -eq 31 ] || fail "snr parts wrote $(ls "$W/sp_parts" | wc -l) files"

# snr in fused mode: --part takes a share of the DM trials.
mkdir -p "$W/fused_whole" "$W/fused_parts"
"$BIN/snr" -q --device cpu $plan -o "$W/fused_whole" "$W/obs.fil" > /dev/null || fail "snr fused whole"
for k in 1 2; do
  "$BIN/snr" -q --device cpu $plan --part $k/2 -o "$W/fused_parts" "$W/obs.fil" > /dev/null \
    || fail "snr fused --part $k/2"
done
for f in "$W"/fused_whole/*.singlepulse; do
  cmp -s "$f" "$W/fused_parts/$(basename "$f")" || fail "fused parts: $(basename "$f") differs"
done
[ "$(ls "$W/fused_parts" | wc -l)" -eq 31 ] || fail "fused parts wrote $(ls "$W/fused_parts" | wc -l) files"
"$BIN/snr" --realtime $plan --part 1/2 - < "$W/obs.fil" > /dev/null 2> "$W/err"
[ $? -eq 2 ] && grep -q "part" "$W/err" || fail "--realtime --part said: $(cat "$W/err")"
exit 0
