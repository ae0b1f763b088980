#!/bin/sh
# fold refuses bad input with one clear line naming the file, exit status 1, and writes nothing.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
[ -x "$BIN/fold" ] && [ -x "$BIN/simulate" ] && [ -x "$BIN/dedisp" ] || { echo "fold not built"; exit 77; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect STATUS 'message' command...: the status, the exact one-line message, no new files.
expect() {
  want_status=$1; want_text=$2; shift 2
  before=$(ls "$W/out" | wc -l)
  "$@" > /dev/null 2> "$W/err"; status=$?
  [ $status -eq "$want_status" ] || fail "$* exited $status, expected $want_status: $(cat "$W/err")"
  [ "$(grep -vc "see 'fold --help'" "$W/err")" -eq 1 ] || fail "$*: not one line: $(cat "$W/err")"
  grep -qxF -- "$want_text" "$W/err" || fail "$*: expected '$want_text', got: $(cat "$W/err")"
  [ "$(ls "$W/out" | wc -l)" -eq "$before" ] || fail "$*: wrote $(ls "$W/out")"
}
mkdir "$W/out"
"$BIN/simulate" -q --nchans 16 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 4 --seed 1 -o "$W/a.fil" || fail simulate
"$BIN/dedisp" -q --device cpu --lodm 0 --numdms 1 -o "$W/a" "$W/a.fil" || fail dedisp
"$BIN/fold" -q -p 0.1 -o "$W/out/ok" "$W/a_DM0.00.dat" || fail "fold of a good series"
[ -f "$W/out/ok_100.00ms_Cand.pfd" ] && [ -f "$W/out/ok_100.00ms_Cand.pfd.bestprof" ] || fail "no outputs"
rm -f "$W/out"/*
# One part has no drift to search: P is kept as given (not a trial at the grid's edge), and said.
"$BIN/fold" -p 0.1 -npart 1 -o "$W/out/one" "$W/a_DM0.00.dat" 2> "$W/err" || fail "fold -npart 1: $(cat "$W/err")"
grep -qF "one part (-npart 1) holds no drift to search" "$W/err" || fail "fold -npart 1 said: $(cat "$W/err")"
grep -q "^# P_topo (ms) *= *100 " "$W/out/one_100.00ms_Cand.pfd.bestprof" ||
  fail "fold -npart 1 moved P: $(grep P_topo "$W/out/one_100.00ms_Cand.pfd.bestprof")"
rm -f "$W/out"/*
# Raw data cut mid-spectrum are folded to their last whole spectrum, and the rest is reported.
head -c $(( $(wc -c < "$W/a.fil") - 5 )) "$W/a.fil" > "$W/cut.fil"
"$BIN/fold" -q -p 0.1 --nsub 16 -nosearch -o "$W/out/cut" "$W/cut.fil" 2> "$W/err" || fail "fold of a cut file: $(cat "$W/err")"
grep -qF "warning: $W/cut.fil: ignored " "$W/err" || fail "no warning of the cut spectrum: $(cat "$W/err")"
rm -f "$W/out"/*
# More parts than the series can fill with two samples each: fewer parts, not a refusal.
"$BIN/fold" -q -p 0.1 -npart 4000 -o "$W/out/many" "$W/a_DM0.00.dat" 2> "$W/err" \
  || fail "fold -npart 4000 of 4000 samples: $(cat "$W/err")"
rm -f "$W/out"/*
# An existing plot is refused before anything is folded or written (builds with PLplot).
if "$BIN/fold" -q --plot -p 0.1 -o "$W/out/probe" "$W/a_DM0.00.dat" 2> /dev/null; then
  rm -f "$W/out"/*
  : > "$W/out/x_100.00ms_Cand.pfd.png"
  expect 1 "fold: $W/out/x_100.00ms_Cand.pfd.png: already exists (use --force to overwrite)" \
    "$BIN/fold" --plot -p 0.1 -o "$W/out/x" "$W/a_DM0.00.dat"
  rm -f "$W/out"/*
fi
# prepfold's options that fold lacks are refused by name.
expect 2 "fold: -timing: prepfold's TEMPO timing mode is not available (fold with --par -nosearch)" \
  "$BIN/fold" -timing "$W/psr.par" -o "$W/out/x" "$W/a_DM0.00.dat"
# A negative period after a one-letter option is refused as such.
expect 2 "fold: -p: the period must be positive" "$BIN/fold" -p -0.1 -o "$W/out/x" "$W/a_DM0.00.dat"

expect 1 "fold: $W/a_DM0.00.dat: 0.30ms_Cand: period 0.0003 s is shorter than 2 samples (0.002 s)" \
  "$BIN/fold" -p 0.0003 -o "$W/out/x" "$W/a_DM0.00.dat"
printf 'PSRJ J1234+5678\nF1 -1.0D-15\nPEPOCH 60000\nDM 10\n' > "$W/nof0.par"
expect 1 "fold: $W/nof0.par: no F0 (spin frequency) or P0 in the par file" \
  "$BIN/fold" -par "$W/nof0.par" -o "$W/out/x" "$W/a_DM0.00.dat"
expect 1 "fold: $W/missing.dat: cannot open: No such file or directory" \
  "$BIN/fold" -p 0.1 -o "$W/out/x" "$W/missing.dat"
expect 2 "fold: give one candidate: --accelcand with --accelfile, -p, -f or --par" \
  "$BIN/fold" -o "$W/out/x" "$W/a_DM0.00.dat"
# A GPU that is not there: exit 2, the reason after the option (it depends on the build).
"$BIN/fold" --device gpu:99 -p 0.1 -o "$W/out/x" "$W/a_DM0.00.dat" > /dev/null 2> "$W/err"
[ $? -eq 2 ] && head -n 1 "$W/err" | grep -q "^fold: --device gpu:99: " || fail "--device gpu:99: $(cat "$W/err")"
[ -z "$(ls "$W/out")" ] || fail "--device gpu:99 wrote $(ls "$W/out")"

# Data too short for the period: refused with the span and the number of periods.
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 0.1 --seed 1 -o "$W/short.fil" || fail simulate
expect 1 "fold: $W/short.fil: 87.30ms_Cand: the data span 0.1 s, 1.15 periods of 0.0873 s; folding needs at least 2 periods" \
  "$BIN/fold" -p 0.0873 --dm 56 -o "$W/out/x" "$W/short.fil"
# A .dat cut short of what its .inf promises.
head -c 4000 "$W/a_DM0.00.dat" > "$W/cut_DM0.00.dat"
sed 's/a_DM0.00/cut_DM0.00/' "$W/a_DM0.00.inf" > "$W/cut_DM0.00.inf"
expect 1 "fold: $W/cut_DM0.00.dat: holds 1000 samples but $W/cut_DM0.00.inf says N = 4000; the file is truncated" \
  "$BIN/fold" -p 0.0873 -o "$W/out/x" "$W/cut_DM0.00.dat"
# A few periods only: the P and P' search is dropped with a warning, and what is written and
# reported is a positive period and finite statistics.
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 100 --tsamp 1e-3 --tobs 0.5 --seed 1 -o "$W/few.fil" || fail simulate
"$BIN/fold" -p 0.0873 --dm 56 -o "$W/out/few" "$W/few.fil" > /dev/null 2> "$W/err" || fail "fold of 5.7 periods: $(cat "$W/err")"
grep -q "warning: .*P and P' are kept as given" "$W/err" || fail "no warning for a short P search: $(cat "$W/err")"
! grep -qi "nan\|P -" "$W/err" "$W/out/few_87.30ms_Cand.pfd.bestprof" || fail "NaN or negative period: $(cat "$W/err")"
rm -f "$W/out"/*

# A candidate number past the end of an accelsearch .cand file (PRESTO's own, if present).
GOLDEN=${RAPT_SHARED_DATA:-../shared/data}/presto-golden
[ -f "$GOLDEN/test_DM56.00_ACCEL_50.cand" ] || { echo "shared golden data missing"; exit 77; }
expect 1 "fold: $GOLDEN/test_DM56.00_ACCEL_50.cand: has 46 candidates; there is no candidate 47" \
  "$BIN/fold" -accelcand 2,47 -accelfile "$GOLDEN/test_DM56.00_ACCEL_50.cand" -o "$W/out/x" \
  "$GOLDEN/test_DM56.00.dat"
exit 0
