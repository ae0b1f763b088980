#!/bin/sh
# examples/slurm/ on a private single-machine Slurm: a survey cut into 3 parts through
# submit.sh (survey job array -> merge -> fold job array) gives the same DM trials, the same
# single-pulse candidates, the same sifted periodicity candidates and the same folds, byte for
# byte, as one process searching the whole observation (dedisp -> snr -> accelgpu -> sift ->
# fold).
# The test starts munged, slurmctld and slurmd from a temporary folder (own key, socket, ports,
# state and spool; the system's /etc/slurm and /etc/munge are never read), and stops them and
# removes the folder on exit. Skips (77) without Slurm, munge or root.
# Exit 0 = pass, 1 = fail, 77 = skip.
BIN=${BIN:-build/bin}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SUBMIT=$TOP/examples/slurm/submit.sh
PATH=$PATH:/usr/sbin:/sbin
export PATH
skip() { echo "skipped: $*"; exit 77; }

for prog in simulate dedisp snr accelgpu sift fold; do
  [ -x "$BIN/$prog" ] || skip "$BIN/$prog not built"
done
BIN=$(cd "$BIN" && pwd)
for cmd in slurmctld slurmd sbatch squeue scontrol scancel sinfo munged munge; do
  command -v $cmd > /dev/null 2>&1 || skip "$cmd not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs"
command -v timeout > /dev/null 2>&1 || skip "timeout (coreutils) not installed"
[ -f "$SUBMIT" ] || { echo "FAIL: $SUBMIT missing"; exit 1; }

W=$(mktemp -d /tmp/rapt-slurm-test.XXXXXX) || exit 1
chmod 711 "$W"   # munged wants its socket's folders searchable
S=$W/slurm
mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge"
SLURM_CONF=$S/slurm.conf
export SLURM_CONF

# Every process this test starts (daemons, job steps, jobs) inherits SLURM_CONF=$SLURM_CONF:
# after a polite stop, any left over is found by that and ended by its id.
our_pids() {
  for env in /proc/[0-9]*/environ; do
    pid=${env#/proc/}; pid=${pid%/environ}
    [ "$pid" = $$ ] && continue
    { tr '\0' '\n' < "$env"; } 2> /dev/null | grep -qxF "SLURM_CONF=$SLURM_CONF" && echo "$pid"
  done
}
wait_gone() {  # PIDS... up to 10 s
  i=0
  while [ $i -lt 50 ]; do
    alive=
    for p in "$@"; do kill -0 "$p" 2> /dev/null && alive=1; done
    [ -z "$alive" ] && return 0
    sleep 0.2; i=$((i + 1))
  done
  return 1
}
cleanup() {
  trap - EXIT HUP INT TERM
  if [ -f "$S/slurmctld.pid" ]; then
    ids=$(timeout 10 squeue -h -o %A 2> /dev/null | sort -u)
    # shellcheck disable=SC2086
    [ -z "$ids" ] || timeout 10 scancel --quiet $ids 2> /dev/null
    i=0
    while [ $i -lt 20 ] && [ -n "$(timeout 5 squeue -h -o %A 2> /dev/null)" ]; do
      sleep 0.5; i=$((i + 1))
    done
  fi
  pids=
  for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/munged.pid"; do
    [ -f "$f" ] && pids="$pids $(cat "$f")"
  done
  # shellcheck disable=SC2086
  [ -n "$pids" ] && { kill $pids 2> /dev/null; wait_gone $pids; }
  left=$(our_pids)
  # shellcheck disable=SC2086
  [ -n "$left" ] && { kill $left 2> /dev/null; wait_gone $left || kill -9 $left 2> /dev/null; }
  rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# Ports: a free pair at random in 20000-59999 (listening sockets checked with ss where present).
port=
for _ in 1 2 3 4 5 6 7 8; do
  p=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000 * 2 + 20000 ))
  if command -v ss > /dev/null 2>&1; then
    ss -ltnH 2> /dev/null | awk '{ print $4 }' | grep -qE ":($p|$((p + 1)))\$" && continue
  fi
  port=$p; break
done
[ -n "$port" ] || skip "no free port pair found"

# munge with its own key and socket.
dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2> /dev/null || fail "munge key"
chmod 600 "$S/munge/munge.key"
munged --force --socket="$S/munge/munge.sock" --key-file="$S/munge/munge.key" \
  --pid-file="$S/munge/munged.pid" --log-file="$S/munge/munged.log" \
  --seed-file="$S/munge/munged.seed" || fail "munged did not start: $(tail -n 3 "$S/munge/munged.log")"
