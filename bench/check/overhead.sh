#!/bin/bash
# Overhead of `mpiguard check` (docs/check-measurements-overhead.md "Jobs under check"): the four examples do a fixed amount of
# work (--iterations) with and without the checker, Open MPI at 4, 16, 32 and 64 ranks (oversubscribed
# on this machine's 2 cores), MPICH at 4 and 8.
# Plain runs, checked runs without the checksums of send buffers in flight
# (MPIGUARD_CHECK_BUFFERS=0) and checked runs with every check are interleaved, REPS rounds; each
# ratio is a median over median(plain) of wall times measured side by side in this one run.
#   bench/check/overhead.sh [BUILD] [REPS] [SCALE]     SCALE multiplies the iteration counts
# SETUPS (environment) lists MPI:RANKS pairs (default "openmpi:4 openmpi:16 openmpi:32 openmpi:64
# mpich:4 mpich:8").
set -u
build=${1:-build} reps=${2:-3} scale=${3:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
declare -A iterations=([stencil]=200 [cg]=50 [fft]=400 [master_worker]=1000)
# MPICH busy-polls when oversubscribed (docs/design/platform-notes.md): fewer iterations, same shape.
declare -A mpich_div=([stencil]=2 [cg]=2 [fft]=20 [master_worker]=3)
# 64 ranks share the 2 cores: a quarter of the work, and fft's all-to-all (P^2 messages) a sixteenth,
# keeps a 64-rank run near ten seconds at SCALE 6.
declare -A wide_div=([stencil]=4 [cg]=4 [fft]=16 [master_worker]=4)
read -r -a setups <<<"${SETUPS:-openmpi:4 openmpi:16 openmpi:32 openmpi:64 mpich:4 mpich:8}"
setups=("${setups[@]/:/ }")
examples=(stencil cg fft master_worker)
declare -A times

launcher() { [ "$1" = openmpi ] && echo mpirun.openmpi || echo mpiexec.mpich; }

run_once() { # flavor np example mode
    local flavor=$1 np=$2 example=$3 mode=$4 its=$((iterations[$3] * scale))
    [ "$flavor" = mpich ] && its=$((its / mpich_div[$example]))
    [ "$np" -ge 64 ] && its=$((its / wide_div[$example]))
    local cmd=($(launcher "$flavor") -n "$np" "$build/examples/$flavor/$example" --iterations "$its")
    [ "$mode" != plain ] && cmd=("$build/bin/mpiguard" check -q -- "${cmd[@]}")
    local buffers=1
    [ "$mode" = nobuf ] && buffers=0
    local start=$(date +%s.%N)
    MPIGUARD_CHECK_BUFFERS=$buffers "${cmd[@]}" >/dev/null 2>&1
    local status=$?
    # 80: the checker reported a potential deadlock or mismatch and the job completed.
    [ $status -eq 0 ] || [ $status -eq 80 ] || echo "warning: $flavor $np $example $mode exited $status" >&2
    echo "$(date +%s.%N) - $start" | bc
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

for setup in "${setups[@]}"; do
    set -- $setup
    for example in "${examples[@]}"; do
        for ((r = 0; r < reps; r++)); do
            for mode in plain nobuf check; do
                times["$setup|$example|$mode"]+="$(run_once "$1" "$2" "$example" "$mode") "
            done
        done
    done
done

printf '| MPI | ranks | example | plain s | check s, no buffer sums | check s | ratio without | ratio |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for setup in "${setups[@]}"; do
    set -- $setup
    for example in "${examples[@]}"; do
        p=$(echo "${times["$setup|$example|plain"]}" | median)
        n=$(echo "${times["$setup|$example|nobuf"]}" | median)
        c=$(echo "${times["$setup|$example|check"]}" | median)
        printf '| %s | %s | %s | %.2f | %.2f | %.2f | %.2fx | %.2fx |\n' "$1" "$2" "$example" "$p" \
            "$n" "$c" "$(echo "$n / $p" | bc -l)" "$(echo "$c / $p" | bc -l)"
    done
done
