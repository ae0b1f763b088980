#!/bin/sh
# snr --realtime fed by a simulated recorder writing into a pipe: the recorder writes half the
# observation, then waits until the first burst's candidate has come out, then writes the rest
# (so candidates are printed as they are found, not at the end). Both bursts are found where
# the fused file search finds them; the .singlepulse files and the --json timing summary are
# written; stdin gives the same candidates; with --zerodm --ignorechan as the file search with
# them. On the CPU and (where there is one) the GPU.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/snr" ] && [ -x "$BIN/simulate" ] || { echo "snr not built"; exit 77; }
command -v mkfifo >/dev/null || { echo "mkfifo not found"; exit 77; }
W=$(mktemp -d) || exit 1
writer=
trap '[ -n "$writer" ] && kill $writer 2>/dev/null; rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 256e-6 --tobs 12 --seed 5 \
  --burst t=3.0,DM=150,width=0.002,snr=25 --burst t=9.0,DM=80,width=0.004,snr=30 \
  -o "$W/obs.fil" || fail simulate
size=$(wc -c < "$W/obs.fil")
half=$((size / 2))
plan="-t 6 --lodm 50 --dmstep 2 --numdms 76"

# The strongest candidate near (DM, t) in a candidate list: "DM t S/N", or nothing.
near() {
  grep -v '^#' "$1" | awk -v dm="$2" -v t="$3" \
    '$1 >= dm - 6 && $1 <= dm + 6 && $2 >= t - 0.01 && $2 <= t + 0.01 { print $1, $2, $5 }' \
    | sort -g -k 3 | tail -n 1
}

# Both bursts in real time's list LIVE where the file search's list FILE has them: the same DM
# and time, S/N within 0.05. LABEL names the run.
same_bursts() {
  for burst in "150 3.0" "80 9.0"; do
    # shellcheck disable=SC2086
    live=$(near "$1" $burst)
    # shellcheck disable=SC2086
    file=$(near "$2" $burst)
    [ -n "$live" ] || fail "$3: burst $burst not in $(cat "$1")"
    # shellcheck disable=SC2086
    echo $live $file | awk '{ exit !($1 == $4 && $2 == $5 && $3 - $6 < 0.05 && $6 - $3 < 0.05) }' \
      || fail "$3: burst $burst: real time '$live', file search '$file'"
  done
}