i=0
until munge -n -S "$S/munge/munge.sock" > /dev/null 2>&1; do
  i=$((i + 1)); [ $i -lt 50 ] || fail "munged does not answer"; sleep 0.2
done

cpus=$(nproc 2> /dev/null || echo 1)
cat > "$SLURM_CONF" << EOF
ClusterName=rapttest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/munge.sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
PlugStackConfig=$S/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
DependencyParameters=kill_invalid_depend
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$S/log/jobcomp.txt
MinJobAge=600
ReturnToService=2
MessageTimeout=10
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=rapttest Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
: > "$S/plugstack.conf"

daemon_logs() { tail -n 5 "$S/log/slurmctld.log" "$S/log/slurmd.log" 2>&1; }
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start: $(daemon_logs)"
slurmd -f "$SLURM_CONF" -N localhost || fail "slurmd did not start: $(daemon_logs)"
i=0
until [ "$(timeout 5 sinfo -h -n localhost -o %t 2> /dev/null)" = idle ]; do
  i=$((i + 1))
  [ $i -lt 60 ] || fail "the node is not idle after 30 s: $(sinfo -h -o '%t %E' 2>&1) $(daemon_logs)"
  sleep 0.5
done

# A small observation: a 64 ms pulsar at DM 40 and two bursts at DM 60 and 28.
"$BIN/simulate" -q --nchans 64 --fch1 1500 --bw 200 --tsamp 256e-6 --tobs 16 --seed 5 \
  --pulsar P=0.064,DM=40,snr=40 --burst t=5,DM=60,width=0.003,snr=25 \
  --burst t=11,DM=28,width=0.002,snr=20 -o "$W/obs.fil" || fail simulate
LODM=20 DMSTEP=2 NUMDMS=25 ZMAX=20 NUMHARM=8 SIGMA=3 THRESHOLD=6

# One process over the whole observation, in one folder (the .inf files quote the paths given
# for the output root and the input, so these are the ones the parts give).
mkdir "$W/whole"
cd "$W/whole" || fail "cd $W/whole"
"$BIN/dedisp" -q --lodm $LODM --dmstep $DMSTEP --numdms $NUMDMS -o obs "$W/obs.fil" \
  || fail "dedisp, whole"
"$BIN/snr" -q -t $THRESHOLD --cands snr_cands.txt obs_DM*.dat || fail "snr, whole"
"$BIN/accelgpu" -q -zmax $ZMAX -numharm $NUMHARM -sigma $SIGMA obs_DM*.dat > /dev/null \
  || fail "accelgpu, whole"
"$BIN/sift" -q --cands singlepulse_cands.txt obs_DM*.singlepulse || fail "sift of .singlepulse, whole"
"$BIN/sift" -q -o accel_cands.txt obs_DM*_ACCEL_$ZMAX || fail "sift of ACCEL files, whole"
cd "$W" || fail "cd $W"

# The same through Slurm, in 3 parts; folds in 2 tasks.
timeout 60 env RAPT_BIN="$BIN" sh "$SUBMIT" "$W/obs.fil" 3 "$W/survey" --cpus 1 \
  --lodm $LODM --dmstep $DMSTEP --numdms $NUMDMS --threshold $THRESHOLD \
  --zmax $ZMAX --numharm $NUMHARM --sigma $SIGMA --fold-max 3 --fold-tasks 2 \
  > "$W/submit.txt" 2>&1 || fail "submit.sh: $(cat "$W/submit.txt")"
jobs=$(awk '{ print $2 }' "$W/survey/jobs.txt" | paste -sd, -)
echo "$jobs" | grep -qE '^[0-9]+,[0-9]+,[0-9]+$' || fail "job ids: $(cat "$W/survey/jobs.txt")"

# Wait for every job to leave the queue (at most 180 s), or for the first to fail.
failed() { grep -v 'JobState=COMPLETED .*ExitCode=0:0' "$S/log/jobcomp.txt" 2> /dev/null | grep -q .; }
i=0
while [ -n "$(timeout 10 squeue -h -j "$jobs" -o %i 2> /dev/null)" ] && ! failed; do
  i=$((i + 1))
  [ $i -lt 180 ] || fail "jobs still queued after 180 s: $(squeue -j "$jobs" 2>&1)"
  sleep 1
