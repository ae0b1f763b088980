#!/bin/sh
# snr refuses bad input with one clear line and the documented exit status (2 bad usage,
# 1 bad data). Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/snr" ] && [ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "snr not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect STATUS 'message fragment' command...
expect() {
  want_status=$1; want_text=$2; shift 2
  "$@" > /dev/null 2> "$W/err"; status=$?
  [ $status -eq "$want_status" ] || fail "$* exited $status, expected $want_status: $(cat "$W/err")"
  grep -qF -- "$want_text" "$W/err" || fail "$*: expected '$want_text' in: $(cat "$W/err")"
  # One line for the problem (usage errors add the pointer to --help).
  [ "$(grep -vc "see 'snr --help'" "$W/err")" -eq 1 ] || fail "$*: more than one line: $(cat "$W/err")"
}

# Series of one start, of different lengths and sampling times (1, 2 and 1.5 ms), and one
# starting 1 s later, dedispersed at DM 0.
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 4 --seed 1 -o "$W/a.fil" || fail simulate
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 3 --seed 2 -o "$W/b.fil" || fail simulate
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 2e-3 --tobs 8 --seed 3 -o "$W/c.fil" || fail simulate
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1.5e-3 --tobs 3 --seed 4 -o "$W/d.fil" || fail simulate
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 3 --seed 5 \
  --tstart 60000.0000115740741 -o "$W/e.fil" || fail simulate
for x in a b c d e; do
  "$BIN/dedisp" -q --device cpu --lodm 0 --numdms 1 -o "$W/$x" "$W/$x.fil" || fail "dedisp $x"
done
# A filterbank on standard input is searched in real time; without --realtime, one line saying so.
expect 2 "a filterbank on standard input is read with --realtime" sh -c "cat '$W/a.fil' | '$BIN/snr' --numdms 2 -"
"$BIN/snr" -q "$W/a_DM0.00.dat" > "$W/cands.txt" || fail "snr on a good series"
[ -f "$W/a_DM0.00.singlepulse" ] || fail "no .singlepulse written"
# Different lengths, and sampling times of a common time base, are searched in one call.
"$BIN/snr" -q --force "$W/a_DM0.00.dat" "$W/b_DM0.00.dat" "$W/c_DM0.00.dat" > /dev/null \
  || fail "snr on series of 1 and 2 ms"
for x in a b c; do [ -f "$W/${x}_DM0.00.singlepulse" ] || fail "no $x .singlepulse"; done
rm -f "$W/b_DM0.00.singlepulse" "$W/c_DM0.00.singlepulse"

expect 1 "snr: $W/d_DM0.00.dat: sampling time 0.0015 s is not a whole multiple of $W/a_DM0.00.dat's 0.001 s" \
  "$BIN/snr" --force "$W/a_DM0.00.dat" "$W/d_DM0.00.dat"
expect 1 "snr: $W/e_DM0.00.dat: starts 1 s after $W/a_DM0.00.dat" \
  "$BIN/snr" --force "$W/a_DM0.00.dat" "$W/e_DM0.00.dat"
expect 2 "snr: --plot and --cands name one file ($W/same.png)" \
  "$BIN/snr" --force --cands "$W/same.png" --plot "$W/same.png" "$W/a_DM0.00.dat"
[ -e "$W/same.png" ] && fail "a refused snr wrote same.png"
[ -f "$W/d_DM0.00.singlepulse" ] && fail "a refused call wrote d's .singlepulse"
[ -f "$W/e_DM0.00.singlepulse" ] && fail "a refused call wrote e's .singlepulse"
cp "$W/a_DM0.00.dat" "$W/lonely.dat"
expect 1 "snr: $W/lonely.dat: no .inf beside it ($W/lonely.inf)" "$BIN/snr" "$W/lonely.dat"
: > "$W/empty.dat"
sed 's/^\( Number of bins in the time series *= *\).*/\10/' "$W/a_DM0.00.inf" > "$W/empty.inf"
expect 1 "snr: $W/empty.dat: is empty (no samples)" "$BIN/snr" "$W/empty.dat"
expect 1 "snr: $W/a_DM0.00.singlepulse: " "$BIN/snr" "$W/a_DM0.00.dat"   # exists; no --force
expect 1 "snr: $W/cands.txt: not a time series" "$BIN/snr" "$W/cands.txt"
expect 2 "snr: a filterbank input needs --numdms" "$BIN/snr" "$W/a.fil"
expect 2 "snr: give one filterbank (with --numdms or --plan) or time series, not both" \
  "$BIN/snr" --numdms 2 "$W/a.fil" "$W/b.fil"
