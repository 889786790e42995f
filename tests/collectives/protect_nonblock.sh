#!/bin/bash
# Which protected nonblocking calls return at once (docs/design/collectives.md, "Nonblocking calls").
# coll_nonblock posts MPI_Iallgather, MPI_Igatherv (rooted at the late rank) and MPI_Ialltoallv
# while the last rank arrives 2 s late, and prints how long posting took on the others:
#   without the module (run --no-protect)    every call is posted at once;
#   the module, nothing fires                every call is posted at once (no message);
#   W2 (one call, the library's own request, each rank changing its own side alone): at once;
#   --agree, nothing fires: Igatherv and Ialltoallv wait for the late rank (the ranks' agreement on
#   the verdict is a blocking control message at call time), Iallgather does not;
#   W3 (MPICH) and W1-B, forced (both imply --agree): Igatherv and Ialltoallv wait; Iallgather is
#   posted at once under W3 and waits under W1-B (completed eagerly).
# With FORM c, coll_nonblock_c posts MPI_Iallgather_c, MPI_Igatherv_c and MPI_Ialltoallv_c
# (MPICH): with no bound of their own nothing can fire on them, so even --agree agrees on nothing
# and all three are posted at once; with `--bound 40 --bound-calls large` they behave as above (W2:
# all at once; W1-B: Iallgather_c completed eagerly, Igatherv_c and Ialltoallv_c wait for the
# agreement).
# Usage: protect_nonblock.sh FLAVOR [c]
. "$(dirname "$0")/../lib.sh"
flavor=$1 c=${2:+_$2}
app="$BUILD/tests/collectives/$flavor/coll_nonblock$c"
launcher=$(launcher_for "$flavor")
# expect CALL at|waits: every early rank posted CALL (in this run's form) in under 1 s, or after at
# least 1.5 s.
expect() {
    local times call=$1$c
    times=$(sed -n "s/^coll_nonblock: $call rank [0-9]* posted in //p" "$TMP/stdout")
    [ "$(echo "$times" | wc -w)" -eq 3 ] || { cat "$TMP/stdout" >&2; fail "$what: $call not posted by 3 ranks"; }
    grep -q "^coll_nonblock: $call correct$" "$TMP/stdout" || fail "$what: $call delivered wrong data"
    for t in $times; do
        if [ "$2" = at ]; then
            awk -v t="$t" 'BEGIN { exit !(t < 1.0) }' || fail "$what: $call took $t s to post"
        else
            awk -v t="$t" 'BEGIN { exit !(t >= 1.5) }' || fail "$what: $call posted in $t s, before the late rank came"
        fi
    done
}
what="unprotected"
expect_status 0 "$what" -- "$MPIGUARD" run --no-protect -- $launcher -n 4 "$app"
expect MPI_Iallgather at; expect MPI_Igatherv at; expect MPI_Ialltoallv at
what="no trigger"
expect_status 0 "$what" -- "$MPIGUARD" protect -- $launcher -n 4 "$app"
expect MPI_Iallgather at; expect MPI_Igatherv at; expect MPI_Ialltoallv at
what="no trigger, --agree"
expect_status 0 "$what" -- "$MPIGUARD" protect --agree -- $launcher -n 4 "$app"
if [ -n "$c" ]; then
    expect MPI_Iallgather at; expect MPI_Igatherv at; expect MPI_Ialltoallv at
else
    expect MPI_Iallgather at; expect MPI_Igatherv waits; expect MPI_Ialltoallv waits
fi
workarounds="W2 W1B"
[ "$flavor" = mpich ] && [ -z "$c" ] && workarounds="W3 $workarounds"
bound=(--bound 40)
[ -n "$c" ] && bound+=(--bound-calls large)
for w in $workarounds; do
    what="$w"
    expect_status 0 "$what" -- "$MPIGUARD" protect "${bound[@]}" --workaround "$w" -- $launcher -n 4 "$app"
    expect_stderr "3 call site(s) routed through a workaround"
    if [ "$w" = W1B ]; then expect MPI_Iallgather waits; else expect MPI_Iallgather at; fi
    if [ "$w" = W2 ]; then
        expect MPI_Igatherv at; expect MPI_Ialltoallv at
    else
        expect MPI_Igatherv waits; expect MPI_Ialltoallv waits
    fi
done
if [ -n "$c" ]; then
    pass "$flavor: _c forms: with no _c bound all three are posted at once, even with --agree; W2 keeps all three nonblocking; under W1-B Iallgather_c is completed eagerly, Igatherv_c (late root) and Ialltoallv_c wait for the agreement"
else
    pass "$flavor: nothing waits under the module or W2; with --agree (or W3, W1-B) Igatherv (late root) and Ialltoallv wait for the agreement; W1-B completes Iallgather eagerly"
fi
