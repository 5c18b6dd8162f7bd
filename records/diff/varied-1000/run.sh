#!/bin/sh
# The varied-1000 record, one shard of it: every position at depths 1-4, the first 200 at
# depth 5, the first 30 at depth 6, emulator against port, every divergence recorded.
# Each stage resumes from its results file, so rerunning the script after a stop (or a
# new session) goes on where it was. Run one shard per core:
#
#   records/diff/varied-1000/run.sh 0 2 & records/diff/varied-1000/run.sh 1 2 &
#
# and report over all the files (exit 0: every planned search ran and agreed):
#
#   sargon diff report --epd tests/positions/varied-1000.epd \
#       --depths 1-4 --depths 5:200 --depths 6:30 records/diff/varied-1000/*.jsonl
#
# SARGON (default: sargon on the PATH) is the binary; it needs the user's imported ROM.
set -eu
k=${1:?usage: run.sh SHARD SHARDS}
n=${2:?usage: run.sh SHARD SHARDS}
sargon=${SARGON:-sargon}
dir=$(dirname "$0")
epd=$dir/../../../tests/positions/varied-1000.epd

stage() { # stage NAME ARGS...: one stage of the plan, resumed from its file
    name=$1
    shift
    # Exit 1 means a divergence was recorded (the report lists it); go on with the plan.
    "$sargon" diff --epd "$epd" "$@" --shard "$k/$n" \
        --out "$dir/$name.shard-$k-of-$n.jsonl" --resume --keep-going || [ $? -eq 1 ]
}

stage depths-1-4 --depths 1-4
stage depth-5 --depth 5 --first 200
stage depth-6 --depth 6 --first 30
