#!/bin/bash
# HPL, the program of COMPI's and the dissertation's evaluations, under `mpiguard concolic`
# against random testing (docs/concolic-measurements-real.md "HPL"). Its sources come from Debian's
# hpcc source package (hpcc 1.5.0 carries HPL 2.0 in hpl/) through the install script; hpcc is
# built unchanged by its own makefile with `CC=mpiguard-cc LINKER=mpiguard-cc` (HPL's units go
# into libhpl.a as bitcode, the program is linked from that archive) against Debian's reference
# BLAS. The inputs are marked as COMPI marked HPL's: every integer HPL_pdinfo.c reads from the
# input file (sizes, block sizes, grids, algorithm variants and their counts: the values rank 0
# reads and broadcasts) becomes an input capped at 300 (COMPI's default cap of HPL's N), the
# residual threshold a double input; the input file's values are the first run's. Five campaigns
# of the same budget run side by side (the same load): bounded DFS with input tuning (the default),
# the same with negations for uncovered arms first (`--strategy uncovered-dfs`, tuned), bounded
# DFS with COMPI's caps (--caps), random testing from the program's own inputs (`--strategy
# random-inputs`), and random testing from the first run (`random-all`, the Random of COMPI's
# Table 2.6: every value random under the caps; both random arms under --caps, COMPI's baseline);
# the table gives the arms each had covered over time, and the ratios. The per-run timeout fits
# the load: one run of the first inputs at the largest process count is timed first (the worst
# case of the campaigns' runs, which run side by side: four at once), and a run gets 3 x that x
# the variants, at least 60 s. PROGRAM hpl makes it the program COMPI tested, HPL's own driver
# (xhpl) in hpcc's: HPL alone (hpcc's other benchmarks switched off in its source), and an
# illegal input exits as xhpl's HPL_pdinfo does, where hpcc's goes on with its own defaults, a
# problem sized to the machine's memory (a run that reaches the timeout). VARIANTS (a list of the
# five names) runs some of the campaigns only; HPCC_BUILT (below) skips the build.
#   [VARIANTS=...] [HPCC_BUILT=DIR] hpl.sh BUILD_DIR [SECONDS] [FLAVOR] [SOURCE_CACHE] [PROGRAM: hpcc | hpl]
set -eu
build=$1 budget=${2:-600} flavor=${3:-mpich}
cache=${4:-${XDG_CACHE_HOME:-$HOME/.cache}/mpiguard-sources} program=${5:-hpcc}
repo=$(cd "$(dirname "$0")/../.." && pwd)
targets=
. "$(dirname "$0")/setup.sh"
t0=$SECONDS
if [ -n "${HPCC_BUILT-}" ]; then
    # HPCC_BUILT: the hpcc tree of an earlier BENCH_DIR, built by this script for the same PROGRAM
    # with a build whose runtime is this one's: its campaigns run anew without the build (ten
    # minutes at a load of 30).
    cp -r "$HPCC_BUILT" hpcc && cd hpcc && rm -rf c-* ./*.out ./*.err
else
    mkdir -p "$cache"
    "$repo/scripts/install-deps.sh" --source hpcc "$cache"
    cp -r "$cache"/hpcc-*/ hpcc && cd hpcc
    sed -i -e 's/atoi( num )/mg_hpl_int( atoi( num ) )/g' -e 's/atof( num )/mg_hpl_double( atof( num ) )/g' \
        -e '/^#include "hpl.h"/a #include <mpiguard/concolic.h>\nstatic int mg_hpl_int( int v ) { mpiguard_int_with_limit( &v, 300 ); return v; }\nstatic double mg_hpl_double( double v ) { mpiguard_double( &v ); return v; }' \
        hpl/testing/ptest/HPL_pdinfo.c
    if [ "$program" = hpl ]; then
        sed -i 's/^  params->RunLatencyBandwidth = 1;/  params->RunLatencyBandwidth = 0; params->RunHPL = 1;/' src/io.c
        sed -i 's/^     HPCC_Defaults( TEST, /     MPI_Finalize(); exit( 1 );\n&/' hpl/testing/ptest/HPL_pdinfo.c
    fi
    cp hpl/setup/Make.Linux_PII_FBLAS hpl/
    make -j2 arch=Linux_PII_FBLAS CC=mpiguard-cc LINKER=mpiguard-cc MPinc= MPlib= LAlib=-lblas \
        'CCFLAGS=$(HPL_DEFS) -O0' >make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
    # The first run's inputs: one 64 x 64 problem, block 16, a 1 x 2 grid; the rest as hpcc ships them.
    sed -e 's/^1000  /64    /' -e 's/^80   /16   /' -e 's/^2            Ps/1            Ps/' _hpccinf.txt >hpccinf.txt
