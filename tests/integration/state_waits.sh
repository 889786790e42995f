#!/bin/bash
# What the state module publishes for the shm sampler's culprit (src/wire/rank_state.h), read by
# the rank itself after each call: a collective its kind and root, a nonblocking call its posted
# slot, a blocking call its peer and tag, and the completion calls, polling ones included, a wait
# on requests (published by the enter hook, not an observer: bench/apps/cost_bound.sh).
#   state_waits.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
TMP=$(mktemp -d /tmp/mg-state-waits.XXXXXX) token=statewaits$$
trap 'rm -rf "$TMP" /dev/shm/mpiguard-$token-*' EXIT
here=$(cd "$(dirname "$0")" && pwd)
mpicc.$flavor -O2 -I"$here/../../src/wire" -I"$BUILD/include/wire" -o "$TMP/own_state" \
    "$here/state_waits/own_state.c" || fail "cannot compile own_state.c"
got=$(LD_PRELOAD="$BUILD/lib/libmpiguard-$flavor.so" MPIGUARD_MODULES=state MPIGUARD_STATE_WAITS=1 \
    MPIGUARD_JOB_TOKEN=$token timeout 60 $(launcher_for "$flavor") -n 1 "$TMP/own_state" 2>&1)
# 3 ALL, 1 PEER, 4 REQUESTS, 2 ROOT; the ranks and tags as called
want="Barrier 3 Irecv 1:0:7 Sendrecv 1:0:8 Testany 4 Bcast 2:0 Waitall 4"
[ "$got" = "$want" ] || fail "$flavor: published '$got', not '$want'"
pass "$flavor: the state module publishes each call's wait ($want)"
