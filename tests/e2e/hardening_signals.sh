#!/bin/sh
# Ctrl-C (SIGINT) or SIGTERM in the middle of a run leaves no file under the final name and no
# temporary: simulate writing a large filterbank, dedisp writing its series, bf its beams.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "simulate/dedisp not built"; exit 77; }
# A script's background jobs ignore SIGINT; run them with the default action, as a terminal would.
env --default-signal=INT true 2>/dev/null || { echo "env --default-signal unavailable"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# interrupt SIGNAL DIR COMMAND...: start COMMAND, wait until a temporary appears in DIR, send
# SIGNAL, and check the program died by it leaving DIR as it was before.
interrupt() {
  sig=$1; dir=$2; shift 2
  before=$(ls -A "$dir" | sort)
  env --default-signal=INT "$@" > /dev/null 2> "$W/err" &
  pid=$!
  tries=0
  until ls -A "$dir" | grep -q '\.tmp\.'; do
    tries=$((tries + 1))
    [ $tries -lt 300 ] || { kill -KILL $pid; fail "$*: no temporary appeared"; }
    kill -0 $pid 2>/dev/null || fail "$*: finished before it could be interrupted"
    sleep 0.05
  done
  sleep 0.3
  kill -s "$sig" $pid
  { wait $pid; } 2>/dev/null; status=$?
  case $sig in INT) want=130 ;; TERM) want=143 ;; esac
  [ $status -eq $want ] || fail "$* after SIG$sig: exit status $status, expected $want: $(cat "$W/err")"
  after=$(ls -A "$dir" | sort)
  [ "$after" = "$before" ] || fail "$* after SIG$sig left: $(ls -A "$dir")"
}

# simulate: about 300 MB of 8-bit filterbank.
mkdir "$W/sim"
for sig in INT TERM; do
  interrupt $sig "$W/sim" "$BIN/simulate" -q --nchans 1024 --tsamp 64e-6 --tobs 20 --seed 2 \
    -o "$W/sim/big.fil"
done

# dedisp: many DM trials of a modest file; its .dat/.inf outputs are all temporaries until done.
"$BIN/simulate" -q --nchans 256 --tsamp 64e-6 --tobs 8 --seed 3 -o "$W/in.fil" || fail simulate
mkdir "$W/dd"
for sig in INT TERM; do
  interrupt $sig "$W/dd" "$BIN/dedisp" -q --device cpu --threads 1 --lodm 0 --dmstep 1 \
    --numdms 400 -o "$W/dd/x" "$W/in.fil"
done

# bf: 64 beams of eight stations on one thread; every beam's filterbank is a temporary until done.
if [ -x "$BIN/bf" ]; then
  printf '# frame: enu -30.7 21.4 1000\n' > "$W/eight.txt"
  for a in 0 1 2 3 4 5 6 7; do echo "s$a $((a * 13)) $((a * a * 3)) 0" >> "$W/eight.txt"; done
  "$BIN/simulate" -q --voltages --layout "$W/eight.txt" --nchans 32 --bw 4 --freq 1400 \
    --nsamples 65536 --ra 01:00:00 --dec -30:00:00 --tstart 60000 -o "$W/v.dada" || fail "simulate --voltages"
  mkdir "$W/bf"
  for sig in INT TERM; do
    interrupt $sig "$W/bf" "$BIN/bf" -q --device cpu --threads 1 --tiling hex --spacing 0.1 \
      --nbeams 64 --incoherent -o "$W/bf/x" "$W/v.dada"
  done
fi
exit 0
