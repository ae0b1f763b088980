#!/bin/sh
# inspect on the interferometry formats as a user runs it: GUPPI RAW, PSRDADA, VDIF, UVFITS, a
# Measurement Set and a layout file in one call, with two bad files among them; each bad file
# is one line "inspect: FILE: problem" on stderr, the good ones are still reported, exit 1.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
BB=$DATA/baseband; UV=$DATA/pyuvdata
[ -f "$BB/sample_puppi.raw" ] && [ -f "$UV/1061316296.uvfits" ] || { echo "shared data not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "$1"; [ -f "$tmp/err" ] && cat "$tmp/err"; exit 1; }

# A GUPPI file cut inside its first header, and a native DADA file whose header lacks NANT.
head -c 3000 "$BB/sample_puppi.raw" > "$tmp/cut.raw"
printf 'HDR_VERSION 1.0\nHDR_SIZE 4096\nORDER TFATP\nINNER_T 4\nNCHAN 1\nNPOL 1\nNBIT 8\nNDIM 2\nTSAMP 1\n' > "$tmp/text"
{ cat "$tmp/text"; head -c $((4096 - $(wc -c < "$tmp/text"))) /dev/zero; printf 'abcdefgh'; } > "$tmp/nonant.dada"

"$BIN/inspect" "$tmp/cut.raw" "$BB/sample_puppi.raw" "$tmp/nonant.dada" "$BB/sample_meerkat.dada" \
  "$UV/1061316296.uvfits" >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status -eq 1 ] || fail "expected exit 1, got $status"
grep -v 'warning:' "$tmp/err" > "$tmp/errors"
[ "$(wc -l < "$tmp/errors")" -eq 2 ] || fail "expected two error lines"
grep -q "^inspect: $tmp/cut.raw: " "$tmp/errors" || fail "truncated GUPPI file not named"
grep -q "^inspect: $tmp/nonant.dada: .*NANT" "$tmp/errors" || fail "DADA without NANT not named"
grep -q "^$BB/sample_puppi.raw (GUPPI RAW)$" "$tmp/out" || fail "GUPPI file not inspected"
grep -q "Start MJD (UTC) .*(day 58132 + 51093.000000 s)" "$tmp/out" || fail "GUPPI start time"
grep -q "^  Channels  *4$" "$tmp/out" || fail "GUPPI channels"
grep -q "^$BB/sample_meerkat.dada (PSRDADA)$" "$tmp/out" || fail "DADA file not inspected"
grep -q "^  Rows  *16256$" "$tmp/out" || fail "UVFITS rows"
grep -q "^  Polarisation products  *XX YY XY YX$" "$tmp/out" || fail "UVFITS products"
grep -q "^  First channel (MHz)  *167.075000$" "$tmp/out" || fail "UVFITS frequency"

# Voltages on standard input (a pipe, read once): the file's report but for its length, which a
# stream does not tell: PSRDADA, GUPPI RAW and VDIF (EDV 3 gives the rate); UVFITS and other
# formats from a pipe are one line each.
for f in "$BB/sample_meerkat.dada" "$BB/sample_puppi.raw" "$BB/sample.vdif"; do
  "$BIN/inspect" "$f" > "$tmp/file" 2>/dev/null || fail "$f"
  cat "$f" | "$BIN/inspect" - > "$tmp/pipe" 2>"$tmp/err" || fail "$f from a pipe: $(cat "$tmp/err")"
  format=$(sed -n '1s/^.* (\(.*\))$/\1/p' "$tmp/file")
  grep -q "^- ($format)$" "$tmp/pipe" || fail "$f: the pipe is not reported as $format"
  grep -q "^  Time samples  *unknown (stream)$" "$tmp/pipe" || fail "$f: the stream's length"
  grep -v -e "Time samples" -e "Duration" -e "($format)$" "$tmp/file" > "$tmp/file.rest"
  grep -v -e "Time samples" -e "Duration" -e "($format)$" "$tmp/pipe" > "$tmp/pipe.rest"
  cmp -s "$tmp/file.rest" "$tmp/pipe.rest" || fail "$f: the pipe's report differs: $(diff "$tmp/file.rest" "$tmp/pipe.rest")"
  grep -q "Statistics" "$tmp/pipe" || fail "$f: no statistics from the pipe"
done
# A named pipe (mkfifo, or a shell's <(...)) given by name is read once, as standard input is.
mkfifo "$tmp/fifo"
cat "$BB/sample.vdif" > "$tmp/fifo" & writer=$!
"$BIN/inspect" "$tmp/fifo" > "$tmp/pipe" 2> "$tmp/err" || { kill $writer 2>/dev/null; fail "a named pipe: $(cat "$tmp/err")"; }
wait $writer
grep -q "^$tmp/fifo (VDIF)$" "$tmp/pipe" && grep -q "^  Time samples  *unknown (stream)$" "$tmp/pipe" ||
  fail "a named pipe: $(head -3 "$tmp/pipe")"
cat "$UV/1061316296.uvfits" | "$BIN/inspect" - > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && [ "$(cat "$tmp/err")" = "inspect: -: not a SIGPROC, GUPPI RAW, PSRDADA or VDIF stream; other formats are read from a file (give its name, or redirect it with <)" ] ||
  fail "UVFITS from a pipe: $(cat "$tmp/err")"
