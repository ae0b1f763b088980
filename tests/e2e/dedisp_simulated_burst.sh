#!/bin/sh
# simulate | dedisp: a burst at DM 150, t = 2 s (arrival at the top channel) is found again
# within one DM step and two samples, on the CPU and (where there is one) the GPU, directly
# and through subbands. Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/simulate" ] || { echo "simulate not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/simulate" -q --nchans 128 --fch1 1500 --bw 300 --tsamp 256e-6 --tobs 5 --seed 3 \
  --burst t=2.0,DM=150,width=0.001,snr=40 -o "$W/burst.fil" || fail "simulate"

# Prints "DM sample value" of the brightest sample over all ROOT_DM*.dat files.
brightest() {
  for f in "$1"_DM*.dat; do
    dm=${f##*_DM}; dm=${dm%.dat}
    od -A n -t f4 -v -w4 "$f" | awk -v dm="$dm" '$1 > best { best = $1; at = NR - 1 }
                                                END { print dm, at, best }'
  done | sort -g -k 3 | tail -n 1
}

for device in cpu auto; do
  for nsub in 0 16; do
    rm -f "$W"/s_DM*
    "$BIN/dedisp" -q --device $device --nsub $nsub --lodm 120 --dmstep 2 --numdms 31 \
      -o "$W/s" "$W/burst.fil" || fail "dedisp --device $device --nsub $nsub"
    set -- $(brightest "$W/s")
    awk -v dm="$1" -v t="$2" 'BEGIN { exit !(dm >= 148 && dm <= 152 && t >= 7810 && t <= 7815) }' \
      || fail "--device $device --nsub $nsub: brightest sample at DM $1, sample $2 (expected DM 150, sample 7812)"
  done
done
exit 0
