#!/bin/bash
# W1-B past INT_MAX on a real MPI: Gather, Scatter, Allgather and Alltoall of MPI_CHAR on 2 ranks
# under an artificial bound that makes every call fire, W1-B forced. int form: 2^30 + 2^20 per
# block (P n = 2^31 + 2^21, 2 GiB per rank): each round moves a slice of every block through a
# type resized to the block, since no V-form displacement reaches the last block. With FORM c
# (MPICH), the application's own MPI-4 `_c` calls with 2^31 + 2^20 per block, a count no int
# holds (4 GiB per rank), under `--bound-calls large`. Every byte is checked on every rank
# (coll_bigstride). With WORKAROUND W2 (`_c` form only), W2 instead: each call's count past
# INT_MAX divided by a k that brings it under the bound, in one `_c` call of a k-element type,
# for Gather, Allgather and Alltoall. Not Scatter: MPICH 4.0.2's Scatter fails once s n P
# reaches 2^31 bytes (docs/collectives-measurements.md), which a bigger type does not change, and it crashes
# there. Label: slow.
# Usage: protect_bigstride.sh FLAVOR [c [W1B|W2]]
. "$(dirname "$0")/../lib.sh"
flavor=$1 c=${2:+_$2} workaround=${3:-W1B}
prog=coll_bigstride$c
app="$BUILD/tests/collectives/$flavor/$prog"
n=1074790400 opts=() colls=(Gather Scatter Allgather Alltoall)
[ -n "$c" ] && n=2148532224 opts=(--bound-calls large)
[ "$workaround" = W2 ] && colls=(Gather Allgather Alltoall)
# Alone it takes 11-16 s (int) or 60-200 s (`_c`); bounded for a loaded machine, and run again
# once if the runtime stalls.
expect_status_within 600 0 "$prog under $workaround" "$app" -- "$MPIGUARD" protect \
    --bound 1073741824 "${opts[@]}" --workaround "$workaround" -- \
    $(launcher_for "$flavor") -n 2 "$app" "${colls[@]}"
for coll in "${colls[@]}"; do
    what=$coll$c
    [ "$coll" = Allgather ] || [ "$coll" = Alltoall ] && what+=" (in place)"
    grep -qF "$prog: $what of $n elements per block: 0 wrong" "$TMP/stdout" ||
        { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "$what: wrong bytes"; }
    expect_stderr "MPI_$coll$c at .*: detector G fired, workaround ${workaround/W1B/W1-B}$"
done
pass "$flavor: $workaround delivers every byte of ${#colls[@]} ${c:+_c }collectives past INT_MAX"
