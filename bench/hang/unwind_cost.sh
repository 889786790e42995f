#!/bin/bash
# The ptrace sampler's registers-and-unwind time per sample (sampler_ptrace_result.unwind_ns, held while
# the rank is stopped), this build beside BASE, the build of an earlier commit (issue 29: the
# signal trampoline told by its code costs a read of each frame's code): unwind_cost.c linked to
# each build's mg_sampler, ROUNDS interleaved rounds of SAMPLES samples of a child DEPTH calls
# deep, spinning in its own code and in a signal handler taken there; medians of the rounds'
# medians, in µs, the ratio this/base, the frames unwound, and the load average.
#   bench/hang/unwind_cost.sh BASE [BUILD] [ROUNDS] [SAMPLES] [DEPTH]
set -u
base=${1:?BASE build tree} build=${2:-build} rounds=${3:-5} samples=${4:-1000} depth=${5:-16}
work=$(mktemp -d /tmp/mg-unwind-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
for tree in "$build" "$base"; do
    name=$([ "$tree" = "$build" ] && echo this || echo base)
    cc -O2 -D_GNU_SOURCE -std=c17 -I "$tree/include/sampler" -I "$tree/include/base" \
        "$(dirname "$0")/unwind_cost.c" -o "$work/$name" "$tree/lib/static/libmg_sampler.a" \
        "$tree/lib/static/libmg_wire.a" "$tree/lib/static/libmg_base.a" -lm -lrt -ldw -lelf || exit 1
done
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for ((r = 0; r < rounds; r++)); do
    for handler in 0 1; do
        for name in this base; do
            "$work/$name" "$samples" "$depth" "$handler" >>"$work/$name.$handler" || exit 1
        done
    done
done
printf '%-22s %10s %10s %7s %7s\n' stack "this µs" "base µs" ratio frames
for handler in 0 1; do
    this=$(cut -d' ' -f1 "$work/this.$handler" | median) base_ns=$(cut -d' ' -f1 "$work/base.$handler" | median)
    printf '%-22s %10.1f %10.1f %7.2f %7s\n' "$([ $handler = 1 ] && echo "in a signal handler" || echo "in its own code")" \
        "$(echo "$this / 1000" | bc -l)" "$(echo "$base_ns / 1000" | bc -l)" "$(echo "$this / $base_ns" | bc -l)" \
        "$(cut -d' ' -f2 "$work/this.$handler" | head -1)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
