#!/bin/sh
# sift merges a survey searched in two parts into the lists one process over the whole job
# gives: simulate | dedisp, then snr over every series vs snr over each half + sift, and
# accelgpu over every series vs accelgpu over each half + sift (compared with cmp); then bad
# input gets one line and the documented status (1 bad data, 2 bad usage).
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
for p in sift simulate dedisp snr accelgpu; do
  [ -x "$BIN/$p" ] || { echo "$p not built"; exit 77; }
done
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  want_status=$1; want_text=$2; shift 2
  "$@" > "$W/out" 2> "$W/err"; status=$?
  [ $status -eq "$want_status" ] || fail "$* exited $status, expected $want_status: $(cat "$W/err")"
  grep -qF -- "$want_text" "$W/err" || fail "$*: expected '$want_text' in: $(cat "$W/err")"
  [ "$(grep -vc "see 'sift --help'" "$W/err")" -eq 1 ] || fail "$*: more than one line: $(cat "$W/err")"
  [ -s "$W/out" ] && fail "$*: wrote to stdout on error: $(cat "$W/out")"
  return 0
}

# A pulsar and a burst at DM 40, 8 s; 14 DM trials 36.125, 36.75, ... (DMs of 3 decimals,
# which the .singlepulse files round to 2: sift takes them from the .inf files).
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 300 --tsamp 512e-6 --tobs 8 --seed 7 \
  --pulsar P=0.0731,DM=40,snr=40 --burst t=3.0,DM=40,width=0.002,snr=30 -o "$W/obs.fil" \
  || fail simulate
mkdir "$W/whole" "$W/p1" "$W/p2" || fail mkdir
"$BIN/dedisp" -q --device cpu --lodm 36.125 --dmstep 0.625 --numdms 14 -o "$W/whole/obs" "$W/obs.fil" \
  || fail dedisp
# The two parts: the first 6 DM trials and the other 8, each in its own directory.
i=0
for name in $(ls "$W/whole" | grep '^obs_DM.*\.dat$' | sort -t M -k 2 -g); do
  part=p2; [ $i -lt 6 ] && part=p1
  root=$W/whole/${name%.dat}
  cp "$root.dat" "$root.inf" "$W/$part/" || fail "copy $root"
  i=$((i + 1))
done
[ $i -eq 14 ] || fail "dedisp wrote $i series, expected 14"

