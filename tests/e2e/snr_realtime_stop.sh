#!/bin/sh
# snr --realtime stopped by a signal: the first SIGINT, SIGTERM (or SIGHUP) ends the observation,
# not the search. A recorder writes half an observation into a pipe, and once the first burst's
# candidate is out, the rest slowly; snr then gets SIGINT: it searches what it has read, writes
# every .singlepulse file and exits 0, saying where it stopped. The same when the recorder
# stalls (the read waiting for data is woken), and when Ctrl-C has ended the reader of the
# candidates too. A stop before the header has come is one line and exit 1; a signal ignored
# on entry stays ignored.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/snr" ] && [ -x "$BIN/simulate" ] || { echo "snr not built"; exit 77; }
command -v mkfifo >/dev/null || { echo "mkfifo not found"; exit 77; }
# A script's background jobs ignore SIGINT; run them with the default action, as a terminal would.
env --default-signal=INT true 2>/dev/null || { echo "env --default-signal unavailable"; exit 77; }
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

# wait_for TEST...: polls TEST for up to 60 s.
wait_for() {
  i=0
  until "$@"; do
    sleep 0.1
    i=$((i + 1))
    [ $i -gt 600 ] && return 1
  done
  return 0
}
first_burst_out() { grep -v '^#' "$W/live.txt" 2>/dev/null | awk '$1 > 140 && $1 < 160 && $2 > 2.99 && $2 < 3.01 { found = 1 } END { exit !found }'; }

# recorder RELEASE: half the data, then (once the file RELEASE exists) the rest, 64 kB every
# 0.1 s (about 5 s).
recorder() {
  head -c $half "$W/obs.fil"
  wait_for test -f "$1" || return
  at=$half
  while [ $at -lt $size ]; do
    tail -c +$((at + 1)) "$W/obs.fil" | head -c 65536 || return
    at=$((at + 65536))
    sleep 0.1
  done
}

# One SIGINT: the data read are searched and written; exit 0.
mkdir "$W/rt"
mkfifo "$W/pipe" || fail mkfifo
recorder "$W/go" > "$W/pipe" &
writer=$!
# shellcheck disable=SC2086
env --default-signal=INT "$BIN/snr" --device cpu --realtime --chunk 8000 $plan -o "$W/rt" "$W/pipe" \
  > "$W/live.txt" 2> "$W/err" &
pid=$!
wait_for first_burst_out || fail "no candidate for the first burst: $(cat "$W/live.txt" "$W/err")"
touch "$W/go"
kill -INT $pid
wait $pid; status=$?
[ $status -eq 0 ] || fail "after SIGINT: exit status $status: $(cat "$W/err")"
grep -q "^snr: stopping: the data read so far are searched" "$W/err" || fail "no stop message: $(cat "$W/err")"
stopped=$(sed -n 's/^snr: warning: stopped by SIGINT after \([0-9.]*\) s of data; the outputs hold the data searched until then$/\1/p' "$W/err")
[ -n "$stopped" ] || fail "no warning saying where it stopped: $(cat "$W/err")"
awk -v s="$stopped" 'BEGIN { exit !(s >= 3 && s < 11.5) }' || fail "stopped after $stopped s of 12"
[ "$(ls "$W"/rt/*.singlepulse | wc -l)" -eq 76 ] || fail "not 76 .singlepulse files after SIGINT"
grep -v '^#' "$W/rt/pipe_DM150.00.singlepulse" | awk '$3 > 2.99 && $3 < 3.01 { found = 1 } END { exit !found }' \
  || fail "the first burst is not in pipe_DM150.00.singlepulse"
ls -A "$W/rt" | grep -q '\.tmp\.' && fail "a temporary was left: $(ls -A "$W/rt")"
kill $writer 2> /dev/null; wait $writer 2> /dev/null; writer=
rm -f "$W/pipe" "$W/go"

