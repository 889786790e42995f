#!/bin/bash
# W1-B past INT_MAX on a real MPI: Gather, Scatter, Allgather and Alltoall of 2^30 + 2^20 MPI_CHAR
# per block on 2 ranks (P n = 2^31 + 2^21, 2 GiB per rank) under an artificial bound that makes
# every call fire and W1-B forced: each round moves a slice of every block through a type resized
# to the block, since no V-form displacement reaches the last block. Every byte is checked on every
# rank (coll_bigstride). Label: slow.
# Usage: protect_bigstride.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_bigstride"
# Alone it takes ~20 s; bounded for a loaded machine, and run again once if the runtime stalls.
expect_status_within 400 0 "coll_bigstride under W1-B" "$app" -- "$MPIGUARD" protect \
    --bound 1073741824 --workaround W1B -- $(launcher_for "$flavor") -n 2 "$app"
for c in "Gather" "Scatter" "Allgather (in place)" "Alltoall (in place)"; do
    grep -qF "coll_bigstride: $c of 1074790400 elements per block: 0 wrong" "$TMP/stdout" ||
        { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "$c: wrong bytes"; }
    expect_stderr "MPI_${c%% *} at .*: detector G fired, workaround W1-B$"
done
pass "$flavor: W1-B's block-stride rounds deliver every byte of 4 collectives past INT_MAX"