fi
units=$(find hpl -name '*.o' | wc -l) build_secs=$((SECONDS - t0))
arms=$((2 * $(grep -vc '^#' hpcc.mpiguard-branches.tsv)))
variants=${VARIANTS:-tuning uncovered caps random-inputs random-all}
has() { case " $variants " in *" $1 "*) ;; *) return 1 ;; esac; }
max_np=4
t0=$SECONDS
mpiguard concolic --dir c-timing --np $max_np --iterations 1 --timeout 1800 -- ./hpcc >timing.out 2>&1 || true
run_secs=$((SECONDS - t0))
timeout=$((3 * run_secs * $(echo $variants | wc -w)))
[ "$timeout" -ge 60 ] || timeout=60
echo "$(basename "$(ls -d "$cache"/hpcc-*/)") from Debian's source package, running $program: $units units built in $build_secs s, $arms arms; one run at np $max_np took $run_secs s (load $(cut -d' ' -f1 /proc/loadavg)); $flavor, --np 2 --max-np $max_np --timeout $timeout, $budget s each, side by side"
for variant in $variants; do
    case $variant in
        tuning) mode=() ;;
        uncovered) mode=(--strategy uncovered-dfs) ;;
        caps) mode=(--caps) ;;
        *) mode=(--caps --strategy "$variant") ;;
    esac
    stamped_campaign "$variant" --np 2 --max-np $max_np --timeout $timeout --time "$budget" "${mode[@]}" -- ./hpcc &
done
wait
sleep 1 # the stamping loops end after their campaigns
marks="$((budget / 10)) $((budget / 4)) $((budget / 2)) $budget"
set -- $marks
echo "| variant | arms @${1}s | @${2}s | @${3}s | @${4}s | runs | bugs | inputs marked |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for variant in $variants; do
    runs=$(grep -vc '^#' "c-$variant/runs.tsv" || true)
    bugs=$(grep -c '^bug ' "c-$variant/campaign" || true)
    inputs=$(awk -F'\t' '!/^#/ { n = split($NF, v, " "); if (n > m) m = n } END { print m + 0 }' "c-$variant/runs.tsv")
    echo "| $variant | $(arms_at "$variant" "$marks")$runs | $bugs | $inputs |"
done
last() { arms_at "$1" "$budget" | tr -d '| '; }
for search in tuning uncovered caps; do
    for random in random-inputs random-all; do
        has "$search" && has "$random" || continue
        echo "coverage ratio at ${budget}s, $search / $random: $(echo "scale=2; $(last $search) / $(last "$random")" | bc)"
    done
done
# The arms of HPL's own units (hpl/: HPL as COMPI tested it, xhpl's code) apart from the rest of
# hpcc (its driver, PTRANS, STREAM, RandomAccess, FFT, DGEMM), which runs whatever HPL's inputs
# are, at the end of each campaign, and the ratios over HPL's units alone; PART "functions": the
# HPL functions the campaign entered (covered an arm of).
part_arms() {
    awk -F'\t' -v part="$2" 'FNR == NR { if (!/^#/) { f = $3; sub(/:[0-9]+$/, "", f)
                                while (sub(/[^\/.][^\/]*\/\.\.\//, "", f)) ;
                                hpl[$1] = f ~ /\/hpcc\/hpl\//; fn[$1] = $2 }; next }
        /^covered / { k = split($0, a, " ")
                      for (i = 3; i <= k; i++) { b = int(a[i] / 2); n += part != "functions" && hpl[b] == (part == "hpl")
                                                 if (hpl[b]) entered[fn[b]] = 1 } }
        END { if (part == "functions") { for (f in entered) n++ }; print n + 0 }' hpcc.mpiguard-branches.tsv "c-$1/campaign"
}
hpl_functions=$(awk -F'\t' '!/^#/ { f = $3; while (sub(/[^\/.][^\/]*\/\.\.\//, "", f)) ; if (f ~ /\/hpcc\/hpl\//) fn[$2] = 1 }
                            END { for (f in fn) n++; print n + 0 }' hpcc.mpiguard-branches.tsv)
hpl_total=$((2 * $(awk -F'\t' '!/^#/ { f = $3; while (sub(/[^\/.][^\/]*\/\.\.\//, "", f)) ; n += f ~ /\/hpcc\/hpl\// } END { print n + 0 }' hpcc.mpiguard-branches.tsv)))
echo "| variant | arms of HPL's units (of $hpl_total) | the rest of hpcc (of $((arms - hpl_total))) | HPL's functions entered (of $hpl_functions with branches) |"
echo "| --- | ---: | ---: | ---: |"
for variant in $variants; do
    echo "| $variant | $(part_arms "$variant" hpl) | $(part_arms "$variant" rest) | $(part_arms "$variant" functions) |"
done
for search in tuning uncovered caps; do
    for random in random-inputs random-all; do
        has "$search" && has "$random" || continue
        echo "coverage ratio of HPL's units at the end, $search / $random: $(echo "scale=2; $(part_arms $search hpl) / $(part_arms "$random" hpl)" | bc)"
    done
done
