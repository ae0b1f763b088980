#!/bin/sh
# Bad input files as a user would meet them: each gives exactly one error line naming the file,
# a non-zero exit status, and no output files.
BIN=${BIN:-build/bin}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# SIGPROC header pieces: a string token is a little-endian int32 length and the bytes.
token() { n=${#1}; printf "\\$(printf %03o "$n")\\000\\000\\000%s" "$1"; }
int32() { token "$1"; printf "\\$(printf %03o "$2")\\000\\000\\000"; }
tsamp() { token tsamp; printf '\374\251\361\322\115\142\120\077'; }   # 1e-3 as a double
FCH1_1500='\000\000\000\000\000\160\227\100'
FOFF_MINUS1='\000\000\000\000\000\000\360\277'
header() {  # header NBITS NCHANS [FCH1-BYTES FOFF-BYTES]
  token HEADER_START; int32 nbits "$1"; int32 nchans "$2"; tsamp
  token fch1; printf "${3:-$FCH1_1500}"
  token foff; printf "${4:-$FOFF_MINUS1}"
}

expect_one_error() {  # expect_one_error FILE EXPECTED-TEXT: dedisp, or $PROGRAM with $ARGS
  out="$tmp/out"; mkdir -p "$out"
  program=${PROGRAM:-dedisp}; args=${ARGS:---numdms 2}
  # shellcheck disable=SC2086
  "$BIN/$program" $args -o "$out/x" "$1" 2>"$tmp/err" >/dev/null; status=$?
  if [ $status -ne 1 ]; then echo "$1: expected exit 1, got $status"; fail=1; fi
  if [ "$(wc -l < "$tmp/err")" -ne 1 ]; then echo "$1: expected one line:"; cat "$tmp/err"; fail=1; fi
  grep -q -- "^$program: $1: $2" "$tmp/err" || { echo "$1: expected '$2', got:"; cat "$tmp/err"; fail=1; }
  [ -z "$(ls "$out")" ] || { echo "$1: left files behind: $(ls "$out")"; fail=1; }
  rm -rf "$out"
}

{ header 8 4; token HEADER_END; printf 'abcdabcd'; } > "$tmp/good.fil"
head -c 40 "$tmp/good.fil" > "$tmp/truncated.fil"   # ends inside the header
expect_one_error "$tmp/truncated.fil" "header is truncated"
{ header 8 4; printf "abcdabcd"; } > "$tmp/no_end.fil"     # data where HEADER_END should be
expect_one_error "$tmp/no_end.fil" "corrupt header at byte 92: keyword length"
{ header 3 8; token HEADER_END; printf 'abc'; } > "$tmp/nbits3.fil"
expect_one_error "$tmp/nbits3.fil" "header says nbits=3; supported: 1, 2, 4, 8, 16, 32"
{ header 8 0; token HEADER_END; printf 'abcd'; } > "$tmp/nchans0.fil"
expect_one_error "$tmp/nchans0.fil" "header says nchans=0"
{ header 8 4; token HEADER_END; printf 'ab'; } > "$tmp/short.fil"
expect_one_error "$tmp/short.fil" "no complete spectrum after the header"
# Header values no telescope writes: the field and its value, named once.
{ header 8 4 "$FCH1_1500" '\000\000\000\000\000\000\000\000'; token HEADER_END; printf 'abcd'; } > "$tmp/foff0.fil"
expect_one_error "$tmp/foff0.fil" "header field foff = 0 MHz; must be non-zero"
{ header 8 4 '\000\000\000\000\000\160\227\300'; token HEADER_END; printf 'abcd'; } > "$tmp/negfch1.fil"
expect_one_error "$tmp/negfch1.fil" "header field fch1 = -1500 MHz; must be positive"
{ header 8 4 "$FCH1_1500" '\000\000\000\000\000\000\370\177'; token HEADER_END; printf 'abcd'; } > "$tmp/nanfoff.fil"
expect_one_error "$tmp/nanfoff.fil" "header field foff = nan MHz; must be finite"
{ header 8 4 '\000\000\000\000\000\000\044\100' '\000\000\000\000\000\000\044\300'; token HEADER_END; printf 'abcd'; } > "$tmp/below0.fil"
expect_one_error "$tmp/below0.fil" "header fields fch1 = 10 MHz and foff = -10 MHz put channel 3 at -20 MHz"
# fold reads through the same readers: the same one line.
PROGRAM=fold ARGS="-p 0.0873 --dm 56" expect_one_error "$tmp/negfch1.fil" "header field fch1 = -1500 MHz; must be positive"
PROGRAM=fold ARGS="-p 0.0873 --dm 56" expect_one_error "$tmp/foff0.fil" "header field foff = 0 MHz; must be non-zero"
printf 'this is plain text, not FITS\n' > "$tmp/fake.fits"
expect_one_error "$tmp/fake.fits" "not a SIGPROC filterbank or PSRFITS file"
: > "$tmp/empty.fil"
expect_one_error "$tmp/empty.fil" "file is empty"
exit $fail