echo "no format at all" | "$BIN/inspect" - > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^inspect: -: not a SIGPROC, GUPPI RAW, PSRDADA or VDIF stream" "$tmp/err" ||
  fail "text from a pipe: $(cat "$tmp/err")"
# Redirected from a file (<), any format is that file: GUPPI RAW, UVFITS; and a PSRDADA file
# so redirected tells its length.
"$BIN/inspect" - < "$BB/sample_puppi.raw" > "$tmp/out" 2>/dev/null && grep -q "(GUPPI RAW)$" "$tmp/out" ||
  fail "GUPPI RAW redirected"
"$BIN/inspect" - < "$UV/1061316296.uvfits" > "$tmp/out" 2>/dev/null && grep -q "^  Rows  *16256$" "$tmp/out" &&
  grep -q "^- (UVFITS)$" "$tmp/out" || fail "UVFITS redirected: $(head -1 "$tmp/out")"
printf 'no format at all\n' > "$tmp/text.bin"
"$BIN/inspect" - < "$tmp/text.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^inspect: -: not a format inspect reads" "$tmp/err" || fail "text redirected: $(cat "$tmp/err")"
"$BIN/inspect" - < "$BB/sample_meerkat.dada" > "$tmp/redirected" 2>/dev/null || fail "DADA redirected"
"$BIN/inspect" "$BB/sample_meerkat.dada" > "$tmp/file" 2>/dev/null || fail "DADA file"
grep "Time samples" "$tmp/file" > "$tmp/want"; grep "Time samples" "$tmp/redirected" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "DADA redirected: $(cat "$tmp/got") against $(cat "$tmp/want")"
# Channel-major DADA (ORDER FTP) is read by seeking, so from a file only: redirected, and with
# the stream starting 7 bytes into it, the channels are those of the file.
printf 'HDR_VERSION 1.0\nHDR_SIZE 4096\nORDER FTP\nNCHAN 2\nNPOL 1\nNBIT 8\nNDIM 2\nTSAMP 1\nFREQ 1400\nBW 2\n' > "$tmp/text"
{ cat "$tmp/text"; head -c $((4096 - $(wc -c < "$tmp/text"))) /dev/zero
  awk 'BEGIN { for (i = 0; i < 400; i++) printf "%c", 65 + i % 7 }'
  awk 'BEGIN { for (i = 0; i < 400; i++) printf "%c", 97 + i % 13 }'; } > "$tmp/ftp.dada"
{ printf 'junk!!\n'; cat "$tmp/ftp.dada"; } > "$tmp/offset.dada"
"$BIN/inspect" --channels "$tmp/ftp.dada" 2>/dev/null | sed 1d > "$tmp/want" || fail "FTP file"
{ dd bs=7 count=1 of=/dev/null 2>/dev/null; "$BIN/inspect" --channels - 2>/dev/null; } < "$tmp/offset.dada" |
  sed 1d > "$tmp/got"
grep -q "^  Time samples  *200$" "$tmp/want" && cmp -s "$tmp/want" "$tmp/got" ||
  fail "FTP redirected at an offset: $(diff "$tmp/want" "$tmp/got")"
# A layout file from standard input, with --layout.
cat "$(dirname "$0")/ten_antennas.txt" | "$BIN/inspect" --layout - > "$tmp/out" 2>"$tmp/err" &&
  grep -q "^  Antennas  *10$" "$tmp/out" || fail "a layout from a pipe: $(cat "$tmp/err")"

# VDIF without a rate in its headers: one line asking for it; with --vdif-rate it is read.
"$BIN/inspect" "$BB/sample_mwa.vdif" >/dev/null 2>"$tmp/err"; [ $? -eq 1 ] || fail "VDIF without rate must fail"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "expected one error line"
"$BIN/inspect" --vdif-rate 1.28e6 "$BB/sample_mwa.vdif" >"$tmp/out" 2>"$tmp/err" || fail "VDIF with rate failed"
grep -q "Start (UTC)  *2015-10-03 20:49:45.000000" "$tmp/out" || fail "VDIF start time"

# The Measurement Set: its report, or, in a build without casacore, one line saying so.
"$BIN/inspect" --header-only "$UV/day2_TDEM0003_10s_norx_1src_1spw.ms" >"$tmp/out" 2>"$tmp/err"
status=$?
if [ $status -eq 0 ]; then
  grep -q "^  Rows  *1360$" "$tmp/out" || fail "MS rows"
  grep -q "^  Polarisation products  *RR RL LR LL$" "$tmp/out" || fail "MS products"
  grep -q "Statistics" "$tmp/out" && fail "--header-only printed statistics"
else
  [ $status -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "MS without casacore: expected one line, exit 1"
fi

# A layout file is recognised by its '# frame:' line.
LAYOUT=$(dirname "$0")/../../examples/layouts/meerkat.txt
if [ -f "$LAYOUT" ]; then
  "$BIN/inspect" "$LAYOUT" >"$tmp/out" 2>"$tmp/err" || fail "layout file not inspected"
  grep -q "^  Antennas  *64$" "$tmp/out" || fail "layout antennas"
fi
exit 0
