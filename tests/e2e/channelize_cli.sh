#!/bin/sh
# channelize as a user runs it, on small simulated real-sampled voltages (4 stations within
# 50 m of the reference, 2 MHz of band at 1400 MHz, a bright source 0.5 degrees north of the
# pointing centre): the output header (read back by inspect: channels, their frequencies, the
# sample time, the start moved back by the filter's span, the antennas), both sideband signs,
# bf forming beams from the channelised voltages with the source in the northern beam, 8-bit
# output at its stated noise level, --detect as a filterbank (SIGPROC keywords; --tavg,
# --antenna, 8 bits) that dedisp reads, identical bytes from a pipe and from a file and across
# --gulp and --threads, existing outputs refused without --force, bad inputs refused with exit
# 1 or 2 and one line naming the file or option, and nothing left behind on an error or an
# interrupt. CPU engine only (--device cpu: CI has no GPU).
# Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
CH="$BIN/channelize"
SIM="$BIN/simulate"
INSPECT="$BIN/inspect"
BF="$BIN/bf"
DEDISP="$BIN/dedisp"
for program in "$CH" "$SIM" "$INSPECT" "$BF" "$DEDISP"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
near() { awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= tol) }'; }
# inspect's "Label    value" lines.
inspect_value() { "$INSPECT" --header-only "$1" 2>/dev/null | sed -n "s/^ *$2  *//p" | head -n 1; }
# SIGPROC header values, read from the keyword strings (int32 / float64 after the name).
keyword_at() { grep -abo "$2" "$1" | head -n 1 | cut -d: -f1; }
header_int() {
  at=$(keyword_at "$1" "$2"); [ -n "$at" ] || { echo none; return; }
  od -An -t d4 -j $((at + ${#2})) -N 4 "$1" | tr -d ' '
}
header_double() {
  at=$(keyword_at "$1" "$2"); [ -n "$at" ] || { echo none; return; }
  od -An -t f8 -j $((at + ${#2})) -N 8 "$1" | tr -d ' '
}

cat > "$dir/four.txt" <<'LAYOUT'
# telescope: TEST
# frame: enu -30:42:39.8 21:26:38.0 1086.6
s0    0.0    0.0  0.0  13.5
s1   40.0  -25.0  0.5  13.5
s2  -30.0   35.0  1.0  13.5
s3   35.0   30.0 -0.5  13.5
LAYOUT
common="--real-voltages --layout $dir/four.txt --freq 1400 --ra 04:00:00 --dec -30:00:00 --tstart 60000.5 --nsamples 131072"
source="--source ra=04:00:00,dec=-29:30:00,flux=400"
"$SIM" $common --bw 2 $source -q -o "$dir/real.dada" 2> "$dir/err" \
  || { echo "simulate: $(cat "$dir/err")"; exit 1; }
"$SIM" $common --bw -2 $source -q -o "$dir/inverted.dada" 2>/dev/null \
  || { echo "simulate --bw -2 failed"; exit 1; }
top=$(pwd)
cd "$dir" || exit 1
CH_CPU="$CH --device cpu"

# --- --help, --version
"$CH" --help > help.txt 2>&1 || fail "--help: exit $?"
for option in --nchan --ntaps --window --coeffs --delays --bandpass --out-bits --scale --detect \
              --antenna --tavg --gulp --max-block-mib --vdif-rate --device --threads --force; do
  grep -q -- "$option" help.txt || fail "--help lacks $option"
done
"$CH" --version > version.txt 2>&1 || fail "--version: exit $?"
grep -q "^channelize (rapt)" version.txt || fail "--version: $(cat version.txt)"

# --- 16 channels of 125 kHz from the real band: the header says where they are
$CH_CPU --nchan 16 --ntaps 8 -o fine.dada real.dada > stdout.txt 2> err || fail "channelize: $(cat err)"
[ -s stdout.txt ] && fail "channelize wrote to standard output"
[ "$(ls | grep -c '^\.')" = 0 ] || fail "temporaries left: $(ls -a)"
[ "$(inspect_value fine.dada Channels)" = 16 ] || fail "channels: $(inspect_value fine.dada Channels)"
[ "$(inspect_value fine.dada Antennas)" = 4 ] || fail "antennas: $(inspect_value fine.dada Antennas)"
[ "$(inspect_value fine.dada 'Antenna names')" = "s0 s1 s2 s3" ] || fail "names: $(inspect_value fine.dada 'Antenna names')"
# 131072 real samples of 0.25 us -> 4096 complex samples of 8 us
[ "$(inspect_value fine.dada 'Time samples')" = 4096 ] || fail "samples: $(inspect_value fine.dada 'Time samples')"
near "$(inspect_value fine.dada 'Sample time (us)')" 8 1e-9 || fail "tsamp: $(inspect_value fine.dada 'Sample time (us)')"
inspect_value fine.dada Samples | grep -q "complex, 32-bit IEEE float" || fail "samples: $(inspect_value fine.dada Samples)"
# Bin j at 1399 + j x 0.125 MHz: the first at the band's lower edge.
near "$(inspect_value fine.dada 'First channel centre (MHz)')" 1399 1e-6 || fail "first channel: $(inspect_value fine.dada 'First channel centre (MHz)')"
near "$(inspect_value fine.dada 'Last channel centre (MHz)')" 1400.875 1e-6 || fail "last channel: $(inspect_value fine.dada 'Last channel centre (MHz)')"
# Output sample 0 is centred ((1 - 8/2) x 32 - 1/2) x 0.25 us = -24.125 us from the input's start.
start=$(inspect_value fine.dada 'Start MJD (UTC)' | sed 's/.*+ \([0-9.]*\) s).*/\1/')
near "$start" "$(echo 43200 | awk '{ printf "%.9f", $1 - 24.125e-6 }')" 2e-6 || fail "start: $start s"
# The inverted band: the same channels, downwards from its top edge.
$CH_CPU --nchan 16 --ntaps 8 -o inv.dada inverted.dada 2> err || fail "inverted: $(cat err)"
near "$(inspect_value inv.dada 'First channel centre (MHz)')" 1401 1e-6 || fail "inverted first channel: $(inspect_value inv.dada 'First channel centre (MHz)')"
near "$(inspect_value inv.dada 'Last channel centre (MHz)')" 1399.125 1e-6 || fail "inverted last channel: $(inspect_value inv.dada 'Last channel centre (MHz)')"

# --- a tail shorter than a frame is left out, with a warning
"$SIM" --real-voltages --layout four.txt --freq 1400 --bw 2 --nsamples 4116 -q -o tail.dada 2>/dev/null \
  || fail "simulate --nsamples 4116"
$CH_CPU --nchan 16 -o tail_fine.dada tail.dada 2> err || fail "tail: $(cat err)"
grep -q "warning: tail.dada: the last 20 samples do not fill an output sample" err || fail "tail: $(cat err)"
[ "$(inspect_value tail_fine.dada 'Time samples')" = 128 ] || fail "tail: $(inspect_value tail_fine.dada 'Time samples') samples"

# --- bf on the channelised voltages: the source is in beam 1 (north)
mkdir beams
"$BF" --device cpu --tiling hex --spacing 0.5 --nbeams 7 -o beams/b fine.dada 2> err || fail "bf: $(cat err)"
brightest=""; best=0
for b in 0 1 2 3 4 5 6; do
  mean=$("$INSPECT" "beams/b_B00$b.fil" 2>/dev/null | awk '/All samples/ { print $4; exit }')
  if awk -v a="$mean" -v b="$best" 'BEGIN { exit !(a > b) }'; then best=$mean; brightest=$b; fi
done
[ "$brightest" = 1 ] || fail "bf on channelised voltages: beam $brightest is the brightest, not 1"

# --- the same bytes from a pipe, and with other blocks and threads
"$SIM" $common --bw 2 $source -q -o - 2>/dev/null | $CH_CPU --nchan 16 --ntaps 8 -q -o - - > piped.dada \
  || fail "pipe: exit $?"
cmp -s piped.dada fine.dada || fail "a pipe gives other bytes than a file"
$CH_CPU --nchan 16 --ntaps 8 --gulp 1000 --threads 3 -o gulp.dada real.dada 2>/dev/null || fail "--gulp 1000"
# Two recordings joined end to end in one pipe: one line naming the second header, exit 1, no
# output.
cat real.dada real.dada | $CH_CPU --nchan 16 --ntaps 8 -q -o joined.dada - 2> err
status=$?
[ $status = 1 ] || fail "joined streams: exit $status"
# (HDR_SIZE: header bytes in, of 4096, after the first recording's payload.)
key_at=$(( $(wc -c < real.dada) - 4096 + $(grep -abo HDR_SIZE real.dada | head -n 1 | cut -d: -f1) ))
[ "$(cat err)" = "channelize: -: another PSRDADA header (its HDR_SIZE at byte $key_at of the data) follows the data (streams joined end to end?): read them one by one" ] \
  || fail "joined streams: $(cat err)"
[ -e joined.dada ] && fail "joined streams: joined.dada was written"
cmp -s gulp.dada fine.dada || fail "--gulp 1000 --threads 3 gives other bytes"

# --- 8-bit voltages: the noise at an rms of 16 (the source adds a little)
$CH_CPU --nchan 16 --out-bits 8 -o fine8.dada real.dada 2> err || fail "--out-bits 8: $(cat err)"
grep -q "8-bit voltages: stored = " err || fail "--out-bits 8 does not report its scale: $(cat err)"
rms=$("$INSPECT" fine8.dada 2>/dev/null | awk '/Pol X real/ { print $7; exit }')
near "$rms" 16 1.5 || fail "--out-bits 8: rms $rms, expected about 16"
# The automatic scales do not depend on the blocks: measured on the first 4096 samples past the
# filter's warm-up, the blocks before them held (--gulp 160: 10 output samples a block).
$CH_CPU --nchan 16 --out-bits 8 --gulp 160 -o fine8g.dada real.dada 2> err || fail "--out-bits 8 --gulp 160: $(cat err)"
cmp -s fine8g.dada fine8.dada || fail "--out-bits 8 --gulp 160: other bytes than in large blocks"
$CH_CPU --detect --nchan 16 --out-bits 8 -o det8b.fil real.dada 2> err || fail "--detect --out-bits 8: $(cat err)"
$CH_CPU --detect --nchan 16 --out-bits 8 --gulp 160 -o det8g.fil real.dada 2> err || fail "--detect --gulp 160: $(cat err)"
cmp -s det8g.fil det8b.fil || fail "--detect --out-bits 8 --gulp 160: other bytes than in large blocks"
# From a pipe, blocks of at most 16 MiB (the stream's output follows its input), unless --gulp.
cat real.dada | $CH_CPU -v --nchan 16 --ntaps 8 -o piped16.dada - 2> err || fail "pipe, blocks: $(cat err)"
block=$(sed -n 's/.*blocks of \([0-9]*\) samples.*/\1/p' err)
dada_key() { head -c 4096 "$1" | tr -d '\000' | awk -v k="$2" '$1 == k { print $2; exit }'; }
values=$(( $(dada_key real.dada NCHAN) * $(dada_key real.dada NANT) * $(dada_key real.dada NPOL) * $(dada_key real.dada NDIM) ))
[ -n "$block" ] && [ $((block * values * 4)) -le 16777216 ] || fail "pipe: blocks of $block samples of $values floats"
cmp -s piped16.dada fine.dada || fail "pipe, blocks of 16 MiB: other bytes"
$CH_CPU --nchan 16 --out-bits 16 --scale 2 -o fine16.dada real.dada 2> err || fail "--out-bits 16: $(cat err)"
inspect_value fine16.dada Samples | grep -q "16-bit" || fail "--out-bits 16: $(inspect_value fine16.dada Samples)"

# --- --detect: a filterbank, top channel first, that dedisp reads
$CH_CPU --detect --nchan 64 --tavg 4 -o det.fil real.dada 2> err || fail "--detect: $(cat err)"
[ "$(header_int det.fil nchans)" = 64 ] || fail "--detect: nchans $(header_int det.fil nchans)"
[ "$(header_int det.fil nbits)" = 32 ] || fail "--detect: nbits $(header_int det.fil nbits)"
near "$(header_double det.fil foff)" -0.03125 1e-9 || fail "--detect: foff $(header_double det.fil foff)"
near "$(header_double det.fil fch1)" 1400.96875 1e-6 || fail "--detect: fch1 $(header_double det.fil fch1)"
near "$(header_double det.fil tsamp)" 128e-6 1e-12 || fail "--detect: tsamp $(header_double det.fil tsamp)"
[ "$(inspect_value det.fil Spectra)" = 256 ] || fail "--detect: spectra $(inspect_value det.fil Spectra)"
"$DEDISP" --lodm 0 --dmstep 1 --numdms 2 -o dd det.fil 2> err || fail "dedisp on --detect output: $(cat err)"
[ -s dd_DM0.00.dat ] && [ -s dd_DM1.00.inf ] || fail "dedisp wrote: $(ls dd_* | tr '\n' ' ')"
$CH_CPU --detect --antenna s2 --out-bits 8 --nchan 32 -o det8.fil real.dada 2> err || fail "--detect 8-bit: $(cat err)"
[ "$(header_int det8.fil nbits)" = 8 ] || fail "--detect 8-bit: nbits $(header_int det8.fil nbits)"
grep -q "8-bit filterbank" err || fail "--detect 8-bit does not report its scaling: $(cat err)"
$CH_CPU --detect --antenna 2 --out-bits 8 --nchan 32 -o det8i.fil real.dada 2>/dev/null || fail "--antenna 2"
cmp -s det8.fil det8i.fil || fail "--antenna s2 and --antenna 2 differ"

# --- existing outputs: refused without --force
$CH_CPU --nchan 16 --ntaps 8 -o fine.dada real.dada 2> err; status=$?
[ $status = 1 ] && grep -q "fine.dada" err || fail "existing output: exit $status, $(cat err)"
cmp -s gulp.dada fine.dada || fail "a refused run changed the existing output"
$CH_CPU --nchan 16 --ntaps 8 --force -o fine.dada real.dada 2>/dev/null || fail "--force: exit $?"
cp real.dada self.dada
$CH_CPU --nchan 16 --ntaps 8 --force -o self.dada self.dada 2> err; status=$?
[ $status = 2 ] && grep -q "is the input itself" err || fail "-o the input: exit $status, $(cat err)"
cmp -s real.dada self.dada || fail "-o the input: the input was changed"

# --- bad inputs: exit 1 or 2, one line on stderr naming the file (or option), nothing written
printf '1\n2\n3\n' > three.txt
printf 's9 1e-9\n' > bad_delays.txt
printf '1\n2\n' > short_bandpass.txt
head -c 5000 real.dada > truncated.dada
printf 'not voltages at all' > garbage.dada
expect_error() {  # expect_error STATUS NAME-IN-MESSAGE CHANNELIZE-ARGUMENTS...
  want_status=$1; want=$2; shift 2
  rm -rf out && mkdir out
  $CH_CPU "$@" -o out/x 2> err; status=$?
  [ $status = "$want_status" ] || fail "$*: exit $status, expected $want_status"
  # One line; bad usage (exit 2) may add the usual second line "channelize: see 'channelize --help'".
  lines=$(wc -l < err)
  if [ "$lines" = 2 ] && [ $status = 2 ] && [ "$(tail -n 1 err)" = "channelize: see 'channelize --help'" ]; then lines=1; fi
  [ "$lines" = 1 ] || fail "$*: $(wc -l < err) lines on stderr: $(tr '\n' '|' < err)"
  head -n 1 err | grep -qF -- "$want" || fail "$*: message '$(cat err)' does not name $want"
  [ -z "$(ls -A out)" ] || fail "$*: left $(ls -A out | tr '\n' ' ')"
}
expect_error 1 missing.dada missing.dada
expect_error 1 truncated.dada truncated.dada
expect_error 1 garbage.dada garbage.dada
expect_error 1 three.txt --nchan 16 --coeffs three.txt real.dada
expect_error 1 bad_delays.txt --delays bad_delays.txt real.dada
expect_error 1 short_bandpass.txt --bandpass short_bandpass.txt real.dada
expect_error 2 --window --window hann real.dada
expect_error 2 --coeffs --coeffs three.txt --ntaps 4 real.dada
expect_error 2 --tavg --tavg 4 real.dada
expect_error 2 --antenna --detect --antenna s9 real.dada
expect_error 2 --out-bits --out-bits 12 real.dada
expect_error 2 --out-bits --detect --out-bits 16 real.dada
expect_error 2 --scale --scale -1 real.dada
expect_error 2 --nchan --nchan 0 real.dada
"$CH" real.dada 2> err; [ $? = 2 ] && grep -q -- "--output" err || fail "no -o: $(cat err)"

# --- an interrupt leaves nothing behind: channelize waits on a pipe that has not ended, and
# is stopped by SIGTERM (a background job of a script ignores SIGINT)
rm -rf out && mkdir out
( cat real.dada; sleep 5 ) | $CH_CPU --nchan 16 -q -o out/x.dada - 2>/dev/null &
pid=$!
sleep 2
kill -TERM $pid 2>/dev/null
wait $pid 2>/dev/null
[ -z "$(ls -A out)" ] || fail "interrupted: left $(ls -A out | tr '\n' ' ')"

# --- VDIF's options, on the MWA sample of the shared data (two's-complement bytes, 2 complex
# channels of 1.28 MHz): the sky frequency and sideband reach the filterbank's header.
vdif="${RAPT_SHARED_DATA:-$top/../shared/data}/baseband/sample_mwa.vdif"
if [ -f "$vdif" ]; then
  $CH_CPU --vdif-rate 1.28e6 --vdif-signed --nchan 16 --ntaps 4 --detect -o nofreq.fil "$vdif" \
    2> err && fail "VDIF without --vdif-freq made a filterbank at baseband"
  grep -q "no sky frequency, which a filterbank needs: give --vdif-freq" err ||
    fail "VDIF without --vdif-freq: $(cat err)"
  $CH_CPU --vdif-rate 1.28e6 --vdif-signed --vdif-freq 184.96 --nchan 16 --ntaps 4 --detect \
    -o usb.fil "$vdif" 2> err || fail "--vdif-freq: $(cat err)"
  $CH_CPU --vdif-rate 1.28e6 --vdif-signed --vdif-freq 184.96 --vdif-lsb --nchan 16 --ntaps 4 \
    --detect -o lsb.fil "$vdif" 2> err || fail "--vdif-lsb: $(cat err)"
  # 32 channels of 80 kHz over 183.68 .. 186.24 MHz, the filterbank running downwards (foff < 0)
  # from its highest. Coarse channels at 184.32 and 185.60 MHz, fine ones at centre + (k - 8) x
  # 80 kHz: the highest is 185.60 + 0.56 in the upper sideband; in the lower, whose coarse
  # channel 0 is 185.60 MHz and whose spectra run down, 185.60 + 0.64.
  near "$(header_double usb.fil fch1)" 186.16 1e-6 || fail "--vdif-freq: fch1 $(header_double usb.fil fch1)"
  near "$(header_double lsb.fil fch1)" 186.24 1e-6 || fail "--vdif-lsb: fch1 $(header_double lsb.fil fch1)"
  near "$(header_double usb.fil foff)" -0.08 1e-9 || fail "--vdif-freq: foff $(header_double usb.fil foff)"
  cmp -s usb.fil lsb.fil && fail "--vdif-lsb changed nothing"
  # Standard input redirected from the VDIF file, or piped, is that file.
  $CH_CPU --vdif-rate 1.28e6 --vdif-signed --vdif-freq 184.96 --nchan 16 --ntaps 4 --detect \
    -o usb_stdin.fil - < "$vdif" 2> err || fail "VDIF redirected: $(cat err)"
  cat "$vdif" | $CH_CPU --vdif-rate 1.28e6 --vdif-signed --vdif-freq 184.96 --nchan 16 --ntaps 4 \
    --detect -o usb_piped.fil - 2> err || fail "VDIF from a pipe: $(cat err)"
  # (the same but for the input's name in the header)
  for f in usb_stdin.fil usb_piped.fil; do
    [ "$("$BIN/inspect" usb.fil 2>/dev/null | sed 1d)" = "$("$BIN/inspect" $f 2>/dev/null | sed 1d)" ] ||
      fail "VDIF as standard input ($f): not the file's filterbank"
  done
  # A pipe holding less than a second of frames, and no --vdif-rate: one line saying what to give.
  cat "$vdif" | $CH_CPU --vdif-signed --vdif-freq 184.96 --nchan 16 --detect -o piped.fil - 2> err &&
    fail "VDIF from a pipe without a rate was read"
  grep -q "^channelize: -: VDIF sample rate unknown: .* the stream holds no whole second; give it (--vdif-rate)$" err ||
    fail "VDIF from a pipe without a rate: $(cat err)"
  [ -e piped.fil ] && fail "VDIF from a pipe without a rate left piped.fil"
  # GUPPI RAW from a pipe: the file's filterbank.
  puppi="${RAPT_SHARED_DATA:-$top/../shared/data}/baseband/sample_puppi.raw"
  $CH_CPU --nchan 4 --ntaps 4 --detect -o puppi.fil "$puppi" 2> err || fail "PUPPI: $(cat err)"
  cat "$puppi" | $CH_CPU --nchan 4 --ntaps 4 --detect -o puppi_piped.fil - 2> err ||
    fail "PUPPI from a pipe: $(cat err)"
  [ "$("$BIN/inspect" puppi.fil 2>/dev/null | sed 1d)" = "$("$BIN/inspect" puppi_piped.fil 2>/dev/null | sed 1d)" ] ||
    fail "PUPPI from a pipe: not the file's filterbank"
else
  echo "channelize_cli: shared data not found; the VDIF options are not checked"
fi

# --- a header without RA and DEC: the channelised file names no pointing either (so that bf
# refuses to steer towards RA 0, Dec 0), and a filterbank's made-up position is noted
hdr=$(head -c 4096 real.dada | tr -d '\000' | awk '$1 == "HDR_SIZE" { print $2; exit }')
{ head -c "$hdr" real.dada | sed 's/^RA /XA /; s/^DEC /XEC /'; tail -c +$((hdr + 1)) real.dada; } > nopointing.dada
$CH_CPU -q --nchan 16 -o np.dada nopointing.dada 2> err || fail "no pointing: $(cat err)"
head -c 4096 np.dada | tr -d '\000' | grep -q -E "^(RA|DEC) " && fail "np.dada: RA or DEC written for a pointing not known"
inspect_value np.dada 'RA, Dec (J2000)' | grep -q "^unknown (no RA and DEC in the header)" ||
  fail "inspect np.dada: RA, Dec $(inspect_value np.dada 'RA, Dec (J2000)')"
$BF -q --device cpu -o np np.dada 2> err; [ $? = 2 ] && grep -q "np.dada: PSRDADA header names no RA and DEC" err ||
  fail "bf on np.dada: $(cat err)"
$CH_CPU --detect --nchan 16 -o np.fil nopointing.dada 2> err || fail "no pointing, --detect: $(cat err)"
grep -q "src_raj and src_dej are written as 0h, 0 deg" err || fail "no pointing, --detect: no note: $(cat err)"

# --- a header without a start time: the channelised file names none either (written, not
# refused), so that bf, which needs one to steer, says so
{ head -c "$hdr" real.dada | sed 's/^UTC_START /XTC_START /; s/^MJD_START /XJD_START /'; tail -c +$((hdr + 1)) real.dada; } > nostart.dada
$CH_CPU -q --nchan 16 -o ns.dada nostart.dada 2> err || fail "no start time: $(cat err)"
head -c 4096 ns.dada | tr -d '\000' | grep -q -E "^(UTC_START|MJD_START) " && fail "ns.dada: a start time written for one not known"
inspect_value ns.dada 'Start (UTC)' | grep -q "^unknown (no UTC_START or MJD_START in the header)" ||
  fail "inspect ns.dada: Start $(inspect_value ns.dada 'Start (UTC)')"
$BF -q --device cpu -o ns ns.dada 2> err; [ $? = 1 ] && grep -q "ns.dada: carries no start time (UTC_START or MJD_START)" err ||
  fail "bf on ns.dada: $(cat err)"

[ $failures = 0 ] && echo "channelize_cli: all passed"
[ $failures = 0 ]
