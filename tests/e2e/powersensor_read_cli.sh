#!/bin/sh
# powersensor-read as a user runs it, on the built-in PowerSensor3 emulator and a fake RAPL
# tree: exit status and signals passed through, markers, --dump until SIGINT, the JSON and CSV
# outputs, no meter = exit 1 without running the command, bad usage = exit 2.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
P="$BIN/powersensor-read"
[ -x "$P" ] || { echo "powersensor-read not built"; exit 77; }
[ -e /dev/ptmx ] || { echo "no pseudo-terminals here"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# json_number FILE KEY: the first number after "KEY": in FILE
json_number() { sed -n "s/.*\"$2\": \([-0-9.e+]*\).*/\1/p" "$1" | head -n 1; }
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

# 1. The command's exit status, the JSON summary, the CSV trace, SIGUSR1 and FIFO markers.
"$P" --emulate --interval-ms 20 --json "$tmp/run.json" --csv "$tmp/run.csv" \
    --marker-fifo "$tmp/marks" -- sh -c "sleep 0.3; echo phase-two > '$tmp/marks'; \
    kill -USR1 \$PPID; sleep 0.3; exit 3" 2>"$tmp/err"
status=$?
[ $status -eq 3 ] || { cat "$tmp/err"; fail "expected the command's exit 3, got $status"; }
grep -q '^ps3.12V ' "$tmp/err" || { cat "$tmp/err"; fail "no human summary on stderr"; }
grep -q '"exit_status": 3' "$tmp/run.json" || fail "exit_status missing from the JSON"
mean=$(sed -n 's/.*"name": "ps3.12V".*"mean_w": \([0-9.e+]*\).*/\1/p' "$tmp/run.json")
between "$mean" 59 61 || fail "12 V rail mean $mean W, expected ~60 W"
duration=$(json_number "$tmp/run.json" duration_s)
between "$duration" 0.55 3 || fail "duration $duration s for a 0.6 s command"
energy=$(json_number "$tmp/run.json" total_energy_j)
expected=$(awk -v d="$duration" 'BEGIN { print 66.6 * d }')
between "$energy" "$(awk -v e="$expected" 'BEGIN{print e*0.95}')" \
    "$(awk -v e="$expected" 'BEGIN{print e*1.05}')" || fail "total $energy J, expected ~$expected J"
grep -q '"text": "phase-two"' "$tmp/run.json" || fail "FIFO marker missing from the JSON"
grep -q '"text": "SIGUSR1"' "$tmp/run.json" || fail "SIGUSR1 marker missing from the JSON"
head -n 1 "$tmp/run.csv" | grep -q '^time_s,ps3.12V_W,ps3.12V_J,ps3.3V3_W,ps3.3V3_J,marker$' \
    || fail "CSV header: $(head -n 1 "$tmp/run.csv")"
grep -q ',"phase-two"$' "$tmp/run.csv" || fail "FIFO marker missing from the CSV"
[ "$(wc -l < "$tmp/run.csv")" -ge 20 ] || fail "too few CSV rows at 20 ms for 0.6 s"
[ -e "$tmp/marks" ] && fail "the marker FIFO was left behind"

# 2. A command ended by a signal: 128 + signal; a missing command: 127.
"$P" --emulate -q -- sh -c 'kill -TERM $$'; status=$?
[ $status -eq 143 ] || fail "expected 143 for SIGTERM, got $status"
"$P" --emulate -q -- /nonexistent/program 2>/dev/null; status=$?
[ $status -eq 127 ] || fail "expected 127 for a missing command, got $status"

# SIGTERM sent to powersensor-read is passed on to the command.
"$P" --emulate -q -- sleep 5 &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid; status=$?
[ $status -eq 143 ] || fail "SIGTERM was not passed on to the command (exit $status)"

# 3. --dump until SIGINT finishes the file cleanly.
"$P" --emulate -q --interval-ms 10 --dump "$tmp/dump.csv" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid; status=$?
[ $status -eq 0 ] || fail "--dump interrupted by SIGINT exited $status"
[ -f "$tmp/dump.csv" ] || fail "--dump left no file"
rows=$(wc -l < "$tmp/dump.csv")
[ "$rows" -ge 10 ] || fail "--dump wrote only $rows lines"
ls -a "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
"$P" --emulate -q --dump "$tmp/short.csv" --seconds 0.2 || fail "--dump --seconds failed"
[ -f "$tmp/short.csv" ] || fail "--dump --seconds left no file"
# A recorded trace replays: its counters give the ~60 W of the emulator's 12 V rail.
"$P" --replay "$tmp/dump.csv" --json "$tmp/replay.json" -q || fail "--replay of a --dump trace failed"
mean=$(sed -n 's/.*"name": "ps3.12V".*"mean_w": \([0-9.e+]*\).*/\1/p' "$tmp/replay.json")
between "$mean" 59 61 || fail "replayed 12 V rail mean $mean W, expected ~60 W"
grep -q '"name": "ps3.12V".*"energy_from": "counter"' "$tmp/replay.json" \
    || fail "replayed energy not from the trace's counter"

# 4. RAPL on a fake powercap tree; the command moves the counter across its wrap.
d="$tmp/sys/class/powercap/intel-rapl:0"
mkdir -p "$d"
echo package-0 > "$d/name"; echo 5000000 > "$d/max_energy_range_uj"; echo 4000000 > "$d/energy_uj"
"$P" --source rapl --sysfs-root "$tmp/sys" --json - -q -- sh -c "echo 1500000 > '$d/energy_uj'" \
    > "$tmp/rapl.json" || fail "RAPL run failed"
energy=$(json_number "$tmp/rapl.json" total_energy_j)
between "$energy" 2.4999 2.5001 || fail "RAPL energy $energy J across the wrap, expected 2.5 J"
grep -q '"energy_from": "counter"' "$tmp/rapl.json" || fail "RAPL energy not from the counter"

# 5. No meter: one clear line, exit 1, and the command is not run.
"$P" --source rapl --sysfs-root "$tmp/none" -- touch "$tmp/ran" 2>"$tmp/err"; status=$?
[ $status -eq 1 ] || fail "expected exit 1 without a meter, got $status"
[ -e "$tmp/ran" ] && fail "the command ran although nothing could be measured"
grep -q "^powersensor-read: $tmp/none/class/powercap: no RAPL domain (intel-rapl:N) found$" \
    "$tmp/err" || { cat "$tmp/err"; fail "unclear error without a meter"; }

# An existing JSON output is refused before the command runs.
"$P" --emulate --json "$tmp/run.json" -- touch "$tmp/ran" 2>"$tmp/err"; status=$?
[ $status -eq 1 ] || fail "an existing --json file must exit 1, got $status"
[ -e "$tmp/ran" ] && fail "the command ran although its JSON could not be written"
grep -q "^powersensor-read: $tmp/run.json: already exists (use --force to overwrite)$" "$tmp/err" \
    || { cat "$tmp/err"; fail "unclear message for an existing --json file"; }

# 6. Bad usage exits 2.
"$P" --emulate 2>/dev/null; [ $? -eq 2 ] || fail "no command and no --dump must exit 2"
# Two outputs on one file: refused before the command runs.
"$P" --emulate --csv "$tmp/same" --json "$tmp/same" -- touch "$tmp/ran2" 2>"$tmp/err"; status=$?
[ $status -eq 2 ] || fail "--csv and --json on one file exited $status, expected 2"
grep -q "^powersensor-read: --csv and --json name the same file" "$tmp/err" || fail "$(cat "$tmp/err")"
[ -e "$tmp/ran2" ] && fail "the command ran although the outputs clash"
# The same file by another name: --replay's trace would be replaced by --csv's.
printf '# t gpu\n0 10\n1 10\n' > "$tmp/trace.log"
cp "$tmp/trace.log" "$tmp/trace.copy"
"$P" --replay "$tmp/trace.log" --csv "$tmp/../$(basename "$tmp")/trace.log" --force 2>"$tmp/err"
[ $? -eq 2 ] || fail "--replay and --csv on one file by two names was not refused"
cmp -s "$tmp/trace.log" "$tmp/trace.copy" || fail "the replayed trace was overwritten"
"$P" --source bogus -- true 2>/dev/null; [ $? -eq 2 ] || fail "--source bogus must exit 2"
"$P" --interval-ms 0 -- true 2>/dev/null; [ $? -eq 2 ] || fail "--interval-ms 0 must exit 2"

# 7. On a machine with an NVIDIA GPU: 2 s of an idle GPU draw a plausible power, and the
#    energy comes from the GPU's counter (Volta and later).
if "$P" --source nvml --json "$tmp/gpu.json" -q -- sleep 2 2>"$tmp/gpu.err"; then
  mean=$(sed -n 's/.*"name": "gpu0".*"mean_w": \([0-9.e+]*\).*/\1/p' "$tmp/gpu.json")
  between "$mean" 5 1500 || { cat "$tmp/gpu.json"; fail "GPU 0 idles at $mean W?"; }
  grep -q '"name": "gpu0".*"energy_from": "counter"' "$tmp/gpu.json" \
      || echo "note: GPU 0 has no energy counter; energy integrated from power readings"
else
  grep -q "NVML not available\|NVML sees no GPU\|NVML did not initialise" "$tmp/gpu.err" \
      || { cat "$tmp/gpu.err"; fail "NVML failed in an unexpected way"; }
fi

# 7. A recorded trace: the real A4000 NVML log with its eight markers.
if [ -f "$DATA/powersensor3-results/pmt-nvml_ad4000.log" ]; then
  "$P" --replay "$DATA/powersensor3-results/pmt-nvml_ad4000.log" --json - -q > "$tmp/replay.json" \
      || fail "--replay failed"
  [ "$(grep -c '"text": "start"' "$tmp/replay.json")" -eq 4 ] || fail "--replay lost markers"
fi
exit 0