expect 2 "snr: --numdms and --plan need a filterbank input" "$BIN/snr" --numdms 2 "$W/a_DM0.00.dat"
expect 2 "snr: --numdms and --plan need a filterbank input" \
  "$BIN/snr" --plan --dm-max 50 "$W/a_DM0.00.dat"
expect 2 "snr: --plan needs --dm-max" "$BIN/snr" --plan "$W/a.fil"
expect 2 "snr: --plan chooses the DM steps: --dmstep and --numdms do not apply" \
  "$BIN/snr" --plan --dm-max 50 --numdms 4 "$W/a.fil"
expect 2 "snr: --max-downsamp needs --plan" "$BIN/snr" --max-downsamp 4 --numdms 2 "$W/a.fil"
expect 2 "snr: --chunk must be a positive multiple of 16000 spectra (the detrend length and 4, times the plan's largest downsampling, 16), not 2000" \
  "$BIN/snr" -q --realtime --plan --dm-max 1000 --chunk 2000 "$W/a.fil"
# Real time over a plan whose coarsest ranges never get a whole block of the 4 s: the finer
# ones are searched (their candidates may be out already) and the others named in a warning.
mkdir "$W/rtplan" || fail mkdir
"$BIN/snr" -q --realtime --plan --dm-max 1000 -o "$W/rtplan" "$W/a.fil" > /dev/null 2> "$W/err" ||
  fail "real time over a plan longer than the data: $(cat "$W/err")"
grep -q "^snr: warning: $W/a.fil: DMs .* (downsampled by 16) not searched: the data end before one detrend block of theirs (16000 spectra after the largest delay)$" "$W/err" ||
  fail "real time over a plan longer than the data: $(cat "$W/err")"
[ -f "$W/rtplan/a_DM0.00.singlepulse" ] || fail "the searched ranges wrote no .singlepulse"
ls "$W/rtplan" > "$W/written"
for dm in 980.00 1080.00 480.00; do  # ranges downsampled by 16 and 8
  grep -q "a_DM$dm.singlepulse" "$W/written" && fail "DM $dm, not searched, has a .singlepulse file"
done
grep -q "a_DM115.00.singlepulse" "$W/written" || fail "DM 115 searched but not written: $(cat "$W/written")"
# A plan past what the data hold is refused before anything is written.
mkdir "$W/far" || fail mkdir
expect 1 "snr: $W/a.fil: DM " "$BIN/snr" -q --plan --dm-max 30000 -o "$W/far" "$W/a.fil"
[ -z "$(ls "$W/far")" ] || fail "a refused plan left files: $(ls "$W/far")"
# A plan whose downsampled ranges leave less than a detrend block: one line naming the input,
# the DM and the way out, before anything is dedispersed.
expect 1 "snr: $W/a.fil: DM 240 (sampling time 0.004 s) leaves 984 usable samples, fewer than one detrend block (1000); a smaller --max-downsamp keeps more" \
  "$BIN/snr" -q --plan --dm-max 1000 -o "$W/far" "$W/a.fil"
[ -z "$(ls "$W/far")" ] || fail "a refused plan left files: $(ls "$W/far")"
expect 2 "snr: --mode must be boxcar or peak, not 'fast'" "$BIN/snr" --mode fast "$W/a_DM0.00.dat"
expect 2 "snr: --chunk-len belongs to --mode peak" "$BIN/snr" --chunk-len 500 "$W/a_DM0.00.dat"
expect 1 "snr: $W/a_DM0.00.dat: 4000 usable samples, fewer than one chunk (5000)" \
  "$BIN/snr" --force --mode peak --chunk-len 5000 "$W/a_DM0.00.dat"
