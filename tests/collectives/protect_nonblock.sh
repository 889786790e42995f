#!/bin/bash
# Which protected nonblocking calls return at once (docs/collectives.md, "Nonblocking calls").
# coll_nonblock posts MPI_Iallgather, MPI_Igatherv (rooted at the late rank) and MPI_Ialltoallv
# while the last rank arrives 2 s late, and prints how long posting took on the others:
#   without the module (run --no-protect)    every call is posted at once;
#   W2 and W3 (one call, the library's own request): Iallgather at once;
#   W1-B (completed eagerly): Iallgather waits for the late rank;
#   Igatherv and Ialltoallv wait for the late rank under every workaround and also when nothing
#   fires: the ranks' agreement on the verdict is a blocking control message at call time.
# Usage: protect_nonblock.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_nonblock"
launcher=$(launcher_for "$flavor")
# expect CALL at|waits: every early rank posted CALL in under 1 s, or after at least 1.5 s.
expect() {
    local times
    times=$(sed -n "s/^coll_nonblock: $1 rank [0-9]* posted in //p" "$TMP/stdout")
    [ "$(echo "$times" | wc -w)" -eq 3 ] || { cat "$TMP/stdout" >&2; fail "$what: $1 not posted by 3 ranks"; }
    grep -q "^coll_nonblock: $1 correct$" "$TMP/stdout" || fail "$what: $1 delivered wrong data"
    for t in $times; do
        if [ "$2" = at ]; then
            awk -v t="$t" 'BEGIN { exit !(t < 1.0) }' || fail "$what: $1 took $t s to post"
        else
            awk -v t="$t" 'BEGIN { exit !(t >= 1.5) }' || fail "$what: $1 posted in $t s, before the late rank came"
        fi
    done
}
what="unprotected"
expect_status 0 "$what" -- "$MPIGUARD" run --no-protect -- $launcher -n 4 "$app"
expect MPI_Iallgather at; expect MPI_Igatherv at; expect MPI_Ialltoallv at
what="no trigger"
expect_status 0 "$what" -- "$MPIGUARD" protect -- $launcher -n 4 "$app"
expect MPI_Iallgather at; expect MPI_Igatherv waits; expect MPI_Ialltoallv waits
workarounds="W2 W1B"
[ "$flavor" = mpich ] && workarounds="W3 $workarounds"
for w in $workarounds; do
    what="$w"
    expect_status 0 "$what" -- "$MPIGUARD" protect --bound 40 --workaround "$w" -- $launcher -n 4 "$app"
    expect_stderr "3 call site(s) routed through a workaround"
    if [ "$w" = W1B ]; then expect MPI_Iallgather waits; else expect MPI_Iallgather at; fi
    expect MPI_Igatherv waits; expect MPI_Ialltoallv waits
done
pass "$flavor: W2/W3 keep Iallgather nonblocking, W1-B completes it eagerly; Igatherv (late root) and Ialltoallv wait for the agreement"
