#!/bin/bash
# What the protection module adds to one call, in ns, where nothing else can hide it: one rank
# (the collective itself then costs 4-45 ns and nothing waits for a core), coll_time's 11 rounds of
# 200 000 calls, through MPI_* under `mpiguard protect` minus straight into PMPI_*, by default (no
# bounds file) and with a bound on every collective that no call reaches (mode "bound": Detectors
# G and X checked on every call). With a second build directory, each case runs under both builds
# in turn, so that a change is measured against the code before it in the same run
# (docs/collectives-measurements.md, "Cost when no detector fires"). Prints the median of REPS repetitions per case.
# SIZE (bytes per process, default 64) and CALLS (per round, default 200 000) change the call: at
# 64 KiB the collective's own data leaves the module's in no cache, which 64 B does not show.
# ALTERNATE=1 alternates each case's calls between two communicators (coll_time's "alternate"), as
# a program working on the rows and columns of a grid does.
# Usage: [REPS=3] [FLAVORS="openmpi mpich"] [SIZE=64] [CALLS=200000] [ALTERNATE=1]
#        bench/collectives/path_cost.sh BUILD [BASE_BUILD] [COLLECTIVES]
set -u
build=${1:?usage: path_cost.sh BUILD [BASE_BUILD] [COLLECTIVES]}
base=${2:-}
colls=${3:-"Bcast Gather Gatherv Allreduce Alltoallv"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d /tmp/mg-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
builds=("$build")
[ -n "$base" ] && builds=("$base" "$build")
for ((rep = 1; rep <= ${REPS:-3}; rep++)); do
    for flavor in ${FLAVORS:-openmpi mpich}; do
        [ -x "$dir/coll_time_$flavor" ] ||
            mpicc.$flavor -O2 -o "$dir/coll_time_$flavor" "$(dirname "$0")/coll_time.c" || exit 1
        launcher=mpirun.openmpi
        [ "$flavor" = mpich ] && launcher=mpiexec.mpich
        for mode in default bound; do
            opts=()
            [ "$mode" = bound ] && opts=(--bound 1000000000000000)
            for c in $colls; do
                for b in "${builds[@]}"; do
                    line=$("$b/bin/mpiguard" protect -q "${opts[@]}" -- $launcher -n 1 \
                        "$dir/coll_time_$flavor" "$c" "${SIZE:-64}" "${CALLS:-200000}" 11 ${ALTERNATE:+alternate} 2>/dev/null | grep '^coll_time')
                    pattern='s/.*unprotected ([0-9.]+) us, through MPI_\w+ ([0-9.]+) us.*/\2 \1/p'
                    added=$(echo "$line" | sed -nE "$pattern" |
                        awk '{printf "%.1f", ($1 - $2) * 1000}')
                    echo "$flavor $mode $c $b ${added:-?}" | tee -a "$dir/lines"
                done
            done
        done
    done
done
python3 - "$dir/lines" "${builds[@]}" <<'PY'
import collections, statistics, sys
lines, builds = sys.argv[1], sys.argv[2:]
added = collections.defaultdict(list)
for line in open(lines):
    flavor, mode, coll, build, ns = line.split()
    if ns != "?":
        added[(flavor, mode, coll, build)].append(float(ns))
print("| MPI | mode | collective | " + " | ".join(f"ns added ({b})" for b in builds) + " |")
print("| --- | --- | --- | " + " | ".join("---" for _ in builds) + " |")
for key in dict.fromkeys(k[:3] for k in added):
    cells = [added.get(key + (b,), []) for b in builds]
    text = [f"{statistics.median(v):.1f} ({', '.join(f'{x:.0f}' for x in v)})" if v else "-"
            for v in cells]
    print(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(text) + " |")
PY
