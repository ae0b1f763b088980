#!/bin/sh
# inspect as a user runs it: several files, one bad; the bad one is reported and the others
# are still inspected; exit status 1. Bad usage exits 2.
BIN=${BIN:-build/bin}
DATA=${RAPT_SHARED_DATA:-../shared/data}
[ -f "$DATA/sigpyproc3/parkes_8bit_1.fil" ] || { echo "shared data not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'garbage' > "$tmp/bad.fil"
"$BIN/inspect" "$tmp/bad.fil" "$DATA/sigpyproc3/parkes_8bit_1.fil" >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status -eq 1 ] || { echo "expected exit 1, got $status"; exit 1; }
grep -q "^inspect: $tmp/bad.fil: not a format inspect reads (SIGPROC, PSRFITS, " "$tmp/err" || { cat "$tmp/err"; exit 1; }
[ "$(wc -l < "$tmp/err")" -eq 1 ] || { echo "expected one error line"; cat "$tmp/err"; exit 1; }
grep -q "Channels *832" "$tmp/out" || { echo "good file not inspected"; exit 1; }
# Standard input gives the same report as the file.
"$BIN/inspect" - < "$DATA/sigpyproc3/parkes_8bit_1.fil" | tail -n 3 > "$tmp/stdin"
"$BIN/inspect" "$DATA/sigpyproc3/parkes_8bit_1.fil" | tail -n 3 > "$tmp/file"
cmp -s "$tmp/stdin" "$tmp/file" || { echo "stdin and file statistics differ"; exit 1; }
"$BIN/inspect" --max-spectra -1 x.fil 2>/dev/null; [ $? -eq 2 ] || { echo "bad usage must exit 2"; exit 1; }
"$BIN/inspect" 2>/dev/null; [ $? -eq 2 ] || { echo "no files must exit 2"; exit 1; }
exit 0