expect 2 "snr: --glob '$W/nothing*.dat' matches no files" "$BIN/snr" -g "$W/nothing*.dat"
expect 2 "snr: -d/--detrend-factor must be 1..32" "$BIN/snr" -d 40 "$W/a_DM0.00.dat"
expect 2 "snr: no input files" "$BIN/snr"
expect 2 "snr: --mask, --ignorechan and --zerodm need a filterbank input" \
  "$BIN/snr" --zerodm "$W/a_DM0.00.dat"
expect 2 "snr: --realtime needs --numdms" "$BIN/snr" --realtime "$W/a.fil"
expect 2 "snr: --chunk and --json belong to --realtime" "$BIN/snr" --chunk 4000 --numdms 2 "$W/a.fil"
expect 2 "snr: --chunk must be a positive multiple of 1000" \
  "$BIN/snr" --realtime --chunk 4500 --numdms 2 "$W/a.fil"
expect 1 "snr: -: not a SIGPROC filterbank or PSRFITS file" sh -c "echo nonsense | '$BIN/snr' --realtime --numdms 2 -"
# Real time refuses an output it could not replace before it reads any data, and leaves no
# candidate list on stdout.
mkdir "$W/rt" || fail mkdir
"$BIN/snr" -q --realtime --numdms 2 -o "$W/rt" "$W/a.fil" > /dev/null || fail "snr --realtime on a.fil"
out=$("$BIN/snr" --realtime --numdms 2 -o "$W/rt" "$W/a.fil" 2> "$W/err"); status=$?
[ $status -eq 1 ] && [ -z "$out" ] && grep -qF "a_DM0.00.singlepulse: already exists" "$W/err" ||
  fail "--realtime over its own outputs: status $status, stdout '$out', $(cat "$W/err")"
# A search of files refuses its outputs before searching: no .singlepulse of some series
# written and the rest missing.
mkdir "$W/batch" || fail mkdir
echo keep > "$W/batch/cands.txt"
expect 1 "snr: $W/batch/cands.txt: already exists" \
  "$BIN/snr" -o "$W/batch" --cands "$W/batch/cands.txt" "$W/a_DM0.00.dat"
[ -f "$W/batch/a_DM0.00.singlepulse" ] && fail "a refused run left a .singlepulse behind"
# Two series that would write one file are refused, --force or not, rather than one replacing
# the other: inputs of one name with --outdir, DMs equal to two decimals.
mkdir "$W/other" && cp "$W/a_DM0.00.dat" "$W/a_DM0.00.inf" "$W/other/" || fail cp
expect 2 "snr: $W/a_DM0.00.dat and $W/other/a_DM0.00.dat would both be written as $W/batch/a_DM0.00.singlepulse" \
  "$BIN/snr" --force -o "$W/batch" "$W/a_DM0.00.dat" "$W/other/a_DM0.00.dat"
expect 2 "snr: $W/a_DM0.00.dat is given twice" "$BIN/snr" --force "$W/a_DM0.00.dat" "$W/a_DM0.00.dat"
expect 2 "snr: DMs 0 and 0.001 would both be written as $W/batch/a_DM0.00.singlepulse" \
  "$BIN/snr" --force --lodm 0 --dmstep 0.001 --numdms 2 -o "$W/batch" "$W/a.fil"
expect 2 "snr: DMs 0 and 0.001 would both be written as $W/batch/a_DM0.00.singlepulse" \
  "$BIN/snr" --force --realtime --lodm 0 --dmstep 0.001 --numdms 2 -o "$W/batch" "$W/a.fil"
[ -z "$(ls "$W/batch" | grep -v cands.txt)" ] || fail "refused runs left files: $(ls "$W/batch")"
# A filterbank cut mid-spectrum is searched to its last whole spectrum, and the bytes left are
# reported once, in the in-memory and the real-time search alike.
head -c $(( $(wc -c < "$W/a.fil") - 5 )) "$W/a.fil" > "$W/cut.fil"
mkdir "$W/cut"
for mode in "" --realtime; do
  "$BIN/snr" -q --force --device cpu $mode --lodm 0 --numdms 2 -o "$W/cut" "$W/cut.fil" 2> "$W/err" > /dev/null ||
    fail "snr $mode of a cut filterbank: $(cat "$W/err")"
  [ "$(grep -cF "warning: $W/cut.fil: ignored " "$W/err")" -eq 1 ] ||
    fail "snr $mode: not one warning of the cut spectrum: $(cat "$W/err")"
done
exit 0
