#!/bin/sh
# Submit a whole pulsar and fast-transient search of one observation to Slurm, cut into
# NPARTS independent parts:
#   examples/slurm/submit.sh OBS.fil NPARTS OUTDIR [options]
# It chains three jobs with sbatch --dependency=afterok, so each starts only when the one
# before it has succeeded:
#   1. survey.sbatch, a job array of NPARTS tasks: task K dedisperses part K/NPARTS of the DM
#      trials (dedisp --part K/NPARTS) into OUTDIR/parts/partK/ and searches them there (snr,
#      accelgpu);
#   2. merge.sbatch: sift merges the parts into OUTDIR/singlepulse_cands.txt (single pulses)
#      and OUTDIR/accel_cands.txt (periodicity candidates);
#   3. fold.sbatch, a job array: folds the strongest periodicity candidates into OUTDIR/folds/.
# Logs go to OUTDIR/logs/, the job ids to OUTDIR/jobs.txt. It prints the three job ids.
#
# Options (each also settable through the environment variable in brackets, which the jobs read):
#   --lodm X --dmstep X --numdms N  DM trials [RAPT_LODM 0, RAPT_DMSTEP 1, RAPT_NUMDMS 200]
#   --dedisp-opts "..."   more dedisp options, e.g. "--nsub 64 --zerodm" [RAPT_DEDISP_OPTS]
#   --threshold X         single-pulse S/N threshold [RAPT_THRESHOLD 6]
#   --snr-opts "..."      more snr options [RAPT_SNR_OPTS]
#   --zmax N --numharm N --sigma X   accelgpu [RAPT_ZMAX 50, RAPT_NUMHARM 8, RAPT_SIGMA 2.0]
#   --accel-opts "..."    more accelgpu options [RAPT_ACCEL_OPTS]
#   --harmsum             search with harmsum (harmonic sums only, zmax 0) instead of accelgpu
#   --fold-max N          fold at most N candidates, strongest first [RAPT_FOLD_MAX 20]
#   --fold-tasks N        tasks of the fold array [NPARTS]
#   --fold-raw            fold the raw observation (DM searched) rather than the series
#   --fold-opts "..."     more fold options, e.g. "--plot" [RAPT_FOLD_OPTS]
#   --no-fold             stop after the merge
#   --device D            auto, cpu, gpu, gpu:all [RAPT_DEVICE auto]
#   --gpus N              ask Slurm for N GPUs per task (--gres=gpu:N) for survey and fold;
#                         0 = none [RAPT_GPUS 0]; with N > 1 give --device gpu:all
#   --cpus N              CPUs per task (--cpus-per-task) [RAPT_CPUS: Slurm's default]
#   --partition P --account A --time T --mem M   passed to every sbatch
#   --max-running N       run at most N survey tasks at once (--array=1-NPARTS%N)
#   --sbatch-opts "..."   more sbatch options for every job, e.g. "--qos=long --constraint=a100"
#   --dry-run             print the sbatch commands instead of running them
# The rapt programs are taken from RAPT_BIN if set, else from PATH, else from the build/bin
# folder of the checkout this script sits in.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
usage() {
  if [ "${1:-2}" = 0 ]; then
    sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
  else
    echo "usage: $0 OBS.fil NPARTS OUTDIR [options]  (--help lists the options)" >&2
  fi
  exit "${1:-2}"
}
die() { echo "submit.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; } && usage 0
[ $# -ge 3 ] || usage 2
obs=$1; nparts=$2; outdir=$3; shift 3

gpus=${RAPT_GPUS:-0}; cpus=${RAPT_CPUS:-}; fold=1; fold_tasks=; dry=0
max_running=; sbatch_opts=
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --no-fold) fold=0; shift; continue ;;
    --fold-raw) export RAPT_FOLD_RAW=1; shift; continue ;;
    --harmsum) export RAPT_ACCEL_PROG=harmsum RAPT_ZMAX=0; shift; continue ;;
    --dry-run) dry=1; shift; continue ;;
    -h|--help) usage 0 ;;
  esac
  [ $# -ge 2 ] || die "$opt: needs a value"
  val=$2; shift 2
  case $opt in
    --lodm) export RAPT_LODM="$val" ;;
    --dmstep) export RAPT_DMSTEP="$val" ;;
    --numdms) export RAPT_NUMDMS="$val" ;;
    --dedisp-opts) export RAPT_DEDISP_OPTS="$val" ;;
    --threshold) export RAPT_THRESHOLD="$val" ;;
    --snr-opts) export RAPT_SNR_OPTS="$val" ;;
    --zmax) export RAPT_ZMAX="$val" ;;
    --numharm) export RAPT_NUMHARM="$val" ;;
    --sigma) export RAPT_SIGMA="$val" ;;
    --accel-opts) export RAPT_ACCEL_OPTS="$val" ;;
    --fold-max) export RAPT_FOLD_MAX="$val" ;;
    --fold-tasks) fold_tasks=$val ;;
    --fold-opts) export RAPT_FOLD_OPTS="$val" ;;
    --device) export RAPT_DEVICE="$val" ;;
    --gpus) gpus=$val ;;
    --cpus) cpus=$val ;;
    --partition|--account|--time|--mem) sbatch_opts="$sbatch_opts $opt=$val" ;;
    --max-running) max_running=$val ;;
    --sbatch-opts) sbatch_opts="$sbatch_opts $val" ;;
    *) die "unknown option $opt (see --help)" ;;
  esac
