#!/bin/bash
# The calls with MPI_IN_PLACE, which libraries run by other code (Open MPI 4.1.4's in-place
# Alltoall overflows where the other does not; docs/collectives-measurements.md):
#   - the tester runs every in-place form of Table V's collectives (22: all but Bcast, blocking and
#     nonblocking) on 3 ranks, root 2, and checks every byte it received; all pass but, on MPICH
#     4.0.2, the in-place MPI_Reduce, which crashes at a root other than 0 past 2048 bytes;
#   - MPICH: `mpiguard collectives` finds that bound (Reduce_inplace s=4: 512, Class G form sn, at
#     2 and 3 ranks), and `mpiguard protect` with its file turns the crash into a pass (W1-B: W3's
#     MPI_Reduce_c, untested, is taken to fail alike). A Debian MPICH that fixes this fails here;
#   - `mpiguard collectives` tests them by name and writes schema version 3;
#   - `mpiguard protect` applies an in-place entry to the in-place calls of an all-to-all
#     collective and not to its other calls, and a rooted collective's in-place entry to all of
#     its calls (only the root passes MPI_IN_PLACE; the others must decide alike); the protected
#     calls still deliver the right bytes.
# Usage: collectives_inplace.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")
tester="$BUILD/bin/mpiguard-coll-tester-$flavor"
for c in Scatter Scatterv Gather Gatherv Allgather Allgatherv Alltoall Alltoallv Reduce Allreduce \
    Reduce_scatter; do
    for form in "$c" "I${c,}"; do
        s=1
        case $c in Reduce*|Allreduce) s=4 ;; esac
        if [ "$flavor" = mpich ] && [ "$form" = Reduce ]; then
            $launcher -n 3 "$tester" Reduce_inplace 4 1001 >"$TMP/stdout" 2>&1 &&
                fail "MPICH's in-place Reduce at root 2 passed: a fixed MPICH? (this test's header)"
            continue
        fi
        expect_status 0 "tester ${form}_inplace" -- $launcher -n 3 "$tester" "${form}_inplace" $s 1001
    done
done
if [ "$flavor" = mpich ]; then
    expect_status 0 "collectives Reduce_inplace" -- "$MPIGUARD" collectives --collectives \
        Reduce_inplace --np 2,3 --max-count 1024 -o "$TMP/r.json" -- $launcher
    python3 - "$TMP/r.json" <<'PY' || fail "Reduce_inplace bounds: $(cat "$TMP/r.json")"
import json, sys
got = {(e["np"], e["status"], e["safe_count"], e["class"], e["form"])
       for e in json.load(open(sys.argv[1]))["entries"]}
assert got == {(2, "bounded", 512, "G", "sn"), (3, "bounded", 512, "G", "sn")}, got
PY
    expect_status 0 "protected Reduce_inplace" -- "$MPIGUARD" protect --bounds "$TMP/r.json" -- \
        $launcher -n 3 "$tester" Reduce_inplace 4 1001
    expect_stderr "protect: MPI_Reduce at .*: detector G fired, workaround W1-B$"
    pass "mpich: the in-place Reduce's crash past 2048 bytes is found (G sn, 512) and protected"
fi
# Its message may be lost when the launcher ends the job on MPI_Abort; the status says it.
expect_status 2 "tester Bcast_inplace" -- $launcher -n 2 "$tester" Bcast_inplace 1 8

expect_status 0 "collectives in place" -- "$MPIGUARD" collectives --collectives \
    Alltoall_inplace,Igather_inplace --np 3 --max-count 8 -o "$TMP/b.json" -- $launcher
python3 - "$TMP/b.json" <<'PY' || fail "bounds file content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "mpiguard-bounds/3", d["schema"]
got = {(e["collective"], e["status"], e["safe_count"]) for e in d["entries"]}
assert got == {("Alltoall_inplace", "unbounded", 8), ("Igather_inplace", "unbounded", 8)}, got
PY

version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mpi"]["version"])' "$TMP/b.json")
cat >"$TMP/x.json" <<EOF
{"schema": "mpiguard-bounds/3", "mpi": {"flavor": "$flavor", "version": "$version"},
 "entries": [{"collective": "Alltoall_inplace", "type_size": 1, "np": 3, "safe_count": 100, "class": "X", "form": null, "status": "bounded"},
             {"collective": "Gather_inplace", "type_size": 1, "np": 3, "safe_count": 100, "class": "X", "form": null, "status": "bounded"}]}
EOF
fired() { grep -c "protect: $1 at .*: detector X fired" "$TMP/stderr"; }
for call in Alltoall_inplace Alltoall Gather Gather_inplace; do
    expect_status 0 "protected $call" -- "$MPIGUARD" protect --bounds "$TMP/x.json" -- $launcher -n 3 \
        "$tester" "$call" 1 1000
    want=1
    [ "$call" = Alltoall ] && want=0
    [ "$(fired "MPI_${call%_inplace}")" = "$want" ] || { cat "$TMP/stderr" >&2; fail "$call: X fired $(fired "MPI_${call%_inplace}") time(s), want $want"; }
done
pass "$flavor: the in-place forms deliver the right bytes; tested by name into a version 3 file; an in-place entry bounds the in-place Alltoall and not the other, and every Gather"
