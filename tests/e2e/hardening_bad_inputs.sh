#!/bin/sh
# Every malformed file of tests/hardening/make_bad_inputs.py through every program that reads
# its format. Each run must end with exit status 1 or 2 (no signal, no hang past 20 s), print
# exactly one short line on standard error naming the file, and leave no file behind.
# Prints one line per failure and a summary; exits 0 when all pass, 77 without python3/numpy.
#   BIN=build/bin sh tests/e2e/hardening_bad_inputs.sh
BIN=${BIN:-build/bin}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "hardening_bad_inputs: no $BIN"; exit 1; }
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=${RAPT_SHARED_DATA:-$here/../shared/data}
max_stderr_chars=300

python=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c "import numpy" 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || { echo "hardening_bad_inputs: skipped (needs python3 with numpy)"; exit 77; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$python" "$here/tests/hardening/make_bad_inputs.py" "$tmp/corpus" --shared "$shared" || exit 1
# A one-station layout for bf on GUPPI RAW and VDIF voltages (which carry no positions).
printf '# frame: enu -30.7 21.4 1050\nA00 0 0 0 13.5\n' > "$tmp/one_station.txt"

# The programs that read each format; F is the bad file, run in the case's folder.
commands_for() {
  case $1 in
    sigproc_fil|psrfits) echo "inspect F"; echo "dedisp --numdms 2 -o out F"; echo "fold -p 0.01 F" ;;
    sigproc_tim) echo "inspect F"; echo "snr F" ;;
    presto_dat) echo "inspect F"; echo "snr F"; echo "fold -p 0.01 F"; echo "accelgpu F"
                echo "harmsum F"; echo "deredden F" ;;
    presto_fft) echo "inspect F"; echo "accelgpu F"; echo "harmsum F"; echo "deredden F" ;;
    accel_cand) echo "fold --accelcand 1 --accelfile F x.dat" ;;
    bestprof) echo "snr F" ;;
    par) echo "fold --par F x.dat" ;;
    rfifind_mask) echo "dedisp --mask F --numdms 2 -o out obs.fil" ;;
    psrdada|guppi_raw|vdif)
            echo "inspect F"
            # bf needs station positions: PSRDADA may carry them, GUPPI RAW and VDIF do not.
            if [ -x "$BIN/bf" ]; then
              # VDIF lacks the sky frequency and pointing bf refuses to go without.
              if [ "$1" = psrdada ]; then echo "bf --device cpu -o out F"
              elif [ "$1" = vdif ]; then
                echo "bf --device cpu --layout $tmp/one_station.txt --vdif-freq 1400 --ra 0 --dec 0 -o out F"
              else echo "bf --device cpu --layout $tmp/one_station.txt -o out F"; fi
            fi
            # corr too (the same positions), into UVFITS.
            if [ -x "$BIN/corr" ]; then
              # (not VDIF: corr needs --phase-centre 'RA DEC' for it, which these words cannot
              # carry; inspect and bf read the bad VDIF files)
              if [ "$1" = psrdada ]; then echo "corr --device cpu -o out.uvfits F"
              elif [ "$1" = guppi_raw ]; then
                echo "corr --device cpu --layout $tmp/one_station.txt -o out.uvfits F"
              fi
            fi ;;
    layout) echo "inspect F"; echo "inspect --layout F"
            if "$BIN/simulate" --help 2>&1 | grep -q -- '--layout'; then
              echo "simulate --layout F --voltages -o out.dada"
            fi ;;
    power_trace) echo "powersensor-read --replay F" ;;
    *) echo "inspect F" ;;   # presto_inf, accel_text, pfd, singlepulse and the visibility
                             # formats: inspect reads (or refuses) them all
  esac
}

# Names an error may give for the case: any file of its folder, or the .inf the bad file
# needs (x.inf for x.dat, x.inf for x_ACCEL_50.cand).
names_file() {  # names_file STDERR-FILE FOLDER BAD
  for f in $(ls -A "$2") "${3%.*}.inf" "${3%%_ACCEL*}.inf"; do
    grep -qF -- "$f" "$1" && return 0
  done
  return 1
}

runs=0; failed=0
report() { echo "FAIL $case_dir [$cmd]: $1"; failed=$((failed + 1)); }

while IFS="$(printf '\t')" read -r case_dir format bad; do
  [ -n "$case_dir" ] || continue
  commands_for "$format" > "$tmp/commands"
  while read -r cmd; do
    runs=$((runs + 1))
    work="$tmp/run/$runs"
    mkdir -p "$work" && cp -R "$tmp/corpus/$case_dir/." "$work/"
    ls -A "$work" > "$tmp/before"
    program=${cmd%% *}
    args=$(echo "${cmd#* }" | sed "s|\\bF\\b|$bad|g")
    # shellcheck disable=SC2086
    (cd "$work" && exec timeout 20 "$BIN/$program" $args) >/dev/null 2>"$tmp/err" </dev/null
    status=$?
    ls -A "$work" > "$tmp/after"
    lines=$(wc -l < "$tmp/err"); chars=$(wc -c < "$tmp/err")
    if [ $status -eq 124 ]; then report "no answer within 20 s"
    elif [ $status -ge 128 ]; then report "killed by signal $((status - 128))"
    elif [ $status -ne 1 ] && [ $status -ne 2 ]; then report "exit status $status"
    elif [ "$lines" -ne 1 ]; then report "$lines lines on stderr: $(head -c 400 "$tmp/err" | tr '\n' '|')"
    elif [ "$chars" -gt $max_stderr_chars ]; then report "stderr line of $chars characters"
    elif ! names_file "$tmp/err" "$work" "$bad"; then report "stderr does not name the file: $(cat "$tmp/err")"
    elif ! cmp -s "$tmp/before" "$tmp/after"; then
      report "left files behind: $(comm -13 "$tmp/before" "$tmp/after" | tr '\n' ' ')"
    fi
    [ -n "$VERBOSE" ] && echo "$case_dir [$cmd] -> $status: $(head -c 300 "$tmp/err")"
    rm -rf "$work"
  done < "$tmp/commands"
done < "$tmp/corpus/cases.tsv"

cases=$(grep -c . "$tmp/corpus/cases.tsv")
echo "hardening_bad_inputs: $cases malformed files, $runs program runs, $failed failed"
[ $failed -eq 0 ]