# Single pulses: one snr over all series vs snr per part + sift.
"$BIN/snr" -q --device cpu -t 6 --cands "$W/whole.cands" "$W"/whole/obs_DM*.dat || fail "snr whole"
"$BIN/snr" -q --device cpu -t 6 --cands "$W/p1.cands" "$W"/p1/obs_DM*.dat || fail "snr part 1"
"$BIN/snr" -q --device cpu -t 6 --cands "$W/p2.cands" "$W"/p2/obs_DM*.dat || fail "snr part 2"
"$BIN/sift" -q "$W"/p2/*.singlepulse "$W"/p1/*.singlepulse > "$W/sift.cands" || fail "sift .singlepulse"
cmp "$W/whole.cands" "$W/sift.cands" || fail "sift's single-pulse list differs from snr's: $(diff "$W/whole.cands" "$W/sift.cands" | head)"
awk '!/^#/ && $1 >= 38 && $1 <= 42 && $2 >= 2.99 && $2 <= 3.02 && $5 >= 15 { found = 1 }
     END { exit !found }' "$W/sift.cands" || fail "no candidate of the burst at t = 3 s: $(cat "$W/sift.cands")"
awk '!/^#/ && $1 ~ /\.[0-9][0-9][1-9]$/ { found = 1 } END { exit !found }' "$W/sift.cands" ||
  fail "no candidate at a DM of 3 decimals: $(cat "$W/sift.cands")"
# The same with snr's cluster options, and into a file.
"$BIN/snr" -q --force --device cpu -t 6 --cluster-dm-trials 1 --cluster-gap 0 \
  --cands "$W/whole1.cands" "$W"/whole/obs_DM*.dat || fail "snr whole, cluster options"
"$BIN/sift" -q --cluster-dm-trials 1 --cluster-gap 0 --cands "$W/sift1.cands" \
  "$W"/p1/*.singlepulse "$W"/p2/*.singlepulse || fail "sift, cluster options"
cmp "$W/whole1.cands" "$W/sift1.cands" || fail "lists differ with --cluster-dm-trials 1 --cluster-gap 0"

# A DM plan's downsampled ranges (0.512 ms up to DM 65, 1.024 ms above): a burst at DM 66 is
# one candidate over both, in one snr call over every series and in sift over two parts.
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 300 --tsamp 512e-6 --tobs 8 --seed 7 \
  --burst t=3.0,DM=66,width=0.004,snr=40 -o "$W/burst.fil" || fail "simulate burst"
mkdir "$W/plan" "$W/q1" "$W/q2" || fail mkdir
"$BIN/dedisp" -q --device cpu --plan --lodm 30 --dm-max 100 -o "$W/plan/b" "$W/burst.fil" \
  || fail "dedisp --plan"
grep -q "= *0.001024" "$W/plan/b_DM70.00.inf" || fail "the plan did not downsample DM 70"
"$BIN/snr" -q --device cpu -t 6 --cands "$W/plan.cands" "$W"/plan/b_DM*.dat || fail "snr over the plan"
[ "$(grep -vc '^#' "$W/plan.cands")" -eq 1 ] || fail "not one candidate: $(cat "$W/plan.cands")"
awk '!/^#/ && $1 >= 60 && $1 <= 72 && $2 >= 2.99 && $2 <= 3.01 && $5 >= 20 { found = 1 }
     END { exit !found }' "$W/plan.cands" || fail "no burst candidate: $(cat "$W/plan.cands")"
[ -s "$W/plan/b_DM70.00.singlepulse" ] && [ -s "$W/plan/b_DM64.00.singlepulse" ] ||
  fail "the burst was not found on both sides of the plan's step"
i=0
for name in $(ls "$W/plan" | grep '\.dat$'); do
  part=q$((i % 2 + 1))
  cp "$W/plan/${name%.dat}.dat" "$W/plan/${name%.dat}.inf" "$W/$part/" || fail "copy $name"
  i=$((i + 1))
done
for part in q1 q2; do
  "$BIN/snr" -q --device cpu -t 6 "$W/$part"/b_DM*.dat > /dev/null || fail "snr $part"
done
"$BIN/sift" -q "$W"/q1/*.singlepulse "$W"/q2/*.singlepulse > "$W/qsift.cands" || fail "sift the plan"
cmp "$W/plan.cands" "$W/qsift.cands" ||
  fail "sift's list of the plan differs from snr's: $(diff "$W/plan.cands" "$W/qsift.cands")"
# The same with snr --part -o DIR, whose .singlepulse files have no .inf beside them: sift
# tells each file's sampling time by its events.
for k in 1 2 3; do
  mkdir "$W/r$k" || fail mkdir
  "$BIN/snr" -q --device cpu -t 6 --part $k/3 -o "$W/r$k" "$W"/plan/b_DM*.dat > /dev/null ||
    fail "snr --part $k/3"
done
"$BIN/sift" -q "$W"/r*/*.singlepulse > "$W/rsift.cands" || fail "sift the plan's parts"
cmp "$W/plan.cands" "$W/rsift.cands" ||
  fail "sift's list of the plan's parts differs from snr's: $(diff "$W/plan.cands" "$W/rsift.cands")"