done
# Each of the 3 + 1 + 2 jobs finished with exit code 0 (jobcomp lists one line per array task).
ok=$(grep -c 'JobState=COMPLETED .*ExitCode=0:0' "$S/log/jobcomp.txt" 2> /dev/null)
if failed || [ "$ok" != 6 ]; then
  for log in "$W"/survey/logs/*.log; do echo "--- $log"; tail -n 5 "$log"; done
  fail "$ok of 6 jobs completed: $(cut -d ' ' -f 1,4,5 "$S/log/jobcomp.txt" 2>&1)"
fi

# The parts hold 9, 8 and 8 DM trials, byte-identical to the whole run's.
for k in 1 2 3; do
  n=$(ls "$W/survey/parts/part00$k"/obs_DM*.dat 2> /dev/null | wc -l)
  want=8; [ $k = 1 ] && want=9
  [ "$n" -eq $want ] || fail "part $k has $n DM trials, expected $want"
done
n=0
for f in "$W"/whole/obs_DM*.dat "$W"/whole/obs_DM*.inf "$W"/whole/obs_DM*.singlepulse \
    "$W"/whole/obs_DM*_ACCEL_"$ZMAX" "$W"/whole/obs_DM*_ACCEL_"$ZMAX".cand; do
  name=$(basename "$f")
  set -- "$W"/survey/parts/part*/"$name"
  [ $# -eq 1 ] && [ -f "$1" ] || fail "$name: in $# parts"
  cmp -s "$f" "$1" || fail "$name differs between the whole run and $1"
  n=$((n + 1))
done
[ $n -eq $((5 * NUMDMS)) ] || fail "$n files compared, expected $((5 * NUMDMS))"

# The merged candidate lists equal the whole run's.
cmp -s "$W/whole/singlepulse_cands.txt" "$W/survey/singlepulse_cands.txt" \
  || fail "merged single-pulse candidates differ: $(diff "$W/whole/singlepulse_cands.txt" "$W/survey/singlepulse_cands.txt" | head -n 6)"
cmp -s "$W/whole/snr_cands.txt" "$W/survey/singlepulse_cands.txt" \
  || fail "merged single-pulse candidates differ from one snr run's: $(diff "$W/whole/snr_cands.txt" "$W/survey/singlepulse_cands.txt" | head -n 6)"
cmp -s "$W/whole/accel_cands.txt" "$W/survey/accel_cands.txt" \
  || fail "sifted periodicity candidates differ: $(diff "$W/whole/accel_cands.txt" "$W/survey/accel_cands.txt" | head -n 6)"

# The signals are there: both bursts among the single-pulse candidates, the pulsar (or a
# harmonic) among the periodicity candidates, and the folds of the 3 strongest done.
grep -v '^#' "$W/survey/singlepulse_cands.txt" | awk '$1 >= 56 && $1 <= 64 && $5 > 12' | grep -q . \
  || fail "the burst at DM 60 is not among the candidates"
grep -v '^#' "$W/survey/singlepulse_cands.txt" | awk '$1 >= 24 && $1 <= 32 && $5 > 10' | grep -q . \
  || fail "the burst at DM 28 is not among the candidates"
awk '$1 ~ /:[0-9]+$/ { for (h = 1; h <= 4; h++) if (($8 * h - 64) ^ 2 < 0.01 || ($8 / h - 64) ^ 2 < 0.01) found = 1 }
     END { exit !found }' "$W/survey/accel_cands.txt" \
  || fail "no 64 ms candidate among $(head -n 5 "$W/survey/accel_cands.txt")"
n=$(cat "$W"/survey/folds/summary_part*.txt 2> /dev/null | wc -l)
want=$(awk '$1 ~ /:[0-9]+$/' "$W/survey/accel_cands.txt" | head -n 3 | wc -l)
[ "$n" -eq "$want" ] && [ "$n" -ge 1 ] || fail "$n folds in the summaries, expected $want"
# Each fold equals the same candidate folded in the whole run's folder.
mkdir "$W/whole/folds"
cat "$W"/survey/folds/summary_part*.txt | while read -r filecand _; do
  accel=${filecand%:*}; candnum=${filecand##*:}; series=${accel%_ACCEL_*}
  (cd "$W/whole" && "$BIN/fold" -q -accelfile "$accel.cand" -accelcand "$candnum" \
    -o "folds/$series" "$series.dat") || fail "fold of $filecand, whole"
  for suffix in pfd pfd.bestprof; do
    name=${series}_ACCEL_Cand_$candnum.$suffix
    cmp -s "$W/whole/folds/$name" "$W/survey/folds/$name" || fail "fold $name differs"
  done
done || exit 1
exit 0
