#!/bin/bash
# The records reaching the root detector of `mpiguard check` (the report's tool_data.records) on
# real jobs, side by side (docs/check-measurements-deadlock.md "A tree of detectors"): without
# leaves, through `--detector-leaves 2` with the leaves of a base build (BASE: a build of an earlier
# commit, e.g. one before nonblocking pairs were matched at the leaf) and with this build's.
# Programs: the check suite's nonblocking exchanges on MPI_COMM_WORLD (built in BUILD) and the
# stencil example (a Cartesian communicator: a leaf never matches it), medians of REPS runs.
#   bench/check/leaf_records.sh BUILD BASE [REPS]
# SETUPS (environment) lists MPI flavors (default "mpich openmpi"). The leaves' quiet time is
# MPIGUARD_LEAF_QUIET_MS (default here 5000): on loaded cores a 100 ms quiet flushes a leaf while
# ranks start, and its ranks go up unmatched for good whatever the leaf can match.
set -u
build=${1:?BUILD} base=${2:?BASE} reps=${3:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export MPIGUARD_LEAF_QUIET_MS=${MPIGUARD_LEAF_QUIET_MS:-5000}
read -r -a flavors <<<"${SETUPS:-mpich openmpi}"
# program:ranks; check programs' arguments are their own, the example's its iterations
programs=(ok_ring_isend_irecv:4 ok_waitsome_loop:4 recv_ring_6_nonblocking:6 stencil:4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

path() { # flavor program
    [ "$2" = stencil ] && echo "$build/examples/$1/stencil --iterations 50" ||
        echo "$build/tests/check/$1/$2"
}

launcher() { [ "$1" = openmpi ] && echo mpirun.openmpi || echo mpiexec.mpich; }

records() { # mpiguard flavor np program leaves
    local report="$work/r.json"
    rm -f "$report"
    # shellcheck disable=SC2046
    timeout 120 "$1" check -q --report "$report" $([ "$5" = 0 ] || echo --detector-leaves "$5") \
        -- "$(launcher "$2")" -n "$3" $(path "$2" "$4") >/dev/null 2>&1
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tool_data"]["records"])' \
        "$report" 2>/dev/null || echo 0
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| MPI | program | ranks | no leaves | 2 leaves, base | 2 leaves, this build | this / base | this / no leaves |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for flavor in "${flavors[@]}"; do
    for entry in "${programs[@]}"; do
        program=${entry%%:*} np=${entry##*:}
        none="" before="" after=""
        for ((round = 0; round < reps; round++)); do
            none+="$(records "$build/bin/mpiguard" "$flavor" "$np" "$program" 0) "
            before+="$(records "$base/bin/mpiguard" "$flavor" "$np" "$program" 2) "
            after+="$(records "$build/bin/mpiguard" "$flavor" "$np" "$program" 2) "
        done
        n=$(echo "$none" | median) b=$(echo "$before" | median) a=$(echo "$after" | median)
        awk -v f="$flavor" -v p="$program" -v np="$np" -v n="$n" -v b="$b" -v a="$a" 'BEGIN {
            printf "| %s | %s | %d | %d | %d | %d | %.2f | %.2f |\n", f, p, np, n, b, a,
                b ? a / b : 0, n ? a / n : 0 }'
    done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
