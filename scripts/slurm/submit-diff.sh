#!/usr/bin/env bash
# Submits a sharded `sargon diff` run to Slurm: a job array of N tasks (diff-array.sbatch),
# each writing OUT/shard-<task>.jsonl, and a report job (diff-report.sbatch) that runs once
# the whole array has ended and writes OUT/report.txt and OUT/report.json.
#
#   submit-diff.sh --epd FILE --depths A-B --tasks N --out DIR [--bin PATH] [--wait]
#
# Prints "array job: ID" and "report job: ID". With --wait it then blocks until the report
# job has ended, prints the report, and exits as the report did (0: every search ran and
# agreed; 1: a divergence or a gap). Without --wait, watch with `squeue` and read
# OUT/report.txt afterwards.
#
# Partition, time limit and account come from the usual sbatch environment variables
# (SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT). FILE, DIR and the binary must be on a
# file system the compute nodes share with this host; they are passed as absolute paths.
# Resubmitting into the same DIR with the same N resumes: each task skips what its shard
# file already holds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
    echo "usage: $0 --epd FILE --depths A-B --tasks N --out DIR [--bin PATH] [--wait]" >&2
    exit 2
}

die() {
    echo "submit-diff: $*" >&2
    exit 2
}

epd="" depths="" tasks="" out="" bin=${SARGON_BIN:-} wait=false
while (($# > 0)); do
    case $1 in
    --epd) epd=${2:?--epd needs a file}; shift 2 ;;
    --depths) depths=${2:?--depths needs A-B}; shift 2 ;;
    --tasks) tasks=${2:?--tasks needs a number}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --bin) bin=${2:?--bin needs a path}; shift 2 ;;
    --wait) wait=true; shift ;;
    -h | --help) usage ;;
    *) echo "submit-diff: unknown argument '$1'" >&2; usage ;;
    esac
done
[[ -n $epd && -n $depths && -n $tasks && -n $out ]] || usage
[[ -f $epd && -r $epd ]] || die "no readable positions file '$epd'"
[[ $depths =~ ^[0-9]+-[0-9]+$ ]] || die "--depths takes a range A-B, not '$depths'"
[[ $tasks =~ ^[1-9][0-9]*$ ]] || die "--tasks takes a positive number, not '$tasks'"
if [[ -z $bin ]]; then
    bin=$(command -v sargon) || die "no sargon on PATH; pass --bin PATH or set SARGON_BIN"
fi
[[ -x $bin && ! -d $bin ]] || die "'$bin' is not an executable file"
command -v sbatch >/dev/null || die "no sbatch on PATH (scripts/slurm/local-cluster.sh start brings up a local cluster)"

mkdir -p "$out"
# The jobs run in other processes (often on other hosts) and in another directory: give them
# absolute paths.
export EPD DEPTHS OUTDIR SARGON_BIN
EPD=$(realpath "$epd")
DEPTHS=$depths
OUTDIR=$(realpath "$out")
SARGON_BIN=$(realpath "$bin")
# A report left from an earlier submission must not pass for this one's.
rm -f "$OUTDIR/report.txt" "$OUTDIR/report.json"

array=$(sbatch --parsable --array="0-$((tasks - 1))" \
    --output="$OUTDIR/slurm-%A_%a.out" "$here/diff-array.sbatch")
array=${array%%;*} # "ID;cluster" on a multi-cluster site
# afterok: the report runs once every shard has run to its end. A shard that finds a
# divergence still ends with 0 (diff-array.sbatch: it recorded what it found); a shard in
# trouble fails, and the report job is then cancelled (kill_invalid_depend) and --wait says so.
report=$(sbatch --parsable --dependency="afterok:$array" \
    --output="$OUTDIR/slurm-report-%j.out" "$here/diff-report.sbatch")
report=${report%%;*}
echo "array job: $array"
echo "report job: $report"
echo "results: $OUTDIR"

$wait || exit 0

# Wait until the report job has left the queue. squeue lists only jobs still pending or
# running; once the controller has forgotten a finished job, squeue calls its id invalid.
last=""
while true; do
    if queue=$(squeue -h -j "$array,$report" -o '%i %T' 2>&1); then
        [[ -z $queue ]] && break
    elif [[ $queue == *"Invalid job id"* ]]; then
        break
    else
        echo "submit-diff: squeue failed (retrying): $queue" >&2
    fi
    summary="$(grep -c . <<<"$queue") job(s) queued or running"
    if [[ $summary != "$last" ]]; then
        echo "waiting: $summary" >&2
        last=$summary
    fi
    sleep 2
done

# The report job's end state and exit code: from the controller while it remembers the job
# (MinJobAge), else from accounting where there is any.
state="" status=""
if info=$(scontrol -o show job "$report" 2>/dev/null) &&
    [[ $info =~ \ JobState=([A-Z_]+)\ .*\ ExitCode=([0-9]+): ]]; then
    state=${BASH_REMATCH[1]} status=${BASH_REMATCH[2]}
elif line=$(sacct -n -X -P -j "$report" -o State,ExitCode 2>/dev/null) &&
    [[ $line =~ ^([A-Z_]+)[^|]*\|([0-9]+): ]]; then
    state=${BASH_REMATCH[1]} status=${BASH_REMATCH[2]}
fi
case $state in
"" | COMPLETED | FAILED) ;; # the report ran to its end; its exit code says what it found
CANCELLED)
    echo "submit-diff: the report job was cancelled: a shard failed (see $OUTDIR/slurm-${array}_*.out); fix it and submit again (--resume keeps the searches done)" >&2
    exit 2
    ;;
*)
    echo "submit-diff: the report job ended $state; see $OUTDIR/slurm-report-$report.out" >&2
    exit 2
    ;;
esac
if [[ -f $OUTDIR/report.txt ]]; then
    cat "$OUTDIR/report.txt"
else
    echo "submit-diff: the report job wrote no $OUTDIR/report.txt; see $OUTDIR/slurm-report-$report.out" >&2
    exit 2
fi
if [[ -z $status ]]; then
    echo "submit-diff: the report job's exit code is no longer known; read the report above" >&2
    exit 2
fi
exit "$status"
