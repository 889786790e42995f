#!/bin/bash
# Detector D on a real MPI: wrapped displacement arrays of Gatherv, Igatherv, Scatterv, Allgatherv
# and Alltoallv (sparse multi-GiB layouts) are recovered and every byte lands at its true place,
# also where only some ranks of an Alltoallv wrapped (they change their side alone, by W2) and
# where the counts and displacements have no common divisor (the root moves its buffer, W2 k = 1,
# with and without --agree);
# negative displacements no overflow explains are reported as user errors and reach MPI unchanged.
# Usage: protect_displ.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_displ"
for pat in gatherv-wrap1 gatherv-wrap2 gatherv-nogcd igatherv-wrap2 scatterv-wrap1 allgatherv-wrap1 \
    alltoallv-wrap1 alltoallv-wrap-odd; do
    expect_status 0 "$pat" -- "$MPIGUARD" protect -- $(launcher_for "$flavor") -n 4 "$app" "$pat"
    grep -q "^coll_displ: $pat on 4 ranks: correct$" "$TMP/stdout" || fail "$pat: wrong bytes"
    expect_stderr "detector D fired, workaround W"
    # No common divisor: the root moves its receive buffer and passes displacements from there
    # (W2 with k 1), with no agreement.
    [ "$pat" = gatherv-nogcd ] && expect_stderr "MPI_Gatherv at .*: detector D fired, workaround W2$"
    # Without --agree a rank whose own vectors wrapped changes its side alone: only the odd ranks.
    if [ "$pat" = alltoallv-wrap-odd ]; then
        fired=$(sed -n 's/^mpiguard\[\([0-9]*\)\]: protect: MPI_Alltoallv at .*: detector D fired, workaround W2$/\1/p' "$TMP/stderr" | sort | tr '\n' ' ')
        [ "$fired" = "1 3 " ] || { cat "$TMP/stderr" >&2; fail "$pat: ranks that changed their side: $fired"; }
    fi
done
# Under --agree the root sends its plan; a W2 that only moved the root's buffer (k 1) leaves the
# other ranks' sides as they are.
expect_status 0 "gatherv-nogcd --agree" -- "$MPIGUARD" protect --agree --workaround W2 -- \
    $(launcher_for "$flavor") -n 4 "$app" gatherv-nogcd
grep -q "^coll_displ: gatherv-nogcd on 4 ranks: correct$" "$TMP/stdout" || fail "gatherv-nogcd --agree: wrong bytes"
expect_stderr "MPI_Gatherv at .*: detector D fired, workaround W2$"
for pat in gatherv-user-first gatherv-user-desc; do
    expect_status 0 "$pat" -- "$MPIGUARD" protect -- $(launcher_for "$flavor") -n 4 "$app" "$pat"
    grep -q "^coll_displ: $pat on 4 ranks: correct$" "$TMP/stdout" || fail "$pat: not passed unchanged"
    expect_stderr "user error in the counts/displacements at index"
    expect_stderr "passed to MPI unchanged"
    grep -q "detector D fired" "$TMP/stderr" && fail "$pat: a user error was 'recovered'"
done
pass "$flavor: 8 wrapped layouts recovered byte for byte (one with no common divisor, also agreed) (the odd ranks of an Alltoallv alone), 2 user errors passed through unchanged"