for device in cpu auto; do
  rm -rf "$W/rt" "$W/file" "$W/live.txt" "$W/released" "$W/pipe" "$W/rt.json"
  mkdir -p "$W/rt" "$W/file"
  mkfifo "$W/pipe" || fail mkfifo
  (
    head -c $half "$W/obs.fil"
    i=0
    until [ -n "$(near "$W/live.txt" 150 3.0)" ]; do
      sleep 0.2
      i=$((i + 1))
      [ $i -gt 300 ] && break
    done
    [ $i -le 300 ] && touch "$W/released"
    tail -c +$((half + 1)) "$W/obs.fil"
  ) > "$W/pipe" &
  writer=$!
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device --realtime --chunk 8000 $plan -o "$W/rt" \
    --json "$W/rt.json" "$W/pipe" > "$W/live.txt" || fail "snr --realtime --device $device"
  wait $writer
  writer=
  [ -f "$W/released" ] || fail "--device $device: no candidate came out before the recorder finished"
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device $plan -o "$W/file" "$W/obs.fil" > "$W/file.txt" \
    || fail "snr fused on the file, --device $device"
  same_bursts "$W/live.txt" "$W/file.txt" "--device $device"
  [ -f "$W/rt/pipe_DM150.00.singlepulse" ] || fail "--device $device: no .singlepulse files"
  [ "$(ls "$W"/rt/*.singlepulse | wc -l)" -eq 76 ] || fail "--device $device: not 76 .singlepulse files"
  for key in '"mode": "realtime"' '"keeps_up": ' '"ms_per_second_of_data": ' '"data_seconds": '; do
    grep -q "$key" "$W/rt.json" || fail "--device $device: $key missing from $(cat "$W/rt.json")"
  done
  # stdin: the same candidates.
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device --realtime --chunk 8000 $plan -o "$W/rt" --force - \
    < "$W/obs.fil" > "$W/stdin.txt" || fail "snr --realtime from stdin, --device $device"
  cmp -s "$W/live.txt" "$W/stdin.txt" || fail "--device $device: stdin and the pipe give different candidates"
  # With dedisp's cleaning the bursts come out where the file search with it finds them.
  clean="--zerodm --ignorechan 0:9"
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device --realtime --chunk 8000 $plan $clean -o "$W/rt" --force - \
    < "$W/obs.fil" > "$W/clean_live.txt" || fail "snr --realtime $clean, --device $device"
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device $plan $clean -o "$W/file" --force "$W/obs.fil" \
    > "$W/clean_file.txt" || fail "snr fused $clean, --device $device"
  same_bursts "$W/clean_live.txt" "$W/clean_file.txt" "--device $device $clean"
  # A DDplan-style plan (DM 50-200 at 1, 2 and 4 downsampled), from a pipe: the bursts where
  # the file search of the plan finds them, a .singlepulse file per trial.
  rm -rf "$W/rtplan" "$W/fileplan" && mkdir "$W/rtplan" "$W/fileplan"
  dmplan="-t 6 --plan --lodm 50 --dm-max 200"
  # shellcheck disable=SC2086
  cat "$W/obs.fil" | "$BIN/snr" -q --device $device --realtime --chunk 8000 $dmplan -o "$W/rtplan" - \
    > "$W/plan_live.txt" || fail "snr --realtime $dmplan, --device $device"
  # shellcheck disable=SC2086
  "$BIN/snr" -q --device $device $dmplan -o "$W/fileplan" "$W/obs.fil" > "$W/plan_file.txt" \
    || fail "snr $dmplan on the file, --device $device"
  same_bursts "$W/plan_live.txt" "$W/plan_file.txt" "--device $device $dmplan"
  [ "$(ls "$W"/rtplan/*.singlepulse | wc -l)" -eq "$(ls "$W"/fileplan/*.singlepulse | wc -l)" ] ||
    fail "--device $device $dmplan: $(ls "$W"/rtplan | wc -l) files in real time"
  # A burst whose events straddle the line where candidates are cut is one candidate, and one
  # in the last samples before the data end (no whole block in the last chunk) is found: as
  # the file search has them (DM, time, sample, width, S/N).
  for case in "split 6 9 4.034048" "end 4.197632 3 4.09216"; do
    # shellcheck disable=SC2086
    set -- $case
    [ -f "$W/$1.fil" ] || "$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 256e-6 \
      --tobs "$2" --seed "$3" --burst t="$4",DM=50,width=0.004,snr=40 -o "$W/$1.fil" || fail simulate
    rm -rf "$W/c1" "$W/c2" && mkdir "$W/c1" "$W/c2"
    "$BIN/snr" -q -b --device $device --realtime --numdms 100 --chunk 8000 -o "$W/c1" "$W/$1.fil" |
      awk -v t="$4" '$1 > 30 && $1 < 70 && $2 > t - 0.1 && $2 < t + 0.1 { print $1, $2, $3, $4, $5 }' > "$W/c1.txt"
    "$BIN/snr" -q -b --device $device --numdms 100 -o "$W/c2" "$W/$1.fil" |
      awk -v t="$4" '$1 > 30 && $1 < 70 && $2 > t - 0.1 && $2 < t + 0.1 { print $1, $2, $3, $4, $5 }' > "$W/c2.txt"
    [ "$(wc -l < "$W/c1.txt")" -eq 1 ] && cmp -s "$W/c1.txt" "$W/c2.txt" ||
      fail "--device $device, the $1 case: real time '$(cat "$W/c1.txt")', file search '$(cat "$W/c2.txt")'"
  done
  # A 6 ms burst whose hits straddle the line where hits become events: pruned as in the file
  # search, every series' events the same up to sample 20000 (real time's last block).
  [ -f "$W/prune.fil" ] || "$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 256e-6 \
    --tobs 6 --seed 9 --burst t=4.04864,DM=50,width=0.006,snr=40 -o "$W/prune.fil" || fail simulate
  rm -rf "$W/c1" "$W/c2" && mkdir "$W/c1" "$W/c2"
  "$BIN/snr" -q -b --device $device --realtime --numdms 100 --chunk 8000 -o "$W/c1" "$W/prune.fil" \
    > /dev/null || fail "snr --realtime on prune.fil"
  "$BIN/snr" -q -b --device $device --numdms 100 -o "$W/c2" "$W/prune.fil" > /dev/null || fail "snr on prune.fil"
  for f in "$W"/c2/*.singlepulse; do
    awk 'NR > 1 && $3 < 20000' "$f" > "$W/want"
    awk 'NR > 1 && $3 < 20000' "$W/c1/$(basename "$f")" > "$W/got"
    cmp -s "$W/want" "$W/got" || fail "--device $device: $(basename "$f") differs: $(diff "$W/want" "$W/got")"
  done
done
exit 0
