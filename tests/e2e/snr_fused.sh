#!/bin/sh
# Fused mode (snr on a filterbank with a DM plan) gives the same .singlepulse files and the
# same candidates as dedisp followed by snr on the written series, with and without cleaning. Exit 0 = pass, 1 = fail,
# 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/snr" ] && [ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "snr not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$W/files" "$W/fused"
"$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 256e-6 --tobs 4 --seed 11 \
  --burst t=1.5,DM=80,width=0.002,snr=20 --pulsar P=0.3,DM=40,snr=60 -o "$W/obs.fil" \
  || fail simulate
for device in cpu auto; do
  rm -f "$W"/files/* "$W"/fused/*
  "$BIN/dedisp" -q --device $device --lodm 20 --dmstep 2 --numdms 40 -o "$W/files/obs" "$W/obs.fil" \
    || fail "dedisp --device $device"
  "$BIN/snr" -q --device $device -t 5.5 "$W"/files/obs_DM*.dat > "$W/files/cands.txt" \
    || fail "snr on files, --device $device"
  "$BIN/snr" -q --device $device -t 5.5 --lodm 20 --dmstep 2 --numdms 40 -o "$W/fused" \
    "$W/obs.fil" > "$W/fused/cands.txt" || fail "snr fused, --device $device"
  n=0
  for f in "$W"/files/obs_DM*.singlepulse; do
    cmp -s "$f" "$W/fused/$(basename "$f")" || fail "--device $device: $(basename "$f") differs"
    n=$((n + 1))
  done
  [ $n -eq 40 ] || fail "--device $device: $n .singlepulse files, expected 40"
  cmp -s "$W/files/cands.txt" "$W/fused/cands.txt" || fail "--device $device: candidate lists differ"
  grep -v '^#' "$W/fused/cands.txt" | awk '$1 >= 76 && $1 <= 84 && $5 > 15' | grep -q . \
    || fail "--device $device: the burst at DM 80 is not among $(cat "$W/fused/cands.txt")"
done

# A DDplan-style plan (DM 20-160: 1, 2 and 4 downsampled): the same files and candidates as
# dedisp --plan and snr on its series, in one call and in three parts merged by sift (the
# last part's finest series downsampled by 2).
plan="--plan --lodm 20 --dm-max 160"
for device in cpu auto; do
  rm -rf "$W"/files/* "$W"/fused/* "$W/p1" "$W/p2" "$W/p3"
  # shellcheck disable=SC2086
  "$BIN/dedisp" -q --device $device $plan -o "$W/files/obs" "$W/obs.fil" || fail "dedisp $plan"
  "$BIN/snr" -q --device $device -t 5.5 "$W"/files/obs_DM*.dat > "$W/files/cands.txt" \
    || fail "snr on the plan's files, --device $device"
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device -t 5.5 $plan -o "$W/fused" "$W/obs.fil" > "$W/fused/cands.txt" \
    || fail "snr $plan, --device $device"
  n=0
  for f in "$W"/files/obs_DM*.singlepulse; do
    cmp -s "$f" "$W/fused/$(basename "$f")" || fail "$plan --device $device: $(basename "$f") differs"
    n=$((n + 1))
  done
  [ $n -eq "$(ls "$W"/files/obs_DM*.dat | wc -l)" ] && [ $n -gt 40 ] ||
    fail "$plan --device $device: $n .singlepulse files"
  cmp -s "$W/files/cands.txt" "$W/fused/cands.txt" || fail "$plan --device $device: candidate lists differ"
  grep -v '^#' "$W/fused/cands.txt" | awk '$1 >= 76 && $1 <= 84 && $5 > 15' | grep -q . \
    || fail "$plan --device $device: the burst at DM 80 is not among $(cat "$W/fused/cands.txt")"
  mkdir "$W/p1" "$W/p2" "$W/p3" || fail mkdir
  for k in 1 2 3; do
    # shellcheck disable=SC2086
    "$BIN/snr" -q --device $device -t 5.5 $plan --part $k/3 -o "$W/p$k" "$W/obs.fil" > /dev/null \
      || fail "snr $plan --part $k/3, --device $device"
  done
  "$BIN/sift" -q "$W"/p1/*.singlepulse "$W"/p2/*.singlepulse "$W"/p3/*.singlepulse \
    > "$W/parts.txt" || fail sift
  cmp -s "$W/parts.txt" "$W/fused/cands.txt" || fail "$plan --device $device: the parts' list differs"
done

# With dedisp's cleaning: zero-DM, channels left out and (where the shared data are) PRESTO's
# rfifind mask of a 128-channel observation; the same files either way.
DATA=${RAPT_SHARED_DATA:-../shared/data}
MASK=$DATA/presto-golden/test_rfifind.mask
clean="--zerodm --ignorechan 0:9,100"
[ -f "$MASK" ] && clean="$clean --mask $MASK"
for device in cpu auto; do
  rm -f "$W"/files/* "$W"/fused/*
  # shellcheck disable=SC2086
  "$BIN/dedisp" -q --device $device $clean --lodm 20 --dmstep 2 --numdms 40 -o "$W/files/obs" \
    "$W/obs.fil" || fail "dedisp $clean --device $device"
  "$BIN/snr" -q --device $device -t 5.5 "$W"/files/obs_DM*.dat > "$W/files/cands.txt" \
    || fail "snr on cleaned files, --device $device"
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device $clean -t 5.5 --lodm 20 --dmstep 2 --numdms 40 -o "$W/fused" \
    "$W/obs.fil" > "$W/fused/cands.txt" || fail "snr fused $clean, --device $device"
  for f in "$W"/files/obs_DM*.singlepulse; do
    cmp -s "$f" "$W/fused/$(basename "$f")" || fail "$clean --device $device: $(basename "$f") differs"
  done
  cmp -s "$W/files/cands.txt" "$W/fused/cands.txt" || fail "$clean --device $device: candidate lists differ"
done
# Zero-DM leaves one total power for the whole input: the DM 0 series is flat across the
# statistics intervals (a level per interval made steps there, found at S/N in the thousands).
mkdir "$W/zero" || fail mkdir
"$BIN/dedisp" -q --device cpu --zerodm --lodm 0 --numdms 1 -o "$W/zero/obs" "$W/obs.fil" \
  || fail "dedisp --zerodm at DM 0"
"$BIN/snr" -q --device cpu -t 6 "$W/zero/obs_DM0.00.dat" > "$W/zero/cands.txt" || fail "snr at DM 0"
[ "$(grep -vc '^#' "$W/zero/cands.txt")" -eq 0 ] ||
  fail "events in the zero-DM-filtered DM 0 series: $(head -5 "$W/zero/cands.txt")"
exit 0
