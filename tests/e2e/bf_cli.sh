#!/bin/sh
# bf as a user runs it, on small simulated voltages (6 stations within 50 m of the reference,
# 8 channels of 125 kHz, 4096 samples, a bright source 0.5 degrees north of the pointing centre):
# output names and headers (read back by inspect and from the SIGPROC keywords), the beams
# table, --stokes IQUV, --tint, --fscrunch, --nbits 8, --coherent, --incoherent, beams and
# weights and flags files, the beam on the source being the brightest, identical bytes from
# stdin and from a file, across --gulp and --threads, existing outputs refused without
# --force, and bad inputs refused with exit 1 or 2, one line on stderr naming the file (bad
# usage: the option, and the "see --help" line), and nothing left behind. CPU engine only
# (--device cpu: CI has no GPU).
# Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
BF="$BIN/bf"
SIM="$BIN/simulate"
INSPECT="$BIN/inspect"
for program in "$BF" "$SIM" "$INSPECT"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
size() { wc -c < "$1" | tr -d ' '; }

# --- SIGPROC header values, read from the keyword strings (int32 / float64 after the name)
keyword_at() { grep -abo "$2" "$1" | head -n 1 | cut -d: -f1; }
header_int() {
  at=$(keyword_at "$1" "$2"); [ -n "$at" ] || { echo none; return; }
  od -An -t d4 -j $((at + ${#2})) -N 4 "$1" | tr -d ' '
}
header_double() {
  at=$(keyword_at "$1" "$2"); [ -n "$at" ] || { echo none; return; }
  od -An -t f8 -j $((at + ${#2})) -N 8 "$1" | tr -d ' '
}
# Bytes after HEADER_END (the samples).
data_of() { at=$(keyword_at "$1" HEADER_END); tail -c +$((at + 11)) "$1"; }
# inspect's "Label    value" lines.
inspect_value() { "$INSPECT" --header-only "$1" 2>/dev/null | sed -n "s/^ *$2  *//p" | head -n 1; }
# Sexagesimal (inspect) to degrees: hours for RA.
sexagesimal_deg() {
  echo "$1" | awk -v hours="$2" -F: '{
    sign = 1; d = $1; if (d ~ /^-/) { sign = -1; sub(/^-/, "", d) } sub(/^\+/, "", d)
    v = sign * (d + $2 / 60 + $3 / 3600); if (hours) v *= 15; printf "%.6f\n", v }'
}
near() { awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= tol) }'; }

# Six stations near MeerKAT, east-north-up metres, every pair within 100 m.
cat > "$dir/six.txt" <<'LAYOUT'
# telescope: TEST
# frame: enu -30:42:39.8 21:26:38.0 1086.6
s0    0.0    0.0  0.0  13.5
s1   40.0  -25.0  0.5  13.5
s2  -30.0   35.0  1.0  13.5
s3   35.0   30.0 -0.5  13.5
s4  -40.0  -25.0  0.2  13.5
s5    5.0   45.0  0.8  13.5
LAYOUT
common="--voltages --layout $dir/six.txt --nchans 8 --bw 1 --freq 1400 --ra 04:00:00 --dec -30:00:00 --tstart 60000.5 --nsamples 4096"
# The source sits at hex beam 1 (0.5 degrees north).
"$SIM" $common --source ra=04:00:00,dec=-29:30:00,flux=400 -q -o "$dir/v.dada" 2> "$dir/err" \
  || { echo "simulate: $(cat "$dir/err")"; exit 1; }
"$SIM" $common --npol 1 --source ra=04:00:00,dec=-29:30:00,flux=400 -q -o "$dir/v1.dada" 2>/dev/null \
  || { echo "simulate --npol 1 failed"; exit 1; }
cd "$dir" || exit 1
BF_CPU="$BF --device cpu"

# --- --help, --version
"$BF" --help > help.txt 2>&1 || fail "--help: exit $?"
for option in --tiling --beams --weights --flags --stokes --tint --fscrunch --nbits --coherent \
              --incoherent --fringe-stopped --delay-interval --precision --gulp --device; do
  grep -q -- "$option" help.txt || fail "--help lacks $option"
done
"$BF" --version > version.txt 2>&1 || fail "--version: exit $?"
grep -q "^bf (rapt)" version.txt || fail "--version: $(cat version.txt)"

# --- a NaN in float voltages: that station sample is left out of the beams, with a warning,
# and every output sample is finite
"$SIM" $common --nbits 32 --source ra=04:00:00,dec=-29:30:00,flux=400 -q -o f32.dada 2>/dev/null \
  || fail "simulate --nbits 32"
hdr_size=$(head -c 4096 f32.dada | tr '\000' '\n' | awk '$1 == "HDR_SIZE" { print $2 }')
printf '\000\000\300\177' | dd of=f32.dada bs=1 seek=$((hdr_size + 4000)) conv=notrunc 2>/dev/null
$BF_CPU -q -o nan f32.dada 2> err || fail "NaN voltages: exit $?, $(cat err)"
grep -q "held NaN or infinite values and were left out of the beams" err \
  || fail "NaN voltages: no warning: $(cat err)"
data_of nan_B000.fil | od -An -t f4 -v | grep -qi "nan\|inf" && fail "NaN voltages reached the beam"

# --- one beam at the pointing centre: ROOT_B000.fil and ROOT_beams.txt, nothing else
mkdir one
$BF_CPU -o one/obs v.dada > stdout.txt 2> err || fail "one beam: $(cat err)"
[ -s stdout.txt ] && fail "bf wrote to standard output"
[ "$(ls one | tr '\n' ' ')" = "obs_B000.fil obs_beams.txt " ] || fail "one beam wrote: $(ls one | tr '\n' ' ')"
[ "$(inspect_value one/obs_B000.fil Channels)" = 8 ] || fail "one beam: channels $(inspect_value one/obs_B000.fil Channels)"
[ "$(header_int one/obs_B000.fil nifs)" = 1 ] || fail "one beam: nifs $(header_int one/obs_B000.fil nifs)"
[ "$(header_int one/obs_B000.fil nbits)" = 32 ] || fail "one beam: nbits"
[ "$(inspect_value one/obs_B000.fil 'Spectra')" = 4096 ] || fail "one beam: spectra $(inspect_value one/obs_B000.fil Spectra)"
[ "$(size one/obs_B000.fil)" = $(($(keyword_at one/obs_B000.fil HEADER_END) + 10 + 4096 * 8 * 4)) ] \
  || fail "one beam: size $(size one/obs_B000.fil)"
foff=$(header_double one/obs_B000.fil foff)
near "$foff" -0.125 1e-9 || fail "one beam: foff $foff, expected -0.125 (top channel first)"
fch1=$(header_double one/obs_B000.fil fch1)
near "$fch1" 1400.4375 1e-6 || fail "one beam: fch1 $fch1, expected 1400.4375"
tsamp=$(header_double one/obs_B000.fil tsamp)
near "$tsamp" 8e-6 1e-12 || fail "one beam: tsamp $tsamp"

# --- a hex grid of 7 beams: names, headers against the beams table, the source in beam 1
mkdir hex
$BF_CPU --tiling hex --spacing 0.5 --nbeams 7 -o hex/obs v.dada 2> err || fail "hex: $(cat err)"
expected=""
for b in 0 1 2 3 4 5 6; do expected="${expected}obs_B00$b.fil "; done
[ "$(ls hex | tr '\n' ' ')" = "${expected}obs_beams.txt " ] || fail "hex wrote: $(ls hex | tr '\n' ' ')"
[ "$(grep -vc '^#' hex/obs_beams.txt)" = 7 ] || fail "beams table: $(cat hex/obs_beams.txt)"
brightest=""; best=0; mean_1=0; mean_4=0
grep -v '^#' hex/obs_beams.txt > table.txt
while read -r index name ra dec _l _m fil; do
  [ "$fil" = "$(printf 'hex/obs_B%03d.fil' "$index")" ] || fail "table row $index names $fil"
  [ "$name" = "B$index" ] || fail "table row $index: name $name"
  [ -f "$fil" ] || { fail "no $fil"; continue; }
  [ "$(inspect_value "$fil" Channels)" = 8 ] || fail "$fil: channels"
  [ "$(header_int "$fil" nbeams)" = 7 ] || fail "$fil: nbeams $(header_int "$fil" nbeams)"
  [ "$(header_int "$fil" ibeam)" = "$index" ] || fail "$fil: ibeam $(header_int "$fil" ibeam)"
  ra_fil=$(sexagesimal_deg "$(inspect_value "$fil" 'RA (J2000)')" 1)
  dec_fil=$(sexagesimal_deg "$(inspect_value "$fil" 'Dec (J2000)')" 0)
  near "$ra_fil" "$ra" 1e-4 || fail "$fil: RA $ra_fil deg, table $ra"
  near "$dec_fil" "$dec" 1e-4 || fail "$fil: Dec $dec_fil deg, table $dec"
  mean=$("$INSPECT" "$fil" 2>/dev/null | awk '/All samples/ { print $4; exit }')
  if awk -v a="$mean" -v b="$best" 'BEGIN { exit !(a > b) }'; then best=$mean; brightest=$index; fi
  eval "mean_$index=\$mean"
done < table.txt
[ "$brightest" = 1 ] || fail "the source is in beam 1 (north), but beam $brightest is the brightest"
awk -v a="$mean_1" -v b="$mean_4" 'BEGIN { exit !(a > 1.5 * b) }' \
  || fail "beam 1 (on the source) mean $mean_1 is not well above beam 4 (south) $mean_4"
dec1=$(awk '$1 == 1 { print $4 }' table.txt)
near "$dec1" -29.5 1e-3 || fail "hex beam 1 at Dec $dec1, expected 0.5 degrees north of -30"
# beam 0 of the grid is the one-beam run
data_of one/obs_B000.fil > a.bin; data_of hex/obs_B000.fil > b.bin
cmp -s a.bin b.bin || fail "grid beam 0 differs from the single beam at the pointing centre"

# --- --stokes IQUV, --tint 4, --fscrunch 2, --nbits 8
$BF_CPU --stokes IQUV -o iquv v.dada 2> err || fail "IQUV: $(cat err)"
[ "$(header_int iquv_B000.fil nifs)" = 4 ] || fail "IQUV: nifs $(header_int iquv_B000.fil nifs)"
[ "$(size iquv_B000.fil)" = $(($(keyword_at iquv_B000.fil HEADER_END) + 10 + 4096 * 4 * 8 * 4)) ] \
  || fail "IQUV: size $(size iquv_B000.fil)"
$BF_CPU --tint 4 -o tint v.dada 2> err || fail "--tint 4: $(cat err)"
[ "$(inspect_value tint_B000.fil Spectra)" = 1024 ] || fail "--tint 4: spectra $(inspect_value tint_B000.fil Spectra)"
near "$(header_double tint_B000.fil tsamp)" 32e-6 1e-12 || fail "--tint 4: tsamp $(header_double tint_B000.fil tsamp)"
$BF_CPU --fscrunch 2 -o fs v.dada 2> err || fail "--fscrunch 2: $(cat err)"
[ "$(inspect_value fs_B000.fil Channels)" = 4 ] || fail "--fscrunch 2: channels $(inspect_value fs_B000.fil Channels)"
near "$(header_double fs_B000.fil foff)" -0.25 1e-9 || fail "--fscrunch 2: foff"
near "$(header_double fs_B000.fil fch1)" 1400.375 1e-6 || fail "--fscrunch 2: fch1 $(header_double fs_B000.fil fch1)"
$BF_CPU --nbits 8 -o eight v.dada 2> err || fail "--nbits 8: $(cat err)"
[ "$(header_int eight_B000.fil nbits)" = 8 ] || fail "--nbits 8: nbits $(header_int eight_B000.fil nbits)"
[ "$(size eight_B000.fil)" = $(($(keyword_at eight_B000.fil HEADER_END) + 10 + 4096 * 8)) ] \
  || fail "--nbits 8: size $(size eight_B000.fil)"
grep -q "8-bit scaling" eight_beams.txt || fail "--nbits 8: no scaling note in the beams table"
mean8=$("$INSPECT" eight_B000.fil 2>/dev/null | awk '/All samples/ { print $4; exit }')
awk -v m="$mean8" 'BEGIN { exit !(m > 60 && m < 68) }' || fail "--nbits 8: mean $mean8, expected about 64"
# the 8-bit scale comes from the first 4096 output samples however short the first blocks are
$BF_CPU --nbits 8 --gulp 16 -o eight16 v.dada 2> err || fail "--nbits 8 --gulp 16: $(cat err)"
! grep -q "scale was measured" err || fail "--nbits 8 --gulp 16: $(cat err)"
data_of eight_B000.fil > a.bin; data_of eight16_B000.fil > b.bin
cmp -s a.bin b.bin || fail "--nbits 8: blocks of 16 samples change the scale"
grep -q "from the first 4096 output samples" eight16_beams.txt \
  || fail "--nbits 8 --gulp 16: scaling note $(grep scaling eight16_beams.txt)"

# --- --coherent (PSRDADA that inspect reads), --incoherent, --no-filterbank
$BF_CPU --tiling hex --spacing 0.5 --nbeams 2 --coherent --incoherent -o co v.dada 2> err \
  || fail "--coherent --incoherent: $(cat err)"
for f in co_B000.fil co_B001.fil co_B000.dada co_B001.dada co_IB.fil co_beams.txt; do
  [ -f "$f" ] || fail "--coherent --incoherent: no $f"
done
for f in co_B000.dada co_B001.dada co_IB.fil; do
  "$INSPECT" "$f" > /dev/null 2> err || fail "inspect $f: $(cat err)"
done
"$INSPECT" --header-only co_B001.dada 2>/dev/null | grep -qi "psrdada" || fail "co_B001.dada is not PSRDADA to inspect"
hdr=$(head -c 4096 co_B000.dada | tr -d '\000' | awk '$1 == "HDR_SIZE" { print $2; exit }')
[ "$(size co_B000.dada)" = $((hdr + 8 * 4096 * 2 * 2 * 4)) ] || fail "co_B000.dada: size $(size co_B000.dada)"
[ "$(header_int co_IB.fil ibeam)" = 2 ] || fail "co_IB.fil: ibeam $(header_int co_IB.fil ibeam), expected 2"
[ "$(header_int co_IB.fil nifs)" = 1 ] || fail "co_IB.fil: nifs"
grep -q "^IB incoherent .* co_IB.fil$" co_beams.txt || fail "beams table lacks the incoherent beam"
$BF_CPU --coherent --no-filterbank -o nofil v.dada 2> err || fail "--no-filterbank: $(cat err)"
[ "$(ls nofil_* | tr '\n' ' ')" = "nofil_B000.dada nofil_beams.txt " ] || fail "--no-filterbank wrote $(ls nofil_*)"
$BF_CPU --incoherent --no-filterbank -o ibonly v.dada 2> err || fail "--incoherent --no-filterbank: $(cat err)"
[ "$(ls ibonly_* | tr '\n' ' ')" = "ibonly_IB.fil ibonly_beams.txt " ] || fail "--incoherent --no-filterbank wrote $(ls ibonly_*)"

# --- beams, weights and flags files that are right
printf '# two beams\n04:00:00 -30:00:00 centre\noffset 0 0.5 north\r\n' > beams.txt
$BF_CPU --beams beams.txt -o named v.dada 2> err || fail "--beams: $(cat err)"
grep -q "^0 centre 60.000000 -30.000000 " named_beams.txt || fail "beams table: $(cat named_beams.txt)"
grep -q "^1 north " named_beams.txt || fail "beams table lacks 'north': $(cat named_beams.txt)"
{ echo "nbeams 2 nchan 8 nant 6"
  seq 96 | sed 's/.*/1 0/'; } > weights.txt
$BF_CPU --weights weights.txt -o w v.dada 2> err || fail "--weights: $(cat err)"
[ -f w_B000.fil ] && [ -f w_B001.fil ] || fail "--weights with 2 beams: $(ls w_*)"
data_of w_B000.fil > a.bin; data_of w_B001.fil > b.bin
cmp -s a.bin b.bin || fail "two identical weight sets gave different beams"
printf 's0 0 end\n* 0 0.001\n' > flags.txt
$BF_CPU -v --flags flags.txt -o flagged v.dada 2> err || fail "--flags: $(cat err)"
grep -q "5 of 6 stations kept" err || fail "--flags: station s0 not left out: $(cat err)"
[ -f flagged_B000.fil ] || fail "--flags: no output"
$BF_CPU -v --flags flags.txt --flag-thresh 1 -o kept v.dada 2> err || fail "--flag-thresh 1: $(cat err)"
grep -q "stations kept" err && fail "--flag-thresh 1: a station was left out: $(cat err)"

# --- stdin equals the file; --gulp and --threads change nothing
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 -o ref v.dada 2>/dev/null || fail "reference run"
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 -o pipe - < v.dada 2> err || fail "stdin: $(cat err)"
for b in 000 001 002; do
  data_of ref_B$b.fil > a.bin; data_of pipe_B$b.fil > b.bin
  cmp -s a.bin b.bin || fail "stdin: B$b samples differ from the file's"
  [ "$(keyword_at ref_B$b.fil HEADER_END)" -gt 0 ] || fail "no HEADER_END in ref_B$b.fil"
done
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 --gulp 1000 -o gulp v.dada 2>/dev/null || fail "--gulp 1000"
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 --threads 1 -o t1 v.dada 2>/dev/null || fail "--threads 1"
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 --max-block-mib 0.05 -o small v.dada 2>/dev/null || fail "--max-block-mib"
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 --progress -o prog v.dada 2> err || fail "--progress"
grep -q "s of data formed" err || fail "--progress printed no progress: $(cat err)"
for b in 000 001 002; do
  cmp -s ref_B$b.fil small_B$b.fil || fail "--max-block-mib 0.05 changed B$b"
  cmp -s ref_B$b.fil gulp_B$b.fil || fail "--gulp 1000 changed B$b"
  cmp -s ref_B$b.fil t1_B$b.fil || fail "--threads 1 changed B$b"
done
$BF_CPU --stokes IQUV --tint 4 --gulp 1000 -o gi v.dada 2>/dev/null || fail "--gulp 1000 --tint 4"
$BF_CPU --stokes IQUV --tint 4 -o gd v.dada 2>/dev/null || fail "--tint 4 IQUV"
cmp -s gi_B000.fil gd_B000.fil || fail "--gulp 1000 changed an IQUV --tint 4 beam"

# --- existing outputs: refused, untouched; --force replaces them
cksum ref_B000.fil ref_B001.fil ref_B002.fil ref_beams.txt > before.txt
$BF_CPU --tiling hex --spacing 0.5 --nbeams 3 -o ref v.dada 2> err; status=$?
[ $status = 1 ] || [ $status = 2 ] || fail "existing outputs: exit $status"
[ "$(wc -l < err)" = 1 ] || fail "existing outputs: $(wc -l < err) lines on stderr"
grep -q "ref_B00[0-2].fil\|ref_beams.txt" err || fail "existing outputs: message $(cat err)"
cksum ref_B000.fil ref_B001.fil ref_B002.fil ref_beams.txt | cmp -s - before.txt || fail "existing outputs were changed"
mkdir partial && cp ref_beams.txt partial/obs_beams.txt
$BF_CPU -o partial/obs v.dada 2> err; status=$?
[ $status = 1 ] || [ $status = 2 ] || fail "existing beams table: exit $status"
grep -q "obs_beams.txt" err || fail "existing beams table: message $(cat err)"
[ "$(ls partial)" = obs_beams.txt ] || fail "existing beams table: left $(ls partial | tr '\n' ' ')"
cmp -s partial/obs_beams.txt ref_beams.txt || fail "existing beams table was changed"
$BF_CPU --force --tiling hex --spacing 0.5 --nbeams 3 -o ref v.dada 2> err || fail "--force: $(cat err)"
cmp -s ref_B001.fil gulp_B001.fil || fail "--force: different result"

# --- bad inputs: exit 1 or 2, one line on stderr naming the file (or option), nothing written
printf '04:00:00 -30:00:00\nthis line is bad\n' > bad_beams.txt
printf 'nbeams 1 nchan 4 nant 6\n' > bad_weights.txt
seq 24 | sed 's/.*/1 0/' >> bad_weights.txt
printf 'nbeams 1 nchan 8 nant 6\n1 0\n' > short_weights.txt
head -n 7 six.txt > five.txt
printf 's0 0 end\nzz 0 1\n' > bad_flags.txt
"$SIM" --real-voltages --layout six.txt --bw 1 --npol 1 --nsamples 4096 -q -o real.dada 2>/dev/null \
  || fail "simulate --real-voltages"
expect_error() {  # expect_error NAME-IN-MESSAGE BF-ARGUMENTS...
  want=$1; shift
  rm -rf out && mkdir out
  # shellcheck disable=SC2086
  $BF_CPU "$@" -o out/x 2> err; status=$?
  [ $status = 1 ] || [ $status = 2 ] || fail "$*: exit $status, expected 1 or 2"
  # One line; bad usage (exit 2) may add the usual second line "bf: see 'bf --help'".
  lines=$(wc -l < err)
  if [ "$lines" = 2 ] && [ $status = 2 ] && [ "$(tail -n 1 err)" = "bf: see 'bf --help'" ]; then lines=1; fi
  [ "$lines" = 1 ] || fail "$*: $(wc -l < err) lines on stderr: $(tr '\n' '|' < err)"
  head -n 1 err | grep -qF -- "$want" || fail "$*: message '$(cat err)' does not name $want"
  [ -z "$(ls -A out)" ] || fail "$*: left $(ls -A out | tr '\n' ' ')"
}
expect_error bad_beams.txt --beams bad_beams.txt v.dada
expect_error vdif-rate --vdif-rate -5 v.dada
expect_error bad_weights.txt --weights bad_weights.txt v.dada
expect_error short_weights.txt --weights short_weights.txt v.dada
expect_error five.txt --layout five.txt v.dada
expect_error bad_flags.txt --flags bad_flags.txt v.dada
expect_error real.dada real.dada
expect_error missing.dada missing.dada
expect_error "co_IB.fil: is a SIGPROC file, not voltages" co_IB.fil
expect_error --fscrunch --fscrunch 3 v.dada
expect_error --precision --precision fp16 v.dada
expect_error "two polarisations" --stokes IQUV v1.dada
expect_error --spacing --tiling hex --nbeams 7 v.dada
expect_error --tint --tint 5000 v.dada
# the exit status separates bad data (1) from bad usage (2)
$BF_CPU --beams bad_beams.txt -o out/x v.dada 2>/dev/null; [ $? = 1 ] || fail "bad beams file: exit status not 1"
$BF_CPU --fscrunch 3 -o out/x v.dada 2>/dev/null; [ $? = 2 ] || fail "--fscrunch 3: exit status not 2"
$BF_CPU --precision fp16 -o out/x v.dada 2>/dev/null; [ $? = 2 ] || fail "--precision fp16 --device cpu: exit status not 2"
# VDIF frames carry neither the sky frequency nor the pointing: bf asks for both (exit 2, one
# line naming the file), on the MWA sample of the shared data (one station, two channels).
vdif="${RAPT_SHARED_DATA:-$HERE/../../../shared/data}/baseband/sample_mwa.vdif"
if [ -f "$vdif" ]; then
  head -n 3 six.txt > one.txt
  vdif_bf() { $BF_CPU -q --vdif-rate 1.28e6 --vdif-signed --layout one.txt "$@" -o out/v "$vdif" 2> err; }
  vdif_bf; [ $? = 2 ] && grep -q "no sky frequency" err || fail "VDIF without --vdif-freq: $(cat err)"
  vdif_bf --vdif-freq 184.96; [ $? = 2 ] && grep -q "no pointing; give --ra and --dec" err ||
    fail "VDIF without --ra/--dec: $(cat err)"
  vdif_bf --vdif-freq 184.96 --ra 0 --dec -27 || fail "VDIF with --vdif-freq, --ra and --dec: $(cat err)"
  rm -rf out && mkdir out
fi
# A PSRDADA header without RA and DEC names no pointing: steered beams need --ra and --dec (the
# keys renamed in place, so that the header keeps its size); the incoherent beam alone needs none.
hdr=$(head -c 4096 v.dada | tr -d '\000' | awk '$1 == "HDR_SIZE" { print $2; exit }')
{ head -c "$hdr" v.dada | sed 's/^RA /XA /; s/^DEC /XEC /'; tail -c +$((hdr + 1)) v.dada; } > nopointing.dada
[ "$(size nopointing.dada)" = "$(size v.dada)" ] || fail "nopointing.dada: the size changed"
expect_error "nopointing.dada: PSRDADA header names no RA and DEC; give --ra and --dec" nopointing.dada
expect_error "nopointing.dada: PSRDADA header names no RA and DEC" --coherent --no-filterbank nopointing.dada
rm -rf out && mkdir out
$BF_CPU -q --ra 04:00:00 --dec -30:00:00 -o out/np nopointing.dada 2> err || fail "no pointing, --ra --dec: $(cat err)"
$BF_CPU -q -o out/p v.dada 2> err || fail "bf v.dada: $(cat err)"
data_of out/p_B000.fil > p.data; data_of out/np_B000.fil > np.data
[ -s p.data ] && cmp -s p.data np.data || fail "no pointing, --ra and --dec at the pointing: the beam differs"
$BF_CPU --incoherent --no-filterbank -o out/ib nopointing.dada 2> err ||
  fail "no pointing, --incoherent alone: $(cat err)"
grep -q "nopointing.dada: names no pointing; the beams' filterbanks give src_raj and src_dej as 0h" err ||
  fail "no pointing, --incoherent alone: no warning: $(cat err)"
# With --ra and --dec, the coherent beam's PSRDADA file names its direction.
$BF_CPU -q --ra 04:00:00 --dec -30:00:00 --coherent --no-filterbank -o out/npc nopointing.dada 2> err ||
  fail "no pointing, --coherent --ra --dec: $(cat err)"
inspect_value out/npc_B000.dada 'RA, Dec (J2000)' | grep -q "^04:00:00.0000  -30:00:00.000" ||
  fail "no pointing, --coherent --ra --dec: the beam's file gives $(inspect_value out/npc_B000.dada 'RA, Dec (J2000)')"
rm -rf out && mkdir out

# An empty root would write _B000.fil into the working directory.
( cd out && $BF_CPU -q -o "" ../v.dada 2> ../err ); [ $? = 2 ] || fail "-o '': exit status not 2"
grep -q "needs a root" err || fail "-o '': $(cat err)"
[ -z "$(ls -A out)" ] || fail "-o '': left $(ls -A out | tr '\n' ' ')"

# -o -: a run of one file to standard output, the bytes of that file; the table is not written.
rm -rf out && mkdir out
$BF_CPU -q -o - v.dada > out/one.fil 2> err || fail "-o -: $(cat err)"
cmp -s out/one.fil one/obs_B000.fil || fail "-o -: other bytes than one/obs_B000.fil"
[ -z "$(ls -A -- -_* 2> /dev/null)" ] || fail "-o -: wrote $(ls -A -- -_*)"
$BF_CPU -q --coherent --no-filterbank -o - v.dada > one.dada 2> err || fail "-o - --coherent: $(cat err)"
cmp -s one.dada nofil_B000.dada || fail "-o - --coherent --no-filterbank: other bytes than nofil_B000.dada"
$BF_CPU -q --incoherent --no-filterbank -o - v.dada > ib.fil 2> err || fail "-o - --incoherent: $(cat err)"
cmp -s ib.fil ibonly_IB.fil || fail "-o - --incoherent --no-filterbank: other bytes than ibonly_IB.fil"
# From a pipe into dedisp, as the file.
cat v.dada | $BF_CPU -q -o - - | "$BIN/dedisp" -q --lodm 0 -o - - > piped.f32 2> err || fail "bf -o - | dedisp: $(cat err)"
"$BIN/dedisp" -q --lodm 0 -o - one/obs_B000.fil > file.f32 2> err || fail "dedisp of the beam file: $(cat err)"
cmp -s piped.f32 file.f32 || fail "bf -o - | dedisp differs from dedisp of the beam's file"
# More than one file: a usage error before any data are read, nothing written.
( cd out && $BF_CPU -q --tiling hex --spacing 0.5 --nbeams 7 -o - ../v.dada > ../seven.out 2> ../err ); st=$?
[ $st = 2 ] || fail "-o - with 7 beams: exit status $st, not 2"
grep -q "^bf: --output -: standard output takes one file, and this run writes 7 (7 filterbanks); give a root for the file names$" err ||
  fail "-o - with 7 beams: $(cat err)"
[ -s seven.out ] && fail "-o - with 7 beams wrote to standard output"
$BF_CPU -q --coherent -o - v.dada > two.out 2> err; st=$?
[ $st = 2 ] && grep -q "this run writes 2 (1 filterbank, 1 complex beam)" err || fail "-o - --coherent: $st $(cat err)"
$BF_CPU -q --coherent --incoherent --no-filterbank -o - v.dada > two.out 2> err; st=$?
[ $st = 2 ] && grep -q "this run writes 2 (1 complex beam, 1 incoherent beam)" err ||
  fail "-o - --coherent --incoherent --no-filterbank: $st $(cat err)"

[ $failures = 0 ] && echo "bf_cli: all passed"
[ $failures = 0 ]