done

is_count() { case $1 in ''|*[!0-9]*) return 1 ;; *) [ "$1" -ge "$2" ] ;; esac; }
is_count "$nparts" 1 || die "NPARTS must be a whole number >= 1, not '$nparts'"
is_count "$gpus" 0 || die "--gpus must be a whole number, not '$gpus'"
fold_tasks=${fold_tasks:-$nparts}
is_count "$fold_tasks" 1 || die "--fold-tasks must be a whole number >= 1"
[ -z "$cpus" ] || is_count "$cpus" 1 || die "--cpus must be a whole number >= 1"
[ -z "$max_running" ] || is_count "$max_running" 1 || die "--max-running must be >= 1"
[ -f "$obs" ] || die "$obs: no such file"
command -v sbatch > /dev/null 2>&1 || [ $dry = 1 ] || die "sbatch not found: is Slurm's client in PATH?"

# Absolute paths: the jobs may start in another folder, on another node.
abspath() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$(pwd)" "$1" ;; esac; }
RAPT_OBS=$(abspath "$obs")
if [ -n "${RAPT_BIN:-}" ]; then
  RAPT_BIN=$(cd "$RAPT_BIN" && pwd)
elif ! command -v dedisp > /dev/null 2>&1 && [ -x "$here/../../build/bin/dedisp" ]; then
  RAPT_BIN=$(cd "$here/../../build/bin" && pwd)
fi
if [ -n "${RAPT_BIN:-}" ]; then
  for prog in dedisp snr "${RAPT_ACCEL_PROG:-accelgpu}" sift fold; do
    [ -x "$RAPT_BIN/$prog" ] || die "$RAPT_BIN/$prog: not found (build rapt, or set RAPT_BIN)"
  done
else
  for prog in dedisp snr "${RAPT_ACCEL_PROG:-accelgpu}" sift fold; do
    command -v "$prog" > /dev/null 2>&1 || die "$prog: not in PATH (set RAPT_BIN to rapt's bin folder)"
  done
fi
if [ $dry = 1 ]; then
  RAPT_OUTDIR=$(abspath "$outdir")
elif [ -e "$outdir/parts" ]; then
  die "$outdir/parts exists (an earlier survey): choose another OUTDIR, or remove it first"
else
  mkdir -p "$outdir/logs"
  RAPT_OUTDIR=$(cd "$outdir" && pwd)
fi
# The jobs get this environment (sbatch --export=ALL): the RAPT_* variables set above or
# before, and these.
export RAPT_OBS RAPT_OUTDIR RAPT_NPARTS
[ -z "${RAPT_BIN:-}" ] || export RAPT_BIN

common="--export=ALL --parsable$sbatch_opts"
[ -z "$cpus" ] || common="$common --cpus-per-task=$cpus"
gres=
[ "$gpus" = 0 ] || gres="--gres=gpu:$gpus"
logs=$RAPT_OUTDIR/logs

# sbatch prints "jobid" or "jobid;cluster" with --parsable.
# The first argument names the job for --dry-run.
submit() {
  label=$1; shift
  if [ $dry = 1 ]; then
    echo "RAPT_NPARTS=$RAPT_NPARTS sbatch $*" >&2
    echo "<$label>"
    return
  fi
  id=$(sbatch "$@") || die "sbatch $*: failed"
  echo "${id%%;*}"
}

[ $dry = 0 ] || env | grep '^RAPT_' | sort | sed 's/^/export /' >&2
array=1-$nparts
[ -z "$max_running" ] || array="$array%$max_running"
# Word splitting of $common and $gres is wanted: they hold several options. Should a later
# sbatch fail, the jobs already queued are cancelled.
RAPT_NPARTS=$nparts
# shellcheck disable=SC2086
survey=$(submit survey $common $gres --array="$array" \
    --output="$logs/survey_%A_%a.log" "$here/survey.sbatch")
# shellcheck disable=SC2086
merge=$(submit merge $common --dependency=afterok:"$survey" --output="$logs/merge_%j.log" \
    "$here/merge.sbatch") || { scancel "$survey"; exit 2; }
fold_job=
if [ $fold = 1 ]; then
  RAPT_NPARTS=$fold_tasks
  # shellcheck disable=SC2086
  fold_job=$(submit fold $common $gres --array=1-"$fold_tasks" \
      --dependency=afterok:"$merge" --output="$logs/fold_%A_%a.log" "$here/fold.sbatch") \
      || { scancel "$survey" "$merge"; exit 2; }
fi

[ $dry = 1 ] || printf 'survey %s\nmerge %s\nfold %s\n' "$survey" "$merge" "${fold_job:--}" \
    > "$RAPT_OUTDIR/jobs.txt"
echo "survey $survey ($nparts tasks), merge $merge${fold_job:+, fold $fold_job ($fold_tasks tasks)}"
echo "outputs in $RAPT_OUTDIR; follow with: squeue -j $survey,$merge${fold_job:+,$fold_job}"
