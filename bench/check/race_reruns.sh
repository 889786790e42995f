#!/bin/bash
# Reruns each message-race program of the check suite N times per MPI under `mpiguard check` and
# prints, per program and MPI, in how many runs the race was reported and which rank's message MPI
# took first (docs/check-measurements-races.md, "Found in every run").
# Usage: bench/check/race_reruns.sh [build-dir] [N]
set -u
build=${1:-build} runs=${2:-10}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %-8s %s\n' program mpi "found / runs (MPI took: rank=runs)"
for source in tests/check/programs/race_*.c; do
    program=$(basename "$source" .c)
    case $program in race_ok_*) continue ;; esac
    np=$(sed -n 's/^ \* np: //p' "$source")
    for flavor in openmpi mpich; do
        launcher=mpirun.openmpi
        [ $flavor = mpich ] && launcher=mpiexec.mpich
        found=0 taken=""
        for ((i = 0; i < runs; i++)); do
            "$build/bin/mpiguard" check -q --report "$tmp/r.json" -- $launcher -n "$np" \
                "$build/tests/check/$flavor/$program" >/dev/null 2>&1
            took=$(python3 -c '
import json, sys
fs = [f for f in json.load(open(sys.argv[1]))["findings"] if f["kind"] == "message_race"]
print(fs[0]["evidence"]["blocked"][1]["rank"] if fs else "")' "$tmp/r.json" 2>/dev/null)
            [ -n "$took" ] && found=$((found + 1)) && taken="$taken $took"
        done
        counts=$(tr ' ' '\n' <<<"$taken" | sort | uniq -c | awk 'NF == 2 {printf "%s=%s ", $2, $1}')
        printf '%-24s %-8s %d / %d (%s)\n' "$program" "$flavor" "$found" "$runs" "${counts% }"
    done
done
