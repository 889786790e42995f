#!/bin/bash
# Collectives on communicators of changing sizes, each freed before the next is made (MPI hands the
# freed handles out again): the module's per-communicator records, and the one it remembers per
# thread, must follow each new communicator. Every call fires G (--bound 20) and is served by W2
# (forced: MPICH would take W3 for Allgatherv), which plans with the communicator's size and the
# root's rank: all bytes must be right, both call sites protected, and no poisoned vector entry
# past a communicator's size ever read (it would be reported as a user error). Each call is a call
# site of its own, so the log's count of protected sites counts the protected calls.
# Usage: protect_comms.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_comms"
expect_status 0 "coll_comms $flavor" -- "$MPIGUARD" protect --bound 20 --workaround W2 -- \
    $(launcher_for "$flavor") -n 4 "$app"
grep -q "^coll_comms: 6 rounds on 4 ranks: 0 mismatching$" "$TMP/stdout" ||
    { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "wrong bytes on a communicator made after a free"; }
grep -q "user error" "$TMP/stderr" && { cat "$TMP/stderr" >&2; fail "read past a communicator's size"; }
expect_stderr "MPI_Allgatherv at .*: detector G fired, workaround W2$"
expect_stderr "MPI_Gatherv at .*: detector G fired, workaround W2$"
# Each call is a site of its own: all 12 served.
expect_stderr "12 call site(s) routed through a workaround, 0 trigger(s) left unprotected"
pass "$flavor: 12 collectives on 6 communicators of sizes 4 and 2, each freed in turn: bytes right, every call protected"
