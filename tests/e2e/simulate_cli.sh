#!/bin/sh
# simulate as a user runs it: header fields from every observation option, sizes for every
# nbits, reproducibility across --threads and --gulp, stdout output, --force, noise levels and
# bandpass, each signal option, messages, and one-line errors with exit status 2.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
SIM="$BIN/simulate"
[ -x "$SIM" ] || { echo "$SIM not built"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Header values: the value follows the keyword's bytes ("grep -abo" gives the keyword's offset).
key_offset() { grep -abo "$2" "$1" | head -n 1 | cut -d: -f1; }
header_int() { off=$(key_offset "$1" "$2"); od -An -t d4 -j $((off + ${#2})) -N 4 "$1" | tr -d ' '; }
header_double() { off=$(key_offset "$1" "$2"); od -An -t f8 -j $((off + ${#2})) -N 8 "$1" | tr -d ' '; }
header_string() { off=$(key_offset "$1" "$2"); n=$(od -An -t d4 -j $((off + ${#2})) -N 4 "$1" | tr -d ' ')
  dd if="$1" bs=1 skip=$((off + ${#2} + 4)) count="$n" 2>/dev/null; }
header_bytes() { off=$(key_offset "$1" HEADER_END); echo $((off + 10)); }
data_bytes() { echo $(($(wc -c < "$1") - $(header_bytes "$1"))); }
# Mean of the 8-bit data bytes of channel $2 (0-based) of a file with $3 channels.
channel_mean() {
  tail -c "$(data_bytes "$1")" "$1" | od -An -v -t u1 -w"$3" |
    awk -v c="$2" '{ s += $(c + 1); n++ } END { printf "%.2f\n", s / n }'
}
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# --- header fields from every observation option
"$SIM" --nchans 64 --fch1 1400.5 --foff 0.25 --tsamp 1e-4 --nsamples 1000 --tstart 59000.25 \
  --source-name J0534+2200 --telescope-id 4 --machine-id 10 --ra 05:34:31.97 --dec +22:00:52.1 \
  -o "$dir/h.fil" || fail "simulate with header options"
[ "$(header_int "$dir/h.fil" nchans)" = 64 ] || fail "nchans"
[ "$(header_double "$dir/h.fil" fch1)" = 1400.5 ] || fail "fch1: $(header_double "$dir/h.fil" fch1)"
[ "$(header_double "$dir/h.fil" foff)" = -0.25 ] || fail "foff must be negative: $(header_double "$dir/h.fil" foff)"
[ "$(header_double "$dir/h.fil" tsamp)" = 0.0001 ] || fail "tsamp: $(header_double "$dir/h.fil" tsamp)"
[ "$(header_double "$dir/h.fil" tstart)" = 59000.25 ] || fail "tstart"
[ "$(header_int "$dir/h.fil" nbits)" = 8 ] || fail "nbits default 8"
[ "$(header_int "$dir/h.fil" telescope_id)" = 4 ] || fail "telescope_id"
[ "$(header_int "$dir/h.fil" machine_id)" = 10 ] || fail "machine_id"
[ "$(header_string "$dir/h.fil" source_name)" = J0534+2200 ] || fail "source_name"
[ "$(header_string "$dir/h.fil" rawdatafile)" = h.fil ] || fail "rawdatafile"
near "$(header_double "$dir/h.fil" src_raj)" 53431.97 1e-6 || fail "src_raj"
near "$(header_double "$dir/h.fil" src_dej)" 220052.1 1e-6 || fail "src_dej"
[ "$(data_bytes "$dir/h.fil")" = 64000 ] || fail "data size of 64 x 1000 8-bit"
grep -aq signed "$dir/h.fil" && fail "unsigned 8-bit data must not carry the signed keyword"
"$SIM" --nchans 100 --bw 50 --tsamp 0.001 --tobs 2.5 -o "$dir/bw.fil" || fail "--bw --tobs"
[ "$(header_double "$dir/bw.fil" foff)" = -0.5 ] || fail "--bw 50 over 100 channels: foff -0.5"
[ "$(data_bytes "$dir/bw.fil")" = 250000 ] || fail "--tobs 2.5 at 1 ms: 2500 spectra"
"$SIM" --nsamples 10 -o "$dir/defaults.fil" || fail "defaults"
[ "$(header_int "$dir/defaults.fil" nchans)" = 1024 ] || fail "default 1024 channels"
[ "$(header_double "$dir/defaults.fil" fch1)" = 1500 ] || fail "default fch1 1500"

# --- every sample width: file sizes
for nbits in 1 2 4 8 16 32; do
  "$SIM" --nchans 32 --nsamples 500 --nbits "$nbits" -o "$dir/b$nbits.fil" || fail "--nbits $nbits"
  [ "$(header_int "$dir/b$nbits.fil" nbits)" = "$nbits" ] || fail "nbits $nbits in header"
  [ "$(data_bytes "$dir/b$nbits.fil")" = $((32 * 500 * nbits / 8)) ] || fail "size for $nbits bits"
done

# --- reproducible: seeds, threads, blocks, stdout
opts="--nchans 48 --nsamples 7000 --pulsar P=0.0123,DM=40,snr=30 --burst t=0.2,DM=100,width=0.001,snr=20"
"$SIM" $opts --seed 5 --threads 1 -o "$dir/r1.fil" || fail "r1"
"$SIM" $opts --seed 5 --threads 3 --gulp 333 -o "$dir/r2.fil" || fail "r2"
# (the header names the file: compare the data)
same_data() { tail -c "$(data_bytes "$1")" "$1" > "$dir/a.data"; tail -c "$(data_bytes "$2")" "$2" | cmp -s - "$dir/a.data"; }
same_data "$dir/r1.fil" "$dir/r2.fil" || fail "same seed with other --threads/--gulp must give identical bytes"
"$SIM" $opts --seed 6 -o "$dir/r3.fil" || fail "r3"
same_data "$dir/r1.fil" "$dir/r3.fil" && fail "other seeds must give other data"
"$SIM" $opts --seed 5 -o - > "$dir/stdout.fil" || fail "-o -"
[ "$(data_bytes "$dir/stdout.fil")" = "$(data_bytes "$dir/r1.fil")" ] || fail "stdout size"
same_data "$dir/r1.fil" "$dir/stdout.fil" || fail "stdout data"

# --- existing files: refused without --force
echo precious > "$dir/keep.fil"
"$SIM" --nsamples 10 -o "$dir/keep.fil" 2> "$dir/err"; status=$?
[ $status = 1 ] || fail "overwrite without --force: exit $status, expected 1"
grep -q "keep.fil: already exists (use --force to overwrite)" "$dir/err" || fail "message: $(cat "$dir/err")"
[ "$(cat "$dir/keep.fil")" = precious ] || fail "file was touched"
"$SIM" --nsamples 10 --force -o "$dir/keep.fil" || fail "--force"
[ "$(header_int "$dir/keep.fil" nchans)" = 1024 ] || fail "--force did not replace the file"
"$SIM" --nsamples 10 -o "$dir/no/such/dir.fil" 2>/dev/null; [ $? = 1 ] || fail "missing directory: exit 1"

# --- noise levels, bandpass
"$SIM" --nchans 16 --nsamples 4000 --noise-mean 80 --noise-rms 10 --flat-bandpass -o "$dir/n.fil"
near "$(channel_mean "$dir/n.fil" 0 16)" 80 1 || fail "--noise-mean 80: channel 0 mean $(channel_mean "$dir/n.fil" 0 16)"
sd=$(tail -c "$(data_bytes "$dir/n.fil")" "$dir/n.fil" | od -An -v -t u1 |
  awk '{ for (i = 1; i <= NF; i++) { s += $i; q += $i * $i; n++ } } END { printf "%.2f", sqrt(q / n - (s / n) ^ 2) }')
near "$sd" 10 0.3 || fail "--noise-rms 10: sigma $sd"
"$SIM" --nchans 16 --nsamples 4000 -o "$dir/band.fil"
edge=$(channel_mean "$dir/band.fil" 0 16)
peak=$(for c in 4 5 6 7 8 9 10 11; do channel_mean "$dir/band.fil" $c 16; done | sort -n | tail -n 1)
near "$peak" 120 1.5 || fail "default level 120 at the bandpass peak: $peak"
awk -v e="$edge" -v m="$peak" 'BEGIN { exit !(e < 0.5 * m) }' || fail "band edge $edge not below the peak $peak"
"$SIM" --nchans 16 --nsamples 10 --no-noise --flat-bandpass -o "$dir/quiet.fil"
[ "$(tail -c 160 "$dir/quiet.fil" | od -An -v -t u1 | tr -s ' ' '\n' | grep -v '^$' | sort -u)" = 120 ] ||
  fail "--no-noise --flat-bandpass: every sample at the level 120"

# --- signals
"$SIM" --nchans 16 --nsamples 100 --tsamp 0.001 --no-noise --flat-bandpass \
  --rfi-impulse t=0.050,amp=4 --rfi-line freq=1400,amp=2 --bw 400 -o "$dir/rfi.fil"
row50=$(tail -c "$(data_bytes "$dir/rfi.fil")" "$dir/rfi.fil" | od -An -v -t u1 -w16 | sed -n 51p | tr -s ' ')
[ "$row50" = " 184 184 184 184 216 184 184 184 184 184 184 184 184 184 184 184" ] || fail "impulse row: $row50"
row10=$(tail -c "$(data_bytes "$dir/rfi.fil")" "$dir/rfi.fil" | od -An -v -t u1 -w16 | sed -n 11p | tr -s ' ')
[ "$row10" = " 120 120 120 120 152 120 120 120 120 120 120 120 120 120 120 120" ] || fail "line in channel 4: $row10"
"$SIM" --nchans 16 --nsamples 2000 --no-noise --flat-bandpass --pulsar P=0.01,DM=0,amp=2 -o "$dir/p.fil"
max=$(tail -c 32000 "$dir/p.fil" | od -An -v -t u1 | tr -s ' ' '\n' | sort -n | tail -n 1)
[ "$max" = 152 ] || fail "pulsar amp=2 peaks at 120 + 2 x 16: $max"
"$SIM" --nchans 16 --nsamples 2000 --no-noise --flat-bandpass --burst t=0.05,DM=0,width=0.001,amp=3 -o "$dir/b.fil"
max=$(tail -c 32000 "$dir/b.fil" | od -An -v -t u1 | tr -s ' ' '\n' | sort -n | tail -n 1)
[ "$max" -gt 148 ] && [ "$max" -le 168 ] || fail "burst amp=3 peak: $max"

# --- messages
"$SIM" -v --nchans 64 --nsamples 20000 --pulsar P=0.05,DM=20,snr=20 \
  --burst t=0.5,DM=50,width=0.002,amp=1 -o "$dir/v.fil" 2> "$dir/v.err" || fail "-v"
grep -q "pulsar P=0.05 s DM=20: .*matched-filter S/N 20" "$dir/v.err" || fail "-v pulsar line: $(cat "$dir/v.err")"
grep -q "burst t=0.5 s DM=50" "$dir/v.err" || fail "-v burst line"
grep -q "wrote $dir/v.fil: 64 channels x 20000 spectra, 8-bit" "$dir/v.err" || fail "-v summary"
f10=$(sed -n 's/.*fluence \([0-9.e+-]*\) Jy ms.*/\1/p' "$dir/v.err")
"$SIM" -v --nchans 64 --nsamples 20000 --burst t=0.5,DM=50,width=0.002,amp=1 --sefd 20 --npol 1 \
  -o "$dir/v2.fil" 2> "$dir/v2.err"
f20=$(sed -n 's/.*fluence \([0-9.e+-]*\) Jy ms.*/\1/p' "$dir/v2.err")
awk -v a="$f10" -v b="$f20" 'BEGIN { r = b / a; exit !(r > 2.82 && r < 2.84) }' ||
  fail "--sefd 20 --npol 1 scales the fluence of amp=1 by 2 sqrt 2: $f10 -> $f20"
"$SIM" -q --nsamples 100 --noise-mean 250 -o "$dir/q.fil" 2> "$dir/q.err"
grep -q "warning: .* clipped to the 8-bit range" "$dir/q.err" || fail "clipping warning: $(cat "$dir/q.err")"
"$SIM" -q --tobs 2 --burst t=1.9,DM=500,width=0.002,snr=20 -o "$dir/late.fil" 2> "$dir/late.err"
grep -q 'warning: --burst "t=1.9,DM=500,width=0.002,snr=20": the sweep ends after the observation' \
  "$dir/late.err" || fail "late burst warning: $(cat "$dir/late.err")"
"$SIM" -q --nsamples 100 -o "$dir/q2.fil" 2> "$dir/q2.err"
[ -s "$dir/q2.err" ] && fail "--quiet printed: $(cat "$dir/q2.err")"
"$SIM" --progress --nsamples 100 -o "$dir/pr.fil" 2> "$dir/pr.err"
grep -q "100%" "$dir/pr.err" || fail "--progress"
"$SIM" --help | grep -q -- "--rfi-impulse" || fail "--help"
"$SIM" --version | grep -q "simulate (rapt)" || fail "--version"

# --- usage errors: exit 2 and one line naming the option
expect_usage() {
  message=$1; shift
  "$SIM" "$@" -o "$dir/bad.fil" 2> "$dir/err"; status=$?
  [ $status = 2 ] || fail "$*: exit $status, expected 2"
  head -n 1 "$dir/err" | grep -q "^simulate: " || fail "$*: message $(head -n 1 "$dir/err")"
  grep -qF -- "$message" "$dir/err" || fail "$*: message $(head -n 1 "$dir/err")"
  [ -e "$dir/bad.fil" ] && fail "$*: wrote a file"
}
expect_usage "--nbits 3 is not supported; supported: 1, 2, 4, 8, 16, 32" --nbits 3
expect_usage 'unknown key "foo"' --pulsar P=0.1,DM=5,snr=5,foo=1
expect_usage 'DM=x is not a number' --burst t=1,DM=x,width=0.001,snr=5
expect_usage "give --foff or --bw, not both" --foff 1 --bw 100
expect_usage "give --tobs or --nsamples, not both" --tobs 1 --nsamples 100
expect_usage "is outside the band" --rfi-line freq=100,amp=3
expect_usage "missing t=" --rfi-impulse amp=3
expect_usage "--ra 24:00:00: out of range" --ra 24:00:00
expect_usage "--dec 1:2:3:4: expected [+-]dd:mm:ss.s" --dec 1:2:3:4
expect_usage "--nchans must be between 1 and 1048576 (got 0)" --nchans 0
expect_usage "--threads must be between 1 and 1024" --threads 0
expect_usage "--gulp must be at least 1" --gulp 0
expect_usage "--tobs must be positive" --tobs 0
# A zero sampling time is a bad --tsamp, not a bad --tobs (the default --tobs is used).
expect_usage "--tsamp must be between 1e-9 and 1000 s (got 0)" --tsamp 0
# Float output beyond its range would be infinities: refused, and no file left behind.
expect_usage "values overflow 32-bit floats" --nbits 32 --noise-mean 1e40 --nchans 16 --tobs 0.01
# On standard output too, no value that overflows is written.
"$SIM" --nbits 32 --nchans 16 --nsamples 100000 --noise-rms 3e38 -o - > "$dir/out" 2> "$dir/err"
[ $? = 2 ] || fail "overflowing float noise on standard output was not refused"
! command -v python3 > /dev/null || python3 -c "
import array, math, sys
data = open(sys.argv[1], 'rb').read()
start = data.find(b'HEADER_END') + len('HEADER_END')
values = array.array('f', data[start:start + (len(data) - start) // 4 * 4])
sys.exit(0 if start >= len('HEADER_END') and all(math.isfinite(v) for v in values) else 1)" "$dir/out" ||
  fail "simulate wrote infinities to standard output before refusing"
rm -f "$dir/out"
expect_usage "--noise-rms must be positive" --noise-rms 0
expect_usage "--npol must be 1 or 2" --npol 3
expect_usage "--sefd must be positive" --sefd -1
expect_usage "failed to parse" --telescope-id abc
expect_usage "unexpected argument 'stray.fil' (the output file goes after -o)" stray.fil
"$SIM" --nsamples 10 2> "$dir/err"; [ $? = 2 ] || fail "no -o: exit 2"
grep -q "no output file" "$dir/err" || fail "no -o: message"

[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
exit 0
