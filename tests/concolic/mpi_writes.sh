#!/bin/bash
# Memory an MPI call writes is concrete afterwards (docs/design/concolic.md "Memory MPI writes"): for each
# call of programs/mpi_writes.c, a bounded-DFS campaign at 2 processes must find W1 (input 2 = 7,
# behind a branch on the overwritten buf[1]: with buf[1]'s stale expression the path is
# unsatisfiable) and W2 (input 1 = 9, on buf[0], which the call must leave symbolic).
#   mpi_writes.sh FLAVOR RUNS
. "$(dirname "$0")/../lib.sh"
flavor=$1 budget=$2
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o writes "$src/mpi_writes.c" || fail "build"
line() { grep -n "/\* $1 \*/" "$src/mpi_writes.c" | cut -d: -f1; }
# bug_inputs MODE TAG: the inputs of the reproducer of the abort after TAG's line.
bug_inputs() { grep -l "^key assertion:6:after .*/mpi_writes.c:$(line "$2")$" "c-$1"/bugs/*.txt 2>/dev/null | head -1 | xargs -r sed -n 's/^inputs //p'; }
for mode in recv irecv sendrecv bcast allreduce gatherv; do
    expect_status 80 "$mode campaign" -- "$MPIGUARD" concolic --mpi "$flavor" --np 2 --max-np 2 \
        --iterations "$budget" --timeout 60 --dir "c-$mode" -- ./writes "$mode"
    w1=$(bug_inputs "$mode" W1) w2=$(bug_inputs "$mode" W2)
    [ "$(echo "$w1" | cut -d' ' -f2)" = 7 ] ||
        { cat "c-$mode/campaign" >&2; fail "$mode: W1 (input 2 = 7 behind the overwritten value) not found"; }
    [ "$(echo "$w2" | cut -d' ' -f1)" = 9 ] ||
        { cat "c-$mode/campaign" >&2; fail "$mode: W2 (input 1 = 9 on the untouched value) not found"; }
done
pass "memory written by MPI calls is concrete with $flavor"
