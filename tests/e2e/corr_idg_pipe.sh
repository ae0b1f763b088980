#!/bin/sh
# corr's UVFITS on standard output piped into idg-grid: the same bytes as a file and the same
# image; what cannot go through a pipe (a Measurement Set, MODEL_DATA) is refused in one line,
# and so are an empty or foreign stream; no temporary is left behind.
# Exit 0 = pass, 1 = fail, 77 = skip.
export LC_ALL=C
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "no ${BIN:-build/bin}"; exit 77; }
for program in simulate corr idg-grid; do
  [ -x "$BIN/$program" ] || { echo "$BIN/$program not built"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export TMPDIR="$dir/tmp"
mkdir "$TMPDIR"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

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
"$BIN/simulate" -q --voltages --layout "$dir/six.txt" --freq 1400 --ra 60 --dec -30 \
  --tstart 60000.1 --nchans 16 --bw 0.5 --nsamples 8192 --no-noise --gain 4 \
  --source ra=60.01,dec=-30.005,flux=3 -o "$dir/v.dada" 2> "$dir/err" ||
  { echo "simulate: $(cat "$dir/err")"; exit 1; }

cd "$dir" || exit 1
"$BIN/corr" -q v.dada -o file.uvfits || fail "corr -o file.uvfits"
"$BIN/corr" -q v.dada -o - > piped.uvfits || fail "corr -o -"
cmp -s file.uvfits piped.uvfits || fail "corr -o - wrote other bytes than -o file.uvfits"
# The CPU engine, whose images repeat to the bit: the GPU's adder sums subgrids in whatever order
# its blocks finish, so two GPU images of one input differ in the last bits.
"$BIN/corr" -q v.dada -o - | "$BIN/idg-grid" -q --device cpu --size 64 --scale 20asec -o piped - ||
  fail "corr -o - | idg-grid -"
"$BIN/idg-grid" -q --device cpu --size 64 --scale 20asec -o filed file.uvfits ||
  fail "idg-grid file.uvfits"
cmp -s piped-dirty.fits filed-dirty.fits || fail "the piped dirty image differs from the file's"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"

# expect STATUS TEXT COMMAND...: one line (and for bad usage the pointer to --help) holding TEXT.
expect() {
  want=$1; text=$2; shift 2
  "$@" > out 2> err < "${STDIN:-/dev/null}"; got=$?
  [ "$got" = "$want" ] || { fail "$*: exit $got, not $want: $(cat err)"; return; }
  grep -v "see '.* --help'" err > errline
  grep -q -- "$text" errline || fail "$*: no '$text' in: $(cat err)"
  [ "$(wc -l < errline)" -eq 1 ] || fail "$*: not one line: $(cat err)"
}
expect 2 "standard output takes UVFITS" "$BIN/corr" v.dada -o - --format ms
expect 1 "standard input: is empty" "$BIN/idg-grid" --size 64 --scale 20asec -o out1 -
printf 'not a FITS file\n' > junk.txt
STDIN=junk.txt expect 1 "standard input: " "$BIN/idg-grid" --size 64 --scale 20asec -o out2 -
STDIN=file.uvfits expect 2 "give -o NAME.uvfits" "$BIN/idg-grid" --predict filed-dirty.fits -
[ ! -e out1-dirty.fits ] && [ ! -e out2-dirty.fits ] || fail "an image was left by a failed run"

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "corr -o - | idg-grid -: same bytes and image as through a file; refusals in one line"
