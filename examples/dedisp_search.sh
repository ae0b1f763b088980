#!/bin/sh
# Dedispersion for a pulsar or transient search, as PRESTO's DDplan.py + prepsubband would do it:
#   examples/dedisp_search.sh [FILE.fil|FILE.fits] [DM_MAX]
# Without arguments it uses the synthetic 250 ms pulsar at DM 30 in the shared validation data.
# Outputs go to dedisp-search-output/ (replaced on each run).
set -e
BIN=${BUILD:-build}/bin
DATA=${RAPT_SHARED_DATA:-../shared/data}
INPUT=${1:-$DATA/sigpyproc3/tutorial.fil}
DM_MAX=${2:-100}
OUT=dedisp-search-output
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== the input"
"$BIN/inspect" --header-only "$INPUT" 2>/dev/null || true

echo "== the DM plan up to DM $DM_MAX (steps and downsampling from the smearing budget)"
"$BIN/dedisp" --plan --dm-max "$DM_MAX" --dry-run "$INPUT"

echo "== dedisperse: one .dat/.inf pair per DM, named as prepsubband names them"
"$BIN/dedisp" --plan --dm-max "$DM_MAX" -o "$OUT/search" "$INPUT"
ls "$OUT" | head -n 6
echo "... $(ls "$OUT"/*.dat | wc -l) series"

echo "== the same, zero-DM filtered, through 16 subbands, as SIGPROC .tim files"
"$BIN/dedisp" --lodm 20 --dmstep 1 --numdms 21 --nsub 16 --zerodm --tim -o "$OUT/tim" "$INPUT"

echo "== one DM straight to another program: the mean of the DM 30 series"
"$BIN/dedisp" -q --lodm 30 -o - "$INPUT" | od -A n -t f4 -v -w4 | \
    awk '{ s += $1; n++ } END { printf "%d samples, mean %.3f\n", n, s / n }'