# -t: events below the S/N are left out; --plot: the plot snr --plot draws, from the files.
"$BIN/sift" -q -t 10 "$W"/plan/*.singlepulse > "$W/t10.cands" || fail "sift -t 10"
awk '!/^#/ && $5 < 10 { bad = 1 } END { exit bad }' "$W/t10.cands" ||
  fail "sift -t 10 kept weaker candidates: $(cat "$W/t10.cands")"
[ "$(grep -vc '^#' "$W/t10.cands")" -ge 1 ] || fail "sift -t 10 lost the burst"
"$BIN/sift" -q --plot "$W/plan.png" "$W"/plan/*.singlepulse > "$W/plot.cands" 2> "$W/err"; status=$?
if grep -q "built without PLplot" "$W/err"; then
  [ $status -eq 2 ] || fail "sift --plot without PLplot exited $status, expected 2"
  [ -s "$W/plot.cands" ] && fail "sift --plot without PLplot wrote a list"
else
  [ $status -eq 0 ] || fail "sift --plot exited $status: $(cat "$W/err")"
  [ "$(od -A n -t x1 -N 8 "$W/plan.png" | tr -d ' ')" = 89504e470d0a1a0a ] || fail "plan.png is not a PNG"
  cmp -s "$W/plan.cands" "$W/plot.cands" || fail "sift --plot changed the list"
  "$BIN/sift" -q --plot "$W/plan.png" "$W"/plan/*.singlepulse > /dev/null 2>&1 &&
    fail "sift --plot replaced plan.png without --force"
fi

# Periodicity: one accelgpu run over all series vs one per part + sift.
A="-zmax 10 -numharm 4 --device cpu -q"
"$BIN/accelgpu" $A "$W"/whole/obs_DM*.dat || fail "accelgpu whole"
"$BIN/accelgpu" $A "$W"/p1/obs_DM*.dat || fail "accelgpu part 1"
"$BIN/accelgpu" $A "$W"/p2/obs_DM*.dat || fail "accelgpu part 2"
"$BIN/sift" -q -o "$W/whole.accel" "$W"/whole/*_ACCEL_10 || fail "sift whole ACCEL"
"$BIN/sift" -q -o "$W/parts.accel" "$W"/p2/*_ACCEL_10 "$W"/p1/*_ACCEL_10 || fail "sift parts ACCEL"
cmp "$W/whole.accel" "$W/parts.accel" || fail "sifted ACCEL lists differ: $(diff "$W/whole.accel" "$W/parts.accel" | head)"
# The pulsar (73.1 ms, or a harmonic of it) is the first candidate, found at several DMs, and
# its file:candnum names a record of the .cand file beside it.
set -- $(sed -n 2p "$W/parts.accel")
[ $# -eq 11 ] || fail "no sifted candidate: $(cat "$W/parts.accel")"
awk -v p="$8" 'function near(x) { return x > 0.5 && x < 4.5 && (x - int(x + 0.5))^2 < 1e-4 }
  BEGIN { exit !(near(73.1 / p) || near(p / 73.1)) }' ||
  fail "first candidate P = $8 ms, expected 73.1 ms or a harmonic"
file=${1%:*}; num=${1##*:}
for d in p1 p2; do [ -f "$W/$d/$file.cand" ] && cand="$W/$d/$file.cand"; done
[ -n "$cand" ] || fail "no $file.cand in the parts"
[ $(( $(wc -c < "$cand") / 88 )) -ge "$num" ] || fail "$cand has no candidate $num"
grep -q '^  DM=' "$W/parts.accel" || fail "no DM-hit lines: $(head "$W/parts.accel")"
# --output refuses to overwrite without --force.
expect 1 "parts.accel: " "$BIN/sift" -o "$W/parts.accel" "$W"/p1/*_ACCEL_10
"$BIN/sift" -q --force -o "$W/parts.accel" "$W"/p1/*_ACCEL_10 "$W"/p2/*_ACCEL_10 || fail "--force"
cmp "$W/whole.accel" "$W/parts.accel" || fail "--force wrote another list"

# Bad input.
SP=$(ls "$W"/p1/*.singlepulse | head -n 1)
AC=$(ls "$W"/p1/*_ACCEL_10 | head -n 1)
expect 2 "sift: no input files" "$BIN/sift"
expect 2 "sift: give .singlepulse files or ACCEL files, not both" \
  "$BIN/sift" "$SP" "$AC"
expect 2 "not a .singlepulse file or an ACCEL file" "$BIN/sift" "${SP%.singlepulse}.dat"
expect 2 "give the ACCEL text file" "$BIN/sift" "$AC.cand"
expect 2 "sift: --cluster-gap belongs to .singlepulse inputs" \
  "$BIN/sift" --cluster-gap 3 "$AC"
expect 2 "sift: --sigma belongs to ACCEL inputs" \
  "$BIN/sift" --sigma 3 "$SP"
expect 2 "sift: --plot belongs to .singlepulse inputs" \
  "$BIN/sift" --plot "$W/accel.png" "$AC"
expect 2 "sift: --threshold must be a finite S/N >= 0" \
  "$BIN/sift" -t -1 "$SP"
expect 2 "sift: --plot and --output name one file ($W/same.png)" \
  "$BIN/sift" -o "$W/same.png" --plot "$W/same.png" "$SP"
[ -e "$W/same.png" ] && fail "a refused sift wrote same.png"
expect 1 "sift: $W/nothing.singlepulse: cannot open" \
  "$BIN/sift" -o "$W/never.txt" "$SP" "$W/nothing.singlepulse"
[ -e "$W/never.txt" ] && fail "wrote --output despite an error"
printf '# DM      Sigma      Time (s)     Sample    Downfact\n  36.00    x.xx      0.100000        195       1\n' \
  > "$W/p1/bad_DM36.00.singlepulse"
expect 1 "sift: $W/p1/bad_DM36.00.singlepulse: line 2: Sigma is not a number" \
  "$BIN/sift" "$W/p1/bad_DM36.00.singlepulse"
# The harmonics table cut out: the candidates have no harmonic powers.
sed '/^Cand   Harm/,/^$/d' "$AC" > "$W/p1/cut_DM36.00_ACCEL_10"
expect 1 "cut_DM36.00_ACCEL_10: candidate 1 has no complete rows in the harmonics table" \
  "$BIN/sift" "$W/p1/cut_DM36.00_ACCEL_10"
exit 0
