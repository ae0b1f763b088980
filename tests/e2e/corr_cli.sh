#!/bin/sh
# corr as a user runs it, on small simulated voltages (6 stations within 50 m, 8 channels of
# 125 kHz, 4096 samples): the output's metadata as inspect reads it (rows, baselines,
# integrations, channels, products), the format from the name or --format, the pointing kept
# apart from a --phase-centre (UVFITS and MS), --tint and --nint,
# the last partial integration (written with a note, or left out with --drop-partial),
# --no-autos, --chan-avg, flagged stations and lost (all-zero) samples, identical bytes from
# stdin and from a file and across --gulp, --max-block-mib and --threads, the summary line and
# -v, existing outputs refused without --force, a run interrupted by SIGINT leaving nothing,
# and bad inputs refused with exit 1 (data) or 2 (usage), one line on stderr naming the file or
# option, and nothing left behind. CPU engine only (--device cpu: CI has no GPU).
# Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
CORR="$BIN/corr"
SIM="$BIN/simulate"
INSPECT="$BIN/inspect"
for program in "$CORR" "$SIM" "$INSPECT"; do
  [ -x "$program" ] || { echo "$program not built"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# inspect's "Label    value" lines.
inspect_value() { "$INSPECT" "$1" 2>/dev/null | sed -n "s/^ *$2  *//p" | head -n 1; }
# The flagged fraction of all visibilities, as inspect gives it.
flagged() { "$INSPECT" "$1" 2>/dev/null | awk '/^ *All products/ { print $NF }'; }

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
common="--layout $dir/six.txt --nchans 8 --bw 1 --freq 1400 --ra 04:00:00 --dec -30:00:00 --tstart 60000.5 --nsamples 4096"
"$SIM" --voltages $common --source ra=04:00:00,dec=-29:50:00,flux=100 -q -o "$dir/v.dada" 2> "$dir/err" \
  || { echo "simulate: $(cat "$dir/err")"; exit 1; }
cd "$dir" || exit 1
C="$CORR --device cpu"

# --- --help, --version
"$CORR" --help > help.txt 2>&1 || fail "--help: exit $?"
for option in --output --format --layout --phase-centre --fringe-stopped --delay-interval --tint \
              --nint --chan-avg --no-autos --drop-partial --flags --nchan --ntaps --window \
              --coeffs --delays --bandpass --precision --gulp --max-block-mib --vdif-rate \
              --device --threads; do
  grep -q -- "$option" help.txt || fail "--help lacks $option"
done
"$CORR" --version > version.txt 2>&1 || fail "--version: exit $?"
grep -q "^corr (rapt)" version.txt || fail "--version: $(cat version.txt)"

# --- one file, its metadata; nothing on stdout; the summary line
$C --nint 1024 -o out.uvfits v.dada > stdout.txt 2> err || fail "corr: $(cat err)"
[ -s stdout.txt ] && fail "corr wrote to standard output"
[ "$(ls | grep -c uvfits)" = 1 ] || fail "corr wrote $(ls | tr '\n' ' ')"
grep -q "^corr: 0.03277 s of data (4096 samples) in .* real time, .* GB/s of voltages; 4 integrations, 84 rows$" err \
  || fail "summary line: $(cat err)"
[ "$(inspect_value out.uvfits Rows)" = 84 ] || fail "rows: $(inspect_value out.uvfits Rows)"
[ "$(inspect_value out.uvfits Baselines)" = "21 (6 of them autocorrelations)" ] || fail "baselines: $(inspect_value out.uvfits Baselines)"
[ "$(inspect_value out.uvfits Integrations)" = 4 ] || fail "integrations: $(inspect_value out.uvfits Integrations)"
[ "$(inspect_value out.uvfits Channels)" = 8 ] || fail "channels: $(inspect_value out.uvfits Channels)"
[ "$(inspect_value out.uvfits 'Polarisation products')" = "XX YY XY YX" ] || fail "products: $(inspect_value out.uvfits 'Polarisation products')"
[ "$(inspect_value out.uvfits 'First channel (MHz)')" = 1399.562500 ] || fail "first channel: $(inspect_value out.uvfits 'First channel (MHz)')"
[ "$(inspect_value out.uvfits 'Integration time (s)')" = 0.008192 ] || fail "integration time: $(inspect_value out.uvfits 'Integration time (s)')"
inspect_value out.uvfits 'Phase centre (J2000)' | grep -q "^04:00:00.0000  -30:00:00.000" || fail "phase centre: $(inspect_value out.uvfits 'Phase centre (J2000)')"
[ "$(inspect_value out.uvfits Telescope)" = TEST ] || fail "telescope: $(inspect_value out.uvfits Telescope)"
[ "$(flagged out.uvfits)" = 0.0000 ] || fail "flagged: $(flagged out.uvfits)"

# -v: the plan and where the time went
$C -v --nint 1024 -o verbose.uvfits v.dada 2> err || fail "-v: $(cat err)"
grep -q "6 stations x 8 channels x 2 polarisations; integrations of 1024 samples" err || fail "-v plan: $(cat err)"
grep -q "engine cpu, fp32 (auto" err || fail "-v engine: $(cat err)"
grep -q "s waiting for voltages.*s channelising, .*s correlating (.*), .*s writing" err || fail "-v times: $(cat err)"

# --- the format from the name, or --format
$C -q --nint 1024 -o out2.uvf v.dada && $C -q --nint 1024 -o out3.fits v.dada \
  && $C -q --nint 1024 --format uvfits -o out4.vis v.dada || fail "UVFITS names and --format"
for f in out2.uvf out3.fits out4.vis; do cmp -s out.uvfits $f || fail "$f differs from out.uvfits"; done
mkdir ms
if $C -q --nint 1024 -o ms/out.ms v.dada 2> err; then
  [ -f ms/out.ms/table.dat ] || fail "out.ms is not a table"
  [ "$(inspect_value ms/out.ms Rows)" = 84 ] || fail "MS rows: $(inspect_value ms/out.ms Rows)"
elif [ $? = 2 ] && grep -q "Measurement Set" err; then
  echo "note: no Measurement Set support in this build"
else
  fail "-o out.ms: $(cat err)"
fi

# --- --phase-centre moves the phase centre; the pointing (UVFITS OBSRA/OBSDEC, MS REFERENCE_DIR)
# stays the header's
$C -q --nint 1024 --phase-centre "04:01:00 -29:50:00" -o moved.uvfits v.dada 2> err || fail "--phase-centre: $(cat err)"
formats=moved.uvfits
if $C -q --nint 1024 --phase-centre "04:01:00 -29:50:00" -o ms/moved.ms v.dada 2> err; then
  formats="$formats ms/moved.ms"
elif ! { [ $? = 2 ] && grep -q "Measurement Set" err; }; then
  fail "--phase-centre -o moved.ms: $(cat err)"
fi
for f in $formats; do
  inspect_value $f 'Phase centre (J2000)' | grep -q "^04:01:00.0000  -29:50:00.000" || fail "$f: phase centre $(inspect_value $f 'Phase centre (J2000)')"
  inspect_value $f 'Pointing (J2000)' | grep -q "^04:00:00.0000  -30:00:00.000" || fail "$f: pointing $(inspect_value $f 'Pointing (J2000)')"
done
inspect_value out.uvfits 'Pointing (J2000)' | grep -q "^04:00:00.0000  -30:00:00.000" || fail "pointing without --phase-centre: $(inspect_value out.uvfits 'Pointing (J2000)')"

# --- --tint, the last partial integration, --drop-partial, --no-autos, --chan-avg
$C -q --tint 0.01 -o tint.uvfits v.dada 2> err || fail "--tint 0.01: $(cat err)"
# 0.01 s is 1250 samples: three whole integrations and one of 346 samples
[ "$(inspect_value tint.uvfits Integrations)" = 4 ] || fail "--tint 0.01: integrations $(inspect_value tint.uvfits Integrations)"
$C --tint 0.01 -o note.uvfits v.dada 2> err || fail "--tint 0.01: $(cat err)"
grep -q "the last integration is 0.002768 s (346 samples) long, not 0.01 s" err || fail "partial note: $(cat err)"
$C --tint 0.01 --drop-partial -o drop.uvfits v.dada 2> err || fail "--drop-partial: $(cat err)"
[ "$(inspect_value drop.uvfits Integrations)" = 3 ] || fail "--drop-partial: integrations $(inspect_value drop.uvfits Integrations)"
grep -q "346 samples) do not fill an integration and were left out" err || fail "--drop-partial note: $(cat err)"
$C -q --nint 1024 --no-autos -o noautos.uvfits v.dada || fail "--no-autos"
[ "$(inspect_value noautos.uvfits Rows)" = 60 ] || fail "--no-autos: rows $(inspect_value noautos.uvfits Rows)"
$C -q --nint 1024 --chan-avg 4 -o avg.uvfits v.dada || fail "--chan-avg 4"
[ "$(inspect_value avg.uvfits Channels)" = 2 ] || fail "--chan-avg 4: channels $(inspect_value avg.uvfits Channels)"
[ "$(inspect_value avg.uvfits 'First channel (MHz)')" = 1399.750000 ] || fail "--chan-avg 4: first channel $(inspect_value avg.uvfits 'First channel (MHz)')"
[ "$(inspect_value avg.uvfits 'Channel width (kHz)')" = 500.000000 ] || fail "--chan-avg 4: width $(inspect_value avg.uvfits 'Channel width (kHz)')"

# --- flags: station s2 for the whole run flags its 6 of 21 baselines; lost samples (every value
# of a station exactly 0) flag what they cover: s3 zeroed in the first 256 samples (the first
# of 16 integrations of 256)
printf 's2 0 end\n' > flags.txt
$C -q --nint 1024 --flags flags.txt -o flagged.uvfits v.dada 2> err || fail "--flags: $(cat err)"
[ "$(flagged flagged.uvfits)" = 0.2857 ] || fail "--flags: flagged fraction $(flagged flagged.uvfits), expected 6/21"
grep -q "every cross-correlation is flagged" err && fail "--flags s2: warned that every baseline is flagged"
# All but one station flagged: the file is written, with a warning that no baseline is left.
printf 's0 0 end\ns1 0 end\ns2 0 end\ns3 0 end\ns4 0 end\n' > flags5.txt
$C --nint 1024 --flags flags5.txt -o flagged5.uvfits v.dada 2> err || fail "--flags, five of six: $(cat err)"
grep -q "flagged5.uvfits: every cross-correlation is flagged (weight 0)" err ||
  fail "--flags, five of six: no warning: $(cat err)"
cp v.dada lost.dada
hdr=$(head -c 4096 v.dada | tr -d '\000' | awk '$1 == "HDR_SIZE" { print $2; exit }')
# rapt's PSRDADA: blocks of 256 samples, [channel][antenna][time][pol][re, im], 8-bit: each
# channel's 256 samples of one antenna are 1024 bytes.
for c in 0 1 2 3 4 5 6 7; do
  dd if=/dev/zero of=lost.dada bs=1 seek=$((hdr + (c * 6 + 3) * 1024)) count=1024 conv=notrunc 2>/dev/null
done
$C --nint 256 -o lost.uvfits lost.dada 2> err || fail "lost samples: $(cat err)"
grep -q "256 station samples were zero in every channel (lost data) and were left out" err || fail "lost samples: note $(cat err)"
[ "$(flagged lost.uvfits)" = 0.0179 ] || fail "lost samples: flagged fraction $(flagged lost.uvfits), expected 6/21/16"

# --- stdin equals the file; --gulp, --max-block-mib and --threads change nothing
$C -q --nint 1024 -o pipe.uvfits - < v.dada 2> err || fail "stdin: $(cat err)"
cmp -s out.uvfits pipe.uvfits || fail "stdin: the output differs from the file's"
$C -q --nint 1024 --gulp 300 -o gulp.uvfits v.dada || fail "--gulp 300"
$C -q --nint 1024 --max-block-mib 0.05 -o small.uvfits v.dada || fail "--max-block-mib 0.05"
$C -q --nint 1024 --threads 1 -o t1.uvfits v.dada || fail "--threads 1"
$C --nint 1024 --progress -o prog.uvfits v.dada 2> err || fail "--progress"
grep -q "s of data correlated" err || fail "--progress printed no progress: $(cat err)"
for f in gulp small t1; do cmp -s out.uvfits $f.uvfits || fail "$f: the output changed"; done

# --- existing outputs: refused and untouched; --force replaces them
cksum out.uvfits > before.txt
$C --nint 512 -o out.uvfits v.dada 2> err; status=$?
[ $status = 1 ] || fail "existing output: exit $status"
[ "$(wc -l < err)" = 1 ] && grep -q "out.uvfits" err || fail "existing output: message $(cat err)"
cksum out.uvfits | cmp -s - before.txt || fail "existing output was changed"
$C -q --force --nint 512 -o out.uvfits v.dada 2> err || fail "--force: $(cat err)"
[ "$(inspect_value out.uvfits Integrations)" = 8 ] || fail "--force did not replace the output"
# ... but never the input being read
cp v.dada self.dada
cksum self.dada > before.txt
$C -q --force --format uvfits --nint 512 -o self.dada self.dada 2> err; status=$?
[ $status = 2 ] && grep -q "is the input itself" err || fail "-o the input: exit $status, $(cat err)"
cksum self.dada | cmp -s - before.txt || fail "-o the input: the input was changed"

# --- a path that is not a regular file (a pipe here; /dev/null alike) is never replaced
if mkfifo pipe.uvfits 2>/dev/null; then
  $C -q --force --nint 512 -o pipe.uvfits v.dada 2> err; status=$?
  [ $status = 1 ] && [ -p pipe.uvfits ] && grep -q "not a regular file" err \
    || fail "--force onto a pipe: exit $status, $(cat err)"
  rm -f pipe.uvfits
fi

# --- interrupted (SIGINT) while waiting for more voltages on a pipe: nothing under the final
# name and no temporary, for UVFITS and (where the build has casacore) a Measurement Set
if env --default-signal=INT true 2>/dev/null; then
  mkdir stop
  { cat v.dada; sleep 3; } | env --default-signal=INT $C -q --nint 512 -o stop/x.uvfits - 2> err &
  pid=$!
  sleep 1
  kill -INT $pid 2>/dev/null
  wait $pid; status=$?
  [ $status = 130 ] || fail "SIGINT: exit status $status, expected 130: $(cat err)"
  [ -e stop/x.uvfits ] && fail "SIGINT left stop/x.uvfits"
  [ -z "$(ls -A stop)" ] || fail "SIGINT left the temporary $(ls -A stop | tr '\n' ' ')"
  if $C -q --nint 512 -o probe.ms v.dada 2>/dev/null; then
    { cat v.dada; sleep 3; } | env --default-signal=INT $C -q --nint 512 -o stop/x.ms - 2> err &
    pid=$!
    sleep 1
    kill -INT $pid 2>/dev/null
    wait $pid; status=$?
    [ $status = 130 ] || fail "SIGINT (MS): exit status $status, expected 130: $(cat err)"
    [ -z "$(ls -A stop)" ] || fail "SIGINT left $(ls -A stop | tr '\n' ' ') behind an MS"
  fi
fi

# --- bad inputs: exit 1 (data) or 2 (usage), one line naming the file or option, nothing left
head -n 7 six.txt > five.txt
printf 's0 0 end\nzz 0 1\n' > bad_flags.txt
: > empty.dada
echo "not voltages" > text.dada
"$SIM" --voltages --format guppi --antenna s0 $common -q -o one.raw 2>/dev/null || fail "simulate --format guppi"
"$SIM" --voltages $common --nbits 32 -q -o float.dada 2>/dev/null || fail "simulate --nbits 32"
expect_error() {  # expect_error STATUS NAME-IN-MESSAGE CORR-ARGUMENTS...
  want_status=$1 want=$2; shift 2
  rm -rf out && mkdir out
  $C "$@" -o out/x.uvfits 2> err; status=$?
  [ $status = "$want_status" ] || fail "$*: exit $status, expected $want_status: $(cat err)"
  # One line; bad usage may add the usual second line "corr: see 'corr --help'".
  lines=$(wc -l < err)
  if [ "$lines" = 2 ] && [ "$(tail -n 1 err)" = "corr: see 'corr --help'" ]; then lines=1; fi
  [ "$lines" = 1 ] || fail "$*: $(wc -l < err) lines on stderr: $(tr '\n' '|' < err)"
  head -n 1 err | grep -qF -- "$want" || fail "$*: message '$(cat err)' does not name $want"
  [ -z "$(ls -A out)" ] || fail "$*: left $(ls -A out | tr '\n' ' ')"
}
expect_error 1 missing.dada missing.dada
expect_error 1 empty.dada empty.dada
expect_error 1 text.dada text.dada
expect_error 1 five.txt --layout five.txt v.dada
expect_error 1 bad_flags.txt --flags bad_flags.txt v.dada
expect_error 1 "give --layout" one.raw
expect_error 1 "fewer than one integration" --nint 5000 --drop-partial v.dada
expect_error 2 --chan-avg --chan-avg 3 v.dada
expect_error 2 --nint --tint 1 --nint 10 v.dada
expect_error 2 --tint --tint -1 v.dada
expect_error 2 --phase-centre --phase-centre 04:00:00 v.dada
expect_error 2 --phase-centre --phase-centre "25:00:00 -30:00:00" v.dada
expect_error 2 --precision --precision int4 v.dada
expect_error 2 float.dada --precision int8 float.dada
expect_error 2 --precision --precision int8 --nchan 4 v.dada
expect_error 2 --nchan --ntaps 8 v.dada
expect_error 2 --window --nchan 4 --window square v.dada
expect_error 2 --delay-interval --delay-interval -1 v.dada
expect_error 2 --vdif-rate --vdif-rate -5 v.dada
expect_error 2 --gulp --gulp -1 v.dada
rm -rf out && mkdir out
# Standard input holding nothing, or a FITS file, is named as such.
: | $C -o out/x.uvfits - 2> err; status=$?
[ $status = 1 ] && grep -q "^corr: -: is empty (no voltages)$" err || fail "empty stdin: exit $status, $(cat err)"
$C -o out/x.uvfits out.uvfits 2> err; status=$?
[ $status = 1 ] && grep -q "out.uvfits: is a FITS file, not voltages" err || fail "UVFITS as voltages: exit $status, $(cat err)"
$C -o out/x.uvfits - < out.uvfits 2> err; status=$?
[ $status = 1 ] && grep -q "^corr: -: is a FITS file, not voltages" err || fail "UVFITS on stdin: exit $status, $(cat err)"
cat out.uvfits | $C -o out/x.uvfits - 2> err; status=$?
[ $status = 1 ] && grep -q "^corr: -: is a FITS file, not voltages" err || fail "UVFITS piped: exit $status, $(cat err)"
$C -o out/x.dat v.dada 2> err; status=$?
[ $status = 2 ] && grep -q "out/x.dat" err || fail "-o x.dat: exit $status, $(cat err)"
$C --format vis -o out/x.uvfits v.dada 2> err; status=$?
[ $status = 2 ] && grep -q -- "--format" err || fail "--format vis: exit $status, $(cat err)"
$C v.dada 2> err; status=$?
[ $status = 2 ] && grep -q -- "--output" err || fail "no -o: exit $status, $(cat err)"
# A place no file can be made in (/proc, whose permissions allow root to try): the system's
# reason, not the library's "couldn't create the named file".
for name in /proc/rapt-test.uvfits /proc/rapt-test.ms; do
  $C -q -o $name v.dada 2> err; status=$?
  [ $status = 1 ] && [ "$(wc -l < err)" = 1 ] && grep -q "^corr: $name: cannot create: " err ||
    fail "-o $name: exit $status, $(cat err)"
done
[ -z "$(ls -A out)" ] || fail "usage errors left $(ls -A out | tr '\n' ' ')"

# --- a PSRDADA header without RA and DEC names no pointing: corr asks for --phase-centre rather
# than phase towards RA 0, Dec 0, and takes that as the pointing (the keys renamed in place, so
# that the header keeps its size)
hdr=$(head -c 4096 v.dada | tr -d '\000' | awk '$1 == "HDR_SIZE" { print $2; exit }')
{ head -c "$hdr" v.dada | sed 's/^RA /XA /; s/^DEC /XEC /'; tail -c +$((hdr + 1)) v.dada; } > nopointing.dada
[ "$(wc -c < nopointing.dada)" = "$(wc -c < v.dada)" ] || fail "nopointing.dada: the size changed"
expect_error 2 "nopointing.dada: PSRDADA header names no RA and DEC; give --phase-centre" nopointing.dada
expect_error 2 "names no pointing, which --fringe-stopped needs" --phase-centre "04:00:00 -30:00:00" \
  --fringe-stopped nopointing.dada
$C -q --nint 1024 --phase-centre "04:00:00 -30:00:00" -o nopointing.uvfits nopointing.dada 2> err ||
  fail "no pointing, --phase-centre: $(cat err)"
inspect_value nopointing.uvfits 'Pointing (J2000)' | grep -q "^04:00:00.0000  -30:00:00.000" ||
  fail "no pointing: the pointing is $(inspect_value nopointing.uvfits 'Pointing (J2000)')"
$C -q --nint 1024 -o pointing.uvfits v.dada || fail "corr v.dada"
cmp -s pointing.uvfits nopointing.uvfits || fail "no pointing, --phase-centre at the pointing: the output differs"

# --- a header without a start time, or whose antenna list does not match NANT (so that its
# positions are set aside): one line that says so, not the reader's warning as well
{ head -c "$hdr" v.dada | sed 's/^UTC_START /XTC_START /; s/^MJD_START /XJD_START /'; tail -c +$((hdr + 1)) v.dada; } > nostart.dada
expect_error 1 "nostart.dada: carries no start time (UTC_START or MJD_START)" nostart.dada
{ head -c "$hdr" v.dada | sed 's/^\(ANT_NAMES .*\),s5$/\1   /'; tail -c +$((hdr + 1)) v.dada; } > names5.dada
[ "$(wc -c < names5.dada)" = "$(wc -c < v.dada)" ] || fail "names5.dada: the size changed"
expect_error 1 "names5.dada: the voltages carry no antenna positions (ANT_NAMES lists 5 antennas, NANT is 6); give --layout FILE" names5.dada

[ $failures = 0 ] && echo "corr_cli: all passed"
[ $failures = 0 ]