# stalled_search OUT: a recorder that stalls (writes half, then nothing, its pipe open) and snr
# reading it into $W/rt, its candidates to OUT; sets writer and pid, returns once the first
# burst's candidate is out ($W/live.txt).
stalled_search() {
  rm -rf "$W/rt" "$W/pipe" && mkdir "$W/rt"
  mkfifo "$W/pipe" || fail mkfifo
  ( head -c $half "$W/obs.fil"; exec sleep 600 ) > "$W/pipe" &
  writer=$!
  # shellcheck disable=SC2086
  env --default-signal=INT "$BIN/snr" --device cpu --realtime --chunk 8000 $plan -o "$W/rt" \
    "$W/pipe" > "$1" 2> "$W/err" &
  pid=$!
  wait_for first_burst_out || fail "no candidate for the first burst: $(cat "$W/err")"
}
# stopped_as SIGNAL LABEL: snr ended by itself after SIGNAL, with every .singlepulse file.
stopped_as() {
  grep -q "^snr: warning: stopped by $1 after" "$W/err" || fail "$2: $(cat "$W/err")"
  [ "$(ls "$W"/rt/*.singlepulse | wc -l)" -eq 76 ] || fail "$2: not 76 .singlepulse files"
  kill $writer 2> /dev/null; wait $writer 2> /dev/null; writer=
}

# A stalled recorder: SIGTERM wakes the read that waits for data, and the half is searched and
# written at once.
stalled_search "$W/live.txt"
kill -TERM $pid
i=0
while kill -0 $pid 2> /dev/null; do
  sleep 0.1; i=$((i + 1))
  [ $i -gt 200 ] && { kill -KILL $pid; fail "stalled: still running 20 s after SIGTERM"; }
done
wait $pid; status=$?
[ $status -eq 0 ] || fail "stalled, after SIGTERM: exit status $status: $(cat "$W/err")"
stopped_as SIGTERM stalled

# Ctrl-C on the whole pipeline: the reader of the candidates dies first; snr still writes its
# files (the candidates it held have nowhere to go).
rm -f "$W/cands" && mkfifo "$W/cands" || fail mkfifo
env --default-signal=INT cat "$W/cands" > "$W/live.txt" &
reader=$!
stalled_search "$W/cands"
kill -INT $reader
wait $reader 2> /dev/null
kill -INT $pid
wait $pid
stopped_as SIGINT pipeline
rm -f "$W/pipe" "$W/cands"

# A stop before the header has come: nothing to search (exit 1, one line), nothing written.
rm -rf "$W/rt2" && mkdir "$W/rt2"
mkfifo "$W/pipe" || fail mkfifo
( exec sleep 600 ) > "$W/pipe" &
writer=$!
# shellcheck disable=SC2086
env --default-signal=INT "$BIN/snr" --device cpu --realtime --chunk 8000 $plan -o "$W/rt2" \
  "$W/pipe" > "$W/live.txt" 2> "$W/err" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid; status=$?
[ $status -eq 1 ] || fail "a stop before the header: exit status $status: $(cat "$W/err")"
grep -q "^snr: $W/pipe: stopped before its header and a first spectrum came$" "$W/err" ||
  fail "a stop before the header: $(cat "$W/err")"
[ -z "$(ls -A "$W/rt2")" ] || fail "a stop before the header left: $(ls -A "$W/rt2")"
kill $writer 2> /dev/null; wait $writer 2> /dev/null; writer=
rm -f "$W/pipe"

# A SIGHUP ignored on entry (nohup) stays ignored: no stop; SIGTERM then stops it.
rm -rf "$W/rt" && mkdir "$W/rt"
mkfifo "$W/pipe" || fail mkfifo
( head -c $half "$W/obs.fil"; exec sleep 600 ) > "$W/pipe" &
writer=$!
# shellcheck disable=SC2086
( trap '' HUP; exec env --default-signal=INT "$BIN/snr" --device cpu --realtime --chunk 8000 \
    $plan -o "$W/rt" "$W/pipe" > "$W/live.txt" 2> "$W/err" ) &
pid=$!
wait_for first_burst_out || fail "nohup: no candidate for the first burst: $(cat "$W/err")"
kill -HUP $pid
sleep 0.5
kill -0 $pid 2> /dev/null || fail "an ignored SIGHUP ended it: $(cat "$W/err")"
grep -q "stopping" "$W/err" && fail "an ignored SIGHUP asked a stop: $(cat "$W/err")"
kill -TERM $pid
wait $pid; status=$?
[ $status -eq 0 ] || fail "nohup, after SIGTERM: exit status $status: $(cat "$W/err")"
stopped_as SIGTERM nohup
exit 0
