#!/bin/bash
# A real overflow: Gatherv of 2^31 + 2^21 MPI_CHAR elements on 4 ranks crashes unprotected (rank 2's
# displacement wrapped negative) and, under `mpiguard protect`, delivers every byte to its true
# place, with each workaround that applies (W1-A, W1-B, W2, and W3 under MPICH). auto is W2, the
# root's side alone (the counts have a common divisor); the others imply the ranks' agreement.
# ~2 GiB at the root. Label: slow.
# Usage: protect_overflow.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_bigv"
launcher=$(launcher_for "$flavor")
# Each run takes ~10 s alone and ~60 s on a loaded machine.
expect_status_within 150 nonzero "the unprotected Gatherv" "$app" -- $launcher -n 4 "$app"
grep -q " 0 wrong$" "$TMP/stdout" && fail "the unprotected Gatherv delivered the right bytes"
workarounds="auto W1A W1B W2"
[ "$flavor" = mpich ] && workarounds+=" W3"
for w in $workarounds; do
    opts=()
    [ "$w" = auto ] || opts=(--workaround "$w")
    expect_status_within 150 0 "protected Gatherv ($w)" "$app" -- "$MPIGUARD" protect "${opts[@]}" -- $launcher -n 4 "$app"
    grep -q "^coll_bigv: 2149580800 elements gathered, 0 wrong$" "$TMP/stdout" || fail "$w: wrong bytes"
    w=${w/auto/W2}
    expect_stderr "MPI_Gatherv at .*: detector D fired, workaround ${w/W1/W1-}$"
done
pass "$flavor: the overflowing Gatherv fails unprotected and is byte-correct protected ($workarounds)"
